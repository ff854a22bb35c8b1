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


__all__ = ["CodeAction", "code_actions"]
