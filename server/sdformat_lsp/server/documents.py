"""Open documents, kept in sync with the client.

We apply incremental changes ourselves instead of relying on pygls'
workspace: pygls splits lines with ``str.splitlines``, which also breaks at
form feeds, U+2028, U+0085 and friends, while LSP lines end only at
``\\n``, ``\\r\\n`` and ``\\r``. ``LineIndex`` follows LSP, so a document
with a stray form feed in a comment stays in step with the editor.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path, uri_scheme

from ..text import LineIndex

_revisions = itertools.count(1)
_NEWLINE = re.compile(r"\r\n|\r|\n")


def spliced(old: LineIndex, start: int, end: int, new_text: str, text: str) -> LineIndex:
    """``LineIndex(text)`` for ``text = old.text[:start] + new_text + old.text[end:]``,
    in time proportional to the number of lines rather than the size of the text.

    A line start ``s`` depends on the characters ``s-2 .. s`` (``\\r\\n`` or a
    lone ``\\r``), so starts before ``start`` are kept, starts from ``end + 2``
    on are shifted, and only the window in between is scanned again.
    """
    delta = len(new_text) - (end - start)
    new_end = start + len(new_text)
    starts = old.starts
    head = starts[: max(1, bisect.bisect_left(starts, start))]  # 0, and every s < start
    tail_from = bisect.bisect_left(starts, end + 2)  # s >= end + 2
    lo = max(0, start - 1)
    hi = min(len(text), new_end + 2)
    middle = [m.end() for m in _NEWLINE.finditer(text, lo, hi) if start <= m.end() < new_end + 2]
    index = LineIndex.__new__(LineIndex)
    index.text = text
    index.starts = head  # a slice of the old array: a new array of its own
    index.starts.extend(middle)
    index.starts.extend([s + delta for s in starts[tail_from:]])
    return index


def next_revision() -> int:
    """A process-wide counter: every text or settings change gets a new revision."""
    return next(_revisions)


def uri_to_path(uri: str) -> str | None:
    """The file system path of a ``file:`` URI; None for ``untitled:`` and others."""
    if uri_scheme(uri) != "file":
        return None
    try:
        return to_fs_path(uri)
    except Exception:  # a malformed URI is not a path, and not worth failing over
        return None


def path_to_uri(path: str) -> str:
    return from_fs_path(path) or path


@dataclass(slots=True)
class Document:
    """One open text document and the revision of its current content.

    ``version`` is the client's version (reported back with diagnostics);
    ``revision`` is ours and also changes when the settings change, so an
    analysis made under old settings is recognised as stale too.
    """

    uri: str
    text: str
    version: int | None
    language_id: str = "sdformat"
    revision: int = field(default_factory=next_revision)
    # the revision of the last touch: what was checked before it (with the files its includes read then,
    # or other settings) is no base for an incremental check (server/scheduler._incremental)
    fresh_from: int = -1
    _lines: LineIndex | None = None

    @property
    def lines(self) -> LineIndex:
        if self._lines is None or self._lines.text is not self.text:
            self._lines = LineIndex(self.text)
        return self._lines

    @property
    def path(self) -> str | None:
        return uri_to_path(self.uri)

    def apply(self, change: types.TextDocumentContentChangeEvent, encoding: str) -> None:
        """Apply one content change; positions are in the negotiated ``encoding``."""
        if isinstance(change, types.TextDocumentContentChangePartial):
            lines = self.lines
            start = lines.offset(change.range.start.line, change.range.start.character, encoding)
            end = lines.offset(change.range.end.line, change.range.end.character, encoding)
            if end < start:  # a reversed range still names the same stretch of text
                start, end = end, start
            self.text = self.text[:start] + change.text + self.text[end:]
            self._lines = spliced(lines, start, end, change.text, self.text)
        else:
            self.text = change.text
            self._lines = None

    def touch(self) -> None:
        """Mark the content as needing a fresh analysis (settings changed, or a file its includes read)."""
        self.revision = self.fresh_from = next_revision()


class DocumentStore:
    """The open documents by URI."""

    def __init__(self) -> None:
        self._docs: dict[str, Document] = {}

    def open(self, item: types.TextDocumentItem) -> Document:
        doc = Document(item.uri, item.text, item.version, item.language_id)
        self._docs[item.uri] = doc
        return doc

    def change(self, params: types.DidChangeTextDocumentParams, encoding: str) -> Document | None:
        doc = self._docs.get(params.text_document.uri)
        if doc is None:
            return None
        for change in params.content_changes:
            doc.apply(change, encoding)
        doc.version = params.text_document.version
        doc.revision = next_revision()
        return doc

    def close(self, uri: str) -> Document | None:
        return self._docs.pop(uri, None)

    def get(self, uri: str) -> Document | None:
        return self._docs.get(uri)

    def by_path(self, path: str) -> Document | None:
        """The open document for a file path, so unsaved edits win over the disk."""
        for doc in self._docs.values():
            if doc.path == path:
                return doc
        return None

    def __iter__(self):
        return iter(list(self._docs.values()))

    def __len__(self) -> int:
        return len(self._docs)
