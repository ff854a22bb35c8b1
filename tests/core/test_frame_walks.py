"""The fast walks of the frame graphs give what the plain walks give.

The checks ask every node of a document for its attached link, whether its pose
resolves and which cycles the two graphs have (searched only among the nodes
without attached link or pose); those walks read the nodes' weak
edges directly and mark nodes in place (see ``frame_queries`` and
``frame_nodes.edge_cycles``). Here they are compared with plain walks through the
public properties on random graphs full of chains, trees, self-loops and cycles.
"""

from __future__ import annotations

import random

from sdformat_lsp.semantics.frame_nodes import FrameNode, Scope, edge_cycles, find_cycles
from sdformat_lsp.semantics.frame_queries import FrameQueries


def _plain_attached_link(node: FrameNode) -> FrameNode | None:
    seen: set[int] = set()
    cur = node
    while id(cur) not in seen:
        seen.add(id(cur))
        if cur.attached_to is None:
            return cur if cur.is_sink else None
        cur = cur.attached_to
    return None  # a cycle


def _plain_pose_resolves(node: FrameNode) -> bool:
    seen: set[int] = set()
    cur = node
    while id(cur) not in seen:
        seen.add(id(cur))
        if cur.relative_to is None:
            return cur.scope is None
        cur = cur.relative_to
    return False


def _random_graph(rng: random.Random, scope: Scope) -> list[FrameNode]:
    n = rng.randint(1, 40)
    nodes = []
    for i in range(n):
        kind = rng.choice(["link", "joint", "frame", "model", "model"])
        node = FrameNode(kind, f"n{i}", None if rng.random() < 0.1 else scope, None)
        node.static = rng.random() < 0.3
        nodes.append(node)
    for node in nodes:
        for edge in ("attached_to", "relative_to"):
            r = rng.random()
            if r < 0.6:  # mostly backwards: trees and chains
                setattr(node, edge, rng.choice(nodes[: nodes.index(node) + 1]))
            elif r < 0.8:  # anywhere: cycles, self-loops
                setattr(node, edge, rng.choice(nodes))
    rng.shuffle(nodes)
    return nodes


def test_fast_walks_match_plain_walks_on_random_graphs() -> None:
    rng = random.Random(13)
    scope = Scope("model", "m", None, None)  # type: ignore[arg-type]
    queries = FrameQueries()
    cycles_seen = 0
    for _ in range(400):
        nodes = _random_graph(rng, scope)
        for edge in ("attached_to", "relative_to"):
            expected = find_cycles(nodes, lambda n, e=edge: getattr(n, e))
            assert edge_cycles(nodes, edge) == expected
            cycles_seen += len(expected)
        queries.nodes = nodes  # the cycles searched among the nodes without attached link / pose only
        assert queries.attached_cycles() == find_cycles(nodes, lambda n: n.attached_to)
        assert queries.relative_cycles({}) == find_cycles(nodes, lambda n: n.relative_to)
        for node in nodes:
            node._link_state, node._link = 0, None  # forget, so the checks below start afresh
        order = nodes[:]
        rng.shuffle(order)  # the memos must not depend on the order nodes are asked in
        memo: dict[int, bool] = {}
        for node in order:
            assert queries.attached_link(node) is _plain_attached_link(node)
            assert queries.pose_resolves(node, memo) is _plain_pose_resolves(node)
        for node in nodes:  # asked again: the memoised answers
            assert queries.attached_link(node) is _plain_attached_link(node)
            assert node._link_state in (1, 2, 3)
    assert cycles_seen > 100  # the graphs do exercise cycles
