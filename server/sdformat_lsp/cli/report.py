"""What `check` reports about one file, as plain picklable data.

Worker processes analyse files and send back only this (an analysis is
large and not picklable); every writer (text, json, sarif, github) reads
it. Positions are computed here once, in both conventions the writers
need: 1-based line and column in characters (text, github) and 0-based
UTF-16 (json, sarif, and LSP).
"""

from __future__ import annotations

import os
from dataclasses import field

from ..diagnostics import Diagnostic, Severity
from ..records import record
from ..text import UTF16, UTF32, LineIndex, Span

SEVERITY_NAMES = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "info",
    Severity.HINT: "hint",
}
SEVERITY_BY_NAME = {v: k for k, v in SEVERITY_NAMES.items()}


@record
class Place:
    """A span of some file, placed in both position conventions."""

    path: str | None  # absolute path of the file it lies in; None: the checked input itself (stdin without a name)
    start: tuple[int, int]  # 0-based (line, character in code points)
    end: tuple[int, int]
    start16: tuple[int, int]  # 0-based (line, UTF-16 code unit)
    end16: tuple[int, int]
    source: str = ""  # the text of the start line (for the caret display)


@record
class Note:
    """A related place of an item, with what it says there."""

    message: str
    place: Place
    in_other_file: bool = False


@record
class Item:
    """One diagnostic as a writer prints it: placed in both position conventions."""

    code: str
    severity: int  # Severity value: 1 error .. 4 hint
    message: str
    place: Place
    in_other_file: bool  # lies in a file the input includes (place.path says which)
    related: tuple[Note, ...] = ()

    @property
    def severity_name(self) -> str:
        return SEVERITY_NAMES[Severity(self.severity)]


@record(frozen=False)
class FileResult:
    """What one file's check hands the writers (picklable, from a worker process)."""

    display: str  # the path as the user should read it (relative to the working directory where possible)
    path: str | None  # absolute path; None for standard input without --stdin-filename
    sdf_version: str | None = None
    items: list[Item] = field(default_factory=list)
    frames: list[dict] | None = None


def place(lines: LineIndex, span: Span, path: str | None) -> Place:
    (sl, sc), (el, ec) = lines.range(span, UTF32)
    (sl16, sc16), (el16, ec16) = lines.range(span, UTF16)
    source = lines.line_text(sl) if sl < lines.line_count else ""
    return Place(path, (sl, sc), (el, ec), (sl16, sc16), (el16, ec16), source[:1000])


def _lines_for(analysis, path: str | None) -> LineIndex:
    if path is None or path == analysis.path:
        return analysis.lines
    sub = analysis.included_analysis(path)
    return sub.lines if sub is not None else analysis.lines


def summarize(analysis, display: str, frames: bool = False) -> FileResult:
    """The report of one analysis, diagnostics in order of place then severity."""
    items = [
        _item(analysis, d)
        for d in sorted(analysis.diagnostics, key=lambda d: (d.path or "", d.span.start, d.severity, d.code))
    ]
    return FileResult(display, analysis.path, analysis.version, items, analysis.frames() if frames else None)


def _item(analysis, d: Diagnostic) -> Item:
    other = d.path is not None and d.path != analysis.path
    where = d.path if other else analysis.path
    p = place(_lines_for(analysis, where), d.span, where)
    notes = []
    for r in d.related:
        rother = r.path is not None and r.path != analysis.path
        rpath = r.path if rother else analysis.path
        notes.append(Note(r.message, place(_lines_for(analysis, rpath), r.span, rpath), rother))
    return Item(d.code, int(d.severity), d.message, p, other, tuple(notes))


def display_path(path: str | None, cwd: str | None = None) -> str:
    """``path`` relative to the working directory when it lies below it, else as it is."""
    if path is None:
        return "<stdin>"
    cwd = cwd or os.getcwd()
    try:
        rel = os.path.relpath(path, cwd)
    except ValueError:  # another drive (Windows)
        return path
    return path if rel == ".." or rel.startswith(".." + os.sep) else rel


__all__ = ["FileResult", "Item", "Note", "Place", "SEVERITY_BY_NAME", "SEVERITY_NAMES", "display_path", "summarize"]
