"""The 3D page in headless chromium, served by ``sdformat-lsp view``'s server: every mesh format drawn
where Gazebo draws it (its bounding box), a slider per movable joint that moves its link, a missing
mesh as a placeholder with its message, and the file followed as it is saved."""

from __future__ import annotations

import math
import shutil
import time
from pathlib import Path

import pytest

from . import meshgen

MODEL = """<?xml version="1.0"?>
<sdf version="1.11"><model name="meshes">
  <link name="stl"><visual name="v"><geometry><mesh><uri>meshes/box.stl</uri></mesh></geometry></visual></link>
  <link name="obj"><pose>1 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/box.obj</uri></mesh></geometry></visual></link>
  <link name="dae"><pose>2 0 0 0 0 0</pose>
    <visual name="v"><geometry><mesh><uri>meshes/cm_zup.dae</uri><scale>2 2 2</scale></mesh></geometry></visual></link>
  <link name="dae_y"><pose>3 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/cm_yup.dae</uri></mesh></geometry></visual></link>
  <link name="gltf"><pose>4 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/box.gltf</uri></mesh></geometry></visual></link>
  <link name="glb"><pose>5 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/box.glb</uri></mesh></geometry></visual></link>
  <link name="missing"><pose>6 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>model://nowhere/meshes/gone.stl</uri></mesh></geometry></visual></link>
  <joint name="hinge" type="revolute"><parent>stl</parent><child>obj</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-2</lower><upper>2</upper></limit></axis></joint>
  <joint name="lift" type="prismatic"><parent>stl</parent><child>gltf</child>
    <axis><xyz>0 0 1</xyz><limit><lower>0</lower><upper>0.5</upper></limit></axis></joint>
  <joint name="weld" type="fixed"><parent>stl</parent><child>glb</child></joint>
</model></sdf>
"""

LO, HI = (0.0, 0.0, 0.0), (0.1, 0.2, 0.3)
CM_HI = (10.0, 20.0, 30.0)
# Blender writes <transparency>0</transparency> without <transparent> for an opaque material
BLENDER = "<transparency><float>0</float></transparency>"


@pytest.fixture
def model_dir(tmp_path):
    m = tmp_path / "meshes"
    m.mkdir()
    (m / "box.stl").write_bytes(meshgen.stl(LO, HI))
    (m / "box.obj").write_bytes(meshgen.obj(LO, HI))
    (m / "cm_zup.dae").write_bytes(meshgen.dae(LO, CM_HI, unit=0.01, up="Z_UP", transparency=BLENDER))
    (m / "cm_yup.dae").write_bytes(meshgen.dae(LO, CM_HI, unit=0.01, up="Y_UP"))
    (m / "box.gltf").write_bytes(meshgen.gltf(LO, HI))
    (m / "box.glb").write_bytes(meshgen.glb(LO, HI))
    (tmp_path / "model.sdf").write_text(MODEL)
    return tmp_path


def open_view(browser, server):
    page = browser.new_page(viewport={"width": 900, "height": 600})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    page.wait_for_function(
        "window.__sdfView && window.__sdfView.pending === 0 && window.__sdfView.frames > 0", timeout=60000
    )
    return page, errors


def ids(page) -> dict[str, int]:
    return {f["name"]: f["id"] for f in page.evaluate("window.__sdfViewApi.frames()")}


def box_of(page, ident):
    return page.evaluate("(id) => window.__sdfViewApi.boxOf(id)", ident)


def assert_box(got, lo, hi, tol=1e-4):
    assert got is not None
    assert all(abs(a - b) <= tol for a, b in zip(got[0], lo)) and all(abs(a - b) <= tol for a, b in zip(got[1], hi)), (
        got
    )


def slide(page, joint: str, value: float) -> None:
    page.evaluate(
        '([n, v]) => { const i = document.querySelector(`input[data-joint="${n}"]`); i.value = String(v); '
        "i.dispatchEvent(new Event('input')); }",
        [joint, value],
    )


