"""queries.scope_frames.reaching (a search backwards from the target, over predecessors kept per analysis)
names exactly the frames the walk of every chain named (the walk completion made on each request)."""

from __future__ import annotations

import random

from sdformat_lsp.queries.scope_frames import reaching, scope_frames
from sdformat_lsp.semantics import analyze


def _walk(nodes, target, step) -> set[int]:
    """The former walk: every chain from every candidate, memoised."""
    memo = {id(target): True}
    out = set()
    for node in nodes:
        path, cur, found = [], node, False
        while cur is not None:
            known = memo.get(id(cur))
            if known is not None:
                found = known
                break
            memo[id(cur)] = False
            path.append(cur)
            cur = step(cur)
        for p in path:
            memo[id(p)] = found
        if found and node is not target:
            out.add(id(node))
    return out


def _document(seed: int) -> str:
    """Frames attached to and posed relative to random earlier or later frames: chains, trees and cycles."""
    rng = random.Random(seed)
    names = [f"L{i}" for i in range(3)]
    body = "".join(f'<link name="{n}"/>' for n in names)
    frames = [f"F{i}" for i in range(rng.randint(5, 40))]
    every = names + frames + ["__model__", "inner", "inner::f"]
    for f in frames:
        body += f'<frame name="{f}" attached_to="{rng.choice(every)}"><pose relative_to="{rng.choice(every)}"/></frame>'
    body += '<model name="inner"><link name="l"/><frame name="f" attached_to="l"/></model>'
    return f'<sdf version="1.9"><model name="m">{body}</model></sdf>'


def test_reaching_equals_the_walk():
    for seed in range(60):
        a = analyze(_document(seed))
        g = a.graphs
        assert g is not None
        for scope in g.root.iter_scopes():
            frames = scope_frames(g, scope)
            for step in (lambda n: n.attached_to, lambda n: n.relative_to):
                for _name, target in frames:
                    assert reaching(g, scope, target, step) == _walk((n for _, n in frames), target, step), seed


def _scanned(analysis, el):
    """The former node_for_element: a walk of every node (an include: the first included record's)."""
    from sdformat_lsp.semantics.frames import WORLD_SENTINEL

    g = analysis.graphs
    if el.tag == "include":
        return next((scope.node for inc, scope in g.included if inc.element is el), None)
    return next((n for n in g.nodes if n is not WORLD_SENTINEL and getattr(n.entity, "element", None) is el), None)


def _elements(el):
    yield el
    for c in el.children:
        yield from _elements(c)


def test_node_for_element_is_the_walk_of_every_node(tmp_path):
    """The index made once per analysis (queries.scope_frames.element_nodes) gives, for every element of
    worlds with nested models, includes (model:// and relative, named or not) and broken references,
    the node the walk of every node gave."""
    from sdformat_lsp.queries.scope_frames import node_for_element
    from tests.core.test_incremental import included_tree, random_world_with_includes

    path, options = included_tree(tmp_path)
    found = 0
    for seed in range(1, 6):
        text = random_world_with_includes(seed)
        analysis = analyze(text, str(path), options)
        assert analysis.graphs is not None and analysis.graphs.included
        for el in _elements(analysis.xml.root):
            expected = _scanned(analysis, el)
            assert node_for_element(analysis, el) is expected, (seed, el.tag)
            found += expected is not None
    for seed in range(20):
        analysis = analyze(_document(seed))
        for el in _elements(analysis.xml.root):
            assert node_for_element(analysis, el) is _scanned(analysis, el)
    assert found > 100
