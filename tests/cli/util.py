"""Running `sdformat-lsp check` in-process (fast) or as a process (stdin, exit codes, workers)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sdformat_lsp.cli import main

ROOT = Path(__file__).resolve().parents[2]

VALID = '<?xml version="1.0"?>\n<sdf version="1.8">\n  <model name="m">\n    <link name="l"/>\n  </model>\n</sdf>\n'
BROKEN = '<sdf version="1.8">\n  <model name="m">\n    <link name="l"/>\n    <frame name="f" attached_to="nope"/>\n  </model>\n</sdf>\n'
# a warning whatever the checks become: a suppression with nothing to suppress
WARNS = '<sdf version="1.8">\n  <!-- sdformat-lsp: disable MODEL_WITHOUT_LINK -->\n  <model name="m">\n    <link name="l"/>\n  </model>\n</sdf>\n'


def check(capsys, *args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    """Run in this process; returns (exit code, stdout, stderr)."""
    old = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        try:
            code = main(["check", *args])
        except SystemExit as exc:  # argparse usage errors
            code = exc.code
    finally:
        os.chdir(old)
    out, err = capsys.readouterr()
    return code, out, err


def run(
    *args: str, cwd: Path | None = None, stdin: str | bytes | None = None, env: dict | None = None
) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(ROOT / "server"), e.get("PYTHONPATH", "")])
    e.update(env or {})
    data = stdin.encode() if isinstance(stdin, str) else stdin
    r = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "check", *args],
        input=data,
        capture_output=True,
        cwd=cwd or ROOT,
        env=e,
        timeout=120,
    )
    r.stdout = r.stdout.decode("utf-8", "replace")
    r.stderr = r.stderr.decode("utf-8", "replace")
    return r
