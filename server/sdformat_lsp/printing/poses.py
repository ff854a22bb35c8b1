"""The poses ``print --resolve-poses`` writes: every pose relative to its model's frame.

"Relative to its model's frame" means, element by element, what SDFormat can say:

- links, nested models: their pose is relative to the model frame by default (the world in
  a world), so the resolved pose is written without ``relative_to``;
- joints and frames: their default is another frame (the child link, the attached-to
  frame), so they get ``relative_to="__model__"`` (``"world"`` in a world);
- the posed elements libsdformat gives a semantic pose (``SemanticPose``, resolved through
  the model's pose graph): ``<visual>``, ``<collision>``, ``<sensor>``, ``<light>``,
  ``<particle_emitter>`` and ``<projector>`` of a link, ``<sensor>`` of a joint, and
  ``<light>`` of a world. Their default is the link (joint, world), so they get
  ``relative_to="__model__"`` (a world's lights: ``"world"``), and a pose is added to one
  written without;
- everything else stays relative to its parent, because SDFormat has no way to say
  otherwise: an ``<inertial>`` pose has no ``relative_to`` in any version (libsdformat reads
  and ignores one), and a camera's pose in its sensor, an actor's, an audio source's and
  the like are not resolved against frames by libsdformat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..model.builder import Builder
from ..model.transform import IDENTITY, Transform, rpy_from_quat, transform_of
from ..semantics.frames import WORLD_SENTINEL

# Posed elements that libsdformat resolves through the pose graph, by the tag of their parent.
SEMANTIC_INNER = {
    "link": ("visual", "collision", "sensor", "light", "particle_emitter", "projector"),
    "joint": ("sensor",),
}
WORLD_INNER = ("light",)


@dataclass(frozen=True)
class Pose:
    """A pose to write instead of the element's own: values and the relative_to to give it."""

    transform: Transform
    relative_to: str | None


def number(v: float) -> str:
    if abs(v) < 1e-15:
        return "0"
    text = repr(v + 0.0)
    return text[:-2] if text.endswith(".0") else text


def pose_text(x: Transform, degrees: bool) -> tuple[str, dict[str, str]]:
    r, p, y = rpy_from_quat(x.q)
    attrs: dict[str, str] = {}
    if degrees:
        r, p, y = (math.degrees(v) for v in (r, p, y))
        attrs["degrees"] = "true"
    return " ".join(number(v) for v in (*x.p, r, p, y)), attrs


def degrees_of(attrs: dict[str, str], body: str) -> tuple[str, dict[str, str]] | None:
    """An Euler pose (its attributes and text) written in radians, rewritten in degrees (None: leave it as it is)."""
    fmt = attrs.get("rotation_format")
    deg = attrs.get("degrees")
    if (fmt is not None and fmt.strip() != "euler_rpy") or (deg is not None and deg.strip().lower() in ("true", "1")):
        return None
    words = body.split()
    if len(words) != 6:
        return None
    try:
        values = [float(w) for w in words]
    except ValueError:
        return None
    text = " ".join(number(v) for v in values[:3]) + " " + " ".join(number(math.degrees(v)) for v in values[3:])
    kept = {k: v for k, v in attrs.items() if k not in ("degrees", "rotation_format")}
    kept["degrees"] = "true"
    return text, kept


