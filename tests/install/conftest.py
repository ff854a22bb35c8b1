"""tests/install: installing as users do. They need the package index and minutes, so they run
only with SDFORMAT_LSP_INSTALL_TESTS=1 (`bash scripts/test.sh --install-tests`; .ci/run sets it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(config, items):
    if os.environ.get("SDFORMAT_LSP_INSTALL_TESTS") == "1":
        return
    skip = pytest.mark.skip(
        reason="install tests: set SDFORMAT_LSP_INSTALL_TESTS=1 (or bash scripts/test.sh --install-tests)"
    )
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(skip)
