"""Neovim end to end: editors/neovim/sdformat.lua in a headless Neovim against the real server.

Neovim is started as a user would try the config (`nvim --clean -u editors/neovim/sdformat.lua`),
with the server command pointed at this interpreter (`python -m sdformat_lsp`); the hand-written
recipes of docs/editors/neovim.md run the same way, verbatim, on the versions they are for. A Lua driver
(nvim_driver.lua) opens copies of the examples, polls with bounded waits and writes what it saw
as JSON; the assertions are here. Every Neovim found runs the same checks: `nvim` on PATH, plus
any binaries listed in $SDFORMAT_LSP_TEST_NVIM (os.pathsep separated). Skipped without Neovim.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
INIT = REPO / "editors" / "neovim" / "sdformat.lua"
DRIVER = Path(__file__).with_name("nvim_driver.lua")
DOC = REPO / "docs" / "editors" / "neovim.md"
WAIT_MS = 20_000  # every wait inside Neovim
PROCESS_TIMEOUT = 150  # the whole Neovim run; the driver's waits add up to well under this


REPO_MODEL = """<?xml version="1.0"?>
<sdf version="1.5">
  <model name="{name}">
    <link name="body">
      <enable_wind>false</enable_wind>
    </link>
  </model>
</sdf>
"""


def _candidates() -> list[str]:
    found: list[str] = []
    on_path = shutil.which("nvim")
    if on_path:
        found.append(on_path)
    for extra in os.environ.get("SDFORMAT_LSP_TEST_NVIM", "").split(os.pathsep):
        if extra and extra not in found:
            found.append(extra)
    return found


def _version(nvim: str) -> tuple[int, ...] | None:
    try:
        out = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"NVIM v(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(x) for x in m.groups()) if m else None


def _expected_api(version: tuple[int, ...]) -> str:
    """What editors/neovim/sdformat.lua picks by itself on this version."""
    return "config" if version >= (0, 11) else "start" if version >= (0, 8) else "start_client"


def _recipes() -> list[tuple[str, tuple[int, int], tuple[int, int] | None, str]]:
    """The Lua blocks of docs/editors/neovim.md marked `<!-- nvim-test: min=X [max=Y] -->`."""
    out = []
    for m in re.finditer(r"<!-- nvim-test: (.*?) -->\s*```lua\n(.*?)```", DOC.read_text(), re.S):
        attrs = dict(kv.split("=", 1) for kv in m.group(1).split())
        low = tuple(int(x) for x in attrs["min"].split("."))
        high = tuple(int(x) for x in attrs["max"].split(".")) if "max" in attrs else None
        out.append((attrs["min"], low, high, m.group(2)))
    return out


def _params():
    params = []
    for nvim in _candidates():
        version = _version(nvim)
        if not version:
            continue
        v = ".".join(map(str, version))
        api = _expected_api(version)
        params.append(pytest.param((nvim, "module", "auto", api), id=f"nvim-{v}-{api}"))
        if api == "config":
            # The 0.8-0.10 path (vim.lsp.start) still works on 0.11+: cover it too.
            params.append(pytest.param((nvim, "module", "start", "start"), id=f"nvim-{v}-start"))
        for name, low, high, code in _recipes():
            if version[:2] >= low and (high is None or version[:2] <= high) and os.name != "nt":
                params.append(pytest.param((nvim, "recipe", code, None), id=f"nvim-{v}-doc-{name}"))
    return params or [pytest.param((None, None, None, None), id="no-nvim")]


def _position(text: str, anchor: str, needle: str) -> tuple[int, int]:
    """0-based line and column of `needle` on the first line containing `anchor`."""
    for row, line in enumerate(text.splitlines()):
        if anchor in line:
            return row, line.index(needle)
    raise AssertionError(f"{anchor!r} not in the example")


@pytest.fixture(scope="module", params=_params())
def run(request, tmp_path_factory) -> dict:
    """One headless Neovim session: the driver's results (plus `_debug` text for failure messages)."""
    nvim, kind, what, expected_api = request.param
    if nvim is None:
        pytest.skip("Neovim (nvim) is not installed")
    tmp = tmp_path_factory.mktemp("nvim")
    work = tmp / "project"
    work.mkdir()
    for name in ("arm.sdf", "broken_arm.sdf"):
        shutil.copy(EXAMPLES / name, work / name)
    # A repository as users have them: a .git at the top and model directories with a model.config
    # each; one server serves them all. The 1.5 file has an information (an element newer than 1.5).
    (work / ".git").mkdir()
    repo_files = []
    for model in ("a", "b"):
        d = work / "models" / model
        d.mkdir(parents=True)
        (d / "model.config").write_text(f"<?xml version='1.0'?>\n<model><name>{model}</name><sdf version='1.5'>model.sdf</sdf></model>\n")
        (d / "model.sdf").write_text(REPO_MODEL.format(name=model))
        repo_files.append(str(d / "model.sdf"))
    out = tmp / "results.json"

    env = dict(os.environ)
    # The server runs from this checkout whether or not the package is installed.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO / "server"), env.get("PYTHONPATH")) if p)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[var] = str(tmp / var.lower())  # Neovim's logs and state stay in tmp
    env["NVIM_LOG_FILE"] = str(tmp / "nvim.log")
    env.update(
        SDFORMAT_NVIM_DRIVER=str(DRIVER),
        SDFORMAT_NVIM_OUT=str(out),
        SDFORMAT_NVIM_BROKEN=str(work / "broken_arm.sdf"),
        SDFORMAT_NVIM_ARM=str(work / "arm.sdf"),
        SDFORMAT_NVIM_REPO=os.pathsep.join(repo_files),
        SDFORMAT_NVIM_TIMEOUT_MS=str(WAIT_MS),
    )
    if kind == "module":
        # editors/neovim/sdformat.lua as `nvim -u` loads it, configured through g:sdformat_lsp.
        config = {"cmd": [sys.executable, "-m", "sdformat_lsp"], "debounce_ms": 100, "api": what}
        env["SDFORMAT_NVIM_CONFIG"] = json.dumps(config)
        xacro = work / "robot.urdf.xacro"
        xacro.write_text('<?xml version="1.0"?>\n<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                         '  <xacro:property name="l" value="base"/>\n  <link name="${l}"/>\n</robot>\n')
        env["SDFORMAT_NVIM_XACRO"] = str(xacro)
        init = INIT
        pre = ["--cmd", "let g:sdformat_lsp = json_decode($SDFORMAT_NVIM_CONFIG)"]
    else:
        # A recipe from the docs, verbatim: it runs `sdformat-lsp`, here a shim for this interpreter.
        init = tmp / "init.lua"
        init.write_text(what)
        bindir = tmp / "bin"
        bindir.mkdir()
        shim = bindir / "sdformat-lsp"
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sdformat_lsp "$@"\n')
        shim.chmod(0o755)
        env["PATH"] = os.pathsep.join((str(bindir), env.get("PATH", "")))
        pre = []
    cmd = [nvim, "--headless", "--clean", *pre, "-u", str(init), "-c", "lua dofile(os.getenv('SDFORMAT_NVIM_DRIVER'))"]
    try:
        proc = subprocess.run(
            cmd, cwd=work, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=PROCESS_TIMEOUT
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"Neovim did not finish in {PROCESS_TIMEOUT}s; stderr: {exc.stderr!r}")
    logs = "\n".join(
        f"--- {p.name} ---\n{p.read_text(errors='replace')[-4000:]}" for p in sorted(tmp.rglob("*.log")) if p.is_file()
    )
    if not out.exists():
        pytest.fail(f"no results from Neovim (exit {proc.returncode})\nstdout: {proc.stdout}\nstderr: {proc.stderr}\n{logs}")
    results = json.loads(out.read_text())
    results["_kind"] = kind
    results["_expected_api"] = expected_api
    results["_debug"] = f"exit {proc.returncode}\nstderr: {proc.stderr[-2000:]}\n{logs}"
    return results


def _step(run: dict, name: str) -> dict:
    errors = run.get("errors") or {}
    if name in errors:
        pytest.fail(f"{name} failed in Neovim: {errors[name]}\n{run['_debug']}", pytrace=False)
    if name not in run:
        pytest.fail(f"{name} did not run\n{run['_debug']}", pytrace=False)
    return run[name]


def test_filetype_and_client(run):
    broken = _step(run, "broken")
    assert broken["filetype"] == "sdformat"
    assert broken["syntax"] == "xml"
    if run["_kind"] == "module":
        assert run["api"] == run["_expected_api"], "sdformat.lua picked the API for this Neovim version"
        assert broken["commentstring"] == "<!--%s-->"
    assert broken["client"]["attached"], f"the server did not start or attach\n{run['_debug']}"
    assert broken["client"]["names"] == ["sdformat"]
    arm = _step(run, "arm")
    assert arm["filetype"] == "sdformat"
    assert arm["client"]["attached"], run["_debug"]
    assert arm["clients_total"] == 1, "both files are in one project: one server"
    if run["_kind"] == "module":  # editors/neovim/sdformat.lua gives *.xacro its filetype and attaches
        xacro = _step(run, "xacro")
        assert xacro["filetype"] == "xacro"
        assert xacro["client"]["attached"] and xacro["client"]["names"] == ["sdformat"], run["_debug"]


def test_diagnostics_at_exact_positions(run):
    broken = _step(run, "broken")
    assert broken["got_typo"], f"no POSE_RELATIVE_TO_INVALID diagnostic: {broken['diagnostics']}\n{run['_debug']}"
    text = (EXAMPLES / "broken_arm.sdf").read_text()
    row, col = _position(text, 'relative_to="sholder"', "sholder")
    typo = [d for d in broken["diagnostics"] if d["code"] == "POSE_RELATIVE_TO_INVALID"]
    assert len(typo) == 1, broken["diagnostics"]
    d = typo[0]
    # The range is exactly the attribute value `sholder` (0-based; line 7, column 26 in editor terms).
    assert (d["lnum"], d["col"], d["end_lnum"], d["end_col"]) == (row, col, row, col + len("sholder"))
    assert d["severity"] == 1  # vim.diagnostic.severity.ERROR
    assert "shoulder" in d["message"], "the message suggests the right name"
    codes = {d["code"] for d in broken["diagnostics"]}
    assert {"FRAME_ATTACHED_TO_CYCLE", "JOINT_PARENT_SAME_AS_CHILD"} <= codes
    cycle = next(d for d in broken["diagnostics"] if d["code"] == "FRAME_ATTACHED_TO_CYCLE")
    row, col = _position(text, '<frame name="a" attached_to="b"', '"b"')
    assert (cycle["lnum"], cycle["col"]) == (row, col + 1)


def test_edit_that_fixes_the_reference_clears_its_diagnostic(run):
    fix = _step(run, "fix")
    assert fix["line"].strip() == '<pose relative_to="base">0 0 0.5 0 0 0</pose>'
    assert fix["cleared"], f"still reported after the fix: {fix['diagnostics']}\n{run['_debug']}"
    codes = [d["code"] for d in fix["diagnostics"]]
    assert "POSE_RELATIVE_TO_INVALID" not in codes
    assert not [d for d in fix["diagnostics"] if d["lnum"] == fix["row"]], "nothing left on the fixed line"
    # The other mistakes are still there: the file was re-analysed, not just cleared.
    assert {"FRAME_ATTACHED_TO_CYCLE", "JOINT_PARENT_SAME_AS_CHILD"} <= set(codes), fix["diagnostics"]


def _numbers_after(text: str, word: str) -> list[float]:
    i = text.find(word)
    assert i >= 0, f"{word!r} not in hover: {text!r}"
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", text[i + len(word) :])]


def test_hover_shows_the_resolved_pose(run):
    ref = _step(run, "hover_reference")
    assert ref["text"], f"empty hover on relative_to=\"shoulder\": {ref}\n{run['_debug']}"
    assert "xyz" in ref["text"], ref["text"]
    # Joint "shoulder": 0 0 0.1 relative to base, which is at the model origin.
    assert _numbers_after(ref["text"], "xyz")[:3] == pytest.approx([0, 0, 0.1], abs=1e-3), ref["text"]
    name = _step(run, "hover_name")
    assert "xyz" in name["text"], name["text"]
    # Frame "tool": 0.4 above forearm, which is 1.1 above the model origin.
    assert _numbers_after(name["text"], "xyz")[:3] == pytest.approx([0, 0, 1.5], abs=1e-3), name["text"]


def test_definition_lands_on_the_frame_name(run):
    text = (EXAMPLES / "arm.sdf").read_text()
    row, col = _position(text, '<joint name="shoulder"', "shoulder")
    d = _step(run, "definition")
    assert d["locations"], f"no definition: {d}\n{run['_debug']}"
    loc = d["locations"][0]
    assert loc["uri"].endswith("/arm.sdf")
    start, end = loc["range"]["start"], loc["range"]["end"]
    assert (start["line"], start["character"], end["line"], end["character"]) == (row, col, row, col + len("shoulder"))
    jump = _step(run, "definition_jump")
    assert jump["moved"] and jump["same_file"], jump
    assert (jump["row"], jump["col"]) == (row, col), "gd puts the cursor on the name"


def test_completion_lists_frame_names(run):
    rel = _step(run, "completion_relative_to")
    assert {"base", "shoulder"} <= set(rel["labels"]), rel
    parent = _step(run, "completion_parent")
    assert {"base", "upper"} <= set(parent["labels"]), parent
    typed = _step(run, "completion_typed")
    assert {"base", "upper", "forearm", "shoulder", "elbow", "tool"} <= set(typed["labels"]), typed
    for labels in (rel["labels"], parent["labels"], typed["labels"]):
        assert all(re.fullmatch(r"[\w:.-]+", label) for label in labels), labels


def test_one_server_per_repository(run):
    """Files of several model directories (each with a model.config) share the repository's server."""
    repo = run.get("repo")
    assert repo, f"no repository results: {run['errors']}\n{run['_debug']}"
    assert repo["clients_total"] == 1, f"{repo}\n{run['_debug']}"
    assert len(set(repo["roots"])) == 1 and repo["roots"][0].endswith("project"), repo


def test_informations_stay_out_of_the_inline_text(run):
    repo = run.get("repo")
    assert repo, f"no repository results: {run['errors']}\n{run['_debug']}"
    # the 1.5 file's note on features newer than its version (a hint since Gazebo reads them; the
    # driver counts informations and hints together)
    assert {3, 4} & set(repo["severities"]), f"the 1.5 file has an information or a hint: {repo}"
    # the plugin does it by itself, and every hand-written recipe does it too
    assert repo["virtual_text_informations"] == 0, repo
    assert repo["virtual_text_errors_possible"], repo
