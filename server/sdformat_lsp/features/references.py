"""Find references: every place a frame is named, through ``::`` paths too.

A frame can be named from its own scope (``L``) and from any enclosing scope
(``n::L``); each reference contributes the one segment that names it. The
aliases ``__model__`` and ``world`` denote a frame without naming it: they
are references too, but rename must leave them alone.

References stop at the file boundary, like rename: for a frame declared in
an included file (``hand::tip``, or a name merged in by ``merge="true"``)
the answer is its declaration in that file (when the declaration is asked
for) and the uses written in *this* document; uses inside the included file
(and in its other includers) are not searched: open that file to find them.
"""

from __future__ import annotations

from ..semantics.analysis import Analysis
from ..semantics.frames import WORLD_SENTINEL, FrameNode
from .common import Location, definition_location, local_resolutions, segments, target_at


def _is_world(n: FrameNode) -> bool:
    return n is WORLD_SENTINEL or n.kind == "world"


def _same(a: FrameNode | None, b: FrameNode) -> bool:
    """The world has two faces: its node in a world, the sentinel a model's joint parent resolves to."""
    return a is not None and (a is b or (_is_world(a) and _is_world(b)))


def reference_spans(analysis: Analysis, node: FrameNode, aliases: bool = True) -> list[Location]:
    """Spans of this document that name ``node``: one segment per reference, in document order.

    With ``aliases`` a reference that reaches ``node`` only through ``__model__``
    or ``world`` contributes that segment; without, only segments spelling its name do.
    """
    out: list[Location] = []
    world = _is_world(node)
    for res in local_resolutions(analysis):
        if not _same(res.target, node) and (world or node.name not in res.ref.text):
            continue  # cheap test first: a world has as many references as it has frames
        segs = segments(res)
        named = [] if world else [s for s in segs if _same(s.node, node) and s.text == node.name]
        if named:
            out.extend(Location(None, s.span) for s in named)
        elif aliases and segs and _same(segs[-1].node, node):
            out.append(Location(None, segs[-1].span))
    out.sort(key=lambda l: l.span.start)
    return out


def references(analysis: Analysis, offset: int, include_declaration: bool = True) -> list[Location]:
    """Every reference in this document to the frame under the cursor (declaration or reference),
    the declaration first (``Location.path`` set when it lies in an included file)."""
    target = target_at(analysis, offset)
    if target is None or target.node is None:
        return []
    node = target.node
    out: list[Location] = []
    if include_declaration:
        decl = definition_location(analysis, node)
        if decl is not None:
            out.append(decl)
    out.extend(l for l in reference_spans(analysis, node) if l not in out)
    return out


__all__ = ["reference_spans", "references"]
