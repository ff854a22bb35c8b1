"""Where the server reads files other than the document being analysed.

A session sees three versions of a file: the editor's unsaved text when it is open, the text an
analysis read through an include, and the disk. ``FileSources`` keeps the first (for the core's
``Options.open_documents``), the shared cache of included analyses, and a bounded cache of the
lines of related files (to place a note in a file that is neither open nor included), and answers
which open document read which file: what the server needs to re-check the right documents when a
file changes. It lives apart from the LSP session (app.py) because none of it speaks the protocol.
"""

from __future__ import annotations

import os
from typing import Callable

from ..files import FileRefused, check_path, read_file
from ..semantics import Analysis
from ..semantics.includes.resolver import IncludeCache
from ..semantics.incremental import QuickAnalysis
from ..text import LineIndex
from ..xml import decode_source
from .documents import Document, DocumentStore

# Files larger than this are not read just to place a related location.
MAX_RELATED_FILE = 64 * 1024 * 1024


def path_key(path: str) -> str:
    return os.path.normcase(os.path.abspath(path))


class FileSources:
    """The open documents' texts, the include cache and related files' lines, for one session."""

    def __init__(self, documents: DocumentStore, latest: Callable[[str], tuple[int, object] | None]) -> None:
        self.documents = documents
        self._latest = latest  # Scheduler.latest: the newest analysis (or its husk) of an open document
        # Analyses of included files, shared by every document for the whole
        # session; entries revalidate themselves against the files' mtimes.
        self.include_cache = IncludeCache()
        # The text of every open document with a path, for the core to read
        # included files from (unsaved edits win over the disk): replaced, never
        # mutated in place, on the event loop; read from analysis threads.
        self._buffers: dict[str, tuple[str, int]] = {}
        self._disk_lines: dict[str, tuple[int, int, LineIndex]] = {}

    def open_document(self, path: str) -> tuple[str, int] | None:
        """``Options.open_documents``: the editor's text of ``path`` and its revision, if it is open."""
        return self._buffers.get(path_key(path))

    def track(self, doc: Document, *, closed: bool = False) -> None:
        """Keep the core's view of the open documents current (on open, change and close)."""
        if doc.path is None:
            return
        key = path_key(doc.path)
        if closed:
            self._buffers.pop(key, None)
        else:
            self._buffers[key] = (doc.text, doc.revision)

    def changed_on_disk(self, path: str) -> None:
        """Forget what was read from ``path``."""
        self.include_cache.invalidate(path)
        self._disk_lines.pop(path, None)

    def lines_of(self, path: str, analysis: Analysis | QuickAnalysis | None = None) -> LineIndex | None:
        """The lines of another file, to place a span in it.

        The text the core analysed is the authority (an included file's
        analysis); failing that the editor's text, then the disk (cached).
        """
        if analysis is not None:
            sub = analysis.included_analysis(path)
            if sub is not None:
                return sub.lines
        doc = self.documents.by_path(path)
        if doc is not None:
            return doc.lines
        try:
            st = check_path(path)  # never block on a FIFO or read a device to place a note
            cached = self._disk_lines.get(path)
            if cached is not None and cached[:2] == (st.st_mtime_ns, st.st_size):
                return cached[2]
            text, _ = decode_source(read_file(path, MAX_RELATED_FILE))
        except FileRefused:
            return None
        lines = LineIndex(text)
        if len(self._disk_lines) >= 256 or sum(len(c[2].text) for c in self._disk_lines.values()) > MAX_RELATED_FILE:
            self._disk_lines.clear()  # bounded in files and in characters
        self._disk_lines[path] = (st.st_mtime_ns, st.st_size, lines)
        return lines

    def depends_on(self, uri: str, path: str) -> bool:
        """Whether the latest analysis of ``uri`` read ``path`` through its includes (at any depth),
        or searched a directory that holds it (a model that appears there can resolve an include)."""
        latest = self._latest(uri)
        if latest is None:
            return False
        target = os.path.abspath(path)
        facts = getattr(latest[1], "xacro", None)  # a xacro document: every file its expansion read
        xacro_files = facts.files if facts is not None else getattr(latest[1], "xacro_files", ())
        if any(os.path.abspath(f) == target for f in xacro_files):
            return True
        stack = list(latest[1].includes)  # type: ignore[attr-defined]
        seen: set[int] = set()
        while stack:
            record = stack.pop()
            if id(record) in seen:
                continue
            seen.add(id(record))
            for dep in record.dependencies:
                dep = os.path.abspath(dep)
                if dep == target or target.startswith(dep.rstrip(os.sep) + os.sep):
                    return True
            if record.path and os.path.abspath(record.path) == target:
                return True
            if record.analysis is not None:
                stack.extend(record.analysis.includes)
        return False
