"""Quick fixes: the repairs the diagnostics already know, plus renaming duplicates.

The semantic core attaches :class:`~sdformat_lsp.diagnostics.Fix` objects
("did you mean", "add name") where it can tell what the user meant; this
module only turns them into actions and adds what needs the whole document,
such as finding a free name for a duplicate.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic
from ..semantics.analysis import Analysis
from ..semantics.checks.suppressions import (
    FILE_WIDE,
    INVALID,
    NEXT_LINE,
    UNUSED,
    find_suppressions,
    suppression_comment,
)
from ..text import Span
from ..queries.results import TextEdit

DUPLICATE_NAME = "DUPLICATE_NAME"


@dataclass(frozen=True, slots=True)
class CodeAction:
    title: str
    edits: list[TextEdit]
    diagnostic: Diagnostic
    preferred: bool = False


def _overlaps(a: Span, b: Span) -> bool:
    """Touching counts: a cursor at either end of a diagnostic is on it."""
    return a.start <= b.end and b.start <= a.end


def code_actions(analysis: Analysis, span: Span) -> list[CodeAction]:
    """Quick fixes for the diagnostics of this document that overlap ``span``."""
    out: list[CodeAction] = []
    for d in analysis.diagnostics:
        if d.path is not None or not _overlaps(d.span, span):
            continue
        for fix in d.fixes:
            out.append(CodeAction(fix.title, [TextEdit(fix.span, fix.new_text)], d, preferred=len(d.fixes) == 1))
        if d.code == DUPLICATE_NAME:
            action = _rename_duplicate(analysis, d)
            if action is not None:
                out.append(action)
    for d in analysis.diagnostics:
        if d.path is None and _overlaps(d.span, span) and d.code not in (UNUSED, INVALID):
            out.extend(suppress_actions(analysis, d))
    return out


def _rename_duplicate(analysis: Analysis, d: Diagnostic) -> CodeAction | None:
    """Rename the later duplicate to ``name_2``, ``name_3``...: the first keeps its references."""
    name = d.data.get("duplicate")
    if not name:
        return None
    el = analysis.xml.element_at(d.span.start)
    while el is not None:
        a = el.attr("name")
        if a is not None and a.value_span == d.span:
            break
        el = el.parent
    if el is None:
        return None
    siblings = el.parent.children if el.parent is not None else [el]
    taken = {c.get("name") for c in siblings}
    i = 2
    while f"{name}_{i}" in taken:
        i += 1
    new = f"{name}_{i}"
    return CodeAction(f"Rename this {el.tag} to '{new}'", [TextEdit(d.span, new)], d, preferred=not d.fixes)


def suppress_actions(analysis: Analysis, d: Diagnostic) -> list[CodeAction]:
    """ "Suppress CODE on this line" (where a comment can go before the line without changing
    what the document means) and "Suppress CODE in this file"; an existing comment is extended."""
    text, lines = analysis.text, analysis.lines
    existing, _ = find_suppressions(text, lines)
    out: list[CodeAction] = []
    line = lines.line_of(d.span.start)
    edit = _extend(existing, NEXT_LINE, d.code, line) or _before_line(analysis, line, d.code)
    if edit is not None:
        out.append(CodeAction(f"Suppress {d.code} on this line", [edit], d))
    edit = _extend(existing, FILE_WIDE, d.code, None) or _file_top(text, d.code)
    out.append(CodeAction(f"Suppress {d.code} in this file", [edit], d))
    return out


def _extend(existing, kind: str, code: str, line: int | None) -> TextEdit | None:
    """Add ``code`` to a comment of ``kind`` already there (covering ``line``)."""
    for s in existing:
        if s.kind == kind and (line is None or s.line == line):
            if any(c == code for c, _ in s.codes):
                return None
            end = s.codes[-1][1].end
            return TextEdit(Span(end, end), f",{code}")
    return None


def _newline(text: str, at: int) -> str:
    i = text.find("\n", at)
    return "\r\n" if i > 0 and text[i - 1] == "\r" else "\n"


def _before_line(analysis: Analysis, line: int, code: str) -> TextEdit | None:
    """A comment line before ``line``, only where the line starts with markup between elements:
    a comment inside a tag breaks the XML, and one inside a value splits the text libsdformat reads."""
    text = analysis.text
    start = analysis.lines.starts[line]
    content = analysis.lines.line_text(line)
    indent = content[: len(content) - len(content.lstrip())]
    first = start + len(indent)
    if not text.startswith("<", first) or text.startswith("<?", first) or text.startswith("<!DOCTYPE", first):
        return None
    if not (text.startswith("</", first) or text.startswith("<!--", first)):
        el = analysis.xml.element_at(first)
        if el is None or el.span.start != first:
            return None
    return TextEdit(Span(start, start), indent + suppression_comment(NEXT_LINE, [code]) + _newline(text, start))


def _file_top(text: str, code: str) -> TextEdit:
    """At the top, after an XML declaration (nothing may come before it)."""
    at = 0
    if text.startswith("<?xml"):
        end = text.find("?>")
        if end >= 0:
            nl = text.find("\n", end)
            at = len(text) if nl < 0 else nl + 1
            if nl < 0:
                return TextEdit(Span(at, at), _newline(text, 0) + suppression_comment(FILE_WIDE, [code]))
    return TextEdit(Span(at, at), suppression_comment(FILE_WIDE, [code]) + _newline(text, 0))


__all__ = ["CodeAction", "code_actions", "suppress_actions"]
