"""Document highlight and linked editing: the places that change together.

On a frame name (declaration or reference, through ``::`` paths too) every
place of this document naming that frame is highlighted, the declaration as
a write; on a tag name, the start and end tag. Linked editing renames the
start and end tag of an element together as the user types.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..queries.frames import definition_location, target_at
from ..queries.references import reference_spans
from ..semantics.analysis import Analysis
from ..text import Span
from ..xml import XmlElement

# What a tag name may be while it is typed (XML names; the client checks each keystroke against it).
TAG_NAME_PATTERN = r"[A-Za-z_:][-A-Za-z0-9_:.]*"


@dataclass(frozen=True, slots=True)
class Highlight:
    span: Span
    kind: str  # "write" (the declaration), "read" (a reference), "text" (a tag name)


def end_tag_name(analysis: Analysis, el: XmlElement) -> Span | None:
    """The name in ``</name>``, when the element has an end tag that spells it."""
    end = el.end_tag_span
    if end is None or el.self_closing:
        return None
    start = end.start + 2
    if analysis.text[end.start : start] != "</" or analysis.text[start : start + len(el.tag)] != el.tag:
        return None
    return Span(start, start + len(el.tag))


def _tag_under(analysis: Analysis, offset: int) -> tuple[Span, Span] | None:
    """The start and end tag names of the element whose tag name is at ``offset``."""
    el = analysis.xml.element_at(offset)
    if el is None:
        return None
    end_name = end_tag_name(analysis, el)
    if end_name is None:
        return None
    name = el.tag_span
    if name.start <= offset <= name.end or end_name.start <= offset <= end_name.end:
        return name, end_name
    return None


def document_highlights(analysis: Analysis, offset: int) -> list[Highlight]:
    """What to highlight for the cursor at ``offset``, in document order."""
    if analysis.graphs is not None:
        target = target_at(analysis, offset)
        if target is not None and target.node is not None:
            out = [Highlight(loc.span, "read") for loc in reference_spans(analysis, target.node)]
            decl = definition_location(analysis, target.node)
            if decl is not None and decl.path is None:
                out = [h for h in out if h.span != decl.span]
                out.append(Highlight(decl.span, "write"))
            out.sort(key=lambda h: h.span.start)
            return out
    tags = _tag_under(analysis, offset)
    if tags is not None:
        return [Highlight(tags[0], "text"), Highlight(tags[1], "text")]
    return []


def linked_editing_ranges(analysis: Analysis, offset: int) -> list[Span]:
    """The start and end tag names to edit together, or nothing when the cursor is on neither."""
    tags = _tag_under(analysis, offset)
    return list(tags) if tags is not None else []


__all__ = ["Highlight", "TAG_NAME_PATTERN", "document_highlights", "end_tag_name", "linked_editing_ranges"]
