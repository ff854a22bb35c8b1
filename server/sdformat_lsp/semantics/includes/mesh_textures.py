"""The image files a COLLADA mesh names for its textures, found where Gazebo finds them.

The frames answer (``features.frame_view``) carries, for a COLLADA mesh, each ``<image>``'s ``<init_from>`` as
written and the file it resolves to, so that every viewer draws the image Gazebo draws: a browser resolves the
reference as a URL beside the mesh, and finds nothing where Gazebo looks next. In VS Code, whose webview reads
files without the view server's fallback, small_house's 19 portrait photos were not found. The view server
serves those files and the VS Code extension makes them readable by its webview.

A reference resolves as gz-common's ``Material::SetTextureImage`` resolves it (read at gazebosim/gz-common
graphics/src/Material.cc): the path joined to the mesh's directory, else (after gz-common's own file search, whose
paths the view does not know) the same reference below ``<mesh directory>/../materials/textures``. AWS's
small_house names its portraits' photos ``../../../../photos/X.jpg``, which only that second place finds.
A reference that resolves nowhere, or that is a URL or an absolute path, is left out: the page then asks for it
as three.js would, and says when it cannot be read.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from functools import lru_cache

# <image> tags (COLLADA 1.4 and 1.5; not <image_...>), opening, closing or empty, and <init_from>'s; tags inside
# it (1.5's <ref>) are dropped, as the text content three.js and tinyxml2 read keeps only the text. A tag ends at
# the first '<' or '>': every match stops before the next tag, so the file is read in one linear pass, however
# many tags are left unclosed (a pattern from each <image> to its </image> took 16 s on 140 KB of unclosed ones).
IMAGE_TAG = re.compile(rb"<(/?)image\b[^<>]*>")
INIT_FROM_TAG = re.compile(rb"<init_from\b[^<>]*>")
INIT_FROM_END = re.compile(rb"</init_from\s*>")
TAG = re.compile(rb"<[^>]*>")
ENTITIES = {b"&lt;": b"<", b"&gt;": b">", b"&quot;": b'"', b"&apos;": b"'", b"&amp;": b"&"}
ENTITY = re.compile(rb"&(?:lt|gt|quot|apos|amp);")
MAX_BYTES = 512 * 1024 * 1024
MAX_IMAGES = 1000


def collada_textures(path: str) -> tuple[tuple[str, str], ...]:
    """(the ``<init_from>`` text, stripped, the image file it resolves to) for each image the COLLADA file at
    ``path`` names, in the file's order; read once per modification of the file."""
    try:
        st = os.stat(path)
    except OSError:
        return ()
    if not stat.S_ISREG(st.st_mode):  # a FIFO or a device would block the read, or never end it
        return ()
    return _read(os.path.abspath(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=512)
def _read(path: str, _mtime: int, _size: int) -> tuple[tuple[str, str], ...]:
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES)
    except OSError:
        return ()
    here = os.path.dirname(path)
    out: dict[str, str] = {}
    for content in _images(data):
        init = _init_from(content)
        if init is None:
            continue
        text = ENTITY.sub(lambda m: ENTITIES[m.group()], TAG.sub(b"", init))
        ref = text.decode("utf-8", "replace").strip()
        if not ref or ref in out or "://" in ref or os.path.isabs(ref):
            continue
        found = _resolve(here, ref)
        if found is not None:
            out[ref] = found
            if len(out) >= MAX_IMAGES:
                break
    return tuple(out.items())


def _images(data: bytes) -> Iterator[bytes]:
    """The content of each ``<image>`` element that has one (an empty ``<image/>`` has none), in order."""
    start: int | None = None
    for tag in IMAGE_TAG.finditer(data):
        if tag.group(1):  # </image>
            if start is not None:
                yield data[start : tag.start()]
            start = None
        else:
            start = None if tag.group().endswith(b"/>") else tag.end()


def _init_from(content: bytes) -> bytes | None:
    """The text of the first ``<init_from>`` in an image's content that is closed, tags and all."""
    for tag in INIT_FROM_TAG.finditer(content):
        if tag.group().endswith(b"/>"):
            continue
        end = INIT_FROM_END.search(content, tag.end())
        return content[tag.end() : end.start()] if end is not None else None
    return None


def _resolve(here: str, ref: str) -> str | None:
    # joined as paths (gz-common's joinPaths), '..' taken lexically as a browser takes a URL's
    for joined in (os.path.join(here, ref), os.path.join(here, "..", "materials", "textures", ref)):
        candidate = os.path.normpath(joined)
        if os.path.isfile(candidate):
            return os.path.realpath(candidate)
    return None
