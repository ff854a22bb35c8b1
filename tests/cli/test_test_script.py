"""`bash scripts/test.sh --help` prints the script's own usage and does nothing else (issue 24: it
used to make a virtual environment, print pytest's help and build the VS Code extension)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from .util import ROOT


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not found")
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_the_test_script_prints_its_usage(flag):
    r = subprocess.run(["bash", str(ROOT / "scripts" / "test.sh"), flag], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage: bash scripts/test.sh")
    assert "--system-packages" in r.stdout and "PYTEST_ARGS" in r.stdout
    assert r.stderr == "" and "positional arguments" not in r.stdout  # not pytest's help, nothing built
