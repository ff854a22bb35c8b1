"""Inlay hints: where each frame really is, written after its ``<pose>``.

A pose is written relative to whatever ``relative_to`` names (or the default
frame of its element), so the numbers rarely say where the thing is. After
each ``<pose>`` (and on a link, joint or frame that has none) a hint shows
the pose relative to the frame of the model declaring it (``__model__``; in
a world, the world): the same resolved poses the hover shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..model.transform import Transform
from ..queries.frames import format_numbers
from ..queries.poses import element_pose_in_scope, node_of, pose_in_scope
from ..semantics.analysis import Analysis
from ..semantics.frames import Scope
from ..text import Span
from ..xml import XmlElement

FRAME_TAGS = frozenset({"link", "joint", "frame", "model", "include"})
MAX_HINTS = 5000  # a huge world gets hints for its first elements in the range asked for, not a flood
DECIMALS = 4


@dataclass(frozen=True, slots=True)
class InlayHint:
    offset: int  # where the hint is shown (after the pose, or after the start tag)
    label: str
    tooltip: str


def _label(t: Transform, degrees: bool) -> str:
    rpy = t.rpy
    if degrees:
        angles = format_numbers(tuple(math.degrees(a) for a in rpy), DECIMALS - 1)
        unit = "°"
    else:
        angles = format_numbers(rpy, DECIMALS)
        unit = ""
    return f"xyz {format_numbers(t.p, DECIMALS)} rpy {angles}{unit}"


def _scope_name(scope: Scope) -> str:
    if scope.kind == "world":
        return "the world"
    return f"__model__ of model '{scope.name}'" if scope.name else "__model__"


def _in(span: Span, offset: int) -> bool:
    return span.start <= offset <= span.end


def inlay_hints(analysis: Analysis, span: Span | None = None, degrees: bool = True) -> list[InlayHint]:
    """Hints in ``span`` (the whole document when None): resolved poses relative to the model frame."""
    g = analysis.graphs
    root = analysis.xml.root
    if g is None or root is None:
        return []
    span = span or Span(0, len(analysis.text))
    out: list[InlayHint] = []
    stack: list[XmlElement] = [root]
    while stack and len(out) < MAX_HINTS:
        el = stack.pop()
        if el.span.end < span.start or el.span.start > span.end:
            continue
        stack.extend(reversed(el.children))
        if el.tag in FRAME_TAGS:
            hint = _frame_hint(analysis, el, degrees)
        elif el.tag == "pose" and el.parent is not None and el.parent.tag not in FRAME_TAGS:
            hint = _element_hint(analysis, el, degrees)
        else:
            continue
        if hint is not None and _in(span, hint.offset):
            out.append(hint)
    return out


def _frame_hint(analysis: Analysis, el: XmlElement, degrees: bool) -> InlayHint | None:
    node = node_of(analysis, el)
    if node is None or node.scope is None:
        return None  # the top-level model: its pose places it elsewhere, everything here is relative to it
    if el.tag != "include" and (node.scope.path is not None or node.kind == "world"):
        return None
    t = pose_in_scope(analysis, node)
    if t is None:
        return None  # the diagnostics say why
    pose_el = el.child("pose")
    if pose_el is not None:
        at = pose_el.span.end
    elif el.tag in ("link", "joint", "frame"):
        at = el.start_tag_span.end
    else:
        return None
    what = "included model" if el.tag == "include" else node.kind
    tip = f"Resolved pose of {what} '{node.name}' relative to {_scope_name(node.scope)}"
    return InlayHint(at, _label(t, degrees), tip)


def _element_hint(analysis: Analysis, pose_el: XmlElement, degrees: bool) -> InlayHint | None:
    found = element_pose_in_scope(analysis, pose_el)
    if found is None:
        return None
    t, scope = found
    owner = pose_el.parent
    assert owner is not None
    name = owner.get("name")
    label = f"<{owner.tag}> '{name}'" if name else f"<{owner.tag}>"
    return InlayHint(pose_el.span.end, _label(t, degrees), f"Resolved pose of {label} relative to {_scope_name(scope)}")


__all__ = ["InlayHint", "inlay_hints"]
