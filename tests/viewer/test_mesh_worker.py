"""COLLADA files parsed off the page's thread (page/meshworker.js): in VS Code's webview the page runs on the
workbench's thread, and parsing a large .dae there froze the editor for up to a second and a half.

The worker reads the XML with page/xmldom.js (workers have no DOMParser). Its scene must be the one the page
got with the browser's DOMParser: compared here on real files of the corpus (when present) and on generated
ones, node by node, every typed array, material and texture. The page must parse its COLLADA files in the
worker, and still draw them where no worker can start."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from . import meshgen
from .test_browser_view import BLENDER, CM_HI, LO, assert_box, box_of, ids, open_view

CORPUS = Path(os.environ.get("SDFORMAT_LSP_CORPUS", "/work/corpus/src"))
SAMPLE = 40  # real files compared (spread over the sorted list of the corpus' COLLADA files under 400 kB)

# both parses of one text, reduced to what the page draws: the node tree and matrices, each typed array's
# length and sums (exact: the same parser code runs on both trees), materials and the images they name
COMPARE = """async (texts) => {
  const { parseCollada } = await import('/static/page/meshworker.js');
  const { XmlDomParser } = await import('/static/page/xmldom.js');
  const digest = (m) => JSON.stringify(m, (k, v) => ArrayBuffer.isView(v)
    ? [v.constructor.name, v.length, v.reduce((s, x) => s + x, 0), v.reduce((s, x, i) => s + x * ((i % 7) + 1), 0)] : v);
  const out = [];
  for (const text of texts) {
    let browser, ours;
    try { browser = digest(parseCollada(text).message); } catch (e) { browser = 'error: ' + e.message; }
    const saved = window.DOMParser;
    window.DOMParser = XmlDomParser;
    try { ours = digest(parseCollada(text).message); } catch (e) { ours = 'error: ' + e.message; } finally { window.DOMParser = saved; }
    out.push([browser === ours, browser.length, browser.startsWith('error') ? browser : ours.slice(0, 300), browser.slice(0, 300)]);
  }
  return out;
}"""


def real_collada_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    found = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() == ".dae" and p.stat().st_size < 400_000)
    step = max(1, len(found) // SAMPLE)
    return found[::step][:SAMPLE]


def test_the_workers_collada_scene_equals_the_browsers(browser, view_server, tmp_path):
    (tmp_path / "m.sdf").write_text('<sdf version="1.11"><model name="m"><link name="l"/></model></sdf>')
    texts = [
        meshgen.dae(LO, CM_HI, unit=0.01, up="Z_UP", transparency=BLENDER).decode(),
        meshgen.dae(LO, CM_HI, unit=0.01, up="Y_UP").decode(),
        # entities, CDATA, comments, single quotes, a prefixed element: read as the browser reads them
        meshgen.dae(LO, CM_HI)
        .decode()
        .replace('<?xml version="1.0" encoding="utf-8"?>', "<?xml version='1.0'?><!-- a &lt; -->")
        .replace(
            "<asset>",
            "<asset><x:extra xmlns:x='urn:x'><![CDATA[<not a tag>]]></x:extra><title>a &amp; b &#x41;</title>",
        ),
    ]
    real = real_collada_files()
    texts += [p.read_text(errors="replace") for p in real]
    server = view_server(tmp_path / "m.sdf")
    page, errors = open_view(browser, server)
    try:
        results = page.evaluate(COMPARE, texts)
    finally:
        page.close()
    names = ["generated z-up", "generated y-up", "generated, XML's odd corners"] + [str(p) for p in real]
    # where the browser refuses a file (a '<' in an attribute value: VLP16_base_1.dae of osrf/subt), the worker's
    # tolerant reader may read it, as Gazebo's tinyxml2 does: not a difference
    differing = [(n, r[2], r[3]) for n, r in zip(names, results) if not r[0] and not r[3].startswith("error")]
    assert not differing, differing
    assert not errors
    # the comparison compared scenes, not two errors
    assert all(not r[2].startswith("error") for r in results[:3])
    if CORPUS.is_dir():
        assert (
            len(real) >= 10 and sum(not r[2].startswith("error") for r in results[3:]) >= len(real) * 3 // 4
        )  # most real files parse (a few are not XML)


MODEL = """<?xml version="1.0"?>
<sdf version="1.11"><model name="m">
  <link name="dae"><pose>2 0 0 0 0 0</pose>
    <visual name="v"><geometry><mesh><uri>meshes/cm_zup.dae</uri><scale>2 2 2</scale></mesh></geometry></visual></link>
  <link name="dae_y"><pose>3 0 0 0 0 0</pose><visual name="v"><geometry><mesh><uri>meshes/cm_yup.dae</uri></mesh></geometry></visual></link>
