"""URDF files analysed through libsdformat's conversion: frames, poses, lumping, diagnostics."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
if str(ROOT / "server") not in sys.path:
    sys.path.insert(0, str(ROOT / "server"))

from sdformat_lsp.diagnostics import Severity  # noqa: E402
from sdformat_lsp.semantics import analyze  # noqa: E402
from sdformat_lsp.semantics.pose import Transform, rotation_matrix  # noqa: E402
from sdformat_lsp.formats.urdf import urdf_to_model  # noqa: E402
from sdformat_lsp.xml import parse  # noqa: E402

HALF_PI = math.pi / 2
INERTIAL = '<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'


def load(name: str):
    text = (FIXTURES / name).read_text()
    return text, analyze(text, str(FIXTURES / name))


def frames(a) -> dict[str, dict]:
    return {f["name"]: f for f in a.frames()}


def assert_pose(actual: list[float], expected: list[float]) -> None:
    ta, te = Transform.from_xyzrpy(*actual), Transform.from_xyzrpy(*expected)
    assert all(abs(x - y) < 1e-12 for x, y in zip(ta.p, te.p)), (actual, expected)
    ma, me = rotation_matrix(ta.q), rotation_matrix(te.q)
    assert all(abs(ma[i][j] - me[i][j]) < 1e-12 for i in range(3) for j in range(3)), (actual, expected)


def errors(a) -> list:
    return [d for d in a.diagnostics if d.severity == Severity.ERROR]


def text_at(text: str, span) -> str:
    return text[span.start : span.end]


# -- a small arm -----------------------------------------------------------


def test_arm_is_valid_sdformat_1_11():
    _, a = load("arm.urdf")
    assert a.version == "1.11"
    assert a.diagnostics == []
    assert a.document is not None and a.document.models[0].name == "small_arm"


def test_arm_joint_origins_become_child_link_poses():
    _, a = load("arm.urdf")
    f = frames(a)
    assert set(f) == {"__model__", "base_link", "shoulder", "upper_arm", "elbow", "forearm", "wrist", "hand"}
    assert f["__model__"]["attached_to"] == "base_link"
    assert_pose(f["base_link"]["pose"], [0, 0, 0, 0, 0, 0])
    assert_pose(f["upper_arm"]["pose"], [0, 0, 1, 0, 0, HALF_PI])
    # elbow: 1 m along upper_arm's x, which points along the model's y
    assert_pose(f["forearm"]["pose"], [0, 1, 1, 0, 0, HALF_PI])
    assert_pose(f["hand"]["pose"], [0, 1.5, 1, HALF_PI, 0, HALF_PI])
    # a joint sits on its child link
    for joint, child in (("shoulder", "upper_arm"), ("elbow", "forearm"), ("wrist", "hand")):
        assert f[joint]["kind"] == "joint"
        assert f[joint]["attached_to"] == child
        assert_pose(f[joint]["pose"], f[child]["pose"])


def test_arm_model_keeps_urdf_spans_and_joint_types():
    text = (FIXTURES / "arm.urdf").read_text()
    model, diags = urdf_to_model(parse(text))
    assert diags == []
    assert model is not None
    assert [l.name for l in model.links] == ["base_link", "upper_arm", "forearm", "hand"]
    joints = {j.name: j for j in model.joints}
    assert {n: j.type for n, j in joints.items()} == {"shoulder": "revolute", "elbow": "revolute", "wrist": "revolute"}
    shoulder = joints["shoulder"]
    assert text_at(text, shoulder.name_span) == "shoulder"
    assert text_at(text, shoulder.parent.span) == "base_link" and shoulder.parent.text == "base_link"
    assert text_at(text, shoulder.child.span) == "upper_arm"
    assert text_at(text, joints["wrist"].mimics[0].span) == "elbow"
    upper = next(l for l in model.links if l.name == "upper_arm")
    assert text_at(text, upper.name_span) == "upper_arm"
    assert upper.pose.element is not None and upper.pose.element.tag == "origin"
    assert upper.pose.values == (0, 0, 1, 0, 0, 1.5707963267948966)
    assert text_at(text, upper.pose.relative_to.span) == "base_link"


def test_reference_resolution_points_at_urdf_text():
    text, a = load("arm.urdf")
    at = text.index('<child link="forearm"') + len('<child link="') + 2
    res = a.resolution_at(at)
    assert res is not None and res.target is not None and res.target.name == "forearm"
    node = a.node_defined_at(text.index('name="forearm"') + 7)
    assert node is not None and node.kind == "link"


# -- fixed-joint lumping ---------------------------------------------------


def _besides_lumped_references(a) -> list:
    """The diagnostics other than the warnings on <gazebo> joints naming lumped links (libsdformat 12 refuses them)."""
    found = [d for d in a.diagnostics if d.data.get("urdf") == "lumped_reference"]
    assert sorted(d.data["libsdformat12"] for d in found) == ["JOINT_CHILD_LINK_INVALID", "JOINT_PARENT_LINK_INVALID"]
    assert all(d.code == "URDF_LUMPED_REFERENCE" and not d.is_error for d in found)
    return [d for d in a.diagnostics if d not in found]


def test_fixed_chain_is_lumped_into_frames():
    _, a = load("fixed_chain.urdf")
    assert _besides_lumped_references(a) == []
    f = frames(a)
    assert {n for n, x in f.items() if x["kind"] == "link"} == {"base", "pan_link"}
    for name in ("mount_joint", "mount", "cam_joint", "camera"):
        assert f[name]["kind"] == "frame", name
        assert f[name]["attached_to"] == "base", name
    assert_pose(f["mount_joint"]["pose"], [0.5, 0, 0, 0, 0, 0])
    assert_pose(f["mount"]["pose"], [0.5, 0, 0, 0, 0, 0])
    assert_pose(f["cam_joint"]["pose"], [0.5, 0, 0.2, 0, 0, HALF_PI])
    assert_pose(f["camera"]["pose"], [0.5, 0, 0.2, 0, 0, HALF_PI])
    # the revolute joint below the lumped links keeps its place
    assert f["pan"]["kind"] == "joint" and f["pan"]["attached_to"] == "pan_link"
    assert_pose(f["pan_link"]["pose"], [0.5, 0.1, 0.2, 0, 0, HALF_PI])
    assert_pose(f["pan"]["pose"], [0.5, 0.1, 0.2, 0, 0, HALF_PI])


def test_gazebo_blobs_join_the_model_and_follow_lumping():
    text, a = load("fixed_chain.urdf")
    f = frames(a)
    assert f["tool_tip"]["attached_to"] == "pan_link"
    assert_pose(f["tool_tip"]["pose"], [0.5, 0.1, 0.25, 0, 0, HALF_PI])
    joints = {j.name: j for j in a.document.models[0].joints}
    # <parent>camera</parent> names a lumped link: it stays a reference to the frame camera became
    assert joints["extra"].parent.text == "camera" and text_at(text, joints["extra"].parent.span) == "camera"
    assert f["extra"]["attached_to"] == "pan_link"
    assert_pose(f["extra"]["pose"], f["pan_link"]["pose"])
    # <child>camera</child>: libsdformat makes the joint's child the link camera was lumped into
    assert text_at(text, joints["grip"].child.span) == "camera"
    assert f["grip"]["attached_to"] == "base"
    assert_pose(f["grip"]["pose"], [0, 0, 0, 0, 0, 0])


def test_references_and_rename_reach_lumped_joints():
    from sdformat_lsp.features.references import references
    from sdformat_lsp.features.rename import rename

    text, a = load("fixed_chain.urdf")
    at = text.index('<link name="mount"') + len('<link name="') + 1
    spots = sorted(text_at(text, l.span) + "@" + str(a.lines.position(l.span.start)[0] + 1) for l in references(a, at))
    lines = text.splitlines()
    where = {i + 1 for i, line in enumerate(lines) if '"mount"' in line}
    assert spots == sorted(f"mount@{n}" for n in where)  # <link name>, <child link> and <parent link>
    edits = rename(a, at, "bracket")
    new = text
    for e in sorted(edits, key=lambda e: -e.span.start):
        new = new[: e.span.start] + e.new_text + new[e.span.end :]
    assert '"mount"' not in new
    b = analyze(new)
    assert _besides_lumped_references(b) == [] and frames(b)["bracket"]["kind"] == "frame"


def _chain(extension: str) -> str:
    return (
        f'<robot name="r"><link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>'
        '<joint name="j" type="fixed"><origin xyz="1 0 0"/><parent link="a"/><child link="b"/></joint>'
        f"{extension}</robot>"
    )


def test_preserve_fixed_joint_keeps_a_fixed_joint():
    a = analyze(_chain('<gazebo reference="j"><preserveFixedJoint>true</preserveFixedJoint></gazebo>'))
    assert errors(a) == []
    f = frames(a)
    assert f["b"]["kind"] == "link" and f["j"]["kind"] == "joint"
    assert a.document.models[0].joints[0].type == "fixed"
    assert_pose(f["b"]["pose"], [1, 0, 0, 0, 0, 0])


def test_disable_fixed_joint_lumping_makes_a_revolute_joint():
    a = analyze(_chain('<gazebo reference="j"><disableFixedJointLumping>1</disableFixedJointLumping></gazebo>'))
    assert errors(a) == []
    assert frames(a)["j"]["kind"] == "joint"
    assert a.document.models[0].joints[0].type == "revolute"
    both = analyze(
        _chain(
            '<gazebo reference="j"><disableFixedJointLumping>yes</disableFixedJointLumping>'
            "<preserveFixedJoint>true</preserveFixedJoint></gazebo>"
        )
    )
    assert both.document.models[0].joints[0].type == "fixed"  # preserveFixedJoint wins


def test_lumped_mass_saves_a_massless_parent():
    text = (
        '<robot name="r"><link name="base"/><link name="body">' + INERTIAL + "</link>"
        '<joint name="j" type="fixed"><parent link="base"/><child link="body"/></joint></robot>'
    )
    a = analyze(text)
    assert a.diagnostics == []
    assert frames(a)["base"]["kind"] == "link"


def test_static_extension():
    a = analyze(_chain("<gazebo><static>true</static></gazebo>"))
    assert a.document.models[0].static
    assert frames(a)["__model__"]["attached_to"] == "__model__"


# -- world as root ---------------------------------------------------------


def test_world_root_keeps_the_joint_to_the_world():
    _, a = load("world_root.urdf")
    assert a.diagnostics == []
    f = frames(a)
    assert "world" not in f
    assert f["anchor"]["kind"] == "joint" and f["anchor"]["attached_to"] == "base"
    assert f["__model__"]["attached_to"] == "base"
    assert_pose(f["base"]["pose"], [0, 0, 0.5, 0, 0, 0])
    assert_pose(f["anchor"]["pose"], [0, 0, 0.5, 0, 0, 0])
    assert_pose(f["lid"]["pose"], [0, 0, 1.5, 0, HALF_PI, 0])
    anchor = next(j for j in a.document.models[0].joints if j.name == "anchor")
    assert anchor.type == "fixed" and anchor.parent.text == "world"


# -- problems --------------------------------------------------------------


def test_broken_urdf_one_diagnostic_per_mistake():
    text, a = load("broken.urdf")
    got = sorted((d.code, d.severity, text_at(text, d.span)) for d in a.diagnostics)
    assert got == sorted(
        [
            ("PARSING_ERROR", Severity.ERROR, "revolute"),  # j1 has no <limit>
            ("PARSING_ERROR", Severity.ERROR, "hadn"),  # unknown child link
            ("LINK_INERTIA_INVALID", Severity.WARNING, "sensor"),  # massless, dropped
            ("DUPLICATE_NAME", Severity.ERROR, "arm"),  # link and joint 'arm'
        ]
    ), a.diagnostics
    unknown = next(d for d in a.diagnostics if text_at(text, d.span) == "hadn")
    assert "did you mean 'hand'?" in unknown.message
    dup = next(d for d in a.diagnostics if d.code == "DUPLICATE_NAME")
    assert dup.related and text_at(text, dup.related[0].span) == "arm"
    # what could be read is still analysed
    assert {"base", "arm", "hand"} <= set(frames(a))
    assert "sensor" not in frames(a)


def test_massless_link_drops_its_subtree():
    text = (
        f'<robot name="r"><link name="a">{INERTIAL}</link><link name="b"/><link name="c">{INERTIAL}</link>'
        '<joint name="ab" type="continuous"><parent link="a"/><child link="b"/></joint>'
        '<joint name="bc" type="continuous"><parent link="b"/><child link="c"/></joint></robot>'
    )
    a = analyze(text)
    assert [(d.code, text_at(text, d.span)) for d in a.diagnostics] == [("LINK_INERTIA_INVALID", "b")]
    assert "with the 1 link below it" in a.diagnostics[0].message
    assert set(frames(a)) == {"__model__", "a"}


def test_all_links_massless_is_a_model_without_link():
    # one cause, one diagnostic: the link without mass, an error because the model is left without a link
    text = '<robot name="r"><link name="a"/></robot>'
    a = analyze(text)
    assert [(d.code, d.is_error, text_at(text, d.span)) for d in a.diagnostics] == [("LINK_INERTIA_INVALID", True, "a")]
    assert "left without a link" in a.diagnostics[0].message


def test_a_root_link_without_mass_is_one_error_with_its_consequences_related():
    """A URDF written for RViz (no <inertial> on the root): libsdformat drops every link and reports the
    model empty and each frame fixed joints left on the dropped links; here that is one error at the root."""
    text = (
        '<robot name="r"><link name="base"/><link name="arm"/><link name="tool"/><link name="tip"/>'
        '<joint name="j1" type="revolute"><parent link="base"/><child link="arm"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        '<joint name="j2" type="fixed"><parent link="arm"/><child link="tool"/></joint>'
        '<joint name="j3" type="fixed"><parent link="tool"/><child link="tip"/></joint></robot>'
    )
    a = analyze(text)
    assert [(d.code, d.is_error, text_at(text, d.span)) for d in a.diagnostics] == [
        ("LINK_INERTIA_INVALID", True, "base")
    ]
    d = a.diagnostics[0]
    # lumping 'tool' and 'tip' leaves frames tool -> arm, j2 -> tool, tip -> tool and j3 -> tip: the first
    # names a link that is gone, the others name those frames
    assert "with the 3 links below it" in d.message and "1 frame that fixed joints leave" in d.message
    assert [text_at(text, r.span) for r in d.related] == ["arm"]
    assert all("left out" in r.message for r in d.related)


def test_two_roots_and_loops():
    text = f'<robot name="r"><link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link></robot>'
    a = analyze(text)
    assert [(d.code, text_at(text, d.span)) for d in errors(a)] == [("PARSING_ERROR", "b")]
    assert "more than one root" in errors(a)[0].message
    loop = (
        f'<robot name="r"><link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>'
        '<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>'
        '<joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint></robot>'
    )
    a = analyze(loop)
    assert [d.code for d in errors(a)] == ["PARSING_ERROR"]
    assert "loop" in errors(a)[0].message


def test_joint_problems_are_urdf_errors():
    base = f'<link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>'
    cases = {
        '<joint name="j" type="hinge"><parent link="a"/><child link="b"/></joint>': "hinge",
        '<joint name="j"><parent link="a"/><child link="b"/></joint>': "j",
        '<joint name="j" type="fixed"><origin xyz="1 2"/><parent link="a"/><child link="b"/></joint>': "1 2",
        '<joint name="j" type="fixed"><parent link="a"/></joint>': "j",
        '<joint type="fixed"><parent link="a"/><child link="b"/></joint>': "joint",
        '<joint name="j" type="prismatic"><parent link="a"/><child link="b"/><limit effort="1"/></joint>': "limit",
    }
    for joint, at in cases.items():
        text = f'<robot name="r">{base}{joint}</robot>'
        a = analyze(text)
        found = [(d.code, text_at(text, d.span)) for d in errors(a)]
        assert found == [("PARSING_ERROR", at)], (joint, found)


def test_floating_joint_has_no_sdformat_counterpart():
    text = (
        f'<robot name="r"><link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>'
        '<joint name="j" type="floating"><parent link="a"/><child link="b"/></joint></robot>'
    )
    a = analyze(text)
    assert [(d.code, text_at(text, d.span)) for d in errors(a)] == [("POSE_RELATIVE_TO_INVALID", "floating")]


def test_broken_link_parts_are_warnings():
    text = '<robot name="r"><link name="a"><inertial><mass value="2"/></inertial><visual><geometry/></visual></link></robot>'
    a = analyze(text)
    assert errors(a) == []
    assert [d.code for d in a.diagnostics] == ["URDF_LINK_INVALID"]
    assert frames(a)["a"]["kind"] == "link"  # the mass was read before the missing <inertia>


def test_robot_origin_is_the_model_pose_and_xacro_is_skipped():
    a = analyze(f'<robot name="r"><origin xyz="1 2 3"/><link name="a">{INERTIAL}</link></robot>')
    assert a.document.models[0].pose.values == (1, 2, 3, 0, 0, 0)
    x = analyze(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:property name="p" value="1"/></robot>'
    )
    # a template is expanded (issue 22); one that only defines properties is a library, no robot by itself
    assert x.xacro is not None and x.graphs is None and x.diagnostics == []


def test_not_a_robot():
    assert urdf_to_model(parse('<sdf version="1.11"><model name="m"/></sdf>')) == (None, [])


def test_check_cli_on_urdf():
    r = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "check", "--frames", str(FIXTURES / "fixed_chain.urdf")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "server"), "PATH": ""},
        timeout=60,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert (
        r.stdout.count("warning[URDF_LUMPED_REFERENCE]") == 2 and "names 'camera' as its parent" in r.stdout
    )  # libsdformat 12 refuses
    assert "frame camera" in r.stdout and "attached to base" in r.stdout
    r = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "check", str(FIXTURES / "broken.urdf")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "server"), "PATH": ""},
        timeout=60,
    )
    assert r.returncode == 1
    assert "error[PARSING_ERROR]" in r.stdout


# -- libsdformat's own URDF files -------------------------------------------


def test_libsdformat_urdf_files_agree(shared):
    import json

    from sdformat_lsp.cli import load_file
    from sdformat_lsp.semantics import Options

    expected = json.loads((shared / "conformance" / "expected.json").read_text())["files"]
    names = [n for n in expected if n.endswith(".urdf")]
    assert len(names) >= 20
    for name in names:
        exp = expected[name]
        a = load_file(str(shared / "conformance" / "files" / name), Options())
        assert (not errors(a)) == exp["valid"], name
        assert a.version == exp["sdf_version"], name
        ours = frames(a)
        assert set(ours) == {f["name"] for f in exp["frames"]}, name
        for e in exp["frames"]:
            o = ours[e["name"]]
            assert o["kind"] == e["kind"] and o["attached_to"] == e["attached_to"], (name, e, o)
            te, to = Transform.from_xyzrpy(*e["pose"]), Transform.from_xyzrpy(*o["pose"])
            assert all(abs(x - y) <= 1e-9 for x, y in zip(te.p, to.p)), (name, e, o)
            me, mo = rotation_matrix(te.q), rotation_matrix(to.q)
            assert all(abs(me[i][j] - mo[i][j]) <= 1e-9 for i in range(3) for j in range(3)), (name, e, o)


@pytest.mark.parametrize("name", ["arm.urdf", "fixed_chain.urdf", "world_root.urdf", "broken.urdf"])
def test_fixtures_never_raise_on_any_prefix(name):
    text = (FIXTURES / name).read_text()
    for cut in range(0, len(text), 37):
        analyze(text[:cut])
