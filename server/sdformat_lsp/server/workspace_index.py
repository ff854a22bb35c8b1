"""The workspace's SDFormat files, indexed for workspace symbols.

Files are found under the workspace folders (hidden directories, build trees
and ``node_modules`` skipped; bounded in count and size so a huge checkout
cannot stall the server), parsed and built into the document model (no
includes, no frame graphs: cheap), and their entities kept per file until the
file changes on disk. Open documents are read from the editor's text.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import TYPE_CHECKING

from lsprotocol import types

from ..model import build
from ..text import LineIndex
from ..xml import parse
from .convert import to_range
from .documents import path_to_uri, uri_to_path
from .lazy import LazyModule

if TYPE_CHECKING:
    from .session import Session
    from ..features.workspace_symbols import WorkspaceSymbol

symbols_mod = LazyModule(
    "sdformat_lsp.features.workspace_symbols"
)  # on the first workspace/symbol request (see lazy.py)

log = logging.getLogger(__name__)

EXTENSIONS = (".sdf", ".world")
SKIPPED_DIRS = frozenset({"node_modules", "build", "install", "log", "__pycache__", "site-packages", "dist", "out"})
MAX_FILES = 5000
MAX_BYTES = 5 * 1024 * 1024
MAX_RESULTS = 1000

_KINDS = {
    "world": types.SymbolKind.Namespace,
    "model": types.SymbolKind.Module,
    "link": types.SymbolKind.Class,
    "joint": types.SymbolKind.Interface,
    "frame": types.SymbolKind.Field,
}


def workspace_files(roots: list[str], limit: int = MAX_FILES) -> list[str]:
    """SDFormat files under ``roots``, iteratively (no recursion), at most ``limit``."""
    out: list[str] = []
    seen: set[str] = set()
    stack = [r for r in reversed(roots) if os.path.isdir(r)]
    while stack and len(out) < limit:
        d = stack.pop()
        real = os.path.realpath(d)
        if real in seen:
            continue  # symbolic link loops
        seen.add(real)
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError:
            continue
        subdirs = []
        for e in entries:
            if e.name.startswith("."):
                continue
            try:
                if e.is_dir():
                    if e.name not in SKIPPED_DIRS:
                        subdirs.append(e.path)
                elif e.name.endswith(EXTENSIONS) and e.is_file():
                    out.append(e.path)
                    if len(out) >= limit:
                        break
            except OSError:
                continue
        stack.extend(reversed(subdirs))
    return out


class WorkspaceIndex:
    """Entities per file, re-read when the file's size or modification time changes."""

    def __init__(self, server: Session) -> None:
        self.server = server
        self._cache: dict[str, tuple[tuple[int, int], list[WorkspaceSymbol], LineIndex]] = {}

    def roots(self) -> list[str]:
        roots: list[str] = []
        try:
            folders = list(self.server.workspace.folders.values())
        except Exception:  # no workspace yet
            folders = []
        for f in folders:
            p = uri_to_path(f.uri)
            if p and p not in roots:
                roots.append(p)
        if not roots and self.server.root_dir:
            roots.append(self.server.root_dir)
        return roots

    def _entities(self, path: str, open_text: str | None) -> tuple[list[WorkspaceSymbol], LineIndex] | None:
        if open_text is not None:
            xml = parse(open_text)
            return symbols_mod.document_entities(build(xml)[0]), xml.lines
        try:
            st = os.stat(path)
        except OSError:
            self._cache.pop(path, None)
            return None
        key = (st.st_mtime_ns, st.st_size)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == key:
            return cached[1], cached[2]
        if st.st_size > MAX_BYTES:
            return None
        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8", errors="replace")
        except OSError:
            return None
        xml = parse(text)
        entities = symbols_mod.document_entities(build(xml)[0])
        self._cache[path] = (key, entities, xml.lines)
        return entities, xml.lines

    def _collect(self, query: str, open_texts: dict[str, str]) -> list[tuple[str, WorkspaceSymbol, LineIndex]]:
        paths = workspace_files(self.roots())
        paths.extend(p for p in open_texts if p not in paths)
        files: list[tuple[str, list[WorkspaceSymbol]]] = []
        lines: dict[str, LineIndex] = {}
        for p in paths:
            try:
                found = self._entities(p, open_texts.get(p))
            except Exception:  # one bad file never hides the others
                log.exception("indexing %s failed", p)
                continue
            if found is not None:
                files.append((p, found[0]))
                lines[p] = found[1]
        return [(p, s, lines[p]) for p, s in symbols_mod.workspace_symbols(files, query, MAX_RESULTS)]

    async def symbols(self, query: str) -> list[types.SymbolInformation]:
        open_texts: dict[str, str] = {}
        for doc in self.server.documents:
            p = uri_to_path(doc.uri)
            if p and p.endswith(EXTENSIONS):
                open_texts[p] = doc.text
        found = await asyncio.to_thread(self._collect, query, open_texts)
        enc = self.server.encoding
        return [
            types.SymbolInformation(
                name=s.name,
                kind=_KINDS.get(s.kind, types.SymbolKind.Object),
                location=types.Location(uri=path_to_uri(p), range=to_range(lines, s.span, enc)),
                container_name=s.container,
            )
            for p, s, lines in found
        ]


__all__ = ["WorkspaceIndex", "workspace_files"]
