"""The fast walks of the frame graphs give what the plain walks give.

The checks ask every node of a document for its attached link, whether its pose
resolves and which cycles the two graphs have (searched only among the nodes
without attached link or pose); those walks read the nodes' weak
edges directly and mark nodes in place (see ``frames.answers`` and
``frames.cycles.edge_cycles``). Here they are compared with plain walks through the
public properties on random graphs full of chains, trees, self-loops and cycles.
"""

from __future__ import annotations

import random

from sdformat_lsp.semantics.frames.cycles import edge_cycles, find_cycles
from sdformat_lsp.semantics.frames.vertices import FrameNode, Scope
from sdformat_lsp.semantics.frames.answers import FrameQueries


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
        # the bulk answers (with their one-step shortcut) and what they leave memoised
        assert queries.unattached() == [n for n in nodes if _plain_attached_link(n) is None]
        for node in nodes:
            assert queries.attached_link(node) is _plain_attached_link(node)
        memo: dict[int, bool] = {}
        assert queries.unposed(memo) == [n for n in nodes if not _plain_pose_resolves(n)]
        assert all(memo[id(n)] is _plain_pose_resolves(n) for n in nodes)
        for node in nodes:
            node._link_state, node._link = 0, None  # forget, so the checks below start afresh
        order = nodes[:]
        rng.shuffle(order)  # the memos must not depend on the order nodes are asked in
        memo = {}
        for node in order:
            assert queries.attached_link(node) is _plain_attached_link(node)
            assert queries.pose_resolves(node, memo) is _plain_pose_resolves(node)
        for node in nodes:  # asked again: the memoised answers
            assert queries.attached_link(node) is _plain_attached_link(node)
            assert node._link_state in (1, 2, 3)
    assert cycles_seen > 100  # the graphs do exercise cycles


def _link_with_insides(rng: random.Random, i: int) -> str:
    """A link whose visuals, collisions and sensors have poses relative_to frames (or not), some
    inside plugins, namespaced elements and comments, which the walk must leave alone."""
    parts = []
    for j in range(rng.randint(0, 4)):
        tag = rng.choice(["visual", "collision", "sensor", "plugin", "gz:extra"])
        attr = f' relative_to="{rng.choice(["__model__", "L0", "F", "nowhere", ""])}"' if rng.random() < 0.5 else ""
        inner = f"<pose{attr}>0 0 {j} 0 0 0</pose>"
        if rng.random() < 0.3:
            inner = f"<geometry><box><size>1 1 1</size></box></geometry><deep>{inner}</deep>"
        if rng.random() < 0.2:
            inner += "<!-- relative_to='L0' -->"
        parts.append(f'<{tag} name="x{j}">{inner}</{tag}>')
    own = '<pose relative_to="__model__">1 0 0 0 0 0</pose>' if rng.random() < 0.3 else ""
    return f'<link name="L{i}">{own}{"".join(parts)}</link>'


def test_links_without_relative_to_in_their_text_are_not_walked_for_inner_poses() -> None:
    """FrameGraphs given the document skips the walk of links whose text never says relative_to;
    the inner poses found, their order and where they resolve are those of the full walk."""
    from sdformat_lsp.model import version_tuple
    from sdformat_lsp.semantics import Options, analyze
    from sdformat_lsp.semantics.frames import FrameGraphs

    rng = random.Random(7)
    found = 0
    for _ in range(60):
        links = "".join(_link_with_insides(rng, i) for i in range(rng.randint(1, 5)))
        text = f'<sdf version="1.10"><model name="m">{links}<frame name="F"/></model></sdf>'
        a = analyze(text, None, Options())
        assert not a.xml.problems
        version = version_tuple(a.document.version)
        fast = FrameGraphs(a.document.root, version, None, xml=a.xml)
        slow = FrameGraphs(a.document.root, version, None)
        assert [(r.text, r.span, s.name) for r, s in fast.inner_poses] == [
            (r.text, r.span, s.name) for r, s in slow.inner_poses
        ]
        assert [(r.ref.span, r.target is None) for r in fast.resolutions] == [
            (r.ref.span, r.target is None) for r in slow.resolutions
        ]
        found += len(slow.inner_poses)
    assert found > 30
