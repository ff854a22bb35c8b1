"""The program's start (``sdformat_lsp.program``): the command line is imported with the cyclic
collector paused and what the import made is frozen, in the program only.

Each case runs a fresh interpreter, so that the command line's modules are really imported.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Counts the collections that run while program.load() imports the command line, then prints
# that count, whether the collector is on afterwards, and whether what the import made is frozen.
PROBE = """
import gc, sys
runs = []
gc.callbacks.append(lambda phase, info: phase == "start" and runs.append(info["generation"]))
{before}
from sdformat_lsp import program
before = len(runs)
entry = program.load()
import sdformat_lsp.cli as cli
print(len(runs) - before, gc.isenabled(), gc.get_freeze_count() > 0, entry is cli.entry, "sdformat_lsp.semantics" in sys.modules)
"""


def _probe(before: str = "") -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(before=before)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_command_line_is_imported_without_a_collection_and_frozen():
    # without the pause, importing the command line runs the collector about 20 times
    runs, enabled, frozen, same, imported = _probe()
    assert imported == "True"  # the analysis modules came with the command line
    assert runs == "0"
    assert enabled == "True"  # on again, as it was
    assert frozen == "True"
    assert same == "True"


def test_a_collector_turned_off_before_stays_off():
    runs, enabled, frozen, same, imported = _probe("gc.disable()")
    assert enabled == "False"


def test_python_dash_m_runs_the_program(tmp_path):
    doc = tmp_path / "a.sdf"
    doc.write_text(
        '<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="m">\n    <link name="l"/>\n  </model>\n</sdf>\n'
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
    done = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "check", str(doc)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "1 file checked: 0 errors" in done.stdout + done.stderr
