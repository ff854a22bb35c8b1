"""What the cursor is on, and the frame facts several features print.

Features take offsets (code points into the document string) and return
frozen dataclasses; only the protocol layer turns them into LSP objects.
The helpers here answer the questions every feature asks: which frame does
the name under the cursor denote, where is that frame declared, and how is
it called from a given scope.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Iterator, Literal

from ..semantics.analysis import Analysis
from ..semantics.frames import MODEL_FRAME, WORLD, WORLD_SENTINEL, FrameNode, Resolution, Scope
from ..text import Span
from ..xml import XmlElement
from .results import Location
from .scope_frames import element_nodes, node_for_element


@dataclass(frozen=True, slots=True)
class Segment:
    """One ``::`` segment of a written reference and what it names."""

    index: int
    span: Span
    text: str
    node: FrameNode | None  # the frame (or nested model) it names; None if it does not resolve


@dataclass(frozen=True, slots=True)
class CursorTarget:
    """The frame name under the cursor: a declaration or a segment of a reference."""

    kind: Literal["definition", "reference"]
    span: Span  # the name value, or the one `::` segment under the cursor
    text: str  # the text of that span
    node: FrameNode | None  # what it denotes; None when it does not resolve
    scope: Scope | None  # where it is written (the declaring scope for a definition)
    resolution: Resolution | None = None
    segment: int | None = None

    @property
    def is_alias(self) -> bool:
        """True for ``__model__``/``world``: they denote a frame without spelling its name."""
        return self.node is None or self.text != self.node.name or self.node.kind == "world"


def segments(res: Resolution) -> list[Segment]:
    """Every ``::`` segment of ``res``'s text with its span, resolved or not."""
    ref = res.ref
    out: list[Segment] = []
    offset = ref.span.start
    recorded = res.segments
    parts = ref.text.split("::") if ref.text else []
    for i, part in enumerate(parts):
        span = Span(offset, offset + len(part))
        offset = span.end + 2
        node: FrameNode | None = None
        if i < len(recorded):
            node = as_node(recorded[i][2])
            if node is None and i == len(parts) - 1 and res.target is WORLD_SENTINEL:
                node = WORLD_SENTINEL
        out.append(Segment(i, span, part, node))
    return out


def as_node(obj: object) -> FrameNode | None:
    """A segment's target as a frame: a nested model scope stands for its model frame."""
    if isinstance(obj, FrameNode):
        return obj
    if isinstance(obj, Scope):
        return obj.node
    return None


def local_resolutions(analysis: Analysis) -> Iterator[Resolution]:
    """Resolutions of references written in this document (not in included files)."""
    if analysis.graphs is None:
        return
    seen: set[Span] = set()
    for res in analysis.graphs.resolutions:
        if res.source_path is not None:
            continue
        key = res.ref.span
        if key in seen:
            continue  # a reference resolved twice (by two phases) is still one reference
        seen.add(key)
        yield res


class _ReferenceIndex:
    """The local resolutions of one analysis by where they are written, for lookups by offset.

    A world has tens of thousands of references: hover, definition and rename ask
    which one is under the cursor at every request, and a walk over all of them
    took most of a request's time. Built once per frame graphs (and again only if
    a resolution is recorded later); it holds what ``local_resolutions`` yields,
    so a lookup answers exactly what a walk over them would.
    """

    __slots__ = ("count", "starts", "reach", "entries")

    def __init__(self, analysis: Analysis) -> None:
        graphs = analysis.graphs
        self.count = len(graphs.resolutions) if graphs is not None else 0
        # (start, order, resolution), by start; ``order`` is the position in local_resolutions
        self.entries = sorted(
            ((res.ref.span.start, i, res) for i, res in enumerate(local_resolutions(analysis))),
            key=lambda e: (e[0], e[1]),
        )
        self.starts = [e[0] for e in self.entries]
        reach, furthest = [], -1  # reach[i]: the furthest end of entries[0..i]
        for _, _, res in self.entries:
            furthest = max(furthest, res.ref.span.end)
            reach.append(furthest)
        self.reach = reach

    def smallest_at(self, offset: int) -> Resolution | None:
        """The shortest reference whose span contains ``offset`` (ends included); the first written on a tie."""
        best: tuple[int, int, Resolution] | None = None
        i = bisect.bisect_right(self.starts, offset) - 1
        while i >= 0 and self.reach[i] >= offset:  # earlier entries all end before offset
            _, order, res = self.entries[i]
            sp = res.ref.span
            if sp.end >= offset:
                key = (sp.end - sp.start, order, res)
                if best is None or key[:2] < best[:2]:
                    best = key
            i -= 1
        return best[2] if best is not None else None


