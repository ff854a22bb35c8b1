"""Workspace symbols: the models, links, joints and frames of every SDFormat file of the workspace.

Works on the document model alone (``model.build`` of a parsed file), which
is cheap enough to index a whole repository: no include resolution, no frame
graphs. The server keeps the results per file and re-reads a file only when it
changed on disk or is open in the editor.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Document, Frame, Joint, Link, Model, World
from ..text import Span


@dataclass(frozen=True, slots=True)
class WorkspaceSymbol:
    name: str
    kind: str  # world, model, link, joint, frame
    container: str | None  # the enclosing model or world, as a :: path
    span: Span  # the name (the start tag when there is none)


def document_entities(doc: Document) -> list[WorkspaceSymbol]:
    """Every named world, model (nested too), link, joint and frame of ``doc``, in document order."""
    out: list[WorkspaceSymbol] = []
    stack: list[tuple[object, str | None]] = [(e, None) for e in (*doc.worlds, *doc.models)]
    while stack:
        obj, container = stack.pop()
        kind = _KINDS.get(type(obj))
        if kind is None:
            continue
        name = obj.name or ""  # type: ignore[attr-defined]
        span = obj.name_span or obj.element.tag_span  # type: ignore[attr-defined]
        if name:
            out.append(WorkspaceSymbol(name, kind, container, span))
        if kind in ("world", "model"):
            inner = f"{container}::{name}" if container else name
            stack.extend((m, inner) for m in obj.members)  # type: ignore[attr-defined]
    out.sort(key=lambda s: s.span.start)
    return out


_KINDS = {World: "world", Model: "model", Link: "link", Joint: "joint", Frame: "frame"}


def matches(query: str, name: str) -> bool:
    """Every character of ``query`` occurs in ``name`` in order, ignoring case (as editors filter)."""
    it = iter(name.lower())
    return all(ch in it for ch in query.lower())


def workspace_symbols(
    files: list[tuple[str, list[WorkspaceSymbol]]], query: str, limit: int = 1000
) -> list[tuple[str, WorkspaceSymbol]]:
    """The symbols of ``files`` (path, entities) whose name matches ``query``; exact and prefix matches first."""
    found: list[tuple[int, str, str, WorkspaceSymbol]] = []
    q = query.strip()
    for path, symbols in files:
        for s in symbols:
            if not q or matches(q, s.name):
                rank = 0 if s.name.lower() == q.lower() else 1 if s.name.lower().startswith(q.lower()) else 2
                found.append((rank, s.name.lower(), path, s))
    found.sort(key=lambda t: (t[0], t[1], t[2], t[3].span.start))
    return [(path, s) for _, _, path, s in found[:limit]]


__all__ = ["WorkspaceSymbol", "document_entities", "matches", "workspace_symbols"]