</model></sdf>
"""


@pytest.mark.parametrize("worker", ["started", "refused"])
def test_collada_files_are_parsed_in_the_worker_or_on_the_page_when_none_starts(browser, view_server, tmp_path, worker):
    m = tmp_path / "meshes"
    m.mkdir()
    (m / "cm_zup.dae").write_bytes(meshgen.dae(LO, CM_HI, unit=0.01, up="Z_UP", transparency=BLENDER))
    (m / "cm_yup.dae").write_bytes(meshgen.dae(LO, CM_HI, unit=0.01, up="Y_UP"))
    (tmp_path / "model.sdf").write_text(MODEL)
    server = view_server(tmp_path / "model.sdf")
    page, errors = open_view(browser, server) if worker == "started" else open_refused(browser, server)
    try:
        by = ids(page)
        assert_box(box_of(page, by["dae"]), (2, 0, 0), (2.2, 0.4, 0.6))
        assert_box(box_of(page, by["dae_y"]), (3, 0, 0), (3.1, 0.2, 0.3))
        assert page.evaluate("(id) => window.__sdfViewApi.opacityOf(id)", by["dae"]) == 1
        s = page.evaluate("window.__sdfView")
        assert s["placeholders"] == 0
        if worker == "started":
            assert s["workerFiles"] == 2 and s["parseMs"] == 0  # nothing parsed on the page's thread
        else:
            assert s["workerFiles"] == 0
        assert not errors
    finally:
        page.close()


def open_refused(browser, server):
    """The page where the worker's script cannot be loaded (as under a policy refusing workers)."""
    page = browser.new_page(viewport={"width": 900, "height": 600})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route("**/static/worker/**", lambda route: route.fulfill(status=404, body="no"))
    page.goto(server.url)
    page.wait_for_function(
        "window.__sdfView && window.__sdfView.pending === 0 && window.__sdfView.frames > 0", timeout=60000
    )
    return page, errors


def test_the_view_server_points_a_workers_three_imports_at_the_vendored_files(view_server, tmp_path):
    import urllib.request

    (tmp_path / "m.sdf").write_text('<sdf version="1.11"><model name="m"><link name="l"/></model></sdf>')
    server = view_server(tmp_path / "m.sdf")
    base = server.url.split("?")[0].rstrip("/")
    worker = urllib.request.urlopen(f"{base}/static/worker/page/meshworker.js").read().decode()
    assert "from 'three'" not in worker and "from '/static/worker/vendor/three/three.core.js'" in worker
    assert "'/static/worker/vendor/three/addons/loaders/collada/ColladaParser.js'" in worker
    composer = (
        urllib.request.urlopen(f"{base}/static/worker/vendor/three/addons/loaders/collada/ColladaComposer.js")
        .read()
        .decode()
    )
    assert "from 'three'" not in composer and "'./ColladaParser.js'" in composer
    # the page's own copy keeps its imports (the import map resolves them)
    assert "from 'three'" in urllib.request.urlopen(f"{base}/static/page/meshworker.js").read().decode()


# every animation-frame callback: the texture uploads and draw calls it made
FRAMES_SPY = """
window.__frames = [];
let current = null;
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb) => raf((t) => {
  current = { uploads: 0, draws: 0, links: 0 };
  try { cb(t); } finally { if (current.uploads || current.draws || current.links) window.__frames.push(current); current = null; }
});
for (const C of [WebGL2RenderingContext, WebGLRenderingContext]) for (const [k, what] of [
  ['texImage2D', 'uploads'], ['texSubImage2D', 'uploads'], ['drawArrays', 'draws'], ['drawElements', 'draws'],
  ['drawArraysInstanced', 'draws'], ['drawElementsInstanced', 'draws'], ['linkProgram', 'links']]) {
  const f = C.prototype[k];
  C.prototype[k] = function (...a) { if (current) current[what]++; return f.apply(this, a); };
}
"""


