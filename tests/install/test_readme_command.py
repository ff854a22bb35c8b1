"""The README's first command, literally, in a fresh copy of the checkout with the system's Python."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from .helpers import ROOT, clean_env, fresh_copy


def readme_commands() -> list[str]:
    """The two commands of the README's "Two commands" section, as written there."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(blocks) == 2 and all(b.count("\n") == 1 for b in blocks), blocks
    return [b.strip() for b in blocks]


def system_python_dir() -> str:
    """The directory of the operating system's own python3 (Debian's /usr/bin), else skip."""
    for directory in ("/usr/bin", "/usr/local/bin", "/bin"):
        if Path(directory, "python3").exists():
            return directory
    pytest.skip("no system python3 in /usr/bin")


def test_first_command_works_in_a_fresh_copy_with_the_system_python(tmp_path):
    bindir = system_python_dir()
    copy = fresh_copy(tmp_path / "sdformat-lsp")
    path = f"{bindir}:/usr/bin:/bin"  # no pyenv shims, no virtual environment: a user's plain shell
    command = readme_commands()[0]
    run = subprocess.run(
        ["bash", "-c", command], cwd=copy, env=clean_env(path), capture_output=True, text=True, timeout=900
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    # The broken arm's problems, then the working arm's resolved frames.
    assert "examples/broken_arm.sdf:7:26: error[POSE_RELATIVE_TO_INVALID]" in run.stdout
    assert re.search(r"1 file\S* checked: 0 error", run.stderr.rstrip().splitlines()[-1]), run.stderr[-500:]
    assert "attached to forearm" in run.stdout
    # The environment was made by the system's interpreter, not by the one running this test.
    cfg = (copy / ".venv" / "pyvenv.cfg").read_text()
    assert re.search(rf"^home = {re.escape(bindir)}$", cfg, re.M), cfg
