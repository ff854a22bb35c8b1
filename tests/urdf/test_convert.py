"""`sdformat-lsp convert --to urdf`: exact frames (checked with our own URDF reading, 1e-9), refusals, options.

libsdformat's view of the same URDFs is in test_convert_oracle.py.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from oracle_frames import close
from random_trees import random_tree

from sdformat_lsp.convert import UrdfOptions, sdf_to_urdf
from sdformat_lsp.model.transform import Transform
from sdformat_lsp.semantics import analyze

ROOT = Path(__file__).resolve().parents[2]
FIX = Path(__file__).resolve().parent / "fixtures" / "convert"


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
    return subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "convert", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


def joint_frames(text: str, path: str) -> dict[str, Transform]:
    """Every joint's frame in the model frame, as our analysis resolves it (SDFormat or URDF)."""
    a = analyze(text, path)
    out = {}
    for n in a.graphs.nodes:
        if n.kind == "joint":
            out[n.scoped_name()] = a.graphs.pose(n)
    return out


def root_frame(text: str, path: str, root: str) -> Transform:
    a = analyze(text, path)
    node = next(n for n in a.graphs.nodes if n.kind == "link" and n.scoped_name() == root)
    return a.graphs.pose(node)


def test_random_trees_are_exact_to_1e_9(tmp_path):
    checked = 0
    for seed in range(80):
        text = random_tree(seed)
        path = str(tmp_path / f"t{seed}.sdf")
        result = sdf_to_urdf(analyze(text, path), UrdfOptions(name_separator="::"))  # names compared as scoped
        assert result.text is not None, result.errors
        urdf = joint_frames(result.text, path.replace(".sdf", ".urdf"))
        original = joint_frames(text, path)
        a = analyze(text, path)
        world = "<parent>world</parent>" in text
        base = Transform() if world else root_frame(text, path, "L0")
        if world:  # the URDF's world link is where the model's <pose> puts the model
            from sdformat_lsp.model.transform import transform_of

            base = transform_of(a.document.models[0].pose).inverse()
        for name, pose in original.items():
            if name not in urdf:  # fixed joints are lumped away when the URDF is read
                assert any(j.name == name and j.type == "fixed" for j in result.robot.joints) or name == "to_world", (
                    name
                )
                continue
            assert close(base.inverse() * pose, urdf[name], 1e-9), (seed, name)
            checked += 1
    assert checked > 150


def test_seed_example_joint_origin_is_the_child_in_the_parent_frame():
    text = (FIX / "seed_slider.sdf").read_text()
    result = sdf_to_urdf(analyze(text, str(FIX / "seed_slider.sdf")))
    j = next(j for j in result.robot.joints if j.name == "slider_joint")
    c, s = math.cos(0.3), math.sin(0.3)
    dx, dy, dz = -1.0, 0.5, 0.15  # slider_link minus base_link, in the model frame
    assert j.origin.p == pytest.approx((c * dx + s * dy, -s * dx + c * dy, dz), abs=1e-12)
    assert j.origin.rpy == pytest.approx((0, 0, 0), abs=1e-12)
    assert j.type == "prismatic" and j.axis == pytest.approx((1, 0, 0)) and (j.limit.lower, j.limit.upper) == (0, 2)
    assert '<origin xyz="-1.0 0.5 0.2"' not in result.text  # not the classic mistake
    base = next(link for link in result.robot.links if link.name == "base_link")
    assert base.inertial.origin.p == pytest.approx((0, 0, 0.05)) and base.inertial.mass == 12
    assert base.visuals[0].material.rgba == (0.2, 1.0, 0.2, 1.0)
    assert 'filename="package://slider/meshes/slider.dae" scale="0.5 0.5 0.5"' in result.text


def test_refusals_exit_1_and_write_nothing(tmp_path):
    out = tmp_path / "out.urdf"
    r = cli("--to", "urdf", str(FIX / "ball.sdf"), "-o", str(out))
    assert r.returncode == 1 and not out.exists()
    assert "'caster_joint' is a ball joint" in r.stderr and "'arm_joint' is a universal joint" in r.stderr
    assert "capsule" in r.stderr and "nothing written" in r.stderr
    assert list(tmp_path.iterdir()) == []  # no temporary file left either
    r = cli("--to", "urdf", str(FIX / "not_a_tree.sdf"), "-o", str(out))
    assert r.returncode == 1 and not out.exists()
    assert "link 'c' is the child of two joints, 'ab' and 'ac'" in r.stderr or "'bc' and 'ac'" in r.stderr


