"""Poses of random documents against libsdformat 12 (skips without the oracle).

The oracle is ``../shared/oracle``, built once per run (the ``oracle``
fixture of ``tests/conftest.py``).
"""

import importlib.util
import sys
from pathlib import Path

import pytest

from .random_docs import random_model

ROOT = Path(__file__).resolve().parents[2]


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