def test_a_draw_uploads_no_texture_and_links_no_shader(browser, view_server, tmp_path):
    """With software WebGL and software compositing (code-server's chromium) each drawn frame is read back on the
    page's thread, which waits for every WebGL command queued before it: a frame that also sent the textures and
    compiled the shaders held the editor's thread 1.5-3 s on small_house. Textures and shaders go to the GPU in
    tasks of their own, and the frame is drawn once the GPU has them (page/uploads.js). Fails before: the first
    frame drawing the textured box also uploads its image and links its program."""
    from .test_browser_view import _colour_at_the_middle_of, green_textured_model

    server = view_server(green_textured_model(tmp_path))
    page = browser.new_page(viewport={"width": 900, "height": 600})
    page.add_init_script(FRAMES_SPY)
    try:
        page.goto(server.url)
        page.wait_for_function(
            "window.__sdfView && window.__sdfView.drawMs !== null && window.__sdfView.pending === 0", timeout=60000
        )
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        r, g, b = _colour_at_the_middle_of(page, ids(page)["box"])
        assert g > 2 * r and g > 2 * b, (r, g, b)  # the texture is drawn
        frames = page.evaluate("window.__frames")
        drawing = [f for f in frames if f["draws"]]
        assert drawing, frames
        assert all(f["uploads"] == 0 and f["links"] == 0 for f in drawing), frames
        # software WebGL (here SwiftShader) draws without multisampling: half a frame's cost, read back on the thread
        renderer = page.evaluate(
            "() => { const gl = document.querySelector('canvas').getContext('webgl2'); "
            "const i = gl.getExtension('WEBGL_debug_renderer_info'); "
            "return [gl.getParameter(i.UNMASKED_RENDERER_WEBGL), gl.getContextAttributes().antialias]; }"
        )
        assert "SwiftShader" in renderer[0] and renderer[1] is False, renderer
    finally:
        page.close()


