"""`check` on a small file loads only what it uses (start-up is most of such a run).

Each module listed costs milliseconds to import and is needed only elsewhere:
networkx by features that walk the frame graphs, pygls and lsprotocol by the
server, the converter by `convert`, the include machinery by documents that
mention an include, difflib by a name that needs a suggestion.
"""

import json
import os
import site
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
    # the include machinery (the package itself holds includes/model_config.py, which a check imports)
    "sdformat_lsp.semantics.includes.resolver",
    "sdformat_lsp.semantics.includes.cache",
    "sdformat_lsp.semantics.includes.placement",
    "sdformat_lsp.semantics.includes.summary",
    "sdformat_lsp.semantics.includes.params",
    "difflib",
    "subprocess",  # only to ask git what it ignores in a directory
    "tomllib",  # only when a configuration file is found
    "shutil",  # with bz2 and lzma: argparse's formatters find the terminal's width without it (cli.HelpFormatter)
    "sdformat_lsp.formatting",  # only by `format`
    "sdformat_lsp.semantics.includes.resources",  # only by includes and a model.config's check
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
    f.write_text(
        '<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="m">\n    <link name="l"/>\n  </model>\n</sdf>\n'
    )
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
    assert "sdformat_lsp.semantics.includes.resolver" in out["modules"]
    assert out["code"] == 1  # the include cannot be found: an error, as before


def test_an_included_sdformat_model_does_not_look_up_the_model_parsers(tmp_path):
    """libsdformat reads .sdf and .world itself: no registered parser is asked for them, so the
    entry points (importlib.metadata, every distribution's metadata) are not read either."""
    m = tmp_path / "m"
    m.mkdir()
    (m / "model.config").write_text('<model><name>m</name><sdf version="1.9">model.sdf</sdf></model>')
    (m / "model.sdf").write_text('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>')
    f = tmp_path / "w.sdf"
    f.write_text('<sdf version="1.9"><world name="w"><include><uri>model://m</uri></include></world></sdf>')
    env = {**os.environ, "SDF_PATH": str(tmp_path)}
    r = subprocess.run(
        [sys.executable, "-c", PROBE, str(f)], capture_output=True, text=True, cwd=ROOT, timeout=60, env=env
    )
    out = json.loads(r.stdout.splitlines()[-1])
    assert out["code"] == 0, r.stdout
    assert "sdformat_lsp.semantics.includes.resolver" in out["modules"]
    assert "importlib.metadata" not in out["modules"]


# What the interpreter loaded before our code ran (site, .pth files) is not counted.
PROBE_NEW = """
import json, sys
before = set(sys.modules)
from sdformat_lsp.cli import main
code = main(["check", "--format", "text", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(set(sys.modules) - before)}))
"""

# Standard modules a check of one file does not need (milliseconds together where site did not
# load them already): the schema tables are read with os, not importlib.resources; the SARIF
# writer (pathlib, urllib) only for sarif. (shutil: argparse imports it to format help.)
STDLIB_NOT_FOR_CHECK = (
    "importlib.resources",
    "pathlib",
    "zipfile",
    "tempfile",
    "urllib",
    "sdformat_lsp.cli.output_sarif",
    "sdformat_lsp.cli.output_json",
    "sdformat_lsp.cli.output_github",
)


def test_check_of_a_small_file_does_not_import_what_the_standard_library_offers_for_other_runs(tmp_path):
    f = tmp_path / "m.sdf"
    f.write_text(
        '<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="m">\n    <link name="l"/>\n  </model>\n</sdf>\n'
    )
    # -S: without site and its .pth files, which may import some of these themselves
    path = os.pathsep.join([str(ROOT / "server"), *site.getsitepackages(), site.getusersitepackages()])
    env = dict(os.environ, PYTHONPATH=path)
    r = subprocess.run(
        [sys.executable, "-S", "-c", PROBE_NEW, str(f)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.splitlines()[-1])
    assert out["code"] == 0
    assert "sdformat_lsp.cli.output_text" in out["modules"]  # the probe sees what check imports
    loaded = [m for m in out["modules"] if any(m == p or m.startswith(p + ".") for p in STDLIB_NOT_FOR_CHECK)]
    assert loaded == []
