"""The frame graphs of a document as plain data, and as Graphviz DOT or Mermaid text.

Three graphs, as ``gz sdf -g`` draws two of them, plus the kinematic tree:

- ``attached-to``: each frame to the frame it is attached to (a joint to its child, a frame to
  ``attached_to`` or its model, a model to its canonical link);
- ``relative-to``: each frame to the frame its pose is expressed in (``relative_to``, or the default);
- ``kinematic``: links (and the world) joined by joints, parent to child.

Edges are labelled by what made them: the attribute or element that was written, or the default
rule that applied. ``scope`` picks a nested model (``outer::inner``) and what lies inside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..collector_pause import collector_paused

KINDS = ("attached-to", "relative-to", "kinematic")
_SHAPES = {"link": "box", "joint": "ellipse", "frame": "ellipse", "model": "box3d", "world": "doubleoctagon"}


@dataclass(frozen=True)
class GraphNode:
    id: str  # the scoped name
    kind: str  # link, joint, frame, model, world
    label: str


@dataclass(frozen=True)
class GraphEdge:
    source: str
    target: str
    label: str


@dataclass(frozen=True)
class Graph:
    kind: str
    nodes: tuple[GraphNode, ...]
    edges: tuple[GraphEdge, ...]


def _scoped_scope_name(scope) -> str:
    parts = []
    s = scope
    while s.parent is not None:
        parts.append(s.name)
        s = s.parent
    return "::".join(reversed(parts))


def _node_id(node) -> str:
    return node.scoped_name() if node.scope is not None or node.kind != "model" else "__model__"


def _why(ref, default: str) -> str:
    if ref is None:
        return default
    return (
        f'{ref.role}="{ref.text}"'
        if ref.role in ("relative_to", "attached_to", "canonical_link")
        else f"<{ref.role}>{ref.text}"
    )


def scope_names(graphs) -> list[str]:
    """The names ``scope`` accepts: nested models, scoped from the root."""
    return sorted(n for n in (_scoped_scope_name(s) for s in graphs.scopes) if n)


def frame_graph(graphs, kind: str, scope: str | None = None) -> Graph:
    """One graph of a FrameGraphs; KeyError when ``scope`` names no nested model."""
    with collector_paused():
        return _frame_graph(graphs, kind, scope)


def _frame_graph(graphs, kind: str, scope: str | None) -> Graph:
    inside = None
    if scope:
        found = [s for s in graphs.scopes if _scoped_scope_name(s) == scope]
        if not found:
            raise KeyError(scope)
        inside = {id(s) for s in found[0].iter_scopes()}
        own = found[0].node
    nodes: dict[str, GraphNode] = {}
    edges: list[GraphEdge] = []

    def included(node) -> bool:
        if inside is None:
            return True
        return node is own or (node.scope is not None and id(node.scope) in inside)

    def add(node) -> str:
        nid = _node_id(node)
        if nid not in nodes:
            shown = graphs.root.name if nid == "__model__" and graphs.root.name else nid  # the root model by its name
            nodes[nid] = GraphNode(nid, node.kind, f"{node.kind} {shown}")
        return nid

    if kind == "kinematic":
        for node in graphs.nodes:
            if node.kind == "link" and included(node):
                add(node)
        for node in graphs.nodes:
            if node.kind != "joint" or not included(node) or node.entity is None:
                continue
            joint = node.entity
            parent = _link_of(graphs, joint.parent)
            child = _link_of(graphs, joint.child)
            if parent is None or child is None:
                continue
            pid = "world" if parent == "world" else add(parent)
            if parent == "world" and "world" not in nodes:
                nodes["world"] = GraphNode("world", "world", "world")
            edges.append(GraphEdge(pid, add(child), f"{node.name} ({joint.type or '?'})"))
        return Graph(kind, tuple(nodes.values()), tuple(edges))
    for node in graphs.nodes:
        if not included(node):
            continue
        src = add(node)
        if kind == "attached-to":
            target = node.attached_to
            if target is None:
                continue
            default = (
                "default: its model"
                if node.kind == "frame"
                else "default: first link"
                if node.kind == "model"
                else "default"
            )
            label = default if node.attached_default else _why(node.attached_ref, default)
        elif kind == "relative-to":
            target = node.relative_to
            if target is None:
                continue
            ref = node.relative_ref
            label = (
                _why(ref, "default")
                if ref is not None and ref.role == "relative_to"
                else (f"default: {_why(ref, '')}" if ref else "default")
            )
        else:
            raise ValueError(kind)
        edges.append(GraphEdge(src, add(target), label))
    return Graph(kind, tuple(nodes.values()), tuple(edges))


def _link_of(graphs, ref):
    """The link a joint's <parent>/<child> reference ends at ('world' for the world)."""
    if ref is None:
        return None
    if ref.text.strip() == "world":
        return "world"
    res = graphs.by_ref.get(id(ref))
    target = res.target if res is not None else None
    if target is None or not hasattr(target, "kind"):
        return None
    if target.kind == "world":
        return "world"
    return target if target.kind == "link" else graphs.attached_link(target)


def _dot_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def _dot_quote(s: str) -> str:
    return '"' + _dot_escape(s) + '"'


def to_dot(g: Graph) -> str:
    lines = [
        f"digraph {_dot_quote(g.kind)} {{",
        "  rankdir=BT;",
        '  node [fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    for n in g.nodes:
        name = (
            n.label[len(n.kind) + 1 :] if n.label.startswith(n.kind + " ") else ""
        )  # the world of a joint to 'world' has none
        label = (
            '"' + _dot_escape(n.kind) + ("\\n" + _dot_escape(name) if name else "") + '"'
        )  # \n: Graphviz's line break
        lines.append(f"  {_dot_quote(n.id)} [label={label}, shape={_SHAPES.get(n.kind, 'ellipse')}];")
    for e in g.edges:
        lines.append(f"  {_dot_quote(e.source)} -> {_dot_quote(e.target)} [label={_dot_quote(e.label)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_text(s: str) -> str:
    return s.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def to_mermaid(g: Graph) -> str:
    ids = {n.id: f"n{i}" for i, n in enumerate(g.nodes)}
    shapes = {
        "link": ('["', '"]'),
        "joint": ('(["', '"])'),
        "frame": ('("', '")'),
        "model": ('[["', '"]]'),
        "world": ('{{"', '"}}'),
    }
    lines = ["graph BT"]
    for n in g.nodes:
        a, b = shapes.get(n.kind, ('["', '"]'))
        lines.append(f"  {ids[n.id]}{a}{_mermaid_text(n.label)}{b}")
    for e in g.edges:
        lines.append(f'  {ids[e.source]} -->|"{_mermaid_text(e.label)}"| {ids[e.target]}')
    return "\n".join(lines) + "\n"
