"""Shared by the tests that pin a generator's output (``scripts/generate_*.py``): the script
loaded as a module, and the comparison of what it makes with what is committed.

A generated table that differs from what its generator makes today is a stale table (or a
generator changed without regenerating): the failure names the files and the command."""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as a module (the scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def assert_pinned(built: Mapping[str, str | bytes], committed: Mapping[str, str | bytes], script: str) -> None:
    """The files ``script`` makes (name -> content) are exactly the committed ones."""
    assert sorted(committed) == sorted(built), f"regenerate with scripts/{script}.py: the set of files differs"
    stale = sorted(name for name in built if committed[name] != built[name])
    assert not stale, f"regenerate with scripts/{script}.py: {stale}"
