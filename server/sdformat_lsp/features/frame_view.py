"""The frames of a document as data an editor can draw: the frame tree and the 3D preview.

Every model, link, joint and frame (those brought in by includes too), with
its pose resolved relative to the document's root frame (the world, or the
top-level model's ``__model__``), the link it is attached to, where it is
declared; joints with their axes in that root frame; links with the geometry
of their visuals. The same resolved poses as the hover and the inlay hints
(:mod:`sdformat_lsp.queries.poses`). Served by the ``sdformat/frames`` request
(see docs/server.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..model.transform import Transform, rotate
from ..queries.frames import attached_summary
from ..queries.poses import element_pose_in_scope, relative_pose
from ..semantics.analysis import Analysis
from ..semantics.frames import MODEL_FRAME, WORLD_SENTINEL, FrameNode, Scope
from ..semantics.includes.resources import lookup
from ..text import Span
from ..xml import XmlElement

MAX_ENTRIES = 5000  # the preview draws this many frames at most; the response says when it stopped
MAX_VISUALS = 5000
SHAPES = ("box", "cylinder", "sphere", "capsule", "ellipsoid", "plane", "mesh")


@dataclass(frozen=True, slots=True)
class Visual:
    name: str
    shape: str  # box, cylinder, sphere, capsule, ellipsoid, plane, mesh
    pose: Transform  # relative to the root frame
    size: tuple[float, ...] = ()  # box: x y z; cylinder/capsule: radius length; sphere: radius; ellipsoid: radii; plane: x y
    mesh_path: str | None = None  # the mesh file, when its URI resolves to one on disk
    mesh_uri: str | None = None
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    color: tuple[float, float, float, float] | None = None  # the material's diffuse (or ambient)


@dataclass(frozen=True, slots=True)
class FrameEntry:
    id: int
    kind: str  # world, model, link, joint, frame
    name: str  # as written from the root scope (``arm::hand::tip``)
    parent: int | None  # the entry of the model (or world) declaring it
    pose: Transform | None  # relative to the root frame; None when it does not resolve
    attached_to: str | None  # the link it is attached to (named from the root scope)
    problem: str | None  # why it is not attached to a link, or why its pose does not resolve
    path: str | None  # the file declaring it (None: this document)
    span: Span | None  # its name (the start tag when it has none), in ``path``
    joint_type: str | None = None
    joint_parent: str | None = None
    joint_child: str | None = None
    axes: tuple[tuple[float, float, float], ...] = ()  # joint axes (unit vectors) in the root frame
    visuals: tuple[Visual, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class FrameView:
    root_kind: str  # world or model
    root_name: str
    frames: list[FrameEntry]
    truncated: bool = False


def _numbers(text: str | None, n: int) -> tuple[float, ...] | None:
    if text is None:
        return None
    try:
        values = tuple(float(t) for t in text.split())
    except ValueError:
        return None
    return values if len(values) == n else None


def _unit(v: tuple[float, ...]) -> tuple[float, float, float] | None:
    norm = sum(c * c for c in v) ** 0.5
    if norm < 1e-12:
        return None
    return (v[0] / norm, v[1] / norm, v[2] / norm)


def frame_view(analysis: Analysis, resource_paths: tuple[str, ...] = ()) -> FrameView | None:
    """The frame tree of the document, or None when its frames could not be built."""
    g = analysis.graphs
    if g is None or g.root.node is None:
        return None
    root = g.root
    base = root.node
    frames: list[FrameEntry] = []
    ids: dict[int, int] = {}
    truncated = False
    visual_budget = [MAX_VISUALS]
    stack: list[tuple[Scope, int | None]] = [(root, None)]
    frames.append(FrameEntry(0, root.kind, root.name or ("world" if root.kind == "world" else MODEL_FRAME), None,
                             Transform(), None, None, None, _name_span(base)))
    ids[id(base)] = 0
    stack = [(root, 0)]
    while stack:
        scope, parent_id = stack.pop()
        children: list[tuple[Scope, int]] = []
        for name, node in list(scope.frames.items()):
            if node.scope is not scope or name == MODEL_FRAME or node is WORLD_SENTINEL or node.kind == "world":
                continue  # aliases, and names merged in from elsewhere (listed where declared)
            if name.startswith("_merged__") and name.endswith("__model__"):
                continue
            if len(frames) >= MAX_ENTRIES:
                truncated = True
                break
            entry = _entry(analysis, node, len(frames), parent_id, base, root, resource_paths, visual_budget)
            ids[id(node)] = entry.id
            frames.append(entry)
            if node.kind == "model" and node.inner is not None:
                children.append((node.inner, entry.id))
        stack.extend(reversed(children))
    return FrameView(root.kind, root.name, frames, truncated)


def _name_span(node: FrameNode) -> Span | None:
    span = node.name_span
    if span is not None:
        return span
    el = getattr(node.entity, "element", None)
    return el.tag_span if isinstance(el, XmlElement) else None


def _entry(analysis: Analysis, node: FrameNode, ident: int, parent: int | None, base: FrameNode, root: Scope,
           resource_paths: tuple[str, ...], budget: list[int]) -> FrameEntry:
    from ..queries.frames import name_from, pose_problem

    pose = relative_pose(analysis, node, base)
    link, why = attached_summary(analysis, node)
    problem = None
    if pose is None:
        problem = pose_problem(analysis, node)
    elif link is None:
        problem = why
    path = node.scope.path if node.scope is not None else None
    entity = node.entity
    kw: dict = {}
    if node.kind == "joint":
        kw["joint_type"] = getattr(entity, "type", None)
        parent_ref, child_ref = getattr(entity, "parent", None), getattr(entity, "child", None)
        kw["joint_parent"] = parent_ref.text if parent_ref is not None else None
        kw["joint_child"] = child_ref.text if child_ref is not None else None
        if pose is not None:
            kw["axes"] = _axes(analysis, node, pose, base)
    elif node.kind == "link" and pose is not None and budget[0] > 0:
        kw["visuals"] = _visuals(analysis, node, pose, base, path, resource_paths, budget)
    return FrameEntry(ident, node.kind, name_from(root, node), parent, pose, link, problem, path, _name_span(node), **kw)


def _axes(analysis: Analysis, node: FrameNode, pose: Transform, base: FrameNode) -> tuple[tuple[float, float, float], ...]:
    """The joint's axes in the root frame: ``<xyz>`` is in the joint frame unless ``expressed_in`` names another."""
    el = getattr(node.entity, "element", None)
    g = analysis.graphs
    if not isinstance(el, XmlElement) or g is None:
        return ()
    out: list[tuple[float, float, float]] = []
    for tag in ("axis", "axis2"):
        axis = el.child(tag)
        xyz_el = axis.child("xyz") if axis is not None else None
        if xyz_el is None:
            continue
        v = _numbers(xyz_el.text, 3)
        if v is None or _unit(v) is None:
            continue
        frame_rot = pose.q
        expressed = xyz_el.get("expressed_in")
        if expressed and node.scope is not None:
            res = g.resolve(_ref(xyz_el, expressed), node.scope, allow_world=node.scope.kind == "world", record=False)
            target = res.target
            if target is WORLD_SENTINEL:
                target = base if base.kind == "world" else None
            in_root = relative_pose(analysis, target, base) if target is not None else None
            if in_root is None:
                continue
            frame_rot = in_root.q
        elif _parent_model_frame(axis, analysis.version) and node.scope is not None and node.scope.node is not None:
            scope_pose = relative_pose(analysis, node.scope.node, base)
            if scope_pose is None:
                continue
            frame_rot = scope_pose.q
        unit = _unit(rotate(frame_rot, v))
        if unit is not None:
            out.append(unit)
    return tuple(out)


