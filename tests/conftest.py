"""Shared test helpers: where ../shared is, and a cursor marker for documents."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

try:  # the fuzzer's long profile, for `pytest tests/fuzz --hypothesis-profile=long` (registered before the plugin loads it)
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "long", max_examples=300, stateful_step_count=80, deadline=None, suppress_health_check=list(HealthCheck), database=None
    )
except ImportError:  # pragma: no cover - hypothesis is a test extra
    pass
SHARED = ROOT.parent / "shared"


@pytest.fixture
def shared() -> Path:
    """The shared material beside the checkout; tests that need it skip without it."""
    if not (SHARED / "conformance" / "expected.json").exists():
        pytest.skip("../shared is not available")
    return SHARED