def test_meshes_sliders_and_placeholder(browser, view_server, model_dir):
    server = view_server(model_dir / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        by = ids(page)
        # every format where Gazebo puts it: STL, OBJ, glTF and GLB as written; COLLADA in its <unit> (cm), up axis
        # not applied, then <scale>
        assert_box(box_of(page, by["stl"]), LO, HI)
        assert_box(box_of(page, by["obj"]), (1, 0, 0), (1.1, 0.2, 0.3))
        assert_box(box_of(page, by["dae"]), (2, 0, 0), (2.2, 0.4, 0.6))
        assert_box(box_of(page, by["dae_y"]), (3, 0, 0), (3.1, 0.2, 0.3))
        assert_box(box_of(page, by["gltf"]), (4, 0, 0), (4.1, 0.2, 0.3))
        assert_box(box_of(page, by["glb"]), (5, 0, 0), (5.1, 0.2, 0.3))
        # the Blender material stays opaque (three.js alone would draw it with opacity 0)
        assert page.evaluate("(id) => window.__sdfViewApi.opacityOf(id)", by["dae"]) == 1
        # nothing is drawn while nothing changes (no animation loop)
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        before = page.evaluate("window.__sdfView.renders")
        page.wait_for_timeout(1000)
        assert page.evaluate("window.__sdfView.renders") == before
        # the missing mesh: a placeholder and the message saying where it was looked for
        state = page.evaluate("window.__sdfView")
        assert state["placeholders"] == 1 and state["meshes"] == 6
        assert any("model://nowhere/meshes/gone.stl" in p and "not found" in p for p in state["problems"])
        assert "not drawn" in page.inner_text("#sdf-status")
        # a slider per movable joint (not the fixed one), within the limits
        sliders = page.evaluate(
            "[...document.querySelectorAll('#sdf-joints input[type=range]')].map(i => [i.dataset.joint, +i.min, +i.max])"
        )
        assert sliders == [["hinge", -2, 2], ["lift", 0, 0.5]]
        # moving one moves its link: a quarter turn of the hinge about z through obj's origin (1, 0, 0)
        slide(page, "hinge", math.pi / 2)
        assert_box(box_of(page, by["obj"]), (0.8, 0, 0), (1.0, 0.1, 0.3))
        slide(page, "lift", 0.25)
        assert_box(box_of(page, by["gltf"]), (4, 0, 0.25), (4.1, 0.2, 0.55))
        assert_box(box_of(page, by["stl"]), LO, HI)
        # the values are kept when the file is saved again, and the meshes are not loaded again
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        text = (
            (model_dir / "model.sdf")
            .read_text()
            .replace('<link name="missing"><pose>6 0 0', '<link name="missing"><pose>7 0 0')
        )
        time.sleep(0.05)
        (model_dir / "model.sdf").write_text(text)
        page.wait_for_function(
            "window.__sdfViewApi.frames().find(f => f.name === 'missing').pose.xyz[0] === 7", timeout=20000
        )
        assert_box(box_of(page, by["obj"]), (0.8, 0, 0), (1.0, 0.1, 0.3))
        assert not [u for u in requests if "/f/" in u], requests
        assert not errors, errors
    finally:
        page.close()


def test_picking_reveals_exactly_the_clicked_link(browser, view_server, model_dir):
    server = view_server(model_dir / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        by = ids(page)
        page.evaluate("window.__sdfViewApi.pick(0, 0)")  # empty space first: nothing
        for name in ("dae", "glb"):
            x, y = page.evaluate(
                "(id) => { const b = window.__sdfViewApi.boxOf(id); return window.__sdfViewApi.screenOfPoint(b[0].map((lo, i) => (lo + b[1][i]) / 2)); }",
                by[name],
            )
            assert page.evaluate("([x, y]) => window.__sdfViewApi.pick(x, y)", [x, y]) == by[name]
        assert page.evaluate("window.__sdfViewApi.pick(2, 2)") is None
        # a frame's triad (instanced with every other): its hub and the cone of its z arrow give that frame
        for point in ([0, 0, 0], [0, 0, 0.9]):
            hit = page.evaluate(
                "([id, p]) => { const api = window.__sdfViewApi; const [x, y] = api.screenOfLocal(id, p.map(v => v * api.triadSize())); return api.pick(x, y); }",
                [by["missing"], point],
            )
            assert hit == by["missing"], point
        assert not errors, errors
    finally:
        page.close()


def test_limit_arcs_start_at_the_joints_zero_and_stay_with_the_parent(browser, view_server, model_dir):
    server = view_server(model_dir / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        hinge = ids(page)["hinge"]

        def close(a, b):
            return all(abs(x - y) <= 1e-6 for x, y in zip(a, b))

        arc = page.evaluate("(id) => window.__sdfViewApi.arcOf(id, 0)", hinge)
        # axis z, joint frame = obj's frame (no rotation): zero along x, the ends at -2 and +2 rad about z
        assert close(arc["zero"], (1, 0, 0)), arc
        assert close(arc["lower"], (math.cos(-2), math.sin(-2), 0)), arc
        assert close(arc["upper"], (math.cos(2), math.sin(2), 0)), arc
        # moving the hinge turns the child and its joint frame, not the range it moves in
        slide(page, "hinge", math.pi / 2)
        moved = page.evaluate("(id) => window.__sdfViewApi.arcOf(id, 0)", hinge)
        for k in ("zero", "lower", "upper"):
            assert close(moved[k], arc[k]), (k, moved[k], arc[k])
        assert not errors, errors
    finally:
        page.close()


def test_the_editors_cursor_highlights_its_element(browser, view_server, model_dir):
    """The editor posts {type: 'highlight', id} when its cursor enters an element (vscode-extension/src/frames.ts):
    the page draws a box around that element's geometry, and the box follows the element when a joint moves."""
    server = view_server(model_dir / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        by = ids(page)
        assert page.evaluate("window.__sdfViewApi.highlighted()") is None
        page.evaluate("(id) => window.__sdfViewApi.receive({type: 'highlight', id})", by["obj"])
        ident, b = page.evaluate("window.__sdfViewApi.highlighted()")
        assert ident == by["obj"]
        assert_box(b, (1, 0, 0), (1.1, 0.2, 0.3))
        slide(page, "hinge", math.pi / 2)
        ident, b = page.evaluate("window.__sdfViewApi.highlighted()")
        assert ident == by["obj"]
        assert_box(b, (0.8, 0, 0), (1.0, 0.1, 0.3))
        # another element: the box moves to it
        page.evaluate("(id) => window.__sdfViewApi.receive({type: 'highlight', id})", by["glb"])
        ident, b = page.evaluate("window.__sdfViewApi.highlighted()")
        assert ident == by["glb"]
        assert_box(b, (5, 0, 0), (5.1, 0.2, 0.3))
        assert not errors, errors
    finally:
        page.close()


OBJ_MODEL = """<?xml version="1.0"?>
<sdf version="1.11"><model name="objs">
  <link name="red"><visual name="v"><geometry><mesh><uri>meshes/red.obj</uri></mesh></geometry></visual></link>
  <link name="no_mtl"><pose>1 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/lost.obj</uri></mesh></geometry></visual></link>
  <link name="blue"><pose>2 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/red.obj</uri></mesh></geometry>
    <material><diffuse>0 0 1 1</diffuse></material></visual></link>
</model></sdf>
"""


def test_obj_files_are_drawn_with_their_mtl_materials(browser, view_server, tmp_path):
    m = tmp_path / "meshes"
    m.mkdir()
    (m / "red paint.mtl").write_text("newmtl paint\nKd 1 0 0\nKa 0 0 0\nd 1\n")
    body = meshgen.obj(LO, HI).decode().splitlines()
    faces = [x for x in body if x.startswith("f ")]
    verts = [x for x in body if x.startswith("v ")]
    (m / "red.obj").write_text(
        "mtllib red paint.mtl\n" + "\n".join(verts) + "\nusemtl paint\n" + "\n".join(faces) + "\n"
    )
    (m / "lost.obj").write_text(
        "mtllib nowhere.mtl\n" + "\n".join(verts) + "\nusemtl paint\n" + "\n".join(faces) + "\n"
    )
    (tmp_path / "model.sdf").write_text(OBJ_MODEL)
    server = view_server(tmp_path / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        by = ids(page)

        def colors(name):
            return page.evaluate("(id) => window.__sdfViewApi.colorsOf(id)", by[name])

        assert colors("red") == ["ff0000"]  # the .mtl beside the OBJ (its name has a space), served with it
        assert colors("blue") == ["0000ff"]  # a visual's <material> wins over the file's own
        assert colors("no_mtl") and colors("no_mtl") != ["ff0000"]  # without its .mtl: drawn, in a default colour
        assert_box(box_of(page, by["red"]), LO, HI)
        assert page.evaluate("window.__sdfView")["placeholders"] == 0
        assert not errors, errors
    finally:
        page.close()


PBR_MODEL = """<?xml version="1.0"?>
<sdf version="1.11"><model name="pbr">
  <link name="plate"><visual name="v"><geometry><box><size>1 1 0.1</size></box></geometry>
    <material><diffuse>1 0 0 1</diffuse><pbr><metal>
      <albedo_map>textures/albedo.png</albedo_map><normal_map>textures/normal.png</normal_map>
      <roughness_map>textures/missing.png</roughness_map><roughness>0.3</roughness><metalness>0.8</metalness>
    </metal></pbr></material></visual></link>
  <link name="part"><pose>2 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/box.stl</uri></mesh></geometry>
    <material><pbr><metal><metalness_map>textures/albedo.png</metalness_map></metal></pbr></material></visual></link>
</model></sdf>
"""


def _png(rgb: tuple[int, int, int]) -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + bytes(rgb) * 2 for _ in range(2))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def test_pbr_metal_maps_are_drawn(browser, view_server, tmp_path):
    (tmp_path / "textures").mkdir()
    (tmp_path / "textures" / "albedo.png").write_bytes(_png((200, 50, 50)))
    (tmp_path / "textures" / "normal.png").write_bytes(_png((128, 128, 255)))
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "box.stl").write_bytes(meshgen.stl(LO, HI))
    (tmp_path / "model.sdf").write_text(PBR_MODEL)
    server = view_server(tmp_path / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        by = ids(page)
        page.wait_for_function(
            "(id) => window.__sdfViewApi.mapsOf(id).every(m => Object.values(m.maps).every(x => x.loaded))",
            arg=by["plate"],
            timeout=20000,
        )
        (plate,) = page.evaluate("(id) => window.__sdfViewApi.mapsOf(id)", by["plate"])
        assert sorted(plate["maps"]) == ["map", "normalMap"]  # the roughness map that is not there is left out
        assert plate["maps"]["map"]["url"].endswith("/textures/albedo.png")
        assert plate["maps"]["normalMap"]["url"].endswith("/textures/normal.png")
        assert abs(plate["roughness"] - 0.3) < 1e-6 and abs(plate["metalness"] - 0.8) < 1e-6
        assert page.evaluate("(id) => window.__sdfViewApi.colorsOf(id)", by["plate"]) == [
            "ffffff"
        ]  # the map is the colour
        part = page.evaluate("(id) => window.__sdfViewApi.mapsOf(id)", by["part"])
        assert part and all(sorted(m["maps"]) == ["metalnessMap"] for m in part)  # on a mesh too
        assert not errors, errors
    finally:
        page.close()


REPEATED = """<?xml version="1.0"?>
<sdf version="1.11"><model name="repeated">
{links}
  <link name="red"><pose>0 -1 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/box.stl</uri></mesh></geometry>
    <material><diffuse>1 0 0 1</diffuse></material></visual></link>
  <link name="big"><pose>0 -2 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/box.stl</uri><scale>2 2 2</scale></mesh></geometry></visual></link>
  <joint name="hinge" type="revolute"><parent>l0</parent><child>l3</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-2</lower><upper>2</upper></limit></axis></joint>
</model></sdf>
"""


def test_repeated_meshes_are_instances(browser, view_server, tmp_path):
    """Twelve visuals of one STL, a red one and a scaled one: one file read, two instanced groups (the file's own
    look and red), each visual where it belongs, picked and moved by itself, and a handful of draw calls (the
    triads are instances too)."""
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "box.stl").write_bytes(meshgen.stl(LO, HI))
    links = "\n".join(
        f'  <link name="l{i}"><pose>{i * 0.5} 0 0 0 0 0</pose><visual name="v"><geometry><mesh>'
        "<uri>meshes/box.stl</uri></mesh></geometry></visual></link>"
        for i in range(12)
    )
    (tmp_path / "model.sdf").write_text(REPEATED.format(links=links))
    server = view_server(tmp_path / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        by = ids(page)
        state = page.evaluate("window.__sdfView")
        assert state["meshes"] == 14 and state["instances"] == 14 and state["groups"] == 2, state
        stl = [e for e in page.evaluate("performance.getEntriesByType('resource').map(e => e.name)") if "box.stl" in e]
        assert len(stl) == 1, stl
        for i in range(12):
            assert_box(box_of(page, by[f"l{i}"]), (i * 0.5, 0, 0), (i * 0.5 + 0.1, 0.2, 0.3))
        assert_box(box_of(page, by["big"]), (0, -2, 0), (0.2, -1.6, 0.6))
        assert page.evaluate("(id) => window.__sdfViewApi.colorsOf(id)", by["red"]) == ["ff0000"]
        # each instance is picked as its own link
        for name in ("l5", "l11", "big", "red"):
            x, y = page.evaluate(
                "(id) => { const b = window.__sdfViewApi.boxOf(id); return window.__sdfViewApi.screenOfPoint(b[0].map((lo, i) => (lo + b[1][i]) / 2)); }",
                by[name],
            )
            assert page.evaluate("([x, y]) => window.__sdfViewApi.pick(x, y)", [x, y]) == by[name], name
        # a slider moves its instance only: a quarter turn of l3 about z through its origin (1.5, 0, 0)
        slide(page, "hinge", math.pi / 2)
        assert_box(box_of(page, by["l3"]), (1.3, 0, 0), (1.5, 0.1, 0.3))
        assert_box(box_of(page, by["l4"]), (2, 0, 0), (2.1, 0.2, 0.3))
        # without labels: the grid, one draw call per group, the 16 triads in two (shafts; cones and hubs) and the
        # hinge's axis arrow (line and cone) and limit arc; without triads, the grid and the groups
        page.click("#sdf-bar input[data-opt=labels]")
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        assert page.evaluate("window.__sdfView.drawCalls") == 1 + 2 + 2 + 3
        page.click("#sdf-bar input[data-opt=frames]")
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        assert page.evaluate("window.__sdfView.drawCalls") == 3
        assert not errors, errors
    finally:
        page.close()


GZ_COMMON = Path(__file__).parent / "fixtures" / "gz-common"
REAL_GLTF = """<?xml version="1.0"?>
<sdf version="1.11"><model name="gz_common_meshes">
  <link name="box"><visual name="v"><geometry><mesh><uri>meshes/box.glb</uri></mesh></geometry></visual></link>
  <link name="jpg"><pose>3 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/box_texture_jpg.glb</uri></mesh></geometry></visual></link>
  <link name="purple"><pose>6 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/PurpleCube.gltf</uri><scale>0.5 0.5 0.5</scale></mesh></geometry></visual></link>
</model></sdf>
"""


def test_real_gltf_files_from_gz_common(browser, view_server, tmp_path):
    """gz-common's own glTF test meshes (tests/viewer/fixtures/gz-common/README.md) drawn with the bounds gz-common's
    tests give them, their textures loaded: embedded in a GLB, and beside a .gltf with an external buffer and a
    KHR_materials_pbrSpecularGlossiness material (which three.js alone would leave untextured)."""
    shutil.copytree(GZ_COMMON, tmp_path / "meshes")
    (tmp_path / "model.sdf").write_text(REAL_GLTF)
    server = view_server(tmp_path / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        by = ids(page)
        state = page.evaluate("window.__sdfView")
        assert state["meshes"] == 3 and state["placeholders"] == 0, state
        assert_box(box_of(page, by["box"]), (-1, -1, -1), (1, 1, 1))
        assert_box(box_of(page, by["jpg"]), (2, -1, -1), (4, 1, 1))
        assert_box(box_of(page, by["purple"]), (5.5, -0.5, 0), (6.5, 0.5, 1))
        for name in ("jpg", "purple"):
            page.wait_for_function(
                "(id) => window.__sdfViewApi.mapsOf(id).some(m => m.maps.map && m.maps.map.loaded)",
                arg=by[name],
                timeout=20000,
            )
        assert not any(m["maps"] for m in page.evaluate("(id) => window.__sdfViewApi.mapsOf(id)", by["box"]))
        assert not errors, errors
    finally:
        page.close()


TEXTURED = """<?xml version="1.0"?>
<sdf version="1.11"><model name="textured">
  <link name="box"><visual name="v"><geometry><mesh><uri>meshes/green.obj</uri><scale>10 10 10</scale></mesh></geometry></visual></link>
</model></sdf>
"""


def _textured_obj(m: Path, image: str, kd: str = "1 1 1") -> None:
    """meshes/green.obj: the 0.1 x 0.2 x 0.3 box with texture coordinates, its MTL naming `image` as its map."""
    (m / "green.mtl").write_text(f"newmtl paint\nKd {kd}\nKa 0 0 0\nd 1\nmap_Kd {image}\n")
    body = meshgen.obj(LO, HI).decode().splitlines()
    faces = [x for x in body if x.startswith("f ")]
    verts = [x for x in body if x.startswith("v ")]
    uvs = ["vt 0 0", "vt 1 0", "vt 1 1"]
    faces = [
        " ".join([f.split()[0]] + [f"{v.split('/')[0]}/{1 + k % 3}" for k, v in enumerate(f.split()[1:])])
        for f in faces
    ]
    (m / "green.obj").write_text(
        "mtllib green.mtl\n" + "\n".join(verts + uvs) + "\nusemtl paint\n" + "\n".join(faces) + "\n"
    )


def green_textured_model(tmp_path: Path) -> Path:
    """model.sdf in ``tmp_path``: the box of :func:`_textured_obj` with a green PNG as its texture."""
    m = tmp_path / "meshes"
    m.mkdir()
    (m / "green.png").write_bytes(_png((0, 255, 0)))
    _textured_obj(m, "green.png")
    (tmp_path / "model.sdf").write_text(TEXTURED)
    return tmp_path / "model.sdf"


def _colour_at_the_middle_of(page, ident) -> list[int]:
    """The colour drawn on the screen at the middle of an entry's drawn box."""
    return page.evaluate(
        """(id) => { const api = window.__sdfViewApi; const bx = api.boxOf(id);
          const [x, y] = api.screenOfPoint(bx[0].map((lo, i) => (lo + bx[1][i]) / 2));
          const c = document.querySelector('canvas'); const t = document.createElement('canvas'); t.width = c.width; t.height = c.height;
          const g = t.getContext('2d'); g.drawImage(c, 0, 0); const r = c.getBoundingClientRect();
          return [...g.getImageData(Math.round((x - r.left) * c.width / r.width), Math.round((y - r.top) * c.height / r.height), 1, 1).data].slice(0, 3); }""",
        ident,
    )


def test_a_texture_arriving_after_its_mesh_is_drawn(browser, view_server, tmp_path):
    """An MTL (or COLLADA) texture loads after its mesh is parsed: the view is drawn once it is in, and says it is
    drawn only then. The image is held back a second so that it surely arrives after the mesh."""
    server = view_server(green_textured_model(tmp_path))
    page = browser.new_page(viewport={"width": 900, "height": 600})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def late(route):
        time.sleep(1.0)
        route.continue_()

    page.route("**/green.png", late)
    try:
        page.goto(server.url)
        page.wait_for_function(
            "window.__sdfView && window.__sdfView.drawMs !== null && window.__sdfView.pending === 0", timeout=60000
        )
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        ident = ids(page)["box"]
        assert any(
            x["maps"].get("map", {}).get("loaded")
            for x in page.evaluate("(id) => window.__sdfViewApi.mapsOf(id)", ident)
        )
        r, g, b = _colour_at_the_middle_of(page, ident)
        assert g > 2 * r and g > 2 * b, (r, g, b)  # the green texture is on the screen
        assert not errors, errors
    finally:
        page.close()


def test_a_texture_that_cannot_be_read_leaves_its_material_colour_not_black(browser, view_server, tmp_path):
    """A mesh naming an image that is absent (small_house's carpets where the texture is not installed, its
    portraits naming a path that does not exist) was drawn black: three.js samples a texture that never loaded as
    black. The map is taken off once every load has settled: the mesh is drawn in its material's colour (here the
    MTL's red Kd), and the status line names the mesh. Fails before: the middle of the box is (0, 0, 0)."""
    m = tmp_path / "meshes"
    m.mkdir()
    _textured_obj(m, "absent.png", kd="1 0 0")
    (tmp_path / "model.sdf").write_text(TEXTURED)
    server = view_server(tmp_path / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        page.wait_for_function("window.__sdfView.drawMs !== null", timeout=60000)
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        ident = ids(page)["box"]
        assert not any(x["maps"].get("map") for x in page.evaluate("(id) => window.__sdfViewApi.mapsOf(id)", ident))
        r, g, b = _colour_at_the_middle_of(page, ident)
        assert r > 60 and r > 2 * g and r > 2 * b, (r, g, b)
        status = page.inner_text("#sdf-status")
        assert "meshes/green.obj: a texture it names cannot be read" in status, status
        assert not errors, errors
    finally:
        page.close()


def test_a_mesh_with_nothing_to_draw_is_a_placeholder_with_its_message(browser, view_server, tmp_path):
    """A mesh file read without an error but holding no triangle (an OBJ of comments, a COLLADA scene of
    lights and cameras) drew nothing and said nothing, as if it were drawn. It is the red placeholder, and the
    status line says why. Fails before: no placeholder, no message."""
    m = tmp_path / "meshes"
    m.mkdir()
    (m / "nothing.obj").write_text("# exported without its objects\no empty\n")
    (tmp_path / "model.sdf").write_text(TEXTURED.replace("green.obj", "nothing.obj"))
    server = view_server(tmp_path / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        page.wait_for_function("window.__sdfView.drawMs !== null", timeout=60000)
        s = page.evaluate("window.__sdfView")
        assert s["placeholders"] == 1 and s["meshes"] == 0, s
        status = page.inner_text("#sdf-status")
        assert "meshes/nothing.obj: has nothing to draw: no triangles in the .obj file" in status, status
        assert not errors, errors
    finally:
        page.close()


ARM_URDF = """<robot name="arm">
  <link name="base"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><box size="0.2 0.2 0.1"/></geometry></visual>
    <collision><geometry><box size="0.3 0.3 0.1"/></geometry></collision></link>
  <link name="upper"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0.25 0 0"/><geometry><box size="0.5 0.04 0.04"/></geometry></visual>
    <collision><origin xyz="0.25 0 0"/><geometry><cylinder radius="0.03" length="0.5"/></geometry></collision></link>
  <link name="wheel"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0.1 0 0"/><geometry><box size="0.2 0.02 0.02"/></geometry></visual></link>
  <link name="twin"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0.25 0 0"/><geometry><box size="0.5 0.04 0.04"/></geometry></visual></link>
  <joint name="shoulder" type="revolute"><origin xyz="0 0 0.1"/><parent link="base"/><child link="upper"/>
    <axis xyz="0 0 1"/><limit lower="-1.5" upper="1.5" effort="1" velocity="1"/></joint>
  <joint name="spin" type="continuous"><origin xyz="0 0 -0.2"/><parent link="base"/><child link="wheel"/>
    <axis xyz="0 0 1"/></joint>
  <joint name="follower" type="revolute"><origin xyz="0 0 0.3"/><parent link="base"/><child link="twin"/>
    <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/>
    <mimic joint="shoulder" multiplier="-1" offset="0"/></joint>
</robot>
"""


def _click(page, selector: str) -> None:
    page.click(selector)
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def test_a_urdf_robot_collisions_sliders_reset_mimic_and_camera(browser, view_server, tmp_path):
    """The rest of a viewer on a URDF document: visuals, and collisions on their toggle; a slider per movable
    joint within its limits, a continuous one over a turn, a mimic follower's slider disabled and moved by its
    leader; the value shown; '0' and 'reset all'; fit and the Iso/Top/Front/Side presets look from where they
    say and keep everything on the screen."""
    (tmp_path / "arm.urdf").write_text(ARM_URDF)
    server = view_server(tmp_path / "arm.urdf")
    page, errors = open_view(browser, server)
    try:
        by = ids(page)
        assert_box(box_of(page, by["upper"]), (0, -0.02, 0.08), (0.5, 0.02, 0.12))
        # collisions: built and shown only when asked
        assert page.evaluate("(id) => window.__sdfViewApi.boxOf(id, 'collisions')", by["base"]) is None
        _click(page, "input[data-opt=collisions]")
        assert_box(
            page.evaluate("(id) => window.__sdfViewApi.boxOf(id, 'collisions')", by["base"]),
            (-0.15, -0.15, -0.05),
            (0.15, 0.15, 0.05),
        )
        _click(page, "input[data-opt=visuals]")  # visuals off: collisions stay
        assert not page.is_checked("input[data-opt=visuals]") and page.is_checked("input[data-opt=collisions]")
        # the sliders: limits, a continuous joint over a turn, the follower disabled
        sliders = page.evaluate(
            "[...document.querySelectorAll('#sdf-joints input[type=range]')].map(i => [i.dataset.joint, +i.min, +i.max, i.disabled])"
        )
        assert sorted(sliders) == [
            ["follower", -3, 3, True],
            ["shoulder", -1.5, 1.5, False],
            ["spin", pytest.approx(-math.pi), pytest.approx(math.pi), False],
        ], sliders
        slide(page, "shoulder", 1.0)
        row = "#sdf-joints .j:has(input[data-joint=shoulder])"
        assert page.inner_text(f"{row} .val") == "57.3°"
        lo, hi = box_of(page, by["upper"])
        assert hi[1] > 0.4 and hi[0] < 0.3  # turned towards +y
        lo, hi = box_of(page, by["twin"])
        assert lo[1] < -0.4  # the follower turned the other way (multiplier -1)
        assert page.evaluate("document.querySelector('input[data-joint=follower]').value") == "-1"
        slide(page, "spin", 3.0)
        _click(page, f"{row} button")  # '0': the shoulder back, the wheel where it was
        assert_box(box_of(page, by["upper"]), (0, -0.02, 0.08), (0.5, 0.02, 0.12))
        assert_box(box_of(page, by["twin"]), (0, -0.02, 0.28), (0.5, 0.02, 0.32))
        assert box_of(page, by["wheel"])[0][0] < -0.1
        _click(page, "#sdf-joints button[data-reset]")  # reset all
        assert_box(box_of(page, by["wheel"]), (0, -0.01, -0.21), (0.2, 0.01, -0.19))
        assert page.evaluate("document.querySelector('input[data-joint=spin]').value") == "0"
        # camera presets look from where they say; every drawn box stays on the screen
        _click(page, "input[data-opt=visuals]")
        for act, direction in (
            ("top", (0, 0, 1)),
            ("front", (1, 0, 0)),
            ("side", (0, -1, 0)),
            ("iso", (1, -1, 0.7)),
            ("fit", (1, -1, 0.7)),
        ):
            _click(page, f"button[data-act={act}]")
            d = page.evaluate("window.__sdfViewApi.cameraDirection()")
            n = math.sqrt(sum(x * x for x in direction))
            assert all(abs(a - b / n) < 1e-3 for a, b in zip(d, direction)), (act, d)
            for name in ("base", "upper", "wheel", "twin"):
                lo, hi = box_of(page, by[name])
                for corner in (
                    [lo[0], lo[1], lo[2]],
                    [hi[0], hi[1], hi[2]],
                    [lo[0], hi[1], lo[2]],
                    [hi[0], lo[1], hi[2]],
                ):
                    x, y = page.evaluate("(p) => window.__sdfViewApi.screenOfPoint(p)", corner)
                    assert 0 <= x <= 900 and 0 <= y <= 600, (act, name, x, y)
        assert not errors, errors
    finally:
        page.close()


def test_triads_labels_and_grid_are_sized_to_the_scene(browser, view_server, tmp_path):
    """Triads, labels and the grid follow the scene's size: a 0.3 m robot and a 60 m world (issue 23 found
    triads capped at 0.3 m and labels at 0.1 m, invisible in a 20 m world, and a fixed 10 m grid)."""
    (tmp_path / "arm.urdf").write_text(ARM_URDF)
    boxes = "\n".join(
        f'<model name="m{i}"><static>true</static><pose>{x} {y} 0 0 0 0</pose><link name="l"><visual name="v">'
        "<geometry><box><size>1 1 1</size></box></geometry></visual></link></model>"
        for i, (x, y) in enumerate([(-30, -20), (30, 20), (0, 0)])
    )
    (tmp_path / "w.sdf").write_text(f'<sdf version="1.9"><world name="w">{boxes}</world></sdf>')
    sizes = {}
    for name in ("arm.urdf", "w.sdf"):
        server = view_server(tmp_path / name)
        page, errors = open_view(browser, server)
        try:
            sizes[name] = page.evaluate("window.__sdfViewApi.sizes()")
            assert not errors, errors
        finally:
            page.close()
    small, big = sizes["arm.urdf"], sizes["w.sdf"]
    assert 0.005 <= small["triad"] <= 0.1 and big["triad"] >= 1.0, sizes
    assert big["label"] / small["label"] > 20 and big["label"] > 0.3, sizes
    assert small["grid"] <= 5 and big["grid"] >= 72, sizes  # the world's 72 m diagonal is on the grid
    assert big["cell"] / small["cell"] >= 10, sizes


LOOKS = """<?xml version="1.0"?>
<sdf version="1.11"><model name="looks">
  <link name="script"><visual name="v"><geometry><box><size>0.1 0.1 0.1</size></box></geometry>
    <material><script><uri>file://media/materials/scripts/gazebo.material</uri><name>Gazebo/Red</name></script></material></visual></link>
  <link name="see_through"><pose>1 0 0 0 0 0</pose><visual name="v"><geometry><box><size>0.1 0.1 0.1</size></box></geometry>
    <transparency>0.6</transparency><material><diffuse>0 0 1 1</diffuse></material></visual></link>
  <link name="script_alpha"><pose>2 0 0 0 0 0</pose><visual name="v"><geometry><box><size>0.1 0.1 0.1</size></box></geometry>
    <material><script><name>Gazebo/GreenTransparent</name></script></material></visual></link>
  <link name="mesh_over"><pose>3 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/own.dae</uri></mesh></geometry>
    <material><diffuse>0 0 1 1</diffuse></material></visual></link>
  <link name="mesh_own"><pose>4 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/own.dae</uri></mesh></geometry></visual></link>
</model></sdf>
"""


def test_materials_as_gazebo_shows_them(browser, view_server, tmp_path):
    """A Gazebo/* material script in its colour, <transparency> as SDFormat defines it (opacity 1 - t, the
    colour's alpha unused), a transparent script at its own opacity, a visual's <material> over a mesh's own
    materials, and a mesh without one in its own."""
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "own.dae").write_bytes(meshgen.dae(LO, HI))
    (tmp_path / "model.sdf").write_text(LOOKS)
    server = view_server(tmp_path / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        by = ids(page)

        def look(name):
            return (
                page.evaluate("(id) => window.__sdfViewApi.colorsOf(id)", by[name]),
                page.evaluate("(id) => window.__sdfViewApi.opacityOf(id)", by[name]),
            )

        assert look("script") == (["ff0000"], 1)
        colours, opacity = look("see_through")
        assert colours == ["0000ff"] and opacity == pytest.approx(0.4)
        colours, opacity = look("script_alpha")
        assert colours == ["00ff00"] and opacity == pytest.approx(0.5)
        assert look("mesh_over") == (["0000ff"], 1)
        colours, opacity = look("mesh_own")
        assert colours and colours != ["0000ff"] and opacity == 1  # the DAE's own diffuse (0.2 0.6 0.9)
        assert not errors, errors
    finally:
        page.close()


REAL_MESHES = """<?xml version="1.0"?>
<sdf version="1.11"><model name="gz_common_meshes">
  <link name="dae"><visual name="v"><geometry><mesh><uri>meshes/box.dae</uri></mesh></geometry></visual></link>
  <link name="obj"><pose>3 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/box.obj</uri></mesh></geometry></visual></link>
  <link name="stl"><pose>6 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/cube.stl</uri><scale>0.05 0.05 0.05</scale></mesh></geometry></visual></link>
</model></sdf>
"""


def test_real_collada_obj_and_stl_files_from_gz_common(browser, view_server, tmp_path):
    """gz-common's own COLLADA, OBJ and STL test meshes (fixtures/gz-common/README.md) drawn with the bounds
    gz-common's MeshManager tests give them, then <scale>: issue 23's 'known bounding boxes of real meshes'."""
    shutil.copytree(GZ_COMMON, tmp_path / "meshes")
    (tmp_path / "model.sdf").write_text(REAL_MESHES)
    server = view_server(tmp_path / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        by = ids(page)
        state = page.evaluate("window.__sdfView")
        assert state["meshes"] == 3 and state["placeholders"] == 0, state
        assert_box(box_of(page, by["dae"]), (-1, -1, -1), (1, 1, 1))
        assert_box(box_of(page, by["obj"]), (2, -1, -1), (4, 1, 1))
        assert_box(box_of(page, by["stl"]), (6, -1, 0), (7, 0, 1))  # (0, -20, 0)..(20, 0, 20) times 0.05
        assert not errors, errors
    finally:
        page.close()


SOFTWARE = """(() => { const gl = document.createElement('canvas').getContext('webgl');
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return /swiftshader|llvmpipe|softpipe|software/i.test(String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER))); })()"""
DRAWN = "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
PIXELS = "document.querySelector('#sdf-view canvas').toDataURL()"


def test_a_drag_draws_fewer_pixels_and_coarser_hubs_on_software_webgl_and_the_still_frame_is_unchanged(
    browser, view_server, model_dir
):
    # While moving, software WebGL draws at most half the resolution and at least a quarter (lower when moving
    # frames are slow on this machine), and the triads' hubs with fewer triangles; the still frame is the same.
    server = view_server(model_dir / "model.sdf")
    page, errors = open_view(browser, server)
    try:
        api = "window.__sdfViewApi"
        full = page.evaluate(f"{api}.bufferSize()")
        software = page.evaluate(SOFTWARE)
        factor = 0.5 if software else 1
        still = page.evaluate(f"{api}.triangles()")
        # a drag by OrbitControls: smaller while the mouse moves, full again when it is released
        page.mouse.move(450, 300)
        page.mouse.down()
        page.mouse.move(520, 330, steps=4)
        page.wait_for_function(f"{api}.bufferSize()[0] <= {round(full[0] * factor)}", timeout=5000)
        width, height = page.evaluate(f"{api}.bufferSize()")
        assert round(full[0] * factor / 2) <= width <= round(full[0] * factor)
        assert abs(width / full[0] - height / full[1]) < 0.02
        # every triad's 140-triangle hub drawn as a 36-triangle one
        fewer = still - page.evaluate(f"{api}.triangles()")
        assert (fewer > 0 and fewer % (140 - 36) == 0) if software else fewer == 0
        page.mouse.up()
        page.wait_for_function(f"{api}.bufferSize()[0] === {full[0]}", timeout=5000)
        assert page.evaluate(f"{api}.triangles()") == still
        # a wheel step starts and ends in one event: drawn at full resolution
        page.mouse.wheel(0, 100)
        page.evaluate(DRAWN)
        assert page.evaluate(f"{api}.bufferSize()") == full
        before = page.evaluate(PIXELS)
        # a measured orbit moves the same way, then draws the still picture again: the same pixels as before it
        assert page.evaluate(f"{api}.orbit(6)") > 0
        assert page.evaluate(f"{api}.bufferSize()") == full
        after = page.evaluate(PIXELS)
        assert len(before) > 1000 and after == before
        assert not errors, errors
    finally:
        page.close()
