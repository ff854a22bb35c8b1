"""The linter and the type checker pass, as configured in pyproject.toml (issue 28).

``ruff check`` (pyflakes, pycodestyle, bugbear) and ``ruff format --check`` over the package, the
tests, the scripts and the benchmarks, and ``mypy`` over the package: what scripts/test.sh and .pre-commit-config.yaml run,
here so that a plain pytest run says it too. Skip when the tools are not installed (they are in
the test extras).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tool(name: str) -> str | None:
    beside = Path(sys.executable).with_name(name)
    return str(beside) if beside.exists() else shutil.which(name)


@pytest.mark.skipif(_tool("ruff") is None, reason="ruff is not installed (pip install -e .[test])")
def test_ruff_check_passes():
    r = subprocess.run(
        [_tool("ruff"), "check", "--no-cache", "server", "tests", "scripts", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.skipif(_tool("ruff") is None, reason="ruff is not installed (pip install -e .[test])")
def test_the_tree_is_formatted():
    """One layout everywhere, so that a diff shows what changed (ruff's version is pinned in the test
    extras: another version may fold lines differently)."""
    r = subprocess.run(
        [_tool("ruff"), "format", "--check", "--no-cache", "server", "tests", "scripts", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, "run `ruff format server tests scripts benchmarks`:\n" + r.stdout + r.stderr


@pytest.mark.skipif(_tool("mypy") is None, reason="mypy is not installed (pip install -e .[test])")
def test_mypy_passes():
    r = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr


def test_every_type_ignore_names_its_error_code():
    """No module is exempt from mypy (pyproject.toml has no ignore_errors list): what mypy cannot follow is
    silenced line by line, and only for the error named, so that a new error on that line still shows."""
    bare = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in sorted((ROOT / "server" / "sdformat_lsp").rglob("*.py"))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if "# type: ignore" in line and "# type: ignore[" not in line
    ]
    assert bare == []
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "ignore_errors" not in config