_INDEX = "queries.frames.reference_index"  # key of FrameGraphs.memo


def _reference_index(analysis: Analysis) -> _ReferenceIndex:
    graphs = analysis.graphs
    assert graphs is not None  # asked of analyses with frames
    index: _ReferenceIndex | None = graphs.memo.get(_INDEX)
    if index is None or index.count != len(graphs.resolutions):
        index = graphs.memo[_INDEX] = _ReferenceIndex(analysis)
    return index


def prepare_lookups(analysis: Analysis) -> None:
    """Build the reference index now (the first hover or definition on a large analysis would:
    ~70 ms on a 100k-line world), for a caller that has time before any request comes."""
    if analysis.graphs is not None:
        _reference_index(analysis)
        element_nodes(analysis.graphs)


def target_at(analysis: Analysis, offset: int) -> CursorTarget | None:
    """The declaration or reference segment at ``offset``, if the cursor is on one."""
    if analysis.graphs is None:
        return None
    best = _reference_index(analysis).smallest_at(offset)
    if best is not None:
        segs = segments(best)
        if not segs:
            return CursorTarget("reference", best.ref.span, best.ref.text, None, best.scope, best, None)
        seg = segs[0]
        for s in segs:
            if s.span.start <= offset:
                seg = s
        return CursorTarget("reference", seg.span, seg.text, seg.node, best.scope, best, seg.index)
    if "<plugin" in analysis.text:  # a joint, link or model named by a plugin parameter (queries/plugins.py)
        from .plugins import plugin_reference_at

        named = plugin_reference_at(analysis, offset)
        if named is not None:
            span, text, found = named
            return CursorTarget("reference", span, text, found, found.scope if found is not None else None)
    node = defined_at(analysis, offset)
    if node is None:
        return None
    loc = definition_location(analysis, node)
    if loc is None or loc.path is not None:
        return None
    text = analysis.text[loc.span.start : loc.span.end]
    return CursorTarget("definition", loc.span, text, node, node.scope if node.kind != "world" else node.inner)


def defined_at(analysis: Analysis, offset: int) -> FrameNode | None:
    """The frame whose name is written at ``offset``: an element's name, an include's <name>, the world's name."""
    g = analysis.graphs
    if g is None:
        return None
    root = g.root
    if root.kind == "world" and root.node is not None:
        sp = root.entity.name_span
        if sp is not None and sp.contains(offset):
            return root.node
    for inc, scope in g.included:
        if inc.name_span is not None and inc.name_span.contains(offset) and scope.node is not None:
            return scope.node
    return analysis.node_defined_at(offset)


def definition_location(analysis: Analysis, node: FrameNode) -> Location | None:
    """Where ``node``'s name is declared: the value of its name attribute (or an include's <name>)."""
    g = analysis.graphs
    if node is WORLD_SENTINEL or node.kind == "world":
        if g is not None and g.root.kind == "world" and g.root.entity.name_span is not None:
            return Location(None, g.root.entity.name_span)
        return None
    entity = node.entity
    if node.kind == "model":
        inc = getattr(entity, "from_include", None)
        if inc is not None and inc.name_span is not None:
            return Location(node.scope.path if node.scope is not None else None, inc.name_span)
        path = node.inner.path if node.inner is not None else None
    else:
        path = node.scope.path if node.scope is not None else None
    span = node.name_span
    if span is None:
        return None
    return Location(path, span)


def scope_of_element(analysis: Analysis, el: XmlElement) -> Scope | None:
    """The scope a model or world element (of this document) opens."""
    node = node_for_element(analysis, el)
    return node.inner if node is not None else None


def enclosing_scope(analysis: Analysis, el: XmlElement) -> Scope | None:
    """The scope in which references written on ``el`` are resolved: its nearest model or world."""
    for anc in el.ancestors():
        if anc.tag in ("model", "world"):
            return scope_of_element(analysis, anc)
    return None


