"""The view server of ``sdformat-lsp view``: the 3D page for every editor, on 127.0.0.1.

A shell like the language server: it reads the file, asks ``features.frame_view``
for its frames (the ``sdformat/frames`` answer, docs/server.md) and serves the
page the VS Code webview shows (``viewer/page``, with three.js vendored in
``viewer/vendor`` by ``scripts/vendor_three.py``: nothing from the network).

What it serves, and nothing else:

* ``/`` and ``/static/...``: the page and its scripts (files of this package);
  ``/static/worker/...`` the same scripts for the mesh worker, their imports of
  ``three`` pointed at the vendored files (a module worker has no import map);
* ``/api/frames`` and ``/api/wait?version=N`` (a long poll answered when the
  file or a file it reads changes on disk, or after 25 s): the frames;
* ``/f/<token>/<absolute path>``: the document, the files it includes and the
  meshes they resolve, and beside a mesh (below its directory or the one above)
  the textures and material files that a mesh, or a material file it names,
  names (images, ``.mtl``, glTF buffers): a COLLADA ``<init_from>``, an OBJ's
  ``mtllib``, an MTL's maps, a glTF ``uri``. No directory is listed; a path with
  ``..``, outside those files, or beside a mesh but named by none is refused.

Every ``/api`` and ``/f`` request carries the random token printed in the URL,
so that another local user or a web page cannot read the files through it.
"""

from __future__ import annotations

import json
import mimetypes
import os
import re
import secrets
import threading
import time
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from ..collector_pause import collector_paused
from ..files import FileRefused, read_file
from ..semantics import Options

HERE = os.path.dirname(os.path.abspath(__file__))
STATIC = {"page": os.path.join(HERE, "page"), "vendor": os.path.join(HERE, "vendor")}
BESIDE_MESHES = (".png", ".jpg", ".jpeg", ".tga", ".bmp", ".gif", ".webp", ".ktx2", ".mtl", ".bin", ".tif", ".tiff")
MAX_FILE_BYTES = 512 * 1024 * 1024
# files that name the textures, material files and buffers they need (STL and the rest name nothing)
NAMING = (".dae", ".obj", ".mtl", ".gltf", ".glb")
NAMED = re.compile(rb"\.(?:png|jpe?g|tga|bmp|gif|webp|ktx2|mtl|bin|tiff?)(?![A-Za-z0-9_])", re.IGNORECASE)
NAME_START = re.compile(rb"[\r\n\t<>\"'=/\\]")  # what comes before a name (a space may be in one)
REF_START = re.compile(rb"[\r\n\t<>\"'=]")  # what comes before a reference with its directories
IMAGES = (".png", ".jpg", ".jpeg", ".tga", ".bmp", ".gif", ".webp", ".ktx2", ".tif", ".tiff")
WAIT_SECONDS = 25.0
POLL_SECONDS = 0.5
# A module worker has no import map: in the scripts it loads, the page's map (index.html) is applied by the server.
# Only three.js's core goes to the worker: the classes a parser uses, not the renderer.
WORKER_IMPORT = re.compile(rb"""(\bfrom\s*|\bimport\s*)(['"])three(/addons/[^'"]*)?\2""")


def worker_import(m: re.Match[bytes]) -> bytes:
    target = b"/static/worker/vendor/three" + (m.group(3) or b"/three.core.js")
    return m.group(1) + m.group(2) + target + m.group(2)


TYPES = {
    ".js": "text/javascript",
    ".html": "text/html",
    ".json": "application/json",
    ".dae": "model/vnd.collada+xml",
    ".gltf": "model/gltf+json",
    ".glb": "model/gltf-binary",
    ".stl": "model/stl",
    ".obj": "text/plain",
}


