"""Every place of a document that names a frame: references and rename both need it."""

from __future__ import annotations

from ..semantics.analysis import Analysis
from ..semantics.frames import WORLD_SENTINEL, FrameNode
from .frames import local_resolutions, segments
from .results import Location


def _is_world(n: FrameNode) -> bool:
    return n is WORLD_SENTINEL or n.kind == "world"


def _same(a: FrameNode | None, b: FrameNode) -> bool:
    """The world has two faces: its node in a world, the sentinel a model's joint parent resolves to."""
    return a is not None and (a is b or (_is_world(a) and _is_world(b)))


def reference_spans(analysis: Analysis, node: FrameNode, aliases: bool = True) -> list[Location]:
    """Spans of this document that name ``node``: one segment per reference (plugin parameters
    naming it included), in document order.

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
    if "<plugin" in analysis.text:  # plugin parameters naming it (<left_joint>, <joint_name>): they spell its name
        from .plugins import plugin_segments

        out.extend(Location(None, span) for span, named, _by in plugin_segments(analysis) if named is node)
    out.sort(key=lambda l: l.span.start)
    return out