def _parent_model_frame(axis: XmlElement | None, version: str | None) -> bool:
    """SDFormat 1.4's ``use_parent_model_frame`` (before 1.5 the axis was in the model frame by default... only when set)."""
    if axis is None:
        return False
    el = axis.child("use_parent_model_frame")
    return el is not None and (el.text or "").strip().lower() in ("true", "1")


def _ref(el: XmlElement, text: str):
    from ..model.elements import Ref

    attr = el.attr("expressed_in")
    return Ref(text, attr.value_span if attr is not None else el.tag_span, "expressed_in", el)


def _visuals(analysis: Analysis, node: FrameNode, link_pose: Transform, base: FrameNode, path: str | None,
             resource_paths: tuple[str, ...], budget: list[int]) -> tuple[Visual, ...]:
    el = getattr(node.entity, "element", None)
    if not isinstance(el, XmlElement):
        return ()
    out: list[Visual] = []
    here = os.path.dirname(os.path.abspath(path or analysis.path)) if (path or analysis.path) else None
    for vis in el.children_named("visual"):
        if budget[0] <= 0:
            break
        geometry = vis.child("geometry")
        shape_el = next((c for c in geometry.children if c.tag in SHAPES), None) if geometry is not None else None
        if shape_el is None:
            continue
        pose = link_pose
        pose_el = vis.child("pose")
        if pose_el is not None:
            found = element_pose_in_scope(analysis, pose_el)
            if found is None:
                continue
            t, scope = found
            scope_pose = relative_pose(analysis, scope.node, base) if scope.node is not None else None
            if scope_pose is None:
                continue
            pose = scope_pose * t
        visual = _shape(shape_el, vis.get("name") or "", pose, here, resource_paths, getattr(analysis.options, "package_paths", ()))
        if visual is not None:
            budget[0] -= 1
            out.append(visual)
    return tuple(out)


