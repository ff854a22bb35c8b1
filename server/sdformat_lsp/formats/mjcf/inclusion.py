"""MJCF's ``<include file>``: the children of an element with each include replaced by what its file holds.

MuJoCo drops the included file's root element, whatever its name
(``<mujoco>``, ``<mujocoinclude>``), and inserts its children; what an
included file brings is located at the ``<include>`` of the main file
(:class:`Source`). Each element's children are read once, so that the
reader's passes (defaults, the tree, the names) see one set of elements and
an unreadable include is reported once.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from ...files import FileRefused, read_file
from ...xml import XmlDocument, XmlElement, decode_source, parse

MAX_INCLUDE_DEPTH = 16


class Source:
    """An element and where its diagnostics and locations go: itself, or (brought by an
    ``<include>`` of another file) the ``<include>`` in the main file."""

    __slots__ = ("element", "at", "depth", "file")

    def __init__(self, element: XmlElement, at: XmlElement | None, depth: int = 0, file: str | None = None) -> None:
        self.element = element
        self.at = at  # None: the element is in the main file
        self.depth = depth  # how many includes deep its file is
        self.file = file  # the included file it is written in (None: the main file), for navigation into it


class Inclusion:
    """Reads the included files of one MJCF document (``path``: the main file, None for an unsaved buffer)."""

    def __init__(self, path: str | None, report: Callable[..., None]) -> None:
        self.path = path
        self.report = report  # report(source, message, attribute)
        self._docs: list[XmlDocument] = []  # included files' trees, kept alive (elements hold parents weakly)
        self.files: list[str] = []  # the included files read (or tried): the model depends on them
        self._children: dict[tuple[int, int], list[Source]] = {}  # each element's, read once

    def children(self, src: Source) -> list[Source]:
        """The children of an element, with each ``<include>`` replaced by what its file holds."""
        key = (id(src.element), id(src.at))
        if key not in self._children:
            self._children[key] = self._read_children(src)
        return self._children[key]

    def _read_children(self, src: Source) -> list[Source]:
        out: list[Source] = []
        stack = [
            (c, src.at, src.depth, src.file, os.path.dirname(self.path) if self.path else None)
            for c in reversed(src.element.children)
        ]
        while stack:
            el, at, d, written_in, base = stack.pop()
            if el.tag != "include":
                out.append(Source(el, at, d, written_in))
                continue
            here = Source(el, at, d, written_in)
            file = el.get("file")
            if not file:
                self.report(here, "<include> needs a file attribute", "file")
                continue
            if d >= MAX_INCLUDE_DEPTH:
                self.report(here, f"includes are nested more than {MAX_INCLUDE_DEPTH} deep here: not followed", "file")
                continue
            if base is None and not os.path.isabs(file):
                continue  # an unsaved buffer: nothing to resolve a relative file against
            full = os.path.normpath(os.path.join(base or "", file))
            self.files.append(full)
            try:
                data = read_file(full)
            except FileRefused as exc:
                self.report(here, f"cannot read the included file {file}: {exc.reason}", "file")
                continue
            text, _problems = decode_source(data)
            doc = parse(text)
            if doc.root is None:  # MuJoCo drops the included file's root element, whatever its name
                self.report(here, f"the included file {file} has no root element", "file")
                continue
            self._docs.append(doc)
            origin = at if at is not None else el
            for c in reversed(doc.root.children):
                stack.append((c, origin, d + 1, full, os.path.dirname(full)))
        return out