class Document:
    """The followed file: its latest frames answer, and the files it depends on (with their modification times)."""

    def __init__(self, path: str, options: Options, token: str) -> None:
        self.path = os.path.abspath(path)
        self.options = options
        self.token = token
        self.version = 0
        self.answer: dict = {}
        self.watched: dict[str, int | None] = {}
        self.allowed: set[str] = set()
        self.mesh_dirs: set[str] = set()
        # naming file -> (mtime, the file names it names, the references as written with their directories)
        self.named: dict[str, tuple[int | None, frozenset[str], frozenset[str]]] = {}
        self.naming_lock = threading.Lock()
        self.changed = threading.Condition()
        self.load()

    def file_url(self, path: str) -> str:
        return f"/f/{self.token}" + urllib.parse.quote(os.path.abspath(path).replace(os.sep, "/"))

    def load(self) -> None:
        """Read the document and make the frames the page shows (again after a change on disk), with the
        collector paused: see ``cli.loading.one_document`` (the analysis is gone when the pause ends)."""
        with collector_paused():
            self._load()

    def _load(self) -> None:
        from ..cli.loading import load_file
        from ..features.frame_view import frame_json, frame_view, why_no_frames
        from ..text import UTF32

        analysis = load_file(self.path, self.options)
        files = {self.path}
        stack, seen = list(analysis.includes), set()
        while stack:
            rec = stack.pop()
            sub = getattr(rec, "analysis", None)
            if sub is None or id(sub) in seen:
                continue
            seen.add(id(sub))
            if sub.path:
                files.add(os.path.abspath(sub.path))
            stack.extend(sub.includes)
        view = frame_view(analysis, self.options.resource_paths)
        meshes: set[str] = set()

        def locate(span, path):
            where = analysis if path is None or os.path.abspath(path) == self.path else analysis.included_analysis(path)
            if where is None:
                return None
            line, col = where.lines.position(min(span.start, len(where.text)), UTF32)
            return {
                "uri": "file://" + urllib.parse.quote(os.path.abspath(path or self.path)),
                "range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col}},
            }

        def mesh_url(path: str) -> str:
            meshes.add(os.path.realpath(path))
            return self.file_url(path)

        frames = [frame_json(e, locate, mesh_url) for e in view.frames] if view is not None else []
        with self.changed:
            self.version += 1
            self.answer = {
                "uri": "file://" + urllib.parse.quote(self.path),
                "version": self.version,
                "root": {"kind": view.root_kind, "name": view.root_name} if view is not None else None,
                "truncated": bool(view and view.truncated),
                "frames": frames,
                "problem": None if view is not None else why_no_frames(analysis),
            }
            self.allowed = {os.path.realpath(p) for p in files} | meshes
            self.mesh_dirs = {os.path.dirname(m) for m in meshes} | {
                os.path.dirname(os.path.dirname(m)) for m in meshes
            }
            self.watched = {p: _mtime(p) for p in files | meshes}
            self.changed.notify_all()

    def stale(self) -> bool:
        return any(_mtime(p) != m for p, m in list(self.watched.items()))

    def may_serve(self, real: str) -> bool:
        if real in self.allowed:
            return True
        if not real.lower().endswith(BESIDE_MESHES) or not any(real.startswith(d + os.sep) for d in self.mesh_dirs):
            return False
        # beside a mesh: served only when a mesh (or a material file one names) nearby names it, so that a mesh
        # in a home or temporary directory does not open every image under it
        name = os.path.basename(real).lower()
        with self.naming_lock:
            namers = [p for p in self.allowed if p.lower().endswith(NAMING)]
            for namer in namers:
                near = os.path.dirname(os.path.dirname(namer))
                if real.startswith(near + os.sep) and name in self._names_in(namer):
                    self.allowed = self.allowed | {real}  # a named .mtl or .gltf names files in its turn
                    return True
        return False

    def texture_fallback(self, real: str) -> str | None:
        """Where gz-common finds a texture a mesh names at a path that does not exist: Material::SetTextureImage
        tries the path from the mesh's directory, then (after its resource paths) the same reference from
        ``<mesh directory>/../materials/textures``. AWS's small_house names its portraits'
        photos ``../../../../photos/X.jpg``, one directory too high, which that second place finds in the
        repository. The page asks for the first place (the browser resolved the reference); it is given the
        second. None: no mesh names ``real`` that way, or the second place has no file either."""
        if os.path.exists(real) or not real.lower().endswith(IMAGES):
            return None
        with self.naming_lock:
            for namer in [p for p in self.allowed if p.lower().endswith(NAMING)]:
                here = os.path.dirname(namer)
                for ref in self._named_in(namer)[1]:
                    if os.path.normpath(os.path.join(here, ref)) != real:
                        continue
                    alt = os.path.realpath(os.path.join(here, "..", "materials", "textures", ref))
                    if os.path.isfile(alt):
                        self.allowed = self.allowed | {alt}
                        return alt
        return None

    def _names_in(self, path: str) -> frozenset[str]:
        return self._named_in(path)[0]

    def _named_in(self, path: str) -> tuple[frozenset[str], frozenset[str]]:
        """The file names (lower case, without directories, %-decoded) of images, material files and buffers a
        mesh or material file names, and the references as written (with their directories, %-decoded), read
        once per modification."""
        stamp = _mtime(path)
        known = self.named.get(path)
        if known is not None and known[0] == stamp:
            return known[1], known[2]
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_FILE_BYTES)
        except OSError:
            data = b""
        names: set[str] = set()
        refs: set[str] = set()
        for m in NAMED.finditer(data):
            start = m.start()
            before = data[max(0, start - 1024) : start]
            for starts, out in ((NAME_START, names), (REF_START, refs)):
                cut = max((x.end() for x in starts.finditer(before)), default=0)
                words = (before[cut:].decode("utf-8", "replace") + m.group().decode()).split(" ")
                # a name with spaces (an MTL map, an <init_from>): every tail of the words before the extension
                out.update(urllib.parse.unquote(" ".join(words[i:]).strip()) for i in range(len(words)))
        self.named[path] = (stamp, frozenset(n.lower() for n in names), frozenset(refs))
        return self.named[path][1], self.named[path][2]


