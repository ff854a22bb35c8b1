"""Helpers for tests/install: a fresh copy of the checkout, a user's plain environment."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fresh_copy(dest: Path) -> Path:
    """The checkout as a fresh clone of it would be: the files git tracks (and new ones it does not
    ignore), as they are in the working tree, so uncommitted work is tested too."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def clean_env(path: str) -> dict[str, str]:
    """The environment a user's shell would give: none of this test run's Python settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PYENV", "CONDA"))}
    env["PATH"] = path
    return env