def test_lossy_makes_fixed_joints_with_a_warning_per_joint(tmp_path):
    out = tmp_path / "out.urdf"
    r = cli("--to", "urdf", str(FIX / "ball.sdf"), "--lossy", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("warning:") == 3  # two joints, one shape
    text = out.read_text()
    assert '<joint name="caster_joint" type="fixed">' in text and '<joint name="arm_joint" type="fixed">' in text
    assert '<cylinder radius="0.1" length="0.4"/>' in text
    # the joint to the world: URDF's fixed base, a link named world; the origin is the model's pose of base
    assert '<link name="world"/>' in text and '<parent link="world"/>' in text
    assert '<origin xyz="0 0 1" rpy="0 0 0"/>' in text


def test_world_model_nested_frames_sensors_plugins_and_names():
    r = cli("--to", "urdf", str(FIX / "world.sdf"))
    assert r.returncode == 1 and "--model NAME" in r.stderr and "one, two" in r.stderr
    # '::' kept only when asked: libsdformat 14.1+ refuses it in URDF names, said once, with the way out
    r = cli("--to", "urdf", str(FIX / "world.sdf"), "--model", "two", "--name-separator", "::")
    assert r.returncode == 0, r.stderr
    assert '<link name="arm::upper">' in r.stdout and '<link name="arm::tool"/>' in r.stdout
    assert r.stderr.count("warning") == 1 and "libsdformat 14.1" in r.stderr and "default separator, __" in r.stderr
    assert analyze(r.stdout, "out.urdf").diagnostics[0].code == "RESERVED_NAME"  # what our URDF check says of it
    # the default: names every reader takes (issue 24), nothing our check refuses
    r = cli("--to", "urdf", str(FIX / "world.sdf"), "--model", "two")
    assert r.returncode == 0, r.stderr
    text = r.stdout
    assert (
        '<link name="arm__upper">' in text
        and '<link name="arm__tool"/>' in text
        and "::" not in text.split("-->", 1)[-1]
    )
    assert "warning" not in r.stderr
    assert not [d for d in analyze(text, "out.urdf").diagnostics if d.is_error]
    text = text.replace("arm__", "arm::")  # the checks below name links and joints by their scope
    # shoulder's frame: arm::upper (z = 1 in the model) moved down 0.5, so 0.5 above base
    assert '<joint name="shoulder" type="revolute">\n    <origin xyz="0 0 0.5" rpy="0 0 0"/>' in text
    # the tool frame is 0.3 above upper, which is 0.5 above the joint frame
    robot = sdf_to_urdf(
        analyze((FIX / "world.sdf").read_text(), str(FIX / "world.sdf")), UrdfOptions(model="two", name_separator="::")
    ).robot
    tool = next(j for j in robot.joints if j.name == "arm::tool_joint")
    assert (tool.type, tool.parent, tool.child) == ("fixed", "arm::upper", "arm::tool")
    assert tool.origin.p == pytest.approx((0, 0, 0.8), abs=1e-12)
    assert '<dynamics damping="0.5" friction="0.1"/>' in text
    assert '<gazebo reference="shoulder">\n    <springStiffness>3</springStiffness>' in text
    assert '<gazebo reference="base">\n    <sensor name="cam" type="camera">\n      <pose>0 0 0.2 0 0 0</pose>' in text
    assert "<static>true</static>" in text and '<plugin name="ctrl" filename="libctrl.so">' in text
    r = cli("--to", "urdf", str(FIX / "world.sdf"), "--model", "two", "--name-separator", "__", "--no-frames")
    assert '<link name="arm__upper">' in r.stdout and "tool" not in r.stdout and "'::'" not in r.stderr
    assert not [d for d in analyze(r.stdout, "out.urdf").diagnostics if d.is_error]
    r = cli("--to", "urdf", str(FIX / "world.sdf"), "--model", "nope")
    assert r.returncode == 1 and "no model 'nope'" in r.stderr


def test_the_sensor_moves_with_the_link_frame():
    text = """<sdf version="1.9"><model name="m"><link name="a"/>
      <link name="b"><pose>0 0 1 0 0 0</pose><sensor name="s" type="imu"><pose>0 0 0.5 0 0 0</pose></sensor></link>
      <joint name="j" type="revolute"><pose>0 0 0.25 0 0 0</pose><parent>a</parent><child>b</child></joint></model></sdf>"""
    result = sdf_to_urdf(analyze(text, "/tmp/m.sdf"))
    assert "<pose>0 0 0.25 0 0 0</pose>" in result.text  # 0.5 above b, b is 0.25 below the joint frame


def test_mesh_uris(tmp_path):
    models = tmp_path / "models" / "slider" / "meshes"
    models.mkdir(parents=True)
    (models / "slider.dae").write_text("")
    src = FIX / "seed_slider.sdf"
    r = cli("--to", "urdf", str(src), "--mesh-uri", "keep")
    assert 'filename="model://slider/meshes/slider.dae"' in r.stdout
    r = cli("--to", "urdf", str(src), "--mesh-uri", "file", "--resource-path", str(tmp_path / "models"))
    assert f'filename="file://{models / "slider.dae"}"' in r.stdout
    r = cli("--to", "urdf", str(src), "--mesh-uri", "file")
    assert r.returncode == 0 and "not found on the resource path" in r.stderr


def test_output_replaces_a_file_atomically_and_urdf_input_is_refused(tmp_path):
    out = tmp_path / "robot.urdf"
    out.write_text("old")
    r = cli("--to", "urdf", str(FIX / "seed_slider.sdf"), "-o", str(out))
    assert r.returncode == 0 and out.read_text().startswith("<?xml") and r.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["robot.urdf"]
    r = cli("--to", "urdf", str(out))
    assert r.returncode == 1 and "already a URDF" in r.stderr


@pytest.mark.parametrize("name", ["seed_slider.sdf", "world.sdf", "ball.sdf", "not_a_tree.sdf"])
def test_conversion_never_raises_on_any_prefix(name):
    text = (FIX / name).read_text()
    for cut in range(0, len(text), 7):
        a = analyze(text[:cut], "/tmp/x.sdf")
        for model in (None, "two"):
            result = sdf_to_urdf(a, UrdfOptions(model=model, lossy=True))
            assert result.text is not None or result.errors


def _frames_by_name(text: str, path: str) -> dict[str, Transform]:
    a = analyze(text, path)
    assert not [d for d in a.diagnostics if d.is_error], [d.message for d in a.diagnostics if d.is_error][:3]
    return {n.scoped_name(): a.graphs.pose(n) for n in a.graphs.nodes if n.kind in ("joint", "frame", "link")}


@pytest.mark.parametrize("lump", [True, False])
def test_round_trip_sdf_urdf_sdf_keeps_every_joint_frame(tmp_path, lump):
    from sdformat_lsp.convert import SdfOptions, urdf_to_sdf
    from sdformat_lsp.model.transform import transform_of

    checked = 0
    for seed in range(60):
        text = random_tree(seed)
        path = str(tmp_path / f"t{seed}.sdf")
        a = analyze(text, path)
        urdf = sdf_to_urdf(a, UrdfOptions(name_separator="::")).text  # compared by scoped name
        back = urdf_to_sdf(analyze(urdf, path.replace(".sdf", ".urdf")), SdfOptions(lump=lump))
        assert back.text is not None, back.errors
        frames = _frames_by_name(back.text, path.replace(".sdf", ".back.sdf"))
        original = joint_frames(text, path)
        if "<parent>world</parent>" in text:
            base = transform_of(a.document.models[0].pose).inverse()
        else:
            base = root_frame(text, path, "L0")
        for name, pose in original.items():
            if name == "to_world" and name not in frames:
                continue
            assert name in frames, (seed, name, lump)
            assert close(base.inverse() * pose, frames[name], 1e-9), (seed, name, lump)
            checked += 1
    assert checked > 250


def test_to_sdf_cli(tmp_path):
    import re

    chain = (ROOT / "tests" / "urdf" / "fixtures" / "fixed_chain.urdf").read_text()
    src = tmp_path / "fixed_chain.urdf"  # without its <gazebo> block, whose joints name lumped links
    src.write_text(re.sub(r"<gazebo>.*?</gazebo>", "", chain, flags=re.S))
    out = tmp_path / "chain.sdf"
    r = cli("--to", "sdf", str(src), "-o", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert '<frame name="mount" attached_to="mount_joint"/>' in text and "<mass>3.1</mass>" in text
    r = cli("--to", "sdf", str(src), "--no-lump")
    assert '<link name="mount">' in r.stdout and '<joint name="mount_joint" type="fixed">' in r.stdout
    r = cli("--to", "sdf", str(ROOT / "tests" / "urdf" / "fixtures" / "broken.urdf"), "-o", str(tmp_path / "b.sdf"))
    assert r.returncode == 1 and not (tmp_path / "b.sdf").exists() and "'hadn'" in r.stderr
    r = cli("--to", "sdf", str(FIX / "seed_slider.sdf"))
    assert r.returncode == 1 and "not a URDF" in r.stderr


def test_mimic_limits_and_continuous_joints_round_trip():
    from sdformat_lsp.convert import urdf_to_sdf

    text = """<sdf version="1.11"><model name="m"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="lead" type="revolute"><parent>a</parent><child>b</child>
        <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>2</upper><effort>3</effort><velocity>4</velocity></limit></axis></joint>
      <joint name="follow" type="revolute"><parent>b</parent><child>c</child>
        <axis><xyz>0 0 1</xyz><mimic joint="lead"><multiplier>2</multiplier><offset>0.1</offset></mimic></axis></joint>
    </model></sdf>"""
    result = sdf_to_urdf(analyze(text, "/tmp/m.sdf"))
    assert '<limit lower="-1" upper="2" effort="3" velocity="4"/>' in result.text
    assert '<joint name="follow" type="continuous">' in result.text  # revolute without limits: continuous
    assert '<mimic joint="lead" multiplier="2" offset="0.1"/>' in result.text
    back = urdf_to_sdf(analyze(result.text, "/tmp/m.urdf"))
    assert (
        back.text is not None
        and '<mimic joint="lead"><multiplier>2</multiplier><offset>0.1</offset></mimic>' in back.text
    )
    assert "<lower>-1</lower><upper>2</upper><effort>3</effort><velocity>4</velocity>" in back.text


def test_a_file_with_errors_is_refused_unless_lossy(tmp_path):
    src = tmp_path / "bad.sdf"
    src.write_text(
        '<sdf version="1.9"><model name="m"><link name="a"><inertial><mass>-1</mass></inertial></link><link name="b"/>'
        '<joint name="j" type="fixed"><parent>a</parent><child>b</child></joint></model></sdf>'
    )
    r = cli("--to", "urdf", str(src))
    assert r.returncode == 1 and "1 error(s)" in r.stderr and r.stdout == ""
    r = cli("--to", "urdf", str(src), "--lossy")
    assert (
        r.returncode == 0
        and "warning: the file has 1 error(s)" in r.stderr
        and '<joint name="j" type="fixed">' in r.stdout
    )


def test_to_sdf_moves_the_sensors_of_a_lumped_link():
    from sdformat_lsp.convert import urdf_to_sdf

    inertial = '<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
    text = (
        f'<robot name="r"><link name="a">{inertial}</link><link name="b">{inertial}</link>'
        '<joint name="j" type="fixed"><origin xyz="0 0 0.5"/><parent link="a"/><child link="b"/></joint>'
        '<gazebo reference="b"><sensor name="imu" type="imu"><pose>0 0 0.1 0 0 0</pose></sensor><mu1>0.3</mu1></gazebo></robot>'
    )
    back = urdf_to_sdf(analyze(text, "/tmp/r.urdf"))
    assert '<link name="a">' in back.text and '<link name="b">' not in back.text
    assert '<sensor name="imu" type="imu">\n        <pose>0 0 0.6 0 0 0</pose>' in back.text
    assert "<mass>2</mass>" in back.text and '<frame name="b" attached_to="j"/>' in back.text
    assert not back.warnings  # mu1 would reach b's collisions, now a's (tests/urdf/test_gazebo_keys.py): b has none


def test_libsdformat_main_reads_the_default_names_and_refuses_the_scoped_ones(tmp_path):
    """Issue 24: by default the names of nested models' links and joints are joined with '__', which
    `gz sdf --check` of libsdformat main accepts; '::' (asked for) it refuses. SDF_CHECK names its check."""
    import os
    import subprocess

    checker = os.environ.get("SDF_CHECK")
    if not checker or not os.path.exists(checker):
        pytest.skip("SDF_CHECK does not name libsdformat main's check")
    for extra, valid in (((), True), (("--name-separator", "::"), False)):
        out = tmp_path / f"two{len(extra)}.urdf"
        r = cli("--to", "urdf", str(FIX / "world.sdf"), "--model", "two", *extra, "-o", str(out))
        assert r.returncode == 0, r.stderr
        verdict = subprocess.run([checker, str(out)], capture_output=True, text=True, timeout=60)
        assert (verdict.returncode == 0) == valid, verdict.stdout + verdict.stderr
