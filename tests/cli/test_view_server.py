"""``sdformat-lsp view``'s server: it serves the page, the frames and the files the document reads, with its
token, and nothing else (no listing, no ``..``, nothing outside); it follows the file as it is saved."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from sdformat_lsp.semantics import Options
from sdformat_lsp.viewer.http import ViewServer

MODEL = """<sdf version="1.9"><model name="m">
  <link name="l"><visual name="v"><geometry><mesh><uri>meshes/part.stl</uri></mesh></geometry></visual></link>
  <link name="k"><pose>1 0 0 0 0 0</pose></link>
  <joint name="j" type="revolute"><parent>l</parent><child>k</child><axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>"""


@pytest.fixture
def served(tmp_path):
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "part.stl").write_text("solid x\nendsolid x\n")
    (tmp_path / "meshes" / "skin.png").write_bytes(b"\x89PNG")
    (tmp_path / "meshes" / "notes.txt").write_text("private")
    (tmp_path / "secret.txt").write_text("private")
    (tmp_path / "model.sdf").write_text(MODEL)
    server = ViewServer(str(tmp_path / "model.sdf"), Options(schema=False))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    yield server, tmp_path
    server.shutdown()
    server.server_close()


def get(server, path: str) -> tuple[int, bytes]:
    host, port = server.server_address[:2]
    try:
        with urllib.request.urlopen(f"http://{host}:{port}{path}", timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_serves_the_page_frames_and_the_files_read_and_nothing_else(served):
    server, root = served
    assert server.server_address[0] == "127.0.0.1"
    t = server.token
    assert len(t) >= 16
    status, body = get(server, "/")
    assert status == 200 and b"importmap" in body
    assert get(server, "/static/page/viewer.js")[0] == 200
    assert get(server, "/static/vendor/three/three.module.js")[0] == 200
    assert get(server, "/static/vendor/three/LICENSE")[0] == 200
    assert get(server, "/api/frames")[0] == 403
    assert get(server, "/api/frames?token=nope")[0] == 403
    status, body = get(server, f"/api/frames?token={t}")
    frames = json.loads(body)
    assert status == 200 and frames["root"] == {"kind": "model", "name": "m"}
    by = {f["name"]: f for f in frames["frames"]}
    [v] = by["l"]["visuals"]
    mesh_url = v["mesh"]
    assert mesh_url.startswith(f"/f/{t}/") and mesh_url.endswith("/meshes/part.stl")
    assert by["j"]["joint"]["childLink"] == "k" and by["j"]["joint"]["parentLink"] == "l"
    # the document and its meshes
    assert get(server, mesh_url)[0] == 200
    doc = server.document.file_url(str(root / "model.sdf"))
    assert get(server, doc)[0] == 200
    # not: an image beside a mesh that names none (an STL), other files there, files elsewhere, directories,
    # '..', the wrong token, the package's own files
    for refused in (
        server.document.file_url(str(root / "meshes" / "skin.png")),
        server.document.file_url(str(root / "meshes" / "notes.txt")),
        server.document.file_url(str(root / "secret.txt")),
        server.document.file_url("/etc/passwd"),
        server.document.file_url(str(root)),
        server.document.file_url(str(root / "meshes")) + "/",
        mesh_url.replace("/meshes/part.stl", "/meshes/../secret.txt"),
        mesh_url.replace("/meshes/part.stl", "/meshes/%2e%2e/secret.txt"),
        mesh_url.replace(t, "x" * len(t)),
        "/static/page/../http.py",
        "/static/page/%2e%2e/http.py",
        "/static/vendor/",
        "/static/",
        "/f/",
        "/etc/passwd",
    ):
        status, _ = get(server, refused)
        assert status in (403, 404), (refused, status)


NAMING = """<sdf version="1.9"><model name="m">
  <link name="dae"><visual name="v"><geometry><mesh><uri>robot/meshes/arm.dae</uri></mesh></geometry></visual></link>
  <link name="obj"><visual name="v"><geometry><mesh><uri>robot/meshes/wheel.obj</uri></mesh></geometry></visual></link>
  <link name="gltf"><visual name="v"><geometry><mesh><uri>robot/meshes/tool.gltf</uri></mesh></geometry></visual></link>
