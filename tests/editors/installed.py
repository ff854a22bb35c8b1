"""What the editor recipe tests run: the editor, found on PATH, and the ``sdformat-lsp`` command installed beside
the test's interpreter (the recipes name the command, not a module); a test skips without either."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest


def server_command() -> Path:
    """The installed ``sdformat-lsp`` command, or a skip."""
    exe = Path(sys.executable).with_name("sdformat-lsp")
    if not exe.exists():
        pytest.skip("sdformat-lsp is not installed beside this interpreter")
    return exe


def editor(name: str) -> str:
    """The editor program ``name`` on PATH, or a skip."""
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} not installed")
    return found
