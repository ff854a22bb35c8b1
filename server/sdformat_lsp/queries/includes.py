"""What an ``<include>`` brings in, as several features need it.

The include under the cursor, the scope its model opens and the frames it
offers to the including scope (named as references from there write them):
the include hover lists them, completion and the frame view show them.
"""

from __future__ import annotations

from ..semantics.analysis import Analysis
from ..semantics.frames import MODEL_FRAME, FrameNode, Scope
from ..semantics.includes.resolver import IncludeRecord
from ..text import Span


def include_at(analysis: Analysis, offset: int) -> tuple[IncludeRecord, Span] | None:
    """The include whose start or end tag, ``<uri>`` or ``<name>`` is at ``offset``, and the span hovered."""
    el = analysis.xml.element_at(offset)
    if el is None:
        return None
    inc_el = (
        el
        if el.tag == "include"
        else (el.parent if el.tag in ("uri", "name") and el.parent is not None and el.parent.tag == "include" else None)
    )
    if inc_el is None:
        return None
    rec = next((r for r in analysis.includes or () if r.include.element is inc_el), None)
    if rec is None:
        return None
    if el is inc_el:
        for span in (el.tag_span, el.end_tag_span):
            if span is not None and span.contains(offset):
                return rec, span
        return None  # between the children of <include>: nothing in particular
    text = el.text_span
    if text is not None and text.start <= offset <= text.end and text.end > text.start:
        return rec, text
    for span in (el.tag_span, el.end_tag_span):
        if span is not None and span.contains(offset):
            return rec, span
    return rec, el.span


def include_scope(analysis: Analysis, rec: IncludeRecord) -> Scope | None:
    """The scope the included model opens (for ``merge="true"``: the view of the merged entities)."""
    g = analysis.graphs
    if g is None:
        return None
    for inc, scope in g.included:
        if inc is rec.include:
            return scope
    return None


def merged(scope: Scope) -> bool:
    """True when the include was merged (``merge="true"``): a proxy frame stands for the model."""
    return scope.node is not None and scope.node.kind == "frame"  # the proxy frame stands for the model


def including_frame(scope: Scope) -> FrameNode | None:
    """The frame of the scope that holds the include (its ``__model__``, or the world)."""
    if merged(scope):
        owner = scope.node.scope if scope.node is not None else None
    else:
        owner = scope.parent
    return owner.node if owner is not None else None


def offered_frames(analysis: Analysis, rec: IncludeRecord) -> list[tuple[str, FrameNode]]:
    """The frames the included model adds, named as references from the including scope write them.

    ``NAME::frame`` for a plain include (nested models as ``NAME::inner::frame``);
    the bare names for ``merge="true"``. ``__model__`` aliases and the proxy
    frames of merged includes are left out.
    """
    scope = include_scope(analysis, rec)
    if scope is None:
        return []
    out: list[tuple[str, FrameNode]] = []
    if merged(scope):
        for name, node in list(scope.frames.items()):
            if name == MODEL_FRAME or not _shown(name) or not _brought_by(analysis, node, scope):
                continue
            out.append((name, node))
            if node.kind == "model" and node.inner is not None:
                out.extend((f"{name}::{n}", nn) for n, nn in node.inner.nested_frames() if _shown(n))
        return out
    prefix = f"{scope.name}::"
    return [(prefix + n, node) for n, node in scope.nested_frames() if _shown(n)]


def _brought_by(analysis: Analysis, node: FrameNode, view: Scope) -> bool:
    """Whether ``node`` came in through the merge ``view`` (directly, or through a merge inside it)."""
    g = analysis.graphs
    s = node.scope
    while s is not None:
        if s is view:
            return True
        into = g.merged_into.get(id(s)) if g is not None else None
        if into is None:
            return False
        s = into[1]
    return False


def _shown(name: str) -> bool:
    last = name.rsplit("::", 1)[-1]
    return last != MODEL_FRAME and not (last.startswith("_merged__") and last.endswith("__model__"))
