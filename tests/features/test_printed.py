"""`print`: the printed document checks clean and has the resolved poses of the original."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sdformat_lsp.convert.to_sdf import urdf_to_sdf
from sdformat_lsp.printing import PrintRefused, printed
from sdformat_lsp.model.transform import quat_from_rpy, rotation_matrix
from sdformat_lsp.queries.poses import element_pose_in_scope
from sdformat_lsp.semantics import analyze
from sdformat_lsp.semantics.includes.params import params_element
from sdformat_lsp.xml import decode_source

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"


def frames(a) -> dict[str, tuple]:
    """name -> (kind, position, rotation matrix, attached link); rotation as a matrix, since rpy is ambiguous at +-90 deg pitch."""
    out = {}
    for f in a.frames():
        pose = f["pose"]
        rot = rotation_matrix(quat_from_rpy(*pose[3:])) if pose is not None else None
        out[f["name"]] = (f["kind"], pose[:3] if pose else None, rot, f["attached_to"])
    return out


def assert_same_frames(a, b, where) -> None:
    fa, fb = frames(a), frames(b)
    assert fa.keys() == fb.keys(), where
    for name, (kind, p, r, link) in fa.items():
        kind2, p2, r2, link2 = fb[name]
        assert (kind, link) == (kind2, link2), (where, name)
        if p is None:
            assert p2 is None, (where, name)
            continue
        assert all(math.isclose(x, y, abs_tol=1e-9) for x, y in zip(p, p2)), (where, name, p, p2)
        assert all(math.isclose(x, y, abs_tol=1e-9) for row, row2 in zip(r, r2) for x, y in zip(row, row2)), (
            where,
            name,
        )


POSED = {
    "link": ("visual", "collision", "sensor", "light", "particle_emitter", "projector", "inertial"),
    "joint": ("sensor",),
    "world": ("light",),
}


def inner_poses(a) -> dict[tuple, tuple]:
    """(frame listing name of the link/joint/world, tag, name) -> (position, rotation matrix) of every
    posed element inside links, joints and the world, in the root frame."""
    out = {}
    for node in a.graphs.nodes:
        entity = node.entity
        if node.kind not in POSED or entity is None:
            continue
        owner = a.frame_facts(node).name if node.kind != "world" else "world"
        if any(anc.tag == "robot" for anc in entity.element.ancestors()) or entity.element.tag == "robot":
            continue  # a link of an included URDF: its visuals are URDF elements (the frames are compared)
        for child in entity.element.children:
            if child.tag not in POSED[node.kind]:
                continue
            pose_el = child.child("pose")
            if pose_el is None:
                x = a.graphs.pose(node) if node.kind != "world" else None
            else:
                found = element_pose_in_scope(a, pose_el)
                x = None
                if found is not None:  # in the root frame: the same whichever model now holds it (unflattening)
                    x, scope = found
                    base = a.graphs.pose(scope.node)
                    x = base * x if base is not None else None
            key = (owner, child.tag, child.get("name") or "")
            out[key] = None if x is None else (x.p, rotation_matrix(x.q))
    return out


def assert_same_inner_poses(a, b, where) -> None:
    pa, pb = inner_poses(a), inner_poses(b)
    assert pa.keys() <= pb.keys(), where  # the printed document has more where it expanded an included URDF
    for key, x in pa.items():
        y = pb[key]
        if x is None:
            continue  # an element whose pose did not resolve: --resolve-poses leaves it as written
        assert y is not None, (where, key)
        assert all(math.isclose(u, v, abs_tol=1e-9) for u, v in zip(x[0], y[0])), (where, key, x[0], y[0])
        assert all(math.isclose(u, v, abs_tol=1e-9) for r, r2 in zip(x[1], y[1]) for u, v in zip(r, r2)), (where, key)


def round_trip(path: Path, **options) -> bool:
    text, problems = decode_source(path.read_bytes())
    original = analyze(text, str(path))
    if problems or original.has_errors or original.graphs is None:
        return False
    out = printed(original, urdf_to_sdf=urdf_to_sdf, **options)  # every document that checks clean prints
    again = analyze(out, str(path.with_name("printed-" + path.name)))
    errors = [d for d in again.diagnostics if d.is_error]
    assert not errors, (path, errors[:3], out[:2000])

    def other_format(scope) -> bool:  # an interface model (MJCF, a registered parser): its <include> stays
        src = scope.entity.source
        return getattr(src, "interface_parser", None) is not None or (
            src.xml.root is not None and src.xml.root.tag == "mujoco"
        )

    if not any(other_format(scope) for _, scope in original.graphs.included):
        assert "<include" not in out
    assert_same_frames(original, again, path)
    if not any(params_element(inc.element) is not None for inc, _ in original.graphs.included):
        # (the analysis reads visuals, sensors... as the files write them, before <experimental:params>)
        assert_same_inner_poses(original, again, path)
    return True


def corpus(shared: bool) -> list[Path]:
    files = sorted((ROOT / "examples").glob("*.sdf"))
    files += sorted(p for p in (ROOT / "tests").rglob("*.sdf") if "fixtures" in p.parts)
    if shared:
        files += sorted(p for p in (SHARED / "conformance").rglob("*") if p.suffix in (".sdf", ".world"))
    return files


@pytest.mark.parametrize(
    "options",
    [{}, {"resolve_poses": True}, {"resolve_poses": True, "degrees": True}, {"degrees": True}],
    ids=["plain", "resolved", "resolved-degrees", "degrees"],
)
def test_examples_and_fixtures_print_to_documents_with_the_same_poses(options):
    assert sum(round_trip(p, **options) for p in corpus(shared=False)) >= 50  # every clean one prints (52 today)


@pytest.mark.parametrize("options", [{}, {"resolve_poses": True, "degrees": True}], ids=["plain", "resolved-degrees"])
def test_conformance_files_print_to_documents_with_the_same_poses(shared, options):
    assert sum(round_trip(p, **options) for p in corpus(shared=True)) >= 160  # every clean one prints (168 today)


def test_includes_are_expanded_named_and_placed():
    path = ROOT / "tests" / "includes" / "fixtures" / "composed" / "arm_and_gripper.sdf"
    original = analyze(path.read_text(), str(path))
    assert not original.has_errors and original.graphs.included
    for options in ({}, {"resolve_poses": True}, {"resolve_poses": True, "degrees": True}):
        out = printed(original, **options)
        assert "<include" not in out and '<model name="gripper">' in out and "placement_frame" not in out
        again = analyze(out, "/tmp/printed-arm-and-gripper.sdf")
        assert not again.has_errors, again.diagnostics
        assert_same_frames(original, again, options)


def run(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "print", *args], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def test_cli_version_and_refusals(tmp_path):
    doc = tmp_path / "m.sdf"
    doc.write_text(
        '<sdf version="1.9"><model name="m"><link name="l"><pose>0 0 1 0 0 1.5707963267948966</pose></link></model></sdf>'
    )
    out = run("--degrees", "--version", "1.10", str(doc), cwd=tmp_path)
    assert (
        out.returncode == 0
        and '<sdf version="1.10">' in out.stdout
        and '<pose degrees="true">0 0 1 0 0 90</pose>' in out.stdout
    )
    older = run("--version", "1.8", str(doc), cwd=tmp_path)
    assert (
        older.returncode == 1 and older.stdout == "" and "m.sdf:1:2: cannot print SDFormat 1.9 as 1.8" in older.stderr
    )
    old = tmp_path / "old.sdf"
    old.write_text('<sdf version="1.0"><model name="m" static="true"><link name="l"/></model></sdf>')
    converted = run(str(old), cwd=tmp_path)  # libsdformat no longer converts 1.0; print does, by its rules
    assert converted.returncode == 0 and '<sdf version="1.12">' in converted.stdout
    assert "<static>true</static>" in converted.stdout and "static=" not in converted.stdout
    assert "converted from SDFormat 1.0 by libsdformat's 1_0.convert rules" in converted.stderr
    as_is = run("--version", "1.0", str(old), cwd=tmp_path)
    assert as_is.returncode == 0 and as_is.stderr == "" and 'static="true"' in as_is.stdout
    old.write_text('<sdf version="1.2"><model name="m"><link name="l"/></model></sdf>')
    assert (
        '<sdf version="1.12">' in run(str(old), cwd=tmp_path).stdout
    )  # 1.2 is converted (1_2.convert changes nothing)
    broken = tmp_path / "broken.sdf"
    broken.write_text(
        '<sdf version="1.9"><model name="m"><link name="l"><pose relative_to="nope"/></link></model></sdf>'
    )
    # a document with errors is printed as `gz sdf -p` prints it, its errors on stderr after it (issue 24)
    bad = run(str(broken), cwd=tmp_path)
    assert bad.returncode == 1 and '<pose relative_to="nope"/>' in bad.stdout and '<sdf version="1.12">' in bad.stdout
    assert (
        bad.stderr.count("\n") == 1
        and "broken.sdf:1:" in bad.stderr
        and "error[POSE_RELATIVE_TO_INVALID]" in bad.stderr
    )
    # one that is not XML is not printed at all
    (tmp_path / "notxml.sdf").write_text('<sdf version="1.9"><model name="m"><link name="l"></model></sdf>')
    bad = run(str(tmp_path / "notxml.sdf"), cwd=tmp_path)
    assert bad.returncode == 1 and bad.stdout == "" and "cannot print the document" in bad.stderr


def test_1_6_documents_are_converted_as_libsdformat_converts_them():
    text = """<sdf version="1.6"><model name="m">
      <link name="a"/><link name="b"><pose frame="a">1 0 0 0 0 0</pose></link>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child>
        <axis><xyz>1 0 0</xyz><use_parent_model_frame>true</use_parent_model_frame></axis></joint>
    </model></sdf>"""
    original = analyze(text, "/tmp/one-six.sdf")
    assert not original.has_errors
    out = printed(original)
    assert (
        '<pose relative_to="a">' in out
        and '<xyz expressed_in="__model__">1 0 0</xyz>' in out
        and "use_parent_model_frame" not in out
    )
    again = analyze(out, "/tmp/one-six-printed.sdf")
    assert not again.has_errors and again.version == "1.12"
    assert_same_frames(original, again, "1.6")


INNER = """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <light name="sun" type="directional"><pose relative_to="f">0 0 10 0 0 0</pose></light>
    <frame name="f"><pose>1 0 0 0 0 0.5</pose></frame>
    <model name="m">
      <pose>1 2 3 0 0 1</pose>
      <link name="a"><pose>0 0 1 0.1 0 0</pose>
        <inertial><pose>0.1 0 0 0 0 0</pose><mass>1</mass></inertial>
        <visual name="v"><pose>0 1 0 0 0.2 0</pose><geometry><box><size>1 1 1</size></box></geometry></visual>
        <collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision>
        <sensor name="s" type="imu"><pose relative_to="b">0 0 1 0 0 0</pose></sensor>
        <sensor name="cam" type="camera"><pose>0 0 0.5 0 0 0</pose>
          <camera><pose>0 0 0.1 0 0 0</pose><image><width>10</width><height>10</height></image></camera></sensor>
        <light name="l" type="point"><pose>0 0 0.3 0 0 0</pose></light>
      </link>
      <link name="b"><pose relative_to="a">2 0 0 0 0 1.2</pose></link>
      <joint name="j" type="revolute"><pose>0 0 0.2 0 0 0</pose><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis>
        <sensor name="ft" type="force_torque"><pose>0 0.5 0 0 0 0</pose></sensor></joint>
      <model name="inner"><pose relative_to="b">0 0 1 0 0 0</pose>
        <link name="c"><visual name="v2"><pose relative_to="__model__">1 0 0 0 0 0</pose><geometry><sphere><radius>1</radius></sphere></geometry></visual></link>
      </model>
    </model>
  </world>
