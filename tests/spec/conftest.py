"""Shared fixtures for the schema tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO / ".." / "shared"
SPEC_DIR = SHARED / "sdformat-spec"

# Let the tests run from a checkout without installing the package.
if str(REPO / "server") not in sys.path:
    sys.path.insert(0, str(REPO / "server"))


@pytest.fixture(scope="session")
def spec_dir() -> Path:
    if not SPEC_DIR.is_dir():
        pytest.skip("../shared/sdformat-spec is not available")
    return SPEC_DIR.resolve()