</model></sdf>"""


def test_beside_a_mesh_only_the_files_the_meshes_name_are_served(tmp_path):
    """Textures and material files are served where a mesh (or a material file it names) names them: a COLLADA
    <init_from> (in gz-common's ../materials/textures too), an OBJ's mtllib and the MTL's maps (a name with
    spaces), a glTF's buffer. Another image in the same directories is refused: before, every image, .mtl or .bin
    under the directory above a mesh was served (for a mesh in /tmp, any image under /tmp)."""
    meshes = tmp_path / "robot" / "meshes"
    textures = tmp_path / "robot" / "materials" / "textures"
    elsewhere = tmp_path / "robot" / "photos" / "holiday"
    for d in (meshes, textures, elsewhere):
        d.mkdir(parents=True)
    (meshes / "arm.dae").write_text(
        '<COLLADA><library_images><image id="i"><init_from>../materials/textures/arm%20paint.png</init_from>'
        "</image></library_images></COLLADA>"
    )
    (meshes / "wheel.obj").write_text("mtllib wheel.mtl\nv 0 0 0\n")
    (meshes / "wheel.mtl").write_text("newmtl rubber\nmap_Kd -s 1 1 1 tread marks.jpg\n")
    (meshes / "tool.gltf").write_text('{"buffers": [{"uri": "tool.bin", "byteLength": 4}]}')
    for f in (textures / "arm paint.png", meshes / "tread marks.jpg", meshes / "tool.bin"):
        f.write_bytes(b"named")
    for f in (textures / "other.png", meshes / "other.mtl", elsewhere / "me.jpg", tmp_path / "robot" / "x.png"):
        f.write_bytes(b"not named")
    (tmp_path / "model.sdf").write_text(NAMING)
    server = ViewServer(str(tmp_path / "model.sdf"), Options(schema=False))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    try:
        url = server.document.file_url
        # as the page asks: the MTL the OBJ names, then the maps the MTL names
        assert get(server, url(str(meshes / "wheel.mtl")))[0] == 200
        for served in ("arm paint.png", "tread marks.jpg", "tool.bin"):
            [path] = tmp_path.rglob(served)
            assert get(server, url(str(path))) == (200, b"named"), served
        for refused in ("other.png", "other.mtl", "me.jpg", "x.png"):
            [path] = tmp_path.rglob(refused)
            assert get(server, url(str(path)))[0] == 403, refused
    finally:
        server.shutdown()
        server.server_close()


XACRO = """<?xml version="1.0"?>
<robot name="arm" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="segment" params="name parent z">
    <link name="${name}"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
      <visual><geometry><box size="0.1 0.1 ${z}"/></geometry></visual></link>
    <joint name="${name}_joint" type="revolute"><parent link="${parent}"/><child link="${name}"/>
      <origin xyz="0 0 ${z}"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  </xacro:macro>
  <link name="base"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <xacro:segment name="upper" parent="base" z="0.5"/>