</sdf>
"""


def test_resolve_poses_writes_posed_elements_of_links_and_joints_relative_to_the_model():
    original = analyze(INNER, "/tmp/inner.sdf")
    assert not original.has_errors, original.diagnostics
    out = printed(original, resolve_poses=True)
    again = analyze(out, "/tmp/inner-printed.sdf")
    assert not [d for d in again.diagnostics if d.is_error], again.diagnostics
    assert_same_frames(original, again, "inner")
    assert_same_inner_poses(original, again, "inner")
    rel = {name: to for name, to in re.findall(r'<\w+ name="(\w+)"[^>]*>\s*<pose relative_to="(\w+)"', out)}
    assert rel == {
        "sun": "world",
        "f": "world",
        "v": "__model__",
        "c": "__model__",
        "s": "__model__",
        "cam": "__model__",
        "l": "__model__",
        "j": "__model__",
        "ft": "__model__",
        "v2": "__model__",
    }
    # inertial and camera poses have no frame semantics in SDFormat: as written, relative to their parent
    assert "<inertial><pose>0.1 0 0 0 0 0</pose>" in out and "<camera><pose>0 0 0.1 0 0 0</pose>" in out
    # the collision had no pose: one is added, where the link's frame puts it
    assert '<collision name="c"><pose relative_to="__model__">0 0 1 0.1 0 0</pose>' in out


def test_resolve_poses_needs_relative_to(tmp_path):
    old = analyze('<sdf version="1.6"><model name="m"><link name="l"/></model></sdf>', "/tmp/old.sdf")
    with pytest.raises(PrintRefused, match="from 1.7 on"):
        printed(old, version="1.6", resolve_poses=True)


OLD_WORLD = """<?xml version="1.0"?>
<sdf version="{v}">
  <world name="w">
    <physics type="ode">
      <update_rate>500</update_rate>
      <gravity>0 0 -9.5</gravity>
      <magnetic_field>1 2 3</magnetic_field>
      <ode><solver><dt>0.002</dt><iters>50</iters></solver></ode>
    </physics>
    <actor name="walker" static="true"><skin><filename>walk.dae</filename></skin></actor>
    <model name="m">
      <link name="a"/>
      <link name="b"><pose>1 0 0 0 0 0</pose>
        <sensor name="imu" type="imu"><imu>
          <noise><type>gaussian</type><rate><mean>0.1</mean><stddev>0.2</stddev></rate><accel><bias_mean>0.3</bias_mean></accel></noise>
        </imu></sensor>
      </link>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 1 0</xyz></axis></joint>
    </model>
  </world>