def _mtime(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


class ViewServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, path: str, options: Options, port: int = 0) -> None:
        self.token = secrets.token_urlsafe(16)
        self.document = Document(path, options, self.token)
        self.stopping = threading.Event()
        super().__init__(("127.0.0.1", port), Handler)
        self.watcher = threading.Thread(target=self._watch, name="sdformat-view-watch", daemon=True)
        self.watcher.start()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        assert isinstance(host, str)  # an AF_INET or AF_INET6 server's address (never a socket path)
        return f"http://{host}:{port}/?token={self.token}"

    def _watch(self) -> None:
        while not self.stopping.wait(POLL_SECONDS):
            try:
                if self.document.stale():
                    self.document.load()
            except Exception as exc:  # a bad save must not stop the following
                try:
                    print(f"sdformat-lsp view: {exc!r}", flush=True)
                except OSError:  # nobody reads the output any more (a closed pipe): keep following
                    pass

    def server_close(self) -> None:
        self.stopping.set()
        with self.document.changed:
            self.document.changed.notify_all()
        super().server_close()


class Handler(BaseHTTPRequestHandler):
    server: ViewServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass  # quiet: the terminal shows the URL and errors only

    def _send(self, status: int, body: bytes, content_type: str = "text/plain; charset=utf-8") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):  # the page went away (reloaded, closed)
                self.close_connection = True

    def _refuse(self, status: int = HTTPStatus.NOT_FOUND, why: str = "not served") -> None:
        self._send(status, why.encode())

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's name
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        url = urllib.parse.urlsplit(self.path)
        raw_path = url.path
        path = urllib.parse.unquote(raw_path)
        if "\x00" in path or ".." in path.split("/"):
            return self._refuse(HTTPStatus.FORBIDDEN, "'..' is not served")
        query = urllib.parse.parse_qs(url.query)
        if path in ("/", "/index.html"):
            return self._static("page", "index.html")
        if path.startswith("/static/worker/"):
            parts = path[len("/static/worker/") :].split("/", 1)
            if len(parts) == 2 and parts[0] in STATIC:
                return self._static(parts[0], parts[1], for_worker=True)
            return self._refuse()
        if path.startswith("/static/"):
            parts = path[len("/static/") :].split("/", 1)
            if len(parts) == 2 and parts[0] in STATIC:
                return self._static(parts[0], parts[1])
            return self._refuse()
        if path.startswith("/api/"):
            if not secrets.compare_digest(query.get("token", [""])[0], self.server.token):
                return self._refuse(HTTPStatus.FORBIDDEN, "wrong token")
            return self._api(path[len("/api/") :], query)
        if path.startswith("/f/"):
            token, _, rest = path[len("/f/") :].partition("/")
            if not secrets.compare_digest(token, self.server.token):
                return self._refuse(HTTPStatus.FORBIDDEN, "wrong token")
            return self._file("/" + rest)
        return self._refuse()

    def _static(self, kind: str, rel: str, for_worker: bool = False) -> None:
        base = os.path.realpath(STATIC[kind])
        real = os.path.realpath(os.path.join(base, rel))
        if not real.startswith(base + os.sep) or not os.path.isfile(real):
            return self._refuse()
        with open(real, "rb") as f:
            body = f.read()
        if for_worker and real.endswith(".js"):
            body = WORKER_IMPORT.sub(worker_import, body)
        self._send(HTTPStatus.OK, body, TYPES.get(os.path.splitext(real)[1], "application/octet-stream"))

    def _api(self, what: str, query: dict) -> None:
        doc = self.server.document
        if what == "frames":
            with doc.changed:
                body = json.dumps(doc.answer)
            return self._send(HTTPStatus.OK, body.encode(), "application/json")
        if what == "wait":
            try:
                known = int(query.get("version", ["-1"])[0])
            except ValueError:
                known = -1
            deadline = time.monotonic() + WAIT_SECONDS
            with doc.changed:
                while doc.version == known and not self.server.stopping.is_set():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    doc.changed.wait(left)
                body = json.dumps(doc.answer)
            return self._send(HTTPStatus.OK, body.encode(), "application/json")
        return self._refuse()

    def _file(self, path: str) -> None:
        doc = self.server.document
        real = os.path.realpath(path)
        if not os.path.exists(real):
            real = doc.texture_fallback(real) or real
        if not doc.may_serve(real):
            return self._refuse(HTTPStatus.FORBIDDEN, "only the document, its includes and their meshes are served")
        try:
            body = read_file(real, MAX_FILE_BYTES)
        except FileRefused as exc:
            return self._refuse(HTTPStatus.NOT_FOUND, exc.reason)
        ctype = (
            TYPES.get(os.path.splitext(real)[1].lower()) or mimetypes.guess_type(real)[0] or "application/octet-stream"
        )
        self._send(HTTPStatus.OK, body, ctype)


__all__ = ["ViewServer"]
