"""Shared test helpers: where ../shared is, and a cursor marker for documents."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

try:  # the fuzzer's long profile, for `pytest tests/fuzz --hypothesis-profile=long` (registered before the plugin loads it)
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "long",
        max_examples=300,
        stateful_step_count=80,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
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


@pytest.fixture(scope="session")
def oracle(tmp_path_factory) -> str:
    """libsdformat 12 (``../shared/oracle``), built once per run into a temporary folder, or ``$SDF_ORACLE``.

    Skips when the sources or libsdformat's development files are missing
    (``scripts/test.sh`` installs them on Debian).
    """
    given = os.environ.get("SDF_ORACLE")
    if given and Path(given).exists():
        return given
    src = SHARED / "oracle"
    if not (src / "build.sh").exists():
        pytest.skip("../shared/oracle is not available")
    if (
        shutil.which("pkg-config") is None
        or subprocess.run(["pkg-config", "--exists", "sdformat12"], capture_output=True).returncode != 0
    ):
        pytest.skip("libsdformat12 development files are not installed")
    dest = tmp_path_factory.mktemp("oracle")
    shutil.copytree(src, dest / "oracle", dirs_exist_ok=True)
    r = subprocess.run(["bash", "build.sh"], cwd=dest / "oracle", capture_output=True, text=True, timeout=600)
    binary = dest / "oracle" / "bin" / "sdf_oracle"
    if r.returncode != 0 or not binary.exists():
        pytest.fail(f"the oracle did not build: {r.stderr[-2000:]}")
    return str(binary)
