"""The URDF tests' helpers (random_trees, oracle_frames) on the path; the oracle is the session one of tests/conftest.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # random_trees, oracle_frames


@pytest.fixture(scope="session")
def urdf_oracle(oracle: str) -> str:
    """libsdformat 12, built once per run for every test that needs it (skips without it)."""
    return oracle