</robot>
"""


def test_a_texture_is_found_where_gz_common_looks_after_the_path_written(tmp_path):
    """gz-common's Material::SetTextureImage looks for a texture at the path a mesh names, then for the same
    reference from <mesh directory>/../materials/textures: AWS's small_house portraits name their photos
    '../../../../photos/X.jpg', one directory above the repository, and Gazebo finds them in the repository's
    photos/. The page asks for the path as written (its browser resolved it) and is given that file; a
    reference no mesh makes, or whose second place has no file, is still refused. Fails before: 403."""
    meshes = tmp_path / "repo" / "models" / "portrait" / "meshes"
    meshes.mkdir(parents=True)
    (tmp_path / "repo" / "photos").mkdir()
    (tmp_path / "repo" / "photos" / "me.jpg").write_bytes(b"photo")
    (tmp_path / "repo" / "photos" / "other.jpg").write_bytes(b"not named")
    (meshes / "frame.dae").write_text(
        "<COLLADA><library_images><image id='i'><init_from>../../../../photos/me.jpg</init_from></image>"
        "<image id='j'><init_from>../../../../photos/gone.jpg</init_from></image></library_images></COLLADA>"
    )
    doc = tmp_path / "repo" / "models" / "portrait" / "model.sdf"
    doc.write_text(MODEL.replace("meshes/part.stl", "meshes/frame.dae"))
    server = ViewServer(str(doc), Options(schema=False))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    try:
        # the frames answer names the images found, so that a viewer asks for them with the mesh
        answer = json.loads(get(server, f"/api/frames?token={server.token}")[1])
        [textures] = [v["textures"] for f in answer["frames"] for v in f.get("visuals") or []]
        assert textures == {"../../../../photos/me.jpg": server.document.file_url(str(tmp_path / "repo/photos/me.jpg"))}
        assert get(server, textures["../../../../photos/me.jpg"]) == (200, b"photo")
        as_written = os.path.normpath(os.path.join(meshes, "../../../../photos/me.jpg"))
        assert not os.path.exists(as_written)
        assert get(server, server.document.file_url(as_written)) == (200, b"photo")
        for refused in ("../../../../photos/other.jpg", "../../../../photos/gone.jpg"):
            path = os.path.normpath(os.path.join(meshes, refused))
            assert get(server, server.document.file_url(path))[0] == 403, refused
    finally:
        server.shutdown()
        server.server_close()


def test_a_xacro_document_is_served_with_the_frames_of_its_expansion(tmp_path):
    """`sdformat-lsp view robot.urdf.xacro` showed nothing ('<robot> holds no model or world to draw'): the shell
    asked for frames only when the document itself had a frame graph, which a xacro document has in its
    expansion (ros-industrial's ur10.xacro: 0 frames in the view, 22 in VS Code). It asks features.frame_view,
    as the language server does."""
    (tmp_path / "arm.urdf.xacro").write_text(XACRO)
    server = ViewServer(str(tmp_path / "arm.urdf.xacro"), Options(schema=False))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    try:
        answer = json.loads(get(server, f"/api/frames?token={server.token}")[1])
        assert answer["problem"] is None and answer["root"] == {"kind": "model", "name": "arm"}
        by = {f["name"]: f for f in answer["frames"]}
        assert by["upper_joint"]["joint"]["type"] == "revolute" and by["upper"]["visuals"]
        assert by["upper"]["pose"]["xyz"] == [0, 0, 0.5]
        # located where the macro call wrote it, in the xacro file
        assert by["upper"]["location"]["uri"].endswith("/arm.urdf.xacro")
    finally:
        server.shutdown()
        server.server_close()


def test_follows_the_file_as_it_is_saved(served):
    server, root = served
    t = server.token
    first = json.loads(get(server, f"/api/frames?token={t}")[1])
    done: list[dict] = []
    waiter = threading.Thread(
        target=lambda: done.append(json.loads(get(server, f"/api/wait?token={t}&version={first['version']}")[1]))
    )
    waiter.start()
    time.sleep(0.3)
    (root / "model.sdf").write_text(MODEL.replace('<link name="k"><pose>1 0 0', '<link name="k"><pose>2 0 0'))
    os.utime(root / "model.sdf", ns=(time.time_ns(), time.time_ns() + 10**9))
    waiter.join(30)
    assert done and done[0]["version"] == first["version"] + 1
    k = next(f for f in done[0]["frames"] if f["name"] == "k")
    assert k["pose"]["xyz"] == [2, 0, 0]


def test_the_command_prints_a_local_url_with_a_token_and_stops(tmp_path):
    (tmp_path / "model.sdf").write_text(MODEL)
    p = subprocess.Popen(
        [sys.executable, "-m", "sdformat_lsp", "view", str(tmp_path / "model.sdf"), "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = p.stdout.readline()
        assert line.startswith("sdformat-lsp view: http://127.0.0.1:") and "/?token=" in line, line
        url = line.split(": ", 1)[1].strip()
        with urllib.request.urlopen(url, timeout=30) as r:
            assert r.status == 200
    finally:
        p.terminate()
        p.wait(30)
    missing = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "view", str(tmp_path / "nope.sdf"), "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 2 and "not a file" in missing.stderr


def test_the_page_is_served_while_the_browser_it_opened_still_runs(tmp_path):
    # webbrowser waits for a $BROWSER command to exit (a browser not running yet stays until the user quits it)
    (tmp_path / "model.sdf").write_text(MODEL)
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho $$ > "{opened}.pid"\necho "$1" > "{opened}"\nexec sleep 60\n')
    browser.chmod(0o755)
    p = subprocess.Popen(
        [sys.executable, "-m", "sdformat_lsp", "view", str(tmp_path / "model.sdf")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "BROWSER": str(browser)},
    )
    try:
        url = p.stdout.readline().split(": ", 1)[1].strip()
        deadline = time.monotonic() + 30
        while not (opened.exists() and opened.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert opened.read_text().strip() == url
        with urllib.request.urlopen(url, timeout=30) as r:
            assert r.status == 200
    finally:
        p.terminate()
        p.wait(30)
        if (tmp_path / "opened.txt.pid").exists():
            os.kill(int((tmp_path / "opened.txt.pid").read_text()), signal.SIGTERM)


def test_a_file_named_from_the_home_directory_is_found_where_no_shell_expanded_the_tilde(tmp_path):
    # Helix's %{buffer_name} gives "~/..." for a file under the home directory, and a quoted ~ stays as written
    (tmp_path / "my robot.sdf").write_text(MODEL)
    p = subprocess.Popen(
        [sys.executable, "-m", "sdformat_lsp", "view", "~/my robot.sdf", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HOME": str(tmp_path)},
        cwd="/",
    )
    try:
        url = p.stdout.readline().split(": ", 1)[1].strip()
        base, token = url.split("/?token=")
        with urllib.request.urlopen(f"{base}/api/frames?token={token}", timeout=30) as r:
            assert json.loads(r.read())["uri"] == "file://" + urllib.parse.quote(str(tmp_path / "my robot.sdf"))
    finally:
        p.terminate()
        p.wait(30)


class ClosedPipe:
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_failed_reload_with_nobody_reading_the_output_does_not_stop_the_following(served, monkeypatch):
    # Helix's recipe reads the first line (the URL) and closes the pipe; a later message must not end the watcher
    server, root = served
    loads = []

    def failing_load() -> None:
        loads.append(1)
        raise RuntimeError("a bad save")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    monkeypatch.setattr(server.document, "stale", lambda: True)
    monkeypatch.setattr(server.document, "load", failing_load)
    deadline = time.monotonic() + 30
    while len(loads) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(loads) >= 2 and server.watcher.is_alive()


def test_without_a_display_no_console_browser_is_started_and_the_command_says_how_to_open_the_url(tmp_path):
    # Python's webbrowser falls back to lynx, w3m, www-browser... where there is no display: none draws WebGL
    (tmp_path / "model.sdf").write_text(MODEL)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    started = tmp_path / "started.txt"
    for name in ("www-browser", "links", "elinks", "lynx", "w3m", "xdg-open"):
        (bin_dir / name).write_text(f'#!/bin/sh\necho {name} >> "{started}"\n')
        (bin_dir / name).chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", TERM="xterm")
    p = subprocess.Popen(
        [sys.executable, "-m", "sdformat_lsp", "view", str(tmp_path / "model.sdf")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        url = p.stdout.readline().split(": ", 1)[1].strip()
        port = url.split(":")[2].split("/")[0]
        # the note comes before serving, or not at all (then a browser was started): wait for it, bounded
        assert select.select([p.stderr], [], [], 30)[0], "no note on stderr"
        note = p.stderr.readline()
        assert note.startswith("sdformat-lsp view: no browser opened: no display here"), note
        assert f"ssh -L {port}:127.0.0.1:{port}" in note
        with urllib.request.urlopen(url, timeout=30) as r:
            assert r.status == 200
        assert not started.exists(), started.read_text()
    finally:
        p.terminate()
        p.wait(30)


def test_the_no_display_note_to_a_closed_pipe_does_not_stop_the_server(tmp_path):
    # Helix's binding pipes both outputs to `head -n 1`, which may be gone when the note after the URL is written
    (tmp_path / "model.sdf").write_text(MODEL)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write to stderr now fails with EPIPE
    try:
        p = subprocess.Popen(
            [sys.executable, "-m", "sdformat_lsp", "view", str(tmp_path / "model.sdf")],
            stdout=subprocess.PIPE,
            stderr=write_end,
            text=True,
            env=env,
        )
    finally:
        os.close(write_end)
    try:
        url = p.stdout.readline().split(": ", 1)[1].strip()
        with urllib.request.urlopen(url, timeout=30) as r:
            assert r.status == 200
        assert p.poll() is None
    finally:
        p.terminate()
        p.wait(30)
