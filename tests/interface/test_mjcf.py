"""The built-in MJCF reader: MuJoCo's conventions checked against MuJoCo itself (the PyPI ``mujoco``
package, a test-only oracle: those tests skip without it), an MJCF model included by SDFormat, and
the MJCF reader's diagnostics located in the MJCF file."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from sdformat_lsp.cli import load_file
from sdformat_lsp.diagnostics import Severity
from sdformat_lsp.model.transform import Transform, quat_from_rpy, rotation_matrix
from sdformat_lsp.semantics import Options
from sdformat_lsp.semantics.includes.cache import IncludeCache

MJCF = Path(__file__).resolve().parent / "fixtures" / "mjcf"
FILES = ("conventions.xml", "radians.xml", "mixed_seq.xml", "classes.xml")


def load(path: Path):
    return load_file(str(path), Options(include_cache=IncludeCache()))


def frames(a) -> dict[str, dict]:
    return {f["name"]: f for f in a.frames()}


def close_pose(pose: list[float], p, q_wxyz, tol=1e-9) -> bool:
    got = Transform((pose[0], pose[1], pose[2]), quat_from_rpy(*pose[3:]))
    want = Transform(tuple(float(v) for v in p), tuple(float(v) for v in q_wxyz))
    d = want.inverse() * got
    return max(abs(c) for c in d.p) <= tol and abs(abs(d.q[0]) - 1.0) <= tol


def quat_of_matrix(xmat) -> tuple[float, ...]:
    from sdformat_lsp.interface.pose import quat_from_matrix

    m = [[float(xmat[3 * i + j]) for j in range(3)] for i in range(3)]
    return quat_from_matrix(m)


@pytest.mark.parametrize("name", FILES)
def test_poses_equal_mujocos(name):
    mujoco = pytest.importorskip("mujoco")
    model = mujoco.MjModel.from_xml_path(str(MJCF / name))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    a = load(MJCF / name)
    assert [d for d in a.diagnostics if d.severity <= Severity.WARNING] == []
    everything = frames(a)

    def ours(name: str, kind: str, suffix: str) -> dict:
        # MuJoCo names each kind apart; a name another kind took is NAME.SUFFIX here
        got = everything.get(name)
        return got if got is not None and got["kind"] == kind else everything[f"{name}.{suffix}"]

    checked = 0
    for i in range(1, model.nbody):
        n = model.body(i).name or f"body{i}"
        assert close_pose(ours(n, "link", "body")["pose"], data.xpos[i], data.xquat[i]), n
        checked += 1
    for i in range(model.nsite):
        n = model.site(i).name
        assert close_pose(ours(n, "frame", "site")["pose"], data.site_xpos[i], quat_of_matrix(data.site_xmat[i])), n
        checked += 1
    for i in range(model.ncam):
        n = model.cam(i).name
        assert close_pose(ours(n, "frame", "camera")["pose"], data.cam_xpos[i], quat_of_matrix(data.cam_xmat[i])), n
        checked += 1
    for i in range(model.njnt):
        n = model.joint(i).name
        f = {n: ours(n, "joint", "joint")}
        got = f[n]["pose"][:3]
        assert all(abs(g - float(w)) <= 1e-9 for g, w in zip(got, data.xanchor[i])), n
        body = model.body(int(model.jnt_bodyid[i])).name
        assert f[n]["attached_to"] == body
        checked += 1
    assert checked >= model.nbody - 1


def test_conventions_without_mujoco():
    """Hand-computed: the parts of conventions.xml whose poses are easy to write down."""
    f = frames(load(MJCF / "conventions.xml"))
    # a site of <worldbody> is fixed in the model frame; quat="0 0 0 1" is half a turn about z
    assert close_pose(f["world_marker"]["pose"], (0, 0, 2), (0, 0, 0, 1))
    assert f["world_marker"]["attached_to"] == "base"  # the model frame rides on the canonical (first) body
    # class tool_tip inherits tool's euler and overrides its pos; an own quat wins over the class's euler
    base = f["base"]["pose"]
    tb = Transform((base[0], base[1], base[2]), quat_from_rpy(*base[3:]))
    tip = tb * Transform((0.05, 0, 0.35))
    assert close_pose(f["tip"]["pose"], tip.p, tip.q)
    mount = tb * Transform((0, 0, 0.3), quat_from_rpy(0, math.pi / 2, 0))
    assert close_pose(f["tool_mount"]["pose"], mount.p, mount.q)
    # the unnamed body gets MuJoCo's body index as its name
    assert f["in_unnamed"]["attached_to"] == "body5"
    # a site named as a joint (MuJoCo names each kind apart) is NAME.site
    assert (
        f["lift"]["kind"] == "joint" and f["lift.site"]["kind"] == "frame" and f["lift.site"]["attached_to"] == "upper"
    )


def test_an_included_mjcf_model_is_part_of_the_including_models_frame_graph(tmp_path):
    for n in ("conventions.xml", "gripper_part.xml"):
        (tmp_path / n).write_text((MJCF / n).read_text())
    (tmp_path / "w.sdf").write_text(
        '<?xml version="1.0"?>\n<sdf version="1.11">\n  <world name="w">\n'
        "    <include>\n      <uri>conventions.xml</uri>\n      <name>robot</name>\n"
        "      <pose>1 2 3 0 0 0.5</pose>\n      <placement_frame>tip</placement_frame>\n    </include>\n"
        '    <frame name="at_tip" attached_to="robot::tip"><pose relative_to="robot::grip_site">0 0 1 0 0 0</pose></frame>\n'
        '    <frame name="bad" attached_to="robot::no_such_site"/>\n'
        "  </world>\n</sdf>\n"
    )
    a = load(tmp_path / "w.sdf")
    errs = [d for d in a.diagnostics if d.severity == Severity.ERROR]
    assert [d.code for d in errs] == ["FRAME_ATTACHED_TO_INVALID"]
    assert "no_such_site" in a.text[errs[0].span.start : errs[0].span.end]
    f = frames(a)
    # the placement frame 'tip' goes where the include's pose says
    assert close_pose(f["robot::tip"]["pose"], (1, 2, 3), quat_from_rpy(0, 0, 0.5))
    assert f["at_tip"]["attached_to"] == "robot::base"
    # every frame of the MJCF model keeps its pose relative to the others
    standalone = frames(load(tmp_path / "conventions.xml"))

    def tf(pose):
        return Transform((pose[0], pose[1], pose[2]), quat_from_rpy(*pose[3:]))

    shift = tf(f["robot::tip"]["pose"]) * tf(standalone["tip"]["pose"]).inverse()
    for name in ("base", "upper", "lower", "marker", "elbow_cam", "gripper", "grip_site", "lift"):
        want = shift * tf(standalone[name]["pose"])
        assert close_pose(f["robot::" + name]["pose"], want.p, want.q), name
    rec = a.includes[0]
    assert rec.analysis is not None and rec.model is not None and rec.model.name == "robot"
    # definitions point into the MJCF file: the link's name is its body's name attribute
    link = next(lk for lk in rec.model.links if lk.name == "upper")
    text = (tmp_path / "conventions.xml").read_text()
    assert text[link.name_span.start : link.name_span.end] == "upper"


def test_mjcf_mistakes_are_located_in_the_mjcf_file(tmp_path):
    (tmp_path / "bad.xml").write_text(
        '<mujoco>\n  <worldbody>\n    <body name="b" quat="1 0 0 0" euler="0 0 1">\n'
        '      <site name="s" class="nope"/>\n      <site name="t" pos="1 x 2"/>\n'
        '      <include file="missing_part.xml"/>\n    </body>\n  </worldbody>\n</mujoco>\n'
    )
    a = load(tmp_path / "bad.xml")
    got = sorted((d.code, a.text[d.span.start : d.span.end]) for d in a.diagnostics)
    assert got == [
        ("MJCF_ERROR", "0 0 1"),
        ("MJCF_ERROR", "1 x 2"),
        ("MJCF_ERROR", "missing_part.xml"),
        ("MJCF_ERROR", "nope"),
    ]
    (tmp_path / "w.sdf").write_text(
        '<sdf version="1.11"><model name="m"><include><uri>bad.xml</uri></include></model></sdf>'
    )
    w = load(tmp_path / "w.sdf")
    (d,) = [d for d in w.diagnostics if d.severity == Severity.ERROR]
    assert d.code == "MJCF_ERROR" and "4 errors in the included file bad.xml" in d.message
    assert all(r.path == str(tmp_path / "bad.xml") for r in d.related)


def test_hostile_mjcf_never_crashes(tmp_path):
    cases = {
        "self_include.xml": '<mujoco><worldbody><include file="self_include.xml"/></worldbody></mujoco>',
        "empty.xml": "<mujoco/>",
        "half.xml": '<mujoco><worldbody><body name="a" pos="1 2',
        "zero.xml": '<mujoco><worldbody><body name="a" quat="0 0 0 0" xyaxes="0 0 0 0 0 0"/>'
        '<body name="a"/><body zaxis="0 0 0"/></worldbody></mujoco>',
        "deep.xml": "<mujoco><worldbody>" + '<body pos="0 0 1">' * 3000 + "</body>" * 3000 + "</worldbody></mujoco>",
        "cycle_default.xml": '<mujoco><default><default class="a"><default class="a"/></default></default>'
        '<worldbody><body childclass="zz"><site name="s" class="a"/></body></worldbody></mujoco>',
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        a = load(tmp_path / name)
        assert not [d for d in a.diagnostics if d.code == "INTERNAL_ERROR"], name
    deep = frames(load(tmp_path / "deep.xml"))
    assert abs(deep["body3000"]["pose"][2] - 3000) < 1e-6


def test_rotation_helpers_agree():
    q = quat_from_rpy(0.1, 0.2, 0.3)
    r = rotation_matrix(q)
    assert quat_of_matrix([v for row in r for v in row]) == pytest.approx(q, abs=1e-12)


def test_drake_like_composition_of_mjcf_urdf_and_sdformat():
    """Drake's interface_api_test/top.sdf, on fixtures of our own (fixtures/drake_like)."""
    a = load(MJCF.parent / "drake_like" / "top.sdf")
    assert [d for d in a.diagnostics if d.severity <= Severity.WARNING] == []
    f = frames(a)
    arm = Transform((1.0, 0.0, 0.0))  # //include/pose relative_to torso (at the model's origin)
    deg = math.radians
    # MuJoCo's euler="10 20 30" (degrees, eulerseq xyz: axes moving with the frame) is Rx * Ry * Rz
    rx, ry, rz = (
        Transform((0, 0, 0), quat_from_rpy(deg(10), 0, 0)),
        Transform((0, 0, 0), quat_from_rpy(0, deg(20), 0)),
        Transform((0, 0, 0), quat_from_rpy(0, 0, deg(30))),
    )
    l2 = arm * Transform((0.5, 1.0, 1.5)) * rx * ry * rz
    for name, want in (
        ("arm", arm),
        ("arm::L1", arm),
        ("arm::L2", l2),
        ("arm::tool_site", l2 * Transform((0, 0, 0.2))),
        ("tactile_sensor", l2 * Transform((0, 0, 0.2))),
        ("arm::J1", l2),
        ("extra_arm", arm * Transform((0, 2, 0))),
        ("extra_arm::L2", arm * Transform((0, 2, 0.7), quat_from_rpy(0, 0, 0.25))),
    ):
        assert close_pose(f[name]["pose"], want.p, want.q), name
    assert f["tactile_sensor"]["attached_to"] == "tactile_sensor::sensor_link"
    assert f["arm::tool_site"]["attached_to"] == "arm::L2"
    assert f["arm_attach"]["attached_to"] == "arm::L1"


