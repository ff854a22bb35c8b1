"""One SDFormat model flattened into resolved links, joints and frames.

A URDF has no nested models, no ``relative_to`` and no placement frames:
only link frames joined by joint origins. Everything the conversion needs is
therefore resolved here, once, with the analysis' frame graphs: every link,
joint and frame of the chosen model and of the models nested in it (included
ones too), its pose in the chosen model's frame ``B``, and for joints the
links they join. Names keep their scoped form (``arm::link``) relative to
the chosen model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Joint, Model, Ref, World
from ..model.transform import IDENTITY, Transform, transform_of
from ..semantics import Analysis
from ..semantics.frames import FrameGraphs, FrameNode, Scope

WORLD = "world"


class FlattenError(Exception):
    """The model cannot be flattened (unknown model, unresolved frames); the message says why."""


@dataclass
class Body:
    name: str
    node: FrameNode
    pose: Transform  # X_B_link
    scope: Scope


@dataclass
class Connection:
    name: str
    node: FrameNode
    pose: Transform  # X_B_joint
    scope: Scope
    parent: str | None  # a Body name, WORLD, or None when it does not resolve to a link
    child: str | None
    entity: Joint = field(repr=False, default=None)  # type: ignore[assignment]


@dataclass
class Marker:
    """An explicit ``<frame>``."""

    name: str
    node: FrameNode
    pose: Transform
    body: str | None  # the Body it is attached to (None: the world or unresolved)


@dataclass
class Flat:
    name: str  # the chosen model's name
    model: Model
    scope: Scope
    graphs: FrameGraphs
    world_pose: Transform  # X_world_B
    bodies: list[Body]
    connections: list[Connection]
    markers: list[Marker]
    version: tuple[int, int]
    path: str | None

    def in_base(self, node: FrameNode) -> Transform | None:
        """``X_B_node`` for any node of the chosen model."""
        return _in_base(self.graphs, _base_inverse(self.graphs, self.scope), node)


def _base_inverse(graphs: FrameGraphs, scope: Scope) -> Transform | None:
    """``X_B_root``: the chosen model's frame seen from the frame poses are resolved in."""
    if scope.node is None or scope.node.scope is None:
        return IDENTITY
    base = graphs.pose(scope.node)
    return base.inverse() if base is not None else None


def _in_base(graphs: FrameGraphs, base_inverse: Transform | None, node: FrameNode) -> Transform | None:
    p = graphs.pose(node)
    if base_inverse is None or p is None:
        return None
    return p if base_inverse is IDENTITY else base_inverse * p


def model_names(analysis: Analysis) -> list[str]:
    """The models ``--model`` may name: the top-level models of a world, or the file's model."""
    root = analysis.root_scope
    if root is None:
        return []
    if root.kind == "world":
        return list(root.children)
    return [root.name]


def choose(analysis: Analysis, name: str | None) -> Scope:
    root = analysis.root_scope
    if root is None or analysis.graphs is None:
        raise FlattenError("the file holds no model to convert")
    if root.kind != "world":
        if name is not None and name != root.name:
            raise FlattenError(f"the file's model is '{root.name}', not '{name}'")
        return root
    names = model_names(analysis)
    if name is None:
        if len(names) == 1:
            return root.children[names[0]]
        if not names:
            raise FlattenError("the world holds no model to convert")
        raise FlattenError(f"the world holds {len(names)} models ({', '.join(names)}): choose one with --model NAME")
    scope: Scope | None = root
    for part in name.split("::"):
        scope = scope.children.get(part) if scope is not None else None
    if scope is None:
        raise FlattenError(f"the world has no model '{name}'; its models are: {', '.join(names) or 'none'}")
    return scope


def flatten(analysis: Analysis, name: str | None = None) -> Flat:
    scope = choose(analysis, name)
    graphs = analysis.graphs
    assert graphs is not None and scope.node is not None
    model: Model = scope.entity  # type: ignore[assignment]
    if scope.node.scope is None:  # the file's own model: the world is where its <pose> puts it
        world_pose = transform_of(model.pose)
    else:
        world_pose = graphs.pose(scope.node) or IDENTITY
    inverse = _base_inverse(graphs, scope)
    bodies: list[Body] = []
    joints: list[tuple[str, FrameNode, Scope]] = []
    frames: list[tuple[str, FrameNode]] = []
    unresolved: list[str] = []
    for qname, node in scope.nested_frames():
        if node.kind not in ("link", "joint", "frame") or node.scope is None:
            continue
        pose = _in_base(graphs, inverse, node)
        if pose is None:
            unresolved.append(qname)
            continue
        if node.kind == "link":
            bodies.append(Body(qname, node, pose, node.scope))
        elif node.kind == "joint":
            joints.append((qname, node, node.scope))
        else:
            frames.append((qname, node))
    if unresolved:
        raise FlattenError(
            f"the pose of {', '.join(repr(n) for n in unresolved[:5])}{' and others' if len(unresolved) > 5 else ''} "
            "does not resolve (see `sdformat-lsp check`): fix the model first"
        )
    by_node = {id(b.node): b.name for b in bodies}
    connections = []
    for qname, node, jscope in joints:
        entity: Joint = node.entity  # type: ignore[assignment]
        parent = _end(graphs, entity.parent, jscope, by_node)
        child = _end(graphs, entity.child, jscope, by_node)
        pose = _in_base(graphs, inverse, node)
        assert pose is not None
        connections.append(Connection(qname, node, pose, jscope, parent, child, entity))
    markers = []
    for qname, node in frames:
        link = graphs.attached_link(node)
        body = by_node.get(id(link)) if link is not None else None
        pose = _in_base(graphs, inverse, node)
        assert pose is not None
        markers.append(Marker(qname, node, pose, body))
    return Flat(
        model.name, model, scope, graphs, world_pose, bodies, connections, markers, graphs.version, analysis.path
    )


def _end(graphs: FrameGraphs, ref: Ref | None, scope: Scope, by_node: dict[int, str]) -> str | None:
    """The Body a joint's ``<parent>`` or ``<child>`` ends on (through frames and models), or WORLD.

    Resolved again in the joint's own scope: a model merged into another (``merge="true"``) is seen
    through a view whose nodes are the ones listed here, not those of the included file's own graph.
    """
    if ref is None:
        return None
    res = graphs.resolve(ref, scope, allow_world=True, record=False)
    if res.target is None:
        return None
    if res.target.kind == "world":
        return WORLD
    link = graphs.attached_link(res.target)
    return by_node.get(id(link)) if link is not None else None


__all__ = ["Body", "Connection", "Flat", "FlattenError", "Marker", "WORLD", "World", "flatten", "model_names"]
