"""Shared test helpers: where ../shared is, and a cursor marker for documents."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture
def shared() -> Path:
    """The shared material beside the checkout; tests that need it skip without it."""
    if not (SHARED / "conformance" / "expected.json").exists():
        pytest.skip("../shared is not available")
    return SHARED
