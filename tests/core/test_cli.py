"""`sdformat-lsp check`: text and JSON output, exit codes, unreadable files."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", *args], capture_output=True, text=True, cwd=cwd, timeout=60
    )


def test_valid_example_exits_zero_and_lists_frames():
    r = run("check", "--frames", "examples/arm.sdf")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "tool" in r.stdout and "attached to forearm" in r.stdout


def test_text_output_has_one_based_positions():
    r = run("check", "examples/broken_arm.sdf")
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    assert "examples/broken_arm.sdf:7:26: error[POSE_RELATIVE_TO_INVALID] " in lines[0]
    assert "did you mean 'shoulder'?" in lines[0]


def test_json_output(tmp_path):
    f = tmp_path / "m.sdf"
    f.write_text(
        '<sdf version="1.8">\n<model name="M1"><link name="L1"/><frame name="F" attached_to="F"/></model></sdf>'
    )
    r = run("check", "--format", "json", "--frames", str(f))
    assert r.returncode == 1
    data = json.loads(r.stdout)
    entry = data["files"][0]
    assert entry["sdf_version"] == "1.8"
    d = entry["diagnostics"][0]
    assert d["code"] == "FRAME_ATTACHED_TO_CYCLE" and d["severity"] == "error"
    assert d["range"]["start"]["line"] == 1
    names = {fr["name"]: fr for fr in entry["frames"]}
    assert names["L1"]["attached_to"] == "L1" and names["__model__"]["kind"] == "model"
    assert names["F"]["attached_to"] is None


def test_missing_file_is_a_diagnostic_not_a_traceback(tmp_path):
    r = run("check", str(tmp_path / "nope.sdf"))
    assert r.returncode == 1
    assert "FILE_READ" in r.stdout and "Traceback" not in r.stderr


def test_bad_usage_exits_two():
    assert run("check").returncode == 2
    assert run("frobnicate").returncode == 2


def test_default_prints_errors_and_warnings_only(tmp_path):
    # A Fuel include absent from the cache is an information: shown only on request.
    f = tmp_path / "w.sdf"
    f.write_text(
        '<sdf version="1.9"><world name="w"><include>'
        "<uri>https://fuel.gazebosim.org/1.0/OpenRobotics/models/Nowhere To Be Found</uri>"
        "</include></world></sdf>"
    )
    env_home = {"HOME": str(tmp_path), "GZ_FUEL_CACHE_PATH": str(tmp_path / "cache")}
    import os

    env = {**os.environ, **env_home}
    quiet = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "check", str(f)], capture_output=True, text=True, env=env, timeout=60
    )
    assert quiet.returncode == 0 and quiet.stdout == "", quiet.stdout
    loud = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "check", "--severity", "info", "--format", "json", str(f)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    diags = json.loads(loud.stdout)["files"][0]["diagnostics"]
    assert diags and all(d["severity"] == "info" for d in diags), diags
