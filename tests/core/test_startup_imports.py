"""`check` on a small file loads only what it uses (start-up is most of such a run).

Each module listed costs milliseconds to import and is needed only elsewhere:
networkx by features that walk the frame graphs, pygls and lsprotocol by the
server, the converter by `convert`, the include machinery by documents that
mention an include, difflib by a name that needs a suggestion.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NOT_FOR_CHECK = (
    "networkx",
    "pygls",
    "lsprotocol",
    "sdformat_lsp.server",
    "sdformat_lsp.features",
    "sdformat_lsp.convert",
    "sdformat_lsp.semantics.includes",
    "difflib",
    "subprocess",  # only to ask git what it ignores in a directory
    "tomllib",  # only when a configuration file is found
    "sdformat_lsp.formatting",  # only by `format`
    "sdformat_lsp.semantics.resources",  # only by includes and a model.config's check
    # the other subcommands: only the parser of the subcommand typed is built
    "sdformat_lsp.cli.convert",
    "sdformat_lsp.cli.format",
    "sdformat_lsp.cli.graph",
    "sdformat_lsp.cli.inertial_stats",
    "sdformat_lsp.cli.print",
    "sdformat_lsp.cli.serve",
)

PROBE = """
import json, sys
from sdformat_lsp.cli import main
code = main(["check", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def test_check_of_a_small_valid_file_imports_nothing_it_does_not_use(tmp_path):
    f = tmp_path / "m.sdf"
    f.write_text('<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="m">\n    <link name="l"/>\n  </model>\n</sdf>\n')
    r = subprocess.run([sys.executable, "-c", PROBE, str(f)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.splitlines()[-1])
    assert out["code"] == 0
    loaded = [m for m in out["modules"] if any(m == p or m.startswith(p + ".") for p in NOT_FOR_CHECK)]
    assert loaded == []


def test_a_document_with_an_include_still_loads_the_include_machinery(tmp_path):
    f = tmp_path / "w.sdf"
    f.write_text('<sdf version="1.9"><world name="w"><include><uri>model://nowhere</uri></include></world></sdf>')
    r = subprocess.run([sys.executable, "-c", PROBE, str(f)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    out = json.loads(r.stdout.splitlines()[-1])
    assert "sdformat_lsp.semantics.includes" in out["modules"]
    assert out["code"] == 1  # the include cannot be found: an error, as before
