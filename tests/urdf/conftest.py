"""The libsdformat oracle for the URDF tests: built once per session from ../shared/oracle, or $SDF_ORACLE."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # random_trees, oracle_frames


@pytest.fixture(scope="session")
def urdf_oracle(tmp_path_factory) -> str:
    given = os.environ.get("SDF_ORACLE")
    if given and Path(given).exists():
        return given
    src = ROOT.parent / "shared" / "oracle"
    if not (src / "build.sh").exists():
        pytest.skip("../shared/oracle is not available")
    if shutil.which("pkg-config") is None or subprocess.run(["pkg-config", "--exists", "sdformat12"], capture_output=True).returncode != 0:
        pytest.skip("libsdformat12 development files are not installed")
    dest = tmp_path_factory.mktemp("urdf_oracle")
    shutil.copytree(src, dest / "oracle", dirs_exist_ok=True)
    r = subprocess.run(["bash", "build.sh"], cwd=dest / "oracle", capture_output=True, text=True, timeout=600)
    binary = dest / "oracle" / "bin" / "sdf_oracle"
    if r.returncode != 0 or not binary.exists():
        pytest.fail(f"the oracle did not build: {r.stderr[-2000:]}")
    return str(binary)
