"""Helpers for the feature tests: a cursor marker, spans as text, edits applied."""

from __future__ import annotations

from sdformat_lsp.features import TextEdit
from sdformat_lsp.semantics.analysis import Analysis, Options, analyze
from sdformat_lsp.text import Span

MARK = "|"


def at(marked: str) -> tuple[str, int]:
    """The text without its one ``|`` marker, and the offset where the marker was."""
    assert marked.count(MARK) == 1, "put exactly one | in the document"
    offset = marked.index(MARK)
    return marked[:offset] + marked[offset + 1 :], offset


def analysed(marked: str, path: str | None = None) -> tuple[Analysis, int]:
    """Analyse a document written with a ``|`` cursor; no schema check, to keep tests about frames."""
    text, offset = at(marked)
    return analyze(text, path, Options(schema=False)), offset


def find(text: str, needle: str, inside: int = 0) -> int:
    """Offset ``inside`` characters into the only occurrence of ``needle``."""
    assert text.count(needle) == 1, f"{needle!r} occurs {text.count(needle)} times"
    return text.index(needle) + inside


def find_span(text: str, needle: str, word: str | None = None) -> Span:
    """The span of ``word`` (default: all of it) inside the only occurrence of ``needle``."""
    start = find(text, needle)
    if word is None:
        return Span(start, start + len(needle))
    i = needle.index(word)
    return Span(start + i, start + i + len(word))


def spanned(text: str, span: Span) -> str:
    return text[span.start : span.end]


def apply(text: str, edits: list[TextEdit]) -> str:
    """Apply non-overlapping edits (any order)."""
    for e in sorted(edits, key=lambda e: e.span.start, reverse=True):
        text = text[: e.span.start] + e.new_text + text[e.span.end :]
    return text


def errors(analysis: Analysis) -> list[str]:
    return [f"{d.code}: {d.message}" for d in analysis.diagnostics if d.is_error]