</sdf>
"""


@pytest.mark.parametrize("version", ["1.2", "1.3", "1.4", "1.5"])  # 1.2: 1_2.convert changes nothing (issue 24)
def test_documents_older_than_1_6_are_converted_as_libsdformat_converts_them(version):
    original = analyze(OLD_WORLD.format(v=version), f"/tmp/old-{version}.sdf")
    assert not original.has_errors, original.diagnostics
    out = printed(original)
    again = analyze(out, "/tmp/old-printed.sdf")
    assert not again.has_errors and again.version == "1.12", again.diagnostics
    assert_same_frames(original, again, version)
    squeezed = re.sub(r">\s+<", "><", out)
    # 1.5 to 1.6: gravity and magnetic_field move to the world; the IMU noise is spread over the axes
    assert (
        "<physics" in squeezed
        and '<world name="w"><gravity>0 0 -9.5</gravity><magnetic_field>1 2 3</magnetic_field>' in squeezed
    )
    axis = '<noise type="gaussian"><mean>0.1</mean><stddev>0.2</stddev></noise>'
    assert f"<angular_velocity><x>{axis}</x><y>{axis}</y><z>{axis}</z></angular_velocity>" in squeezed
    assert '<linear_acceleration><x><noise type="gaussian"><bias_mean>0.3</bias_mean></noise></x>' in squeezed
    assert "<noise><type>" not in squeezed
    old_axis = version in ("1.2", "1.3", "1.4")  # 1.4 to 1.5: the axes of a world's models were in the model frame
    assert ('<xyz expressed_in="__model__">0 1 0</xyz>' in out) == old_axis
    assert ("<static>true</static>" in out and 'static="true"' not in out) == old_axis
    # 1.3 to 1.4: physics rates
    assert (
        "<real_time_update_rate>500</real_time_update_rate>" in out and "<max_step_size>0.002</max_step_size>" in out
    ) == (version in ("1.2", "1.3"))
    # --version stops the conversion where asked: 1.4 printed as 1.5 keeps use_parent_model_frame
    if version == "1.4":
        as_1_5 = printed(original, version="1.5")
        assert "<use_parent_model_frame>true</use_parent_model_frame>" in as_1_5 and "expressed_in" not in as_1_5


def test_merged_includes_are_printed_as_libsdformat_merges_them():
    path = (
        ROOT
        / "tests"
        / "includes"
        / "fixtures"
        / "composition"
        / "realistic"
        / "models"
        / "x500_mono_cam"
        / "model.sdf"
    )
    original = analyze(path.read_text(), str(path))
    assert not original.has_errors and any(inc.merge for inc, _ in original.graphs.included)
    for options in ({}, {"resolve_poses": True}):
        out = printed(original, **options)
        assert "<include" not in out and "merge=" not in out
        assert '<frame name="_merged__mono_cam__model__" attached_to="camera_link">' in out
        assert '<model name="mono_cam"' not in out  # merged: no model of its own
        again = analyze(out, "/tmp/printed-x500-mono-cam.sdf")
        assert not [d for d in again.diagnostics if d.is_error], again.diagnostics
        assert_same_frames(original, again, options)
        assert_same_inner_poses(original, again, options)
    plain = printed(original)
    # what the merged model wrote as its own frame (or left to the default) is the proxy frame now
    assert '<link name="camera_link"><pose relative_to="_merged__mono_cam__model__">' in plain
    assert (
        '<frame name="_merged__x500_base__model__" attached_to="base_link">\n      <pose relative_to="_merged__x500__model__">0 0 0.24 0 0 0</pose>'
        in plain
    )


URDF_WORLD = """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <include><uri>arm.urdf</uri><name>arm1</name><pose>1 2 0 0 0 0.5</pose></include>
    <include><uri>fixed_chain.urdf</uri><pose>0 -2 0 0 0 0</pose></include>
    <model name="holder">
      <link name="base"/>
      <include><uri>valid.urdf</uri><name>inner</name><pose relative_to="base">0 0 1 0 0 0</pose></include>
    </model>
  </world>