def test_frame_view_draws_mjcf_primitive_geoms_and_graph_draws_the_included_frames(tmp_path, capsys):
    from sdformat_lsp.cli import main
    from sdformat_lsp.features.frame_view import frame_view

    a = load(MJCF.parent / "drake_like" / "top.sdf")
    view = frame_view(a)
    assert view is not None
    by_name = {e.name: e for e in view.frames}
    (sphere,) = by_name["arm::L1"].visuals
    assert sphere.shape == "sphere" and sphere.size == (0.3,)
    (capsule,) = by_name["arm::L2"].visuals
    assert capsule.shape == "capsule" and capsule.size == pytest.approx((0.05, 0.4))
    # fromto="0 0 0 0 0 0.4": centred at z 0.2 of L2, its axis along L2's z
    l2 = by_name["arm::L2"].pose
    mid = l2 * Transform((0, 0, 0.2))
    assert all(abs(x - y) < 1e-9 for x, y in zip(capsule.pose.p, mid.p))
    assert by_name["arm::L2"].path == str(MJCF.parent / "drake_like" / "arm.xml")
    assert main(["graph", str(MJCF.parent / "drake_like" / "top.sdf")]) == 0
    dot = capsys.readouterr().out
    assert '"arm::tool_site"' in dot or "arm::tool_site" in dot


