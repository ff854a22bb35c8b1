"""The URDF tests' helpers (random_trees, oracle_frames) on the path; the oracle is the session one of tests/conftest.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # random_trees, oracle_frames


@pytest.fixture(scope="session")
def urdf_oracle(oracle: str) -> str:
    """libsdformat 12, built once per run for every test that needs it (skips without it)."""
    return oracle


@pytest.fixture(scope="session")
def sdf_printer(tmp_path_factory) -> str:
    """``sdf_print`` (``sdf_print.cc`` here) built on libsdformat 12: the SDFormat libsdformat makes of a URDF.

    ``$SDF_PRINT`` names a built one; skips without libsdformat's development files.
    """
    given = os.environ.get("SDF_PRINT")
    if given and Path(given).exists():
        return given
    pkg = "sdformat12"
    if (
        shutil.which("pkg-config") is None
        or subprocess.run(["pkg-config", "--exists", pkg], capture_output=True).returncode != 0
    ):
        pytest.skip("libsdformat12 development files are not installed")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", pkg], capture_output=True, text=True).stdout.split()
    out = tmp_path_factory.mktemp("sdf_print") / "sdf_print"
    src = Path(__file__).resolve().parent / "sdf_print.cc"
    r = subprocess.run(
        ["g++", "-std=c++17", "-O0", str(src), "-o", str(out), *flags], capture_output=True, text=True, timeout=600
    )
    if r.returncode != 0:
        pytest.fail(f"sdf_print did not build: {r.stderr[-2000:]}")
    return str(out)
