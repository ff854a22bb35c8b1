"""Every subcommand on hostile inputs (issue 24): no traceback, a sensible exit code.

``test_every_subcommand_is_here`` fails when a subcommand is added without being put to the test.

The matrix runs in this process (``cli.main``), where an escaping exception is the
traceback a user would see; the closed-pipe cases need a real process and a pipe whose
reader is gone, so they run as processes, one per subcommand that writes to stdout.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from sdformat_lsp.cli import EXIT_CLOSED_PIPE, main

from .util import ROOT

MODEL = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <link name="a"/>
    <link name="b"/>
    <joint name="to_world" type="fixed"><parent>world</parent><child>a</child></joint>
    <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>
  </model>
</sdf>
"""
WORLD = """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <include><uri>model://nowhere_to_be_found</uri></include>
    <model name="m"><link name="l"><inertial><mass>2</mass></inertial></link></model>
  </world>
</sdf>
"""
URDF = """<robot name="r">
  <link name="base"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""
XACRO = '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:property name="w" value="1"/><link name="a"/></robot>\n'

COMMANDS = (
    ("check",),
    ("check", "--frames"),
    ("check", "--format", "sarif"),
    ("convert", "--to", "urdf"),
    ("convert", "--to", "sdf"),
    ("format", "--check"),
    ("format", "--diff"),
    ("graph",),
    ("graph", "--kind", "kinematic"),
    ("graph", "--kind", "relative-to", "--format", "mermaid"),
    ("inertial-stats",),
    ("inertial-stats", "--format", "json"),
    ("print",),
    ("print", "--resolve-poses"),
    ("xacro",),
    ("xacro", "--deps"),
)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("hostile")
    (d / "empty").mkdir()
    (d / "only_xacro").mkdir()
    (d / "only_xacro" / "robot.urdf.xacro").write_text(XACRO)
    files = {
        "model.sdf": MODEL,
        "world.world": WORLD,
        "robot.urdf": URDF,
        "robot.xacro": XACRO,
        "half.sdf": '<sdf version="1.9">\n  <model name="m">\n    <link name="a">\n      <visual name="v"><geometry><box><size>1 1',
        "empty.sdf": "",
        "mujoco.xml": '<mujoco><worldbody><body><geom size="1"/></body></worldbody></mujoco>',
        "model.config": '<?xml version="1.0"?>\n<model><name>m</name><sdf version="1.9">model.sdf</sdf></model>\n',
        "old.sdf": '<sdf version="1.0"><model name="x"><link name="l"/></model></sdf>',
    }
    for name, text in files.items():
        (d / name).write_text(text)
    (d / "junk.sdf").write_bytes(bytes(range(256)) * 8)
    os.mkfifo(d / "fifo.sdf")
    paths = {name: str(d / name) for name in ("empty", "only_xacro", *files, "junk.sdf", "fifo.sdf")}
    paths["/dev/null"] = os.devnull
    paths["missing"] = str(d / "missing.sdf")
    paths["stdin"] = "-"
    return paths


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_subcommand_on_hostile_inputs(command, hostile, capsys, monkeypatch, tmp_path):
    failures = []
    for name, path in hostile.items():
        args = [*command, path]
        if command[0] == "convert":
            args += ["-o", str(tmp_path / "out")]
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
        try:
            code = main(args)
        except SystemExit as exc:  # argparse's refusal of a usage is an exit, not a traceback
            code = exc.code
        except Exception as exc:  # noqa: BLE001 - what a user would see as a traceback
            failures.append(f"{' '.join(command)} {name}: {type(exc).__name__}: {exc}")
            continue
        out, err = capsys.readouterr()
        if code not in (0, 1, 2):
            failures.append(f"{' '.join(command)} {name}: exit {code}")
        if code != 0 and not (err.strip() or out.strip()):  # machine formats carry the reason in their output
            failures.append(f"{' '.join(command)} {name}: exit {code} without a word")
    assert not failures, "\n".join(failures)


def _with_closed_reader(*args: str, cwd: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "server"), env.get("PYTHONPATH", "")])
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first byte is written: `... | head -0`
    try:
        return subprocess.run(
            [sys.executable, "-m", "sdformat_lsp", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            cwd=cwd,
            env=env,
            timeout=120,
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "command",
    [
        ("check",),
        ("check", "--frames"),
        ("check", "--format", "json"),
        ("inertial-stats",),
        ("graph", "--kind", "kinematic"),
        ("print",),
        ("format", "--diff"),
    ],
    ids=" ".join,
)
def test_a_closed_output_pipe_ends_quietly(command, tmp_path):
    (tmp_path / "model.sdf").write_text(
        MODEL.replace('<link name="a"/>', '<link name="a"/><statik/>').replace('"1.9">', '"1.9">\n    ')
    )
    (tmp_path / "b.sdf").write_text(MODEL.replace('<link name="b"/>', '<link name="b"/><statik/>'))
    target = "model.sdf" if command[0] != "check" else "."
    r = _with_closed_reader(*command, target, cwd=str(tmp_path))
    err = r.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert r.returncode == EXIT_CLOSED_PIPE, (r.returncode, err)


def test_a_directory_with_nothing_to_check_says_so(hostile, capsys):
    import json

    # a directory of xacro files has something to check: they are expanded and checked (issue 22)
    code = main(["check", "--format", "json", hostile["only_xacro"]])
    out, err = capsys.readouterr()
    assert json.loads(out)["summary"]["files"] == 1 and "no file to check" not in err
    code = main(["check", hostile["empty"]])
    out, err = capsys.readouterr()
    assert code == 0 and "no file to check" in err and ".xacro file(s)" not in err


def test_the_kinematic_graph_draws_the_world_a_joint_hangs_from(hostile, capsys):
    assert main(["graph", "--kind", "kinematic", hostile["model.sdf"]]) == 0
    out = capsys.readouterr().out
    assert (
        '"world" [label="world", shape=doubleoctagon];' in out and '"world" -> "a" [label="to_world (fixed)"];' in out
    )


def _process(*args: str, **kw) -> subprocess.Popen:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "server"), env.get("PYTHONPATH", "")])
    return subprocess.Popen([sys.executable, "-m", "sdformat_lsp", *args], env=env, **kw)


@pytest.mark.parametrize("name", ["empty", "/dev/null", "fifo.sdf", "junk.sdf", "half.sdf", "missing"])
def test_view_refuses_or_serves_and_never_raises(name, hostile):
    """`view` serves what it can read (the page follows the file as it is fixed) and refuses what is
    not a file with exit 2; neither with a traceback."""
    import select

    p = _process(
        "view",
        "--no-browser",
        hostile[name],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    assert p.stdout is not None
    said = b""
    try:
        deadline = 30.0
        while b"\n" not in said and p.poll() is None and deadline > 0:  # its first line: the URL, or why not
            ready, _, _ = select.select([p.stdout], [], [], 0.5)
            deadline -= 0.5
            if ready:
                chunk = os.read(p.stdout.fileno(), 4096)
                if not chunk:
                    break
                said += chunk
        if b"http://127.0.0.1:" in said:  # serving: it said where
            assert p.poll() is None, said
            return
        p.wait(timeout=30)  # refused: it ends
    finally:
        if p.poll() is None:
            p.terminate()
            p.wait(timeout=30)
    rest = (said + p.stdout.read()).decode()
    assert p.returncode == 2 and "Traceback" not in rest and "not a file" in rest, (p.returncode, rest)


def test_serve_without_a_client_or_an_output_ends_quietly():
    """`serve` whose input is empty (the client went away before a word) exits 1 (LSP's rule without
    a shutdown); with its standard output closed as well, still no traceback."""
    for stdout in (subprocess.PIPE, subprocess.DEVNULL):
        p = _process("serve", stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE)
        _, err = p.communicate(timeout=60)
        assert p.returncode == 1 and b"Traceback" not in err, err


def test_every_subcommand_is_here():
    from sdformat_lsp.cli import SUBCOMMANDS

    covered = {c[0] for c in COMMANDS} | {"view", "serve"}  # the two servers: the tests above
    assert set(SUBCOMMANDS) <= covered, set(SUBCOMMANDS) - covered


def test_convert_never_writes_a_xacro_template_as_if_it_were_urdf(hostile, capsys, tmp_path):
    """Issue 24: `convert --to sdf` of an unexpanded xacro template is never written as if it were URDF:
    a .xacro is converted from its expansion; a template under another name (turtlebot3's
    common_properties.urdf) is refused with the way out; a URDF that only keeps xacro's namespace
    declaration (as xacro's own output does) converts."""
    out = tmp_path / "out.sdf"
    template = tmp_path / "template.urdf"
    template.write_text(XACRO)
    assert main(["convert", "--to", "sdf", str(template), "-o", str(out)]) == 1
    o, err = capsys.readouterr()
    assert "xacro template" in err and "<xacro:property> is xacro markup" in err and not out.exists() and o == ""
    code = main(["convert", "--to", "sdf", hostile["robot.xacro"], "-o", str(out)])
    o, err = capsys.readouterr()
    assert code == 1 or "xacro:" not in out.read_text(), err  # refused, or converted from the expansion
    plain = tmp_path / "generated.urdf"
    plain.write_text(URDF.replace('<robot name="r">', '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'))
    assert main(["convert", "--to", "sdf", str(plain), "-o", str(out)]) == 0 and out.exists()