</sdf>
"""


def test_included_urdf_files_are_converted_and_placed(tmp_path):
    fixtures = ROOT / "tests" / "urdf" / "fixtures"
    for name in ("arm.urdf", "fixed_chain.urdf", "checks/valid.urdf"):
        (tmp_path / Path(name).name).write_text((fixtures / name).read_text())
    world = tmp_path / "world.sdf"
    world.write_text(URDF_WORLD)
    assert round_trip(world) and round_trip(world, resolve_poses=True, degrees=True)
    original = analyze(URDF_WORLD, str(world))
    out = printed(original, urdf_to_sdf=urdf_to_sdf)
    assert '<model name="arm1">' in out and '<model name="inner">' in out and "<include" not in out
    # a <gazebo> joint naming a lumped link names the link it went into, as libsdformat writes it
    assert re.search(r'<joint name="grip" type="ball">\s*<parent>pan_link</parent>\s*<child>base</child>', out)
    with pytest.raises(PrintRefused, match="URDF converter"):
        printed(original)


def test_experimental_params_are_applied_to_the_included_files(shared):
    path = (
        SHARED
        / "conformance"
        / "files"
        / "test"
        / "integration"
        / "model"
        / "nested_include"
        / "test_nested_include.sdf"
    )
    assert round_trip(path) and round_trip(path, resolve_poses=True, degrees=True)
    original = analyze(path.read_text(), str(path))
    out = printed(original)
    assert "params" not in out and "element_id" not in out and "action=" not in out
    again = analyze(out, str(path.with_name("printed.sdf")))
    chassis = next(n for n in again.graphs.nodes if n.kind == "link" and n.name == "chassis").entity.element
    names = [(c.tag, c.get("name")) for c in chassis.children if c.get("name")]
    assert ("visual", "lidar_visual") not in names and ("sensor", "lidar") not in names  # removed
    assert ("visual", "camera_visual") in names  # added
    camera_link = next(n for n in again.graphs.nodes if n.kind == "link" and n.name == "top_camera_link").entity.element
    sensor = next(c for c in camera_link.children if c.tag == "sensor")
    assert (
        sensor.child("pose").text.split() == ["0", "0", "0", "0", "0", "3.14"]
        and sensor.child("update_rate").text == "60"
    )  # modified
    visual = next(c for c in camera_link.children if c.get("name") == "camera_visual")
    assert visual.child("geometry").child("sphere") is not None  # replaced
    assert visual.child("material").child("ambient").text == "0 0 1 1"  # modified
    assert any(c.get("name") == "camera_collision" for c in camera_link.children)  # added through two includes


def test_flattened_1_7_worlds_are_unflattened_as_libsdformat_does(shared):
    path = SHARED / "conformance" / "files" / "test" / "integration" / "partially_flattened.sdf"
    assert round_trip(path) and round_trip(path, resolve_poses=True, degrees=True)
    out = printed(analyze(path.read_text(), str(path)))
    assert not re.search(r"name=[\"'][^\"']*::", out)  # no flattened name is left
    assert re.search(
        r'<model name="M1" canonical_link="L1">\s*<pose relative_to=\'__model__\'>10 0 0 0 -0 1.5708</pose>', out
    )
    assert "M1::__model__" not in out and "<link name='L1'>" in out and "<xyz expressed_in='F2'>0 0 1</xyz>" in out
    again = analyze(out, str(path.with_name("printed.sdf")))
    assert again.version == "1.12" and not again.has_errors


def test_resolve_poses_applies_a_root_models_placement_frame():
    text = (
        '<sdf version="1.8"><model name="m" placement_frame="b"><pose>0 0 10 0 0 0</pose>'
        '<link name="a"><pose>1 0 0 0 0 0</pose></link><link name="b"><pose>0 2 0 0 0 1.5707963267948966</pose></link></model></sdf>'
    )

    def model_pose(out: str) -> list[float]:
        return [float(v) for v in re.search(r'<model name="m">\s*<pose>([^<]*)</pose>', out).group(1).split()]

    # libsdformat places the model so that b lands on the written pose: b is at (0 2 0, yaw 90 deg) in the
    # model, so the model frame is at (-2 0 10, yaw -90 deg)
    expected = [-2, 0, 10, 0, 0, -math.pi / 2]
    original = analyze(text, "/tmp/placed.sdf")
    assert not original.has_errors
    out = printed(original, resolve_poses=True)
    assert "placement_frame" not in out
    assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(model_pose(out), expected)), out
    assert printed(original).count('placement_frame="b"') == 1  # without --resolve-poses the attribute stays
    bare = printed(analyze(text.replace("<pose>0 0 10 0 0 0</pose>", ""), "/tmp/placed.sdf"), resolve_poses=True)
    assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(model_pose(bare), [-2, 0, 0, 0, 0, -math.pi / 2])), bare


def test_printed_documents_have_libsdformats_poses(oracle, shared, tmp_path):
    """libsdformat 12 (SDFormat up to 1.9) loads clean documents and their printed copies (as 1.9,
    poses resolved, in degrees) and resolves every model, link, joint and frame to the same pose.
    (All 146 that libsdformat 12 loads agreed when this was written; the test takes a subset.)"""
    import json
    import os

    def poses(path: str, env) -> tuple[list, dict]:
        out = json.loads(subprocess.run([oracle, path], capture_output=True, text=True, env=env, timeout=180).stdout)
        return out["errors"], {(p["scope"], p["kind"], p["name"]): p["relative_to_scope"] for p in out["poses"]}

    def close(a, b) -> bool:
        if a is None or b is None:
            return a is b
        ra, rb = rotation_matrix(quat_from_rpy(*a[3:])), rotation_matrix(quat_from_rpy(*b[3:]))
        return all(math.isclose(x, y, abs_tol=1e-7) for x, y in zip(a[:3], b[:3])) and all(
            math.isclose(x, y, abs_tol=1e-7) for r1, r2 in zip(ra, rb) for x, y in zip(r1, r2)
        )

    compared = 0
    for i, path in enumerate(corpus(shared=True)):
        text, problems = decode_source(path.read_bytes())
        a = analyze(text, str(path))
        if problems or a.has_errors or a.graphs is None or tuple(int(v) for v in a.version.split(".")) > (1, 9):
            continue
        # (to keep the suite fast: every document whose printing restructures it, and a tenth of the others)
        if not (
            a.graphs.included
            or a.version in ("1.3", "1.4", "1.5", "1.6", "1.7")
            or "placement_frame" in text
            or i % 10 == 0
        ):
            continue
        env = dict(os.environ, SDF_PATH=str(path.parent.parent), GZ_SIM_RESOURCE_PATH=str(path.parent.parent))
        errors, before = poses(str(path), env)
        if errors:
            continue  # libsdformat 12 does not load it (a newer feature): nothing to compare
        copy = tmp_path / f"{i}-{path.name}"
        copy.write_text(printed(a, version="1.9", resolve_poses=True, degrees=True, urdf_to_sdf=urdf_to_sdf))
        errors, after = poses(str(copy), env)
        assert not errors, (path, errors[:2])
        assert [k for k in before if k not in after or not close(before[k], after[k])] == [], path
        compared += 1
    assert compared >= 50


MERGED_VISUAL_A = """<sdf version="1.9"><model name="a">
  <link name="L1">
    <visual name="v"><pose relative_to="__model__">1 0 0 0 0 0</pose><geometry><box><size>1 1 1</size></box></geometry></visual>
  </link>