def _quadrants_png() -> bytes:
    """A 2x2 image: red, green / blue, white (top row first): any turn or mirror of it shows."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = [bytes((255, 0, 0, 0, 255, 0)), bytes((0, 0, 255, 255, 255, 255))]
    raw = b"".join(b"\x00" + r for r in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def _textured_dae(image: str) -> bytes:
    """A 1 m box, each face mapped on the whole image (u, v along the face's two other axes)."""
    tris = meshgen._triangles((0, 0, 0), (1, 1, 1))
    pos, uv = [], []
    for tri in tris:
        (ax, ay, az), (bx, by, bz), (cx, cy, cz) = tri
        flat = [k for k in range(3) if tri[0][k] == tri[1][k] == tri[2][k]][0]
        u, v = [k for k in range(3) if k != flat]
        for p in tri:
            pos += list(p)
            uv += [p[u], p[v]]
    n = len(tris) * 3
    p = " ".join(f"{i} {i}" for i in range(n))
    return f"""<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Z_UP</up_axis></asset>
  <library_images><image id="img"><init_from>{image}</init_from></image></library_images>
  <library_effects><effect id="fx"><profile_COMMON>
    <newparam sid="surf"><surface type="2D"><init_from>img</init_from></surface></newparam>
    <newparam sid="samp"><sampler2D><source>surf</source><magfilter>NEAREST</magfilter></sampler2D></newparam>
    <technique sid="common"><lambert><diffuse><texture texture="samp" texcoord="UV"/></diffuse></lambert></technique>
  </profile_COMMON></effect></library_effects>
  <library_materials><material id="mat" name="mat"><instance_effect url="#fx"/></material></library_materials>
  <library_geometries><geometry id="g"><mesh>
    <source id="g-pos"><float_array id="g-pos-a" count="{len(pos)}">{" ".join(map(str, pos))}</float_array>
      <technique_common><accessor source="#g-pos-a" count="{n}" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
    <source id="g-uv"><float_array id="g-uv-a" count="{len(uv)}">{" ".join(map(str, uv))}</float_array>
      <technique_common><accessor source="#g-uv-a" count="{n}" stride="2"><param name="S" type="float"/><param name="T" type="float"/></accessor></technique_common></source>
    <vertices id="g-v"><input semantic="POSITION" source="#g-pos"/></vertices>
    <triangles material="m" count="{len(tris)}"><input semantic="VERTEX" source="#g-v" offset="0"/>
      <input semantic="TEXCOORD" source="#g-uv" offset="1" set="0"/><p>{p}</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"><bind_material><technique_common>
    <instance_material symbol="m" target="#mat"><bind_vertex_input semantic="UV" input_semantic="TEXCOORD" input_set="0"/></instance_material>
  </technique_common></bind_material></instance_geometry></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
""".encode()


# the colours drawn at a 7x7 grid of points over the box's screen area
SAMPLES = """(id) => { const api = window.__sdfViewApi; const bx = api.boxOf(id);
  const c = document.querySelector('canvas'); const t = document.createElement('canvas'); t.width = c.width; t.height = c.height;
  const g = t.getContext('2d'); g.drawImage(c, 0, 0); const r = c.getBoundingClientRect(); const out = [];
  const corners = []; for (const x of [0, 1]) for (const y of [0, 1]) for (const z of [0, 1])
    corners.push(api.screenOfPoint([bx[x][0], bx[y][1], bx[z][2]]));
  const xs = corners.map((p) => p[0]), ys = corners.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  for (let i = 1; i < 8; i++) for (let j = 1; j < 8; j++) {
    const x = x0 + (x1 - x0) * i / 8, y = y0 + (y1 - y0) * j / 8;
    out.push([...g.getImageData(Math.round((x - r.left) * c.width / r.width), Math.round((y - r.top) * c.height / r.height), 1, 1).data].slice(0, 3));
  }
  return out; }"""


def _textured_box_model(tmp_path: Path, image_dir: Path) -> Path:
    """A model whose one visual is meshes/box.dae, textured with quadrants.png written in ``image_dir``."""
    (tmp_path / "meshes").mkdir()
    image_dir.mkdir(parents=True, exist_ok=True)
    (image_dir / "quadrants.png").write_bytes(_quadrants_png())
    (tmp_path / "meshes" / "box.dae").write_bytes(_textured_dae("quadrants.png"))
    model = tmp_path / "model.sdf"
    model.write_text(
        '<sdf version="1.11"><model name="m"><link name="box"><visual name="v"><geometry><mesh>'
        "<uri>meshes/box.dae</uri></mesh></geometry></visual></link></model></sdf>"
    )
    return model


def test_a_collada_texture_from_the_worker_is_drawn_as_three_js_draws_it(browser, view_server, tmp_path):
    """The worker's COLLADA textures are decoded off the page's thread as ImageBitmaps (turned when decoded: WebGL
    does not flip them): the box must look exactly as three.js's own loader draws it on the page (the worker's
    script refused), quadrant image and all, at 49 points of the screen."""
    server = view_server(_textured_box_model(tmp_path, tmp_path / "meshes"))
    seen = []
    for opener in (open_view, open_refused):
        page, errors = opener(browser, server)
        try:
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
            s = page.evaluate("window.__sdfView")
            assert s["workerFiles"] == (1 if opener is open_view else 0)
            seen.append(page.evaluate(SAMPLES, ids(page)["box"]))
            assert not errors
        finally:
            page.close()
    worker, page_own = seen
    assert len({tuple(c) for c in page_own}) >= 3, page_own  # the image's colours are on the screen
    differing = [(a, b) for a, b in zip(worker, page_own) if max(abs(x - y) for x, y in zip(a, b)) > 8]
    assert not differing, differing


def test_a_collada_texture_is_asked_for_where_the_server_found_it(browser, view_server, tmp_path):
    """The frames answer names a COLLADA mesh's images (``textures``: <init_from> -> file) found as gz-common finds
    them, here in <mesh dir>/../materials/textures only: the page asks for that file (in VS Code, which has no
    view server to fall back there, small_house's 19 portrait photos were not found) and draws it as three.js's
    own loader does (given the same image by the view server's fallback)."""
    server = view_server(_textured_box_model(tmp_path, tmp_path / "materials" / "textures"))
    seen = []
    for opener in (open_view, open_refused):
        page, errors = opener(browser, server)
        try:
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
            assert page.evaluate("window.__sdfView")["workerFiles"] == (1 if opener is open_view else 0)
            asked = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
            if opener is open_view:  # three.js's own loader asks where the browser resolves the reference
                assert any(a.endswith("/materials/textures/quadrants.png") for a in asked), asked
            seen.append(page.evaluate(SAMPLES, ids(page)["box"]))
            assert not errors
        finally:
            page.close()
    worker, page_own = seen
    assert len({tuple(c) for c in worker}) >= 3, worker  # the image's colours are on the screen
    differing = [(a, b) for a, b in zip(worker, page_own) if max(abs(x - y) for x, y in zip(a, b)) > 8]
    assert not differing, differing


def _big_quadrants_png(width: int, height: int) -> bytes:
    """A ``width`` x ``height`` image of four quadrants, red, green / blue, white (top row first)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    top = b"\x00" + bytes((255, 0, 0)) * (width // 2) + bytes((0, 255, 0)) * (width - width // 2)
    bottom = b"\x00" + bytes((0, 0, 255)) * (width // 2) + bytes((255, 255, 255)) * (width - width // 2)
    raw = top * (height // 2) + bottom * (height - height // 2)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def test_a_large_texture_is_decoded_at_most_1024_wide_on_software_webgl(browser, view_server, tmp_path):
    """On software WebGL every texel is copied and mipmapped by the CPU: small_house's 83 images (96 million
    pixels) held its drawing 3-4 s in VS Code. The view decodes an image at most 1024 pixels on its longest side
    there, in proportion, off the page's thread (createImageBitmap's resize), makes its mip levels itself, and
    draws it as before. Fails before: the 2048x512 image is uploaded as it is, and WebGL makes the levels."""
    model = _textured_box_model(tmp_path, tmp_path / "meshes")
    (tmp_path / "meshes" / "quadrants.png").write_bytes(_big_quadrants_png(2048, 512))
    server = view_server(model)
    page, errors = open_view(browser, server)
    try:
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        box = ids(page)["box"]
        maps = page.evaluate("(id) => window.__sdfViewApi.mapsOf(id)", box)
        assert [m["maps"]["map"]["size"] for m in maps] == [[1024, 256]], maps
        # its mip levels made by the page, each half the one before down to 1x1: SwiftShader's generateMipmap of
        # an sRGB texture is several times slower (small_house: 3 s of the GPU process's time before the picture)
        levels = [[1024 >> k, max(1, 256 >> k)] for k in range(11)]
        assert maps[0]["maps"]["map"]["levels"] == levels, maps
        samples = page.evaluate(SAMPLES, box)
        drawn = {tuple(c) for c in samples}
        assert len(drawn) >= 3, samples  # the image's colours are on the screen, scaled down
        assert not errors
    finally:
        page.close()


def test_image_sizes_are_read_from_their_headers(browser, view_server, tmp_path):
    """meshes.js's imageSize, which decides the scaling above before the image is decoded, reads the size of
    PNG, JPEG, GIF and WebP files as the browser encodes them (JPEG's size is in its frame header, after other
    segments)."""
    server = view_server(_textured_box_model(tmp_path, tmp_path / "meshes"))
    page, errors = open_view(browser, server)
    try:
        sizes = page.evaluate(
            """async () => {
              const { imageSize } = await import('/static/page/meshes.js');
              const c = document.createElement('canvas'); c.width = 1500; c.height = 700;
              c.getContext('2d').fillRect(0, 0, 10, 10);
              const out = {};
              for (const type of ['image/png', 'image/jpeg', 'image/webp']) {
                const blob = await new Promise((done) => c.toBlob(done, type, 0.9));
                out[type] = [blob.type, imageSize(await blob.arrayBuffer())];
              }
              const gif = Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0xdc, 0x05, 0xbc, 0x02, 0, 0, 0]);
              out.gif = ['image/gif', imageSize(gif.buffer)];
              out.text = ['text', imageSize(new TextEncoder().encode('not an image').buffer)];
              return out; }"""
        )
        assert sizes == {
            "image/png": ["image/png", [1500, 700]],
            "image/jpeg": ["image/jpeg", [1500, 700]],
            "image/webp": ["image/webp", [1500, 700]],
            "gif": ["image/gif", [1500, 700]],
            "text": ["text", None],
        }, sizes
        assert not errors
    finally:
        page.close()


def test_frames_drawn_while_a_world_loads_are_at_half_resolution_on_software_webgl(browser, view_server, tmp_path):
    """A frame showing progress while meshes and images still arrive held the editor's thread 150-570 ms at full
    resolution in code-server (software WebGL): it is drawn at half resolution, and the frame said drawn, once
    everything is in, at full resolution. The image is held back 2.5 s (its fetch delayed on the page) so that a
    progress frame is drawn meanwhile. Fails before: the progress frame is drawn at full resolution."""
    server = view_server(_textured_box_model(tmp_path, tmp_path / "meshes"))
    page = browser.new_page(viewport={"width": 900, "height": 600})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(
        "{ const f = window.fetch; window.fetch = (u, ...a) => String(u).includes('quadrants.png') ? "
        "new Promise((done) => setTimeout(done, 2500)).then(() => f(u, ...a)) : f(u, ...a); }"
    )
    api = "window.__sdfViewApi"
    try:
        page.goto(server.url)
        full = page.evaluate("() => [innerWidth * devicePixelRatio, innerHeight * devicePixelRatio]")
        # the mesh is in, its image not yet: the frame drawn meanwhile is at half resolution
        page.wait_for_function(f"{api} && {api}.bufferSize()[0] === {full[0] // 2}", timeout=2000)
        assert page.evaluate("window.__sdfView.drawMs") is None  # not said drawn yet
        page.wait_for_function(
            "window.__sdfView && window.__sdfView.drawMs !== null && window.__sdfView.pending === 0", timeout=60000
        )
        assert page.evaluate(f"{api}.bufferSize()") == full
        samples = page.evaluate(SAMPLES, ids(page)["box"])
        assert len({tuple(c) for c in samples}) >= 3, samples  # drawn whole, its image and all
        assert not errors, errors
    finally:
        page.close()
