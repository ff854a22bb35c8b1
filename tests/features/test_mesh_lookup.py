"""A mesh that is not found is one warning on the URI that names it, saying where it was looked for
(SDFormat <uri> and URDF filename), and the 3D view has the same answer for it."""

from __future__ import annotations

from sdformat_lsp.features.frame_view import frame_view
from sdformat_lsp.semantics.analysis import Options, analyze

SDF = """<sdf version="1.9"><model name="robot"><link name="l">
  <visual name="a"><geometry><mesh><uri>model://robot/meshes/ok.stl</uri></mesh></geometry></visual>
  <visual name="b"><geometry><mesh><uri>model://robot/meshes/gone.dae</uri></mesh></geometry></visual>
  <visual name="b2"><geometry><mesh><uri>model://robot/meshes/gone.dae</uri></mesh></geometry></visual>
  <collision name="c"><geometry><mesh><uri>meshes/ok.stl</uri></mesh></geometry></collision>
  <collision name="d"><geometry><mesh><uri>model://elsewhere/x.stl</uri></mesh></geometry></collision>
  <collision name="e"><geometry><mesh><uri>meshes</uri></mesh></geometry></collision>
  <collision name="f"><geometry><mesh><uri>https://fuel.gazebosim.org/1.0/o/models/m/1/files/meshes/x.dae</uri></mesh></geometry></collision>
</link></model></sdf>"""


def layout(tmp_path):
    robot = tmp_path / "models" / "robot"
    (robot / "meshes").mkdir(parents=True)
    (robot / "meshes" / "ok.stl").write_text("solid x\nendsolid x\n")
    (robot / "model.config").write_text("<model><sdf version='1.9'>model.sdf</sdf></model>")
    (robot / "model.sdf").write_text(SDF)
    return robot / "model.sdf"


def test_missing_meshes_are_warned_on_their_uri_with_the_places_searched(tmp_path):
    path = layout(tmp_path)
    a = analyze(SDF, str(path), Options(schema=False))
    got = [(d.code, a.text[d.span.start : d.span.end], d.message) for d in a.diagnostics if d.code == "MESH_LOOKUP"]
    assert [g[1] for g in got] == [
        "model://robot/meshes/gone.dae",  # named twice: one warning, the second place related
        "model://elsewhere/x.stl",
        "meshes",
    ]
    twice = next(d for d in a.diagnostics if d.code == "MESH_LOOKUP")
    assert [a.text[r.span.start : r.span.end] for r in twice.related] == ["model://robot/meshes/gone.dae"]
    assert "named here and in 1 more place" in twice.message
    assert f"the model directory {tmp_path / 'models' / 'robot'} has no meshes/gone.dae" in got[0][2]
    assert f"searched {tmp_path / 'models'}" in got[1][2] and "GZ_SIM_RESOURCE_PATH" in got[1][2]
    assert "is the directory" in got[2][2]
    assert all(d.severity.name == "WARNING" for d in a.diagnostics if d.code == "MESH_LOOKUP")
    # the view draws the same: the found mesh with its file, the others with the reason
    view = frame_view(a)
    visuals = {v.name: v for f in view.frames for v in f.visuals + f.collisions}
    assert (
        visuals["a"].mesh_path == str(tmp_path / "models" / "robot" / "meshes" / "ok.stl")
        and visuals["a"].problem is None
    )
    assert visuals["b"].mesh_path is None and "not found" in visuals["b"].problem
    # without a path (not saved) nothing is looked up
    assert not [d for d in analyze(SDF, None, Options(schema=False)).diagnostics if d.code == "MESH_LOOKUP"]


def test_urdf_mesh_filenames_are_checked_too(tmp_path):
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "base.stl").write_text("solid x\nendsolid x\n")
    text = """<robot name="r"><link name="base">
  <visual><geometry><mesh filename="meshes/base.stl"/></geometry></visual>
  <collision><geometry><mesh filename="meshes/missing.stl"/></geometry></collision>
  <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>"""
    path = tmp_path / "r.urdf"
    path.write_text(text)
    a = analyze(text, str(path), Options(schema=False))
    got = [(text[d.span.start : d.span.end], d.message) for d in a.diagnostics if d.code == "MESH_LOOKUP"]
    assert [g[0] for g in got] == ["meshes/missing.stl"]
    assert f"searched {tmp_path}" in got[0][1]


