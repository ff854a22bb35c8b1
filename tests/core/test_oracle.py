"""Poses of random documents against libsdformat 12 (skips without the oracle).

The oracle is ``../shared/oracle``; it is built into a temporary folder when
libsdformat's development files are installed (``scripts/test.sh`` installs
them on Debian), or taken from ``$SDF_ORACLE``.
"""

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .random_docs import random_model

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    given = os.environ.get("SDF_ORACLE")
    if given and Path(given).exists():
        return given
    src = ROOT.parent / "shared" / "oracle"
    if not (src / "build.sh").exists():
        pytest.skip("../shared/oracle is not available")
    if subprocess.run(["pkg-config", "--exists", "sdformat12"], capture_output=True).returncode != 0:
        pytest.skip("libsdformat12 development files are not installed")
    dest = tmp_path_factory.mktemp("oracle")
    shutil.copytree(src, dest / "oracle", dirs_exist_ok=True)
    r = subprocess.run(["bash", "build.sh"], cwd=dest / "oracle", capture_output=True, text=True, timeout=600)
    binary = dest / "oracle" / "bin" / "sdf_oracle"
    if r.returncode != 0 or not binary.exists():
        pytest.fail(f"the oracle did not build: {r.stderr[-2000:]}")
    return str(binary)


def compare_module():
    spec = importlib.util.spec_from_file_location("sdformat_oracle_compare", ROOT / "scripts" / "oracle_compare.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["sdformat_oracle_compare"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_examples_agree_with_libsdformat(oracle):
    mod = compare_module()
    problems = [p for f in sorted((ROOT / "examples").glob("*.sdf")) for p in mod.compare(str(f), oracle)]
    assert not problems, problems


@pytest.mark.parametrize("version", [(1, 8), (1, 9)])
def test_random_models_agree_with_libsdformat(oracle, tmp_path, version):
    mod = compare_module()
    problems = []
    for seed in range(40):
        f = tmp_path / f"random_{seed}.sdf"
        f.write_text(random_model(seed, version))
        problems += mod.compare(str(f), oracle)
    assert not problems, problems[:10]