def name_from(scope: Scope | None, node: FrameNode) -> str:
    """How ``node`` is written in a reference from ``scope`` (``__model__``, ``a::b::L``)."""
    if node is WORLD_SENTINEL or node.kind == "world":
        return WORLD
    if scope is not None and node is scope.node:
        return MODEL_FRAME if scope.kind == "model" else WORLD
    parts = [node.name]
    s = node.scope.real if node.scope is not None else None
    scope = scope.real if scope is not None else None
    while s is not None and s is not scope:
        parts.append(s.name)
        s = s.parent.real if s.parent is not None else None
    if s is not None:
        return "::".join(reversed(parts))
    return node.scoped_name() if node.scope is not None else node.name


def describe_node(node: FrameNode) -> str:
    """``link 'a::L'``: a node's kind and its name from the root, for messages."""
    if node is WORLD_SENTINEL or node.kind == "world":
        return "the world"
    name = node.name if node.scope is None else node.scoped_name()
    return f"{node.kind} '{name}'"


def attached_summary(analysis: Analysis, node: FrameNode) -> tuple[str | None, str | None]:
    """(what ``node`` is attached to, why not when it cannot be said)."""
    g = analysis.graphs
    if g is None:
        return None, "the document has no frame graph"
    if node is WORLD_SENTINEL or node.kind == "world":
        return "world", None
    link = analysis.frame_facts(node).link  # the same answer check --frames prints
    if link is not None:
        if link.kind == "world":
            return "world", None
        if link.kind == "model":
            return f"static model {link.name if link.scope is None else link.scoped_name()}", None
        return link.scoped_name(), None
    problem, cur = _broken_chain(g, g.attached_cycle(node), node, "attached")
    if problem is not None:
        return None, problem
    if cur.kind == "model" and cur is not node:
        return None, f"the chain ends at {describe_node(cur)}, which has no link and is not static"
    if cur.kind == "model":
        return None, f"{describe_node(cur)} has no link and is not static"
    return None, f"the chain ends at {describe_node(cur)}, which is not attached to a link"


def _broken_chain(g, cycle, node: FrameNode, edge: str) -> tuple[str | None, FrameNode]:
    """Along the ``edge`` chain ("attached" or "relative"): the cycle or the unresolved reference
    that breaks it, else None and the node where the chain ends. One walk for both explanations."""
    if cycle:
        names = " -> ".join(n.name for n in [*cycle, cycle[0]])
        return f"{edge}_to cycle: {names}", node
    cur = node
    seen: set[int] = set()
    while getattr(cur, f"{edge}_to") is not None and id(cur) not in seen:
        seen.add(id(cur))
        cur = getattr(cur, f"{edge}_to")
    ref = getattr(cur, f"{edge}_ref")
    if ref is not None:
        res = g.resolution(ref)
        if res is not None and res.target is None:
            return f"{ref.role} '{ref.text}' of {describe_node(cur)} does not resolve", cur
    return None, cur


def pose_problem(analysis: Analysis, node: FrameNode) -> str:
    """Why ``node``'s pose cannot be resolved (a cycle, an unresolved relative_to)."""
    g = analysis.graphs
    if g is None:
        return "the document has no frame graph"
    problem, cur = _broken_chain(g, g.relative_cycle(node), node, "relative")
    if problem is not None:
        return problem
    return f"the pose of {describe_node(cur)} has no frame to be relative to"


def format_number(value: float, decimals: int = 6) -> str:
    """At most ``decimals`` decimals, no trailing zeros, never ``-0``."""
    if not math.isfinite(value):
        return str(value)
    s = f"{value:.{decimals}f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "", "-") else s


def format_numbers(values: tuple[float, ...] | list[float], decimals: int = 6) -> str:
    return " ".join(format_number(v, decimals) for v in values)


__all__ = [
    "CursorTarget",
    "Location",
    "Segment",
    "as_node",
    "attached_summary",
    "definition_location",
    "defined_at",
    "describe_node",
    "enclosing_scope",
    "format_number",
    "format_numbers",
    "local_resolutions",
    "name_from",
    "node_for_element",
    "pose_problem",
    "scope_of_element",
    "segments",
    "target_at",
]