def test_the_frame_views_mjcf_readers_live_and_die_with_the_analysis():
    """Derived data of an analysis is kept on it (FrameGraphs.memo), not in a module-level table."""
    import gc
    import weakref

    from sdformat_lsp.features.frame_view import frame_view

    a = load(MJCF.parent / "drake_like" / "top.sdf")
    first = frame_view(a)
    assert a.graphs is not None
    (readers,) = [v for k, v in a.graphs.memo.items() if k.startswith("features.frame_view")]
    kept = list(readers.values())
    assert kept and all(root.tag == "mujoco" for root, _ in kept)
    again = frame_view(a)
    assert first is not None and again is not None and first.frames == again.frames
    assert [r for _, r in readers.values()] == [r for _, r in kept]  # read once per analysis
    gone = [weakref.ref(r) for _, r in kept]
    del a, first, again, readers, kept
    gc.collect()
    assert all(ref() is None for ref in gone)


def test_an_mjcf_include_keeps_the_children_of_any_root_and_aimed_cameras_keep_their_written_frame(tmp_path):
    (tmp_path / "part.xml").write_text(
        '<mujocoinclude><body name="p" pos="0 0 1"><geom size="0.1"/></body></mujocoinclude>'
    )
    (tmp_path / "m.xml").write_text(
        '<mujoco><worldbody><body name="b"><geom size="0.1"/><include file="part.xml"/></body>'
        '<camera name="c" mode="targetbody" target="b" pos="1 0 0" euler="0 0 90"/></worldbody></mujoco>'
    )
    a = load(tmp_path / "m.xml")
    assert [d for d in a.diagnostics if d.severity <= Severity.WARNING] == []
    f = frames(a)
    assert close_pose(f["p"]["pose"], (0, 0, 1), (1, 0, 0, 0))
    assert close_pose(f["c"]["pose"], (1, 0, 0), quat_from_rpy(0, 0, math.pi / 2))


