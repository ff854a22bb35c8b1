"""Folding ranges and selection ranges: what the XML structure alone gives.

Both need only the element tree, so they work on any document, broken
references or not. Folds cover elements spanning lines and comments;
selection grows from a name or value to its attribute, the tag, the element
and then each enclosing element.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..semantics.analysis import Analysis
from ..text import Span
from ..xml import XmlElement

_COMMENT = re.compile(r"<!--.*?-->", re.S)
MAX_FOLDS = 20000  # clients show a few thousand at most; a generated world has 150,000 elements


@dataclass(frozen=True, slots=True)
class Fold:
    start: int  # offset on the first line folded from
    end: int  # offset on the last line folded to (the line of the closing tag: kept visible by the server)
    kind: str  # "region" (element) or "comment"


def folding_ranges(analysis: Analysis) -> list[Fold]:
    """Elements (from the start tag to the end tag) and comments, in document order.

    Offsets only: the server turns them into lines and drops folds that fit on one line."""
    out: list[Fold] = []
    for el in analysis.xml.iter():
        end = el.end_tag_span
        if end is None or el.self_closing:
            continue
        if (
            "\n" in analysis.text[el.start_tag_span.end : end.start]
            or "\r" in analysis.text[el.start_tag_span.end : end.start]
        ):
            out.append(Fold(el.span.start, end.start, "region"))
        if len(out) >= MAX_FOLDS:
            break
    for m in _COMMENT.finditer(analysis.text):
        if len(out) >= 2 * MAX_FOLDS:
            break
        out.append(Fold(m.start(), m.end(), "comment"))
    out.sort(key=lambda f: f.start)
    return out


def _attribute_spans(el: XmlElement, offset: int) -> list[Span]:
    for attr in el.attributes.values():
        if attr.span.contains(offset) or attr.span.end == offset:
            inner = attr.value_span if attr.value_span.start <= offset <= attr.value_span.end else attr.name_span
            return [inner, attr.span]
    return []


def selection_ranges(analysis: Analysis, offset: int) -> list[Span]:
    """Spans around ``offset``, innermost first, each containing the one before."""
    el = analysis.xml.element_at(offset)
    if el is None:
        return []
    spans: list[Span] = []
    start_tag = el.start_tag_span
    end_tag = el.end_tag_span
    if start_tag.start <= offset <= start_tag.end:
        if el.tag_span.start <= offset <= el.tag_span.end:
            spans.append(el.tag_span)
        else:
            spans.extend(_attribute_spans(el, offset))
        spans.append(start_tag)
    elif end_tag is not None and end_tag.start <= offset <= end_tag.end:
        spans.append(end_tag)
    else:
        text = el.text_span
        if text is not None and text.start <= offset <= text.end and not el.children:
            raw = analysis.text[text.start : text.end]
            lead = len(raw) - len(raw.lstrip())
            trimmed = Span(text.start + lead, text.start + len(raw.rstrip()))
            if trimmed.start <= offset <= trimmed.end and trimmed != text:
                spans.append(trimmed)
            spans.append(text)
    node: XmlElement | None = el
    while node is not None:
        spans.append(node.span)
        node = node.parent
    out: list[Span] = []
    for s in spans:  # drop repeats and anything not enclosing its predecessor
        if out and (s == out[-1] or not (s.start <= out[-1].start and out[-1].end <= s.end)):
            continue
        out.append(s)
    return out


__all__ = ["Fold", "folding_ranges", "selection_ranges"]