def _child_numbers(el: XmlElement, tag: str, n: int) -> tuple[float, ...] | None:
    c = el.child(tag)
    return _numbers(c.text, n) if c is not None else None


def _color(vis: XmlElement | None) -> tuple[float, float, float, float] | None:
    material = vis.child("material") if vis is not None else None
    if material is None:
        return None
    for tag in ("diffuse", "ambient"):
        c = material.child(tag)
        v = _numbers(c.text, 4) if c is not None else None
        if v is None and c is not None:
            v3 = _numbers(c.text, 3)
            v = (*v3, 1.0) if v3 is not None else None
        if v is not None:
            return (v[0], v[1], v[2], v[3])
    return None


def _shape(el: XmlElement, name: str, pose: Transform, here: str | None, resource_paths: tuple[str, ...],
           package_paths: tuple[str, ...] = ()) -> Visual | None:
    vis = el.parent.parent if el.parent is not None else None
    color = _color(vis)
    tag = el.tag
    if tag == "box":
        size = _child_numbers(el, "size", 3)
    elif tag in ("cylinder", "capsule"):
        r, l = _child_numbers(el, "radius", 1), _child_numbers(el, "length", 1)
        size = (r[0], l[0]) if r is not None and l is not None else None
    elif tag == "sphere":
        size = _child_numbers(el, "radius", 1)
    elif tag == "ellipsoid":
        size = _child_numbers(el, "radii", 3)
    elif tag == "plane":
        size = _child_numbers(el, "size", 2) or (1.0, 1.0)
    else:
        uri_el = el.child("uri")
        uri = (uri_el.text or "").strip() if uri_el is not None else ""
        if not uri:
            return None
        scale = _child_numbers(el, "scale", 3) or (1.0, 1.0, 1.0)
        found = lookup(uri, here, resource_paths, package_paths=package_paths)
        mesh = found.path if found.path is not None and os.path.isfile(found.path) else None
        return Visual(name, "mesh", pose, (), mesh, uri, (scale[0], scale[1], scale[2]), color)
    if size is None or not all(s >= 0 for s in size):
        return None
    return Visual(name, tag, pose, size, color=color)


__all__ = ["FrameEntry", "FrameView", "Visual", "frame_view"]