</model></sdf>
"""
MERGED_VISUAL_TOP = """<sdf version="1.9"><model name="top">
  <link name="base"/>
  <include merge="true"><uri>a.sdf</uri><pose>0 0 5 0 0 1.5707963267948966</pose></include>
</model></sdf>
"""


def test_a_merged_links_visual_relative_to_model_means_the_model_it_joined(tmp_path):
    # libsdformat's merge rewrites __model__ only in the merged links', joints' and frames' own
    # poses (parser.cc); a visual's relative_to="__model__" then names the including model's frame.
    (tmp_path / "a.sdf").write_text(MERGED_VISUAL_A)
    top = tmp_path / "top.sdf"
    top.write_text(MERGED_VISUAL_TOP)
    a = analyze(MERGED_VISUAL_TOP, str(top))
    assert not a.has_errors, a.diagnostics
    (visual,) = [v for v in inner_poses(a) if v[1] == "visual"]
    p, rot = inner_poses(a)[visual]
    assert max(abs(x - y) for x, y in zip(p, (1, 0, 0))) < 1e-9
    assert max(abs(rot[i][j] - (1.0 if i == j else 0.0)) for i in range(3) for j in range(3)) < 1e-9
    out = printed(a, resolve_poses=True)
    assert re.search(r'<visual name="v"><pose relative_to="__model__">1 0 0 0 0 0</pose>', out), out
