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
from functools import lru_cache

# An <image> element (COLLADA 1.4 and 1.5; not <image_...>) and the first <init_from> in it; tags inside it
# (1.5's <ref>) are dropped, as the text content three.js and tinyxml2 read keeps only the text.
IMAGE = re.compile(rb"<image\b[^>]*?(?<!/)>(.*?)</image\s*>", re.DOTALL)
INIT_FROM = re.compile(rb"<init_from\b[^>]*?(?<!/)>(.*?)</init_from\s*>", re.DOTALL)
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
    for image in IMAGE.finditer(data):
        init = INIT_FROM.search(image.group(1))
        if init is None:
            continue
        text = ENTITY.sub(lambda m: ENTITIES[m.group()], TAG.sub(b"", init.group(1)))
        ref = text.decode("utf-8", "replace").strip()
        if not ref or ref in out or "://" in ref or os.path.isabs(ref):
            continue
        found = _resolve(here, ref)
        if found is not None:
            out[ref] = found
            if len(out) >= MAX_IMAGES:
                break
    return tuple(out.items())


def _resolve(here: str, ref: str) -> str | None:
    # joined as paths (gz-common's joinPaths), '..' taken lexically as a browser takes a URL's
    for joined in (os.path.join(here, ref), os.path.join(here, "..", "materials", "textures", ref)):
        candidate = os.path.normpath(joined)
        if os.path.isfile(candidate):
            return os.path.realpath(candidate)
    return None