def test_meshes_missing_for_one_reason_are_one_warning(tmp_path):
    """A package that is not found, a model that is not found and a meshes directory that does not
    exist are one warning each, on the first mesh, the others related; files missing from a directory
    that exists stay one warning each (each is its own mistake)."""
    robot = tmp_path / "robot"
    (robot / "meshes").mkdir(parents=True)
    (robot / "meshes" / "ok.stl").write_text("solid x\nendsolid x\n")
    uris = [
        "package://nowhere_pkg/meshes/a.dae",
        "package://nowhere_pkg/meshes/b.dae",
        "model://nowhere_model/meshes/a.dae",
        "model://nowhere_model/meshes/b.dae",
        "parts/wheel.dae",
        "parts/deeper/axle.dae",
        "meshes/gone1.stl",
        "meshes/gone2.stl",
        "meshes/ok.stl",
    ]
    visuals = "".join(
        f'<visual name="v{i}"><geometry><mesh><uri>{u}</uri></mesh></geometry></visual>' for i, u in enumerate(uris)
    )
    text = f'<sdf version="1.9"><model name="robot"><link name="l">{visuals}</link></model></sdf>'
    path = robot / "model.sdf"
    path.write_text(text)
    a = analyze(text, str(path), Options(schema=False, package_paths=(str(tmp_path / "pkgs"),)))
    got = [d for d in a.diagnostics if d.code == "MESH_LOOKUP"]
    first = [text[d.span.start : d.span.end] for d in got]
    assert first == [
        "package://nowhere_pkg/meshes/a.dae",
        "model://nowhere_model/meshes/a.dae",
        "parts/wheel.dae",
        "meshes/gone1.stl",
        "meshes/gone2.stl",
    ], first
    related = [[text[r.span.start : r.span.end] for r in d.related] for d in got]
    assert related == [
        ["package://nowhere_pkg/meshes/b.dae"],
        ["model://nowhere_model/meshes/b.dae"],
        ["parts/deeper/axle.dae"],
        [],
        [],
    ]
    assert "1 more mesh of package 'nowhere_pkg' not found for the same reason" in got[0].message
    assert "of model 'nowhere_model'" in got[1].message
    assert f"under the missing directory {robot / 'parts'}" in got[2].message


def test_a_mesh_file_that_is_empty_or_unreadable_is_warned_and_drawn_as_a_placeholder(tmp_path):
    """A mesh file that is found but cannot be read (empty, a FIFO) was silent: no warning, and the 3D view drew
    nothing, without the placeholder (PX4's x500 whose frame mesh was an empty file). gz-common's loaders read
    nothing from it, Gazebo draws nothing; the warning says where the file was found and what is wrong."""
    import os

    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "empty.dae").write_bytes(b"")
    os.mkfifo(tmp_path / "meshes" / "pipe.stl")
    (tmp_path / "meshes" / "ok.stl").write_text("solid x\nendsolid x\n")
    text = """<sdf version="1.9"><model name="m"><link name="l">
  <visual name="a"><geometry><mesh><uri>meshes/empty.dae</uri></mesh></geometry></visual>
  <visual name="b"><geometry><mesh><uri>meshes/pipe.stl</uri></mesh></geometry></visual>
  <visual name="c"><geometry><mesh><uri>meshes/ok.stl</uri></mesh></geometry></visual>
</link></model></sdf>"""
    a = analyze(text, str(tmp_path / "m.sdf"), Options(schema=False))
    got = {a.text[d.span.start : d.span.end]: d.message for d in a.diagnostics if d.code == "MESH_LOOKUP"}
    assert set(got) == {"meshes/empty.dae", "meshes/pipe.stl"}, got
    assert f"found at {tmp_path / 'meshes' / 'empty.dae'}, but it is an empty file" in got["meshes/empty.dae"]
    assert "is not a regular file" in got["meshes/pipe.stl"]
    visuals = {v.name: v for f in frame_view(a).frames for v in f.visuals}
    assert visuals["a"].mesh_path is None and visuals["a"].problem == got["meshes/empty.dae"]
    assert visuals["b"].mesh_path is None and visuals["c"].mesh_path == str(tmp_path / "meshes" / "ok.stl")


def test_file_uris_absolute_and_relative_resolve_and_a_missing_one_says_where(tmp_path):
    """file:// meshes (issue 23: 'model://, package://, file:// and relative mesh URIs resolve'): an absolute
    path, and a relative one from the file's directory; a missing one is the warning with the place searched,
    and the view's placeholder with the same words."""
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "ok.stl").write_text("solid x\nendsolid x\n")
    uris = [f"file://{tmp_path}/meshes/ok.stl", "file://meshes/ok.stl", f"file://{tmp_path}/meshes/gone.stl"]
    visuals = "".join(
        f'<visual name="v{i}"><geometry><mesh><uri>{u}</uri></mesh></geometry></visual>' for i, u in enumerate(uris)
    )
    text = f'<sdf version="1.9"><model name="m"><link name="l">{visuals}</link></model></sdf>'
    a = analyze(text, str(tmp_path / "m.sdf"), Options(schema=False))
    [d] = [d for d in a.diagnostics if d.code == "MESH_LOOKUP"]
    assert text[d.span.start : d.span.end] == uris[2] and f"(searched {tmp_path / 'meshes'})" in d.message
    got = {v.name: v for f in frame_view(a).frames for v in f.visuals}
    assert got["v0"].mesh_path == got["v1"].mesh_path == str(tmp_path / "meshes" / "ok.stl")
    assert got["v2"].mesh_path is None and got["v2"].problem == d.message
