"""The frames of a scope as completion offers them, worked out once per analysis.

A completion in a scope of thousands of frames (a world, a large nested
model) used to walk every frame of the scope, and every chain of
``attached_to``/``relative_to`` steps from them, on each request. Both are
the same for every request on one analysis, so they are kept per frame
graphs (a weak dictionary: they die with the analysis; a new analysis has new
graphs and starts afresh). What a request still does is filter the list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..semantics.frames import WORLD_SENTINEL, FrameGraphs, FrameNode, Scope

if TYPE_CHECKING:
    from ..semantics.analysis import Analysis
    from ..xml import XmlElement

Step = Callable[[FrameNode], "FrameNode | None"]

# FrameGraphs.memo: {(id(scope), step): (scope, predecessors by node id)} and {id(scope): (scope, frames, ids)}
# keys of FrameGraphs.memo
_REVERSE = "queries.scope_frames.reverse"
_FRAMES = "queries.scope_frames.frames"
_ELEMENTS = "queries.scope_frames.elements"


def scope_frames(graphs: FrameGraphs, scope: Scope) -> list[tuple[str, FrameNode]]:
    """``scope.nested_frames()`` as a list, kept per graphs and scope."""
    return _kept(graphs, scope)[1]


def _kept(graphs: FrameGraphs, scope: Scope) -> tuple[Scope, list[tuple[str, FrameNode]], frozenset[int]]:
    """The scope, its frames and their ids (each request's cycle check filters by them: 11,000 in a world of
    hundreds of included models, made again per request before)."""
    per = graphs.memo.setdefault(_FRAMES, {})
    got = per.get(id(scope))
    if got is None or got[0] is not scope:
        frames = list(scope.nested_frames())
        got = per[id(scope)] = (scope, frames, frozenset(id(n) for _name, n in frames))
    return got


def _predecessors(graphs: FrameGraphs, scope: Scope, step: Step) -> dict[int, list[FrameNode]]:
    """For every node on the ``step`` chain of a frame of ``scope``: the nodes whose step leads to it."""
    per = graphs.memo.setdefault(_REVERSE, {})
    key = (id(scope), step)
    got = per.get(key)
    if got is not None and got[0] is scope:
        return got[1]
    preds: dict[int, list[FrameNode]] = {}
    seen: set[int] = set()
    for _name, node in scope_frames(graphs, scope):
        cur: FrameNode | None = node
        while cur is not None and id(cur) not in seen:  # each node's step is followed once: linear
            seen.add(id(cur))
            nxt = step(cur)
            if nxt is not None:
                preds.setdefault(id(nxt), []).append(cur)
            cur = nxt
    per[key] = (scope, preds)
    return preds


def reaching(graphs: FrameGraphs, scope: Scope, target: FrameNode, step: Step) -> set[int]:
    """Ids of the frames of ``scope`` (``target`` left out) whose ``step`` chain passes through ``target``.

    The nodes from which ``target`` is reached are those reached from it going
    backwards; so a search from ``target`` over the predecessors, which costs
    what the answer costs, instead of a walk of every chain of the scope.
    """
    preds = _predecessors(graphs, scope, step)
    found: set[int] = set()
    stack = [target]
    while stack:
        cur = stack.pop()
        for p in preds.get(id(cur), ()):
            if id(p) not in found:
                found.add(id(p))
                stack.append(p)
    found.discard(id(target))
    return found & _kept(graphs, scope)[2]


def prepare_reaching(graphs: FrameGraphs, scope: Scope, step: Step) -> None:
    """Make now what :func:`reaching` over ``scope`` by ``step`` makes on its first call."""
    _predecessors(graphs, scope, step)


def element_nodes(g: FrameGraphs) -> dict[int, FrameNode | None]:
    """Every node by the id of the element declaring it (an include's: its model's), made once per frame
    graphs (FrameGraphs.memo; ids are safe keys: the elements live as long as the analysis holding them).
    Hover, completion and the views ask on every request: a walk of every node each time cost a
    completion on a 100,000-line world most of its time."""
    index: dict[int, FrameNode | None] | None = g.memo.get(_ELEMENTS)
    if index is None:
        index = {}
        for n in g.nodes:
            if n is not WORLD_SENTINEL:
                owner = getattr(n.entity, "element", None)
                if owner is not None and owner.tag != "include":
                    index.setdefault(id(owner), n)  # the first node an element declares
        for inc, scope in g.included:
            if inc.element is not None:
                index.setdefault(id(inc.element), scope.node)
        g.memo[_ELEMENTS] = index
    return index


def node_for_element(analysis: Analysis, el: XmlElement) -> FrameNode | None:
    """The frame an element of this document declares (an include stands for its model)."""
    g = analysis.graphs
    return element_nodes(g).get(id(el)) if g is not None else None
