"""Questions asked of built frame graphs: attached links, cycles, poses and chains.

One part of :class:`~.frames.FrameGraphs` (a mixin). Answers are computed on
first use and memoised on the nodes themselves (the attached link weakly, so
that no reference cycle keeps a document's graphs alive), never for every frame
up front.
"""

from __future__ import annotations

import threading

from ...model import Model
from .cycles import cycle_from, edge_cycles
from .vertices import FrameNode, GraphTables, Scope, memo_link, weak_ref
from ..pose import IDENTITY, Transform

# The placement frames being applied in this thread (ids of their model or proxy nodes). A placement
# frame whose own pose depends on the model it places (a joint named as its own child, a frame
# relative to the model) would otherwise apply itself again, recursing until the stack gives out.
_placing = threading.local()


class FrameQueries(GraphTables):
    """Walks the ``attached_to`` and ``relative_to`` edges; each walk is iterative and linear."""

    def real_scope(self, scope: Scope | None) -> Scope | None:
        """The model or world a merged view belongs to (``scope`` itself when it is not a view)."""
        return scope.real if scope is not None else None

    def attached_link(self, node: FrameNode) -> FrameNode | None:
        """The sink of ``node``'s attached_to chain, if it is a legal one."""
        if node._link_state:
            return memo_link(node)
        # Asked for every node by the checks: the walk reads the weak edges directly, and marks the
        # nodes on it (state 4, replaced before returning) instead of keeping a set of them.
        path: list[FrameNode] = []
        cur: FrameNode | None = node
        result: FrameNode | None = None
        while cur is not None:
            state = cur._link_state
            if state:
                result = memo_link(cur) if state != 4 else None  # 4: on this walk, a cycle
                break
            cur._link_state = 4
            path.append(cur)
            r = cur._attached_to
            nxt = r() if r is not None else None
            if nxt is None:
                result = cur if cur.is_sink else None
                break
            cur = nxt
        for p in path:
            if result is p:  # a sink: remember "itself" without a reference to itself (no cycle to collect)
                p._link, p._link_state = None, 3
            else:
                p._link, p._link_state = weak_ref(result), 1 if result is not None else 2
        return result

    def unattached(self) -> list[FrameNode]:
        """The nodes without an attached link, in node order (usually none); every node's attached
        link is memoised, for the checks that ask next.

        Nodes come mostly after what they are attached to (a model's frames after its links), so
        the one step a walk would take usually lands on a node whose answer is known: then it is
        this node's too, remembered as :meth:`attached_link` remembers it (the same weak reference
        to the same link), without the walk's call. Every other node takes the walk."""
        out = []
        for n in self.nodes:
            if not n._link_state:
                r = n._attached_to
                nxt = r() if r is not None else None
                if nxt is not None and nxt._link_state in (1, 3):
                    n._link = nxt._link if nxt._link_state == 1 else r  # a sink's link is itself
                    n._link_state = 1
                    continue
            if self.attached_link(n) is None:
                out.append(n)
        return out

    def unposed(self, memo: dict[int, bool]) -> list[FrameNode]:
        """The nodes whose pose does not resolve, in node order; ``memo`` is :meth:`pose_resolves`'s
        and holds every node's answer afterwards. As in :meth:`unattached`, a node whose next frame
        is known to resolve resolves too, without the walk's call."""
        out = []
        for n in self.nodes:
            if not n._pose_state and id(n) not in memo:
                r = n._relative_to
                nxt = r() if r is not None else None
                if nxt is not None and (nxt._pose_state == 1 or (not nxt._pose_state and memo.get(id(nxt)))):
                    memo[id(n)] = True
                    continue
            if not self.pose_resolves(n, memo):
                out.append(n)
        return out

    def attached_cycles(self, unattached: list[FrameNode] | None = None) -> list[list[FrameNode]]:
        """Every cycle of the attached_to graph: ``edge_cycles(self.nodes, "attached_to")``.

        Searched only among the nodes without an attached link (:meth:`unattached`, passed in
        when known): a node whose chain ends at a sink is on no cycle, and neither is any node of
        its chain, while the chain of a node without one holds only nodes without one. So the
        search over those alone meets the same nodes in the same order and finds the same cycles
        in the same order."""
        return edge_cycles(self.unattached() if unattached is None else unattached, "attached_to")

    def relative_cycles(self, memo: dict[int, bool], unposed: list[FrameNode] | None = None) -> list[list[FrameNode]]:
        """Every cycle of the relative_to graph: ``edge_cycles(self.nodes, "relative_to")``,
        searched only among the nodes whose pose does not resolve (:meth:`unposed`; see
        ``attached_cycles``: a chain that reaches the root has no cycle)."""
        return edge_cycles(self.unposed(memo) if unposed is None else unposed, "relative_to")

    def attached_cycle(self, node: FrameNode) -> list[FrameNode] | None:
        return cycle_from(node, lambda n: n.attached_to)

    def relative_cycle(self, node: FrameNode) -> list[FrameNode] | None:
        return cycle_from(node, lambda n: n.relative_to)

    def pose(self, node: FrameNode) -> Transform | None:
        """``X_root_node``: relative to the root model frame or the world; None if unresolvable."""
        if node._pose_state:
            return node._pose
        path: list[FrameNode] = []
        seen: set[int] = set()
        cur: FrameNode = node
        base: Transform | None = None
        while True:
            if cur._pose_state:
                base = cur._pose
                break
            if id(cur) in seen:
                base = None
                break
            seen.add(id(cur))
            path.append(cur)
            nxt = cur.relative_to
            if nxt is None:
                if cur.scope is None:  # the root: the source of the graph
                    base = IDENTITY
                    path.pop()
                    cur._pose, cur._pose_state = IDENTITY, 1
                else:
                    base = None
                break
            cur = nxt
        for p in reversed(path):
            if base is not None:
                base = base * self.edge_transform(p)
            p._pose = base
            p._pose_state = 1 if base is not None else 2
        return node._pose

    def pose_resolves(self, node: FrameNode, memo: dict[int, bool]) -> bool:
        """Whether :meth:`pose` of ``node`` is not None, without computing (and keeping) the
        poses: the relative_to chain reaches the root. A check of every frame needs only this,
        and a pose kept for each of a 100 MB world's frames costs hundreds of MB."""
        # Asked for every node: the walk reads the weak edges directly, and enters each node in
        # ``memo`` as False when it first meets it, so that meeting it again on the same walk (a
        # cycle) ends the walk with False, as it must; the walk's answer then replaces them all.
        path: list[FrameNode] = []
        cur: FrameNode = node
        while True:
            if cur._pose_state:
                ok = cur._pose_state == 1
                break
            known = memo.get(id(cur))
            if known is not None:
                ok = known
                break
            memo[id(cur)] = False
            path.append(cur)
            r = cur._relative_to
            nxt = r() if r is not None else None
            if nxt is None:
                ok = cur.scope is None  # the root: the source of the graph
                break
            cur = nxt
        if ok:
            for p in path:
                memo[id(p)] = True
        return ok

    def edge_transform(self, node: FrameNode) -> Transform:
        """``X_{relative_to, node}``, with a nested model's placement frame applied.

        A placement frame whose pose can only be found through the model it places cannot be
        applied: the pose as written is used, as for any placement frame that does not resolve
        (the checks report why)."""
        placing: set[int] | None = getattr(_placing, "ids", None)
        if placing is None:
            placing = _placing.ids = set()
        if id(node) in placing:
            return node.transform
        placing.add(id(node))
        try:
            return self._placed_transform(node)
        finally:
            placing.discard(id(node))

    def _placed_transform(self, node: FrameNode) -> Transform:
        if node.kind == "frame" and id(node) in self.merged_placement:
            placement, view = self.merged_placement[id(node)]
            res = self.resolve(placement, view, record=False)
            if res.target is not None and res.target is not node:
                inside = self.relative_pose(res.target, node)
                if inside is not None:
                    return node.transform * inside.inverse()
        if node.kind == "model" and node.scope is not None:
            model: Model = node.entity
            pf = model.placement_frame
            inc = model.from_include
            if inc is not None and inc.placement_frame is not None and inc.placement_frame.text:
                pf = inc.placement_frame
            if pf is not None and pf.text and node.inner is not None:
                res = self.resolve(pf, node.inner, record=False)
                if res.target is not None:
                    inside = self.relative_pose(res.target, node)
                    if inside is not None:
                        return node.transform * inside.inverse()
        return node.transform

    def relative_pose(self, node: FrameNode, base: FrameNode) -> Transform | None:
        """``X_base_node`` by walking up from ``node`` until ``base`` (no memo, bounded)."""
        acc = IDENTITY
        cur = node
        seen: set[int] = set()
        while cur is not base:
            if cur.relative_to is None or id(cur) in seen:
                a, b = self.pose(node), self.pose(base)
                return None if a is None or b is None else b.inverse() * a
            seen.add(id(cur))
            acc = self.edge_transform(cur) * acc
            cur = cur.relative_to
        return acc

    def chain(self, node: FrameNode, limit: int = 64) -> list[FrameNode]:
        """The relative_to chain from ``node`` to its source, for display."""
        out = [node]
        seen = {id(node)}
        cur = node.relative_to
        while cur is not None and id(cur) not in seen and len(out) < limit:
            out.append(cur)
            seen.add(id(cur))
            cur = cur.relative_to
        return out