def test_a_change_to_a_file_an_included_model_was_read_from_reads_it_again(tmp_path):
    import os
    import time

    (tmp_path / "part.xml").write_text('<mujoco><body name="p" pos="0 0 1"><geom size="0.1"/></body></mujoco>')
    (tmp_path / "m.xml").write_text(
        '<mujoco><worldbody><body name="b"><geom size="0.1"/><include file="part.xml"/></body></worldbody></mujoco>'
    )
    (tmp_path / "w.sdf").write_text(
        '<sdf version="1.11"><model name="top"><include><uri>m.xml</uri><name>r</name></include></model></sdf>'
    )
    cache = IncludeCache()
    first = frames(load_file(str(tmp_path / "w.sdf"), Options(include_cache=cache)))
    assert close_pose(first["r::p"]["pose"], (0, 0, 1), (1, 0, 0, 0))
    (tmp_path / "part.xml").write_text('<mujoco><body name="p" pos="0 0 2.5"><geom size="0.1"/></body></mujoco>')
    later = time.time() + 5
    os.utime(tmp_path / "part.xml", (later, later))
    again = frames(load_file(str(tmp_path / "w.sdf"), Options(include_cache=cache)))
    assert close_pose(again["r::p"]["pose"], (0, 0, 2.5), (1, 0, 0, 0))