def resolved(analysis) -> dict[int, Pose]:
    """id(<pose> element, or of the posed element when it has none) -> the pose to write.

    An element without ``<pose>`` is keyed by its own id: the writer adds one.
    """
    graphs = analysis.graphs
    builder = Builder(analysis.xml)
    builder.version = graphs.version
    out: dict[int, Pose] = {}
    inverses: dict[int, Transform] = {}
    for node in graphs.nodes:
        scope = node.scope
        entity = node.entity
        if node.kind == "world" and entity is not None:
            _world_lights(graphs, node, builder, out)
            continue
        if scope is None or entity is None:
            continue
        if node.kind not in ("link", "joint", "frame", "model"):
            continue
        real = scope.real  # for an entity merged by an include, the model it joined (not the proxy frame)
        base = real.node
        x_root_base = graphs.pose(base) if base is not None else None
        x_root_node = graphs.pose(node)
        if x_root_base is None or x_root_node is None:
            continue
        inv = inverses.get(id(base))
        if inv is None:
            inv = inverses[id(base)] = x_root_base.inverse()
        x = inv * x_root_node
        if node.kind in ("link", "joint"):
            _inner(graphs, node, graphs.inner_pose_scope(scope), inv, x, builder, out)
        if node.kind == "model" and getattr(entity, "from_include", None) is not None:
            continue  # an include's model: its pose is always written (see the writer), relative to its parent
        spec = getattr(entity, "pose", None)
        element = spec.element if spec is not None else None
        rel = ("world" if scope.kind == "world" else "__model__") if node.kind in ("joint", "frame") else None
        if element is None:
            if node.kind in ("joint", "frame") or real is not scope:  # a merged link's default is the proxy frame
                out[id(entity.element)] = Pose(x, rel or ("world" if real.kind == "world" else "__model__"))
            continue
        out[id(element)] = Pose(x, rel)
    _root_placement(graphs, builder, out)
    return out


def _root_placement(graphs, builder, out) -> None:
    """A root model's ``placement_frame``: the model is posed so that frame lands on the written
    pose (libsdformat); with the attribute dropped, the pose written is the model frame's."""
    root = graphs.root
    model = root.entity if root is not None and root.kind == "model" else None
    pf = getattr(model, "placement_frame", None)
    if model is None or pf is None or not pf.text or root.node is None:
        return
    target = graphs.resolve(pf, root, record=False).target
    x_root_model, x_root_frame = graphs.pose(root.node), graphs.pose(target) if target is not None else None
    if x_root_model is None or x_root_frame is None:
        return
    spec = builder.pose(model.element)
    if not spec.valid:
        return
    x_model_frame = x_root_model.inverse() * x_root_frame
    x_world_model = transform_of(spec) * x_model_frame.inverse()
    element = spec.element
    out[id(element) if element is not None else id(model.element)] = Pose(x_world_model, None)


def _inner(graphs, node, scope, inv_base: Transform, x_base_node: Transform, builder, out) -> None:
    """The semantic-pose elements of a link or joint, relative to the model frame."""
    tags = SEMANTIC_INNER[node.kind]
    for child in node.entity.element.children:
        if child.tag not in tags:
            continue
        x = _element_pose(graphs, child, scope, inv_base, x_base_node, builder)
        if x is not None:
            pose_el = child.child("pose")
            out[id(pose_el) if pose_el is not None else id(child)] = Pose(x, "__model__")


def _world_lights(graphs, world, builder, out) -> None:
    scope = world.inner
    if scope is None:
        return
    x_root_world = graphs.pose(world)
    if x_root_world is None:
        return
    inv = x_root_world.inverse()
    for child in world.entity.element.children:
        if child.tag in WORLD_INNER:
            x = _element_pose(graphs, child, scope, inv, IDENTITY, builder)
            pose_el = child.child("pose")
            if x is not None and pose_el is not None:
                out[id(pose_el)] = Pose(x, "world")


def _element_pose(graphs, el, scope, inv_base: Transform, x_base_parent: Transform, builder) -> Transform | None:
    """X_base_el for a posed element whose default frame is its parent (at ``x_base_parent``)."""
    spec = builder.pose(el)
    if not spec.valid:
        return None
    if spec.relative_to is None or not spec.relative_to.text:
        return x_base_parent * transform_of(spec)
    res = graphs.resolve(spec.relative_to, scope, allow_world=scope.kind == "world", record=False)
    target = res.target
    if target is None:
        return None
    target = scope.node if target is WORLD_SENTINEL else target
    x_root_target = graphs.pose(target) if target is not None else None
    if x_root_target is None:
        return None
    return inv_base * x_root_target * transform_of(spec)


__all__ = ["Pose", "SEMANTIC_INNER", "degrees_of", "number", "pose_text", "resolved"]
