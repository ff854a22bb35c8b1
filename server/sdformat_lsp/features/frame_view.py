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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..model.transform import Transform, rotate
from ..queries.frames import attached_summary
from ..queries.poses import element_pose_in_scope, relative_pose
from ..semantics.analysis import Analysis
from ..semantics.frames import MODEL_FRAME, WORLD_SENTINEL, FrameNode, Scope
from ..semantics.kinematics import (
    JointFacts,
    JointMotion,
    Limit,
    Mimic,
    body_motions,
    joint_values,
    sdf_joint_facts,
    urdf_joint_facts,
)
from ..text import Span
from ..xml import XmlElement

if TYPE_CHECKING:
    from ..formats.mjcf.reader import MjcfReader

MAX_ENTRIES = 5000  # the preview draws this many frames at most; the response says when it stopped
MAX_VISUALS = 5000
MAX_REFERENCES = 100  # per frame
SHAPES = ("box", "cylinder", "sphere", "capsule", "ellipsoid", "plane", "mesh")


@dataclass(frozen=True, slots=True)
class Visual:
    name: str
    shape: str  # box, cylinder, sphere, capsule, ellipsoid, plane, mesh
    pose: Transform  # relative to the root frame
    size: tuple[
        float, ...
    ] = ()  # box: x y z; cylinder/capsule: radius length; sphere: radius; ellipsoid: radii; plane: x y
    mesh_path: str | None = None  # the mesh file, when its URI resolves to one on disk
    mesh_uri: str | None = None
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    color: tuple[float, float, float, float] | None = (
        None  # the material's diffuse (or ambient); alpha from <transparency>
    )
    material: str | None = None  # a Gazebo material script's name (``Gazebo/Grey``), when the visual names one
    transparency: float = 0.0  # SDFormat's <transparency>: 0 opaque, 1 invisible
    problem: str | None = None  # a mesh not drawn: why (not found, and where it was looked for)
    mesh_version: int | None = None  # the mesh file's modification time (ns): a viewer reloads it when this changes
    # <material><pbr><metal>: (name, value) pairs, maps as resolved files (albedo_map ...) and numbers (roughness ...)
    pbr: tuple[tuple[str, str | float], ...] = ()


@dataclass(frozen=True, slots=True)
class FrameReference:
    """A place of this document naming a frame: a joint's parent, a pose's relative_to, a plugin parameter..."""

    span: Span
    role: str  # the reference's role (relative_to, attached_to, parent, child, ...), or "plugin"
    by: str | None = None  # for a plugin parameter: ``<left_joint> of DiffDrive``


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
    axes: tuple[
        tuple[float, float, float] | None, ...
    ] = ()  # joint axes (unit vectors) in the root frame; None: unusable
    visuals: tuple[Visual, ...] = field(default=())
    collisions: tuple[Visual, ...] = field(default=())
    limits: tuple[Limit, ...] = ()  # joints: one per axis
    mimics: tuple[Mimic | None, ...] = ()  # joints: the leader each axis follows
    position: tuple[float, ...] = ()  # joints: the values the poses were computed with (one per axis)
    leaders: tuple[str | None, ...] = ()  # joints: each axis's mimic leader named from the root scope
    parent_link: str | None = None  # joints: the link the parent side moves with (None: the world), from the root scope
    child_link: str | None = None  # joints: the link the joint moves (its child's link)
    pitch: float = 1.0  # screw joints: metres per turn
    references: tuple[FrameReference, ...] = ()  # the places of this document naming it (at most MAX_REFERENCES)


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


@dataclass(slots=True)
class _Walk:
    """What one frame view collects on its walk: the budget of geometries, the kinematics."""

    analysis: Analysis
    base: FrameNode
    root: Scope
    resource_paths: tuple[str, ...]
    package_paths: tuple[str, ...] = ()  # the configuration's package-paths, for package:// meshes
    roots: dict[str | None, tuple[str, ...]] = field(default_factory=dict)  # declaring file -> model roots searched

    def model_roots(self, path: str | None) -> tuple[str, ...]:
        """The model roots for meshes named in ``path`` (None: the document), as includes.mesh_files searches them."""
        from ..semantics.includes.mesh_files import model_roots_of

        if path not in self.roots:
            configured = tuple(getattr(self.analysis.options, "model_roots", ()) or ())
            self.roots[path] = model_roots_of(path or self.analysis.path, configured)
        return self.roots[path]

    budget: int = MAX_VISUALS
    bodies: dict[int, FrameNode] = field(default_factory=dict)  # entry id -> the link it moves with
    motions: list[JointMotion] = field(default_factory=list)
    urdf_materials: dict[int, dict[str, tuple[float, float, float, float]]] = field(default_factory=dict)


def frame_view(
    analysis: Analysis, resource_paths: tuple[str, ...] = (), joint_positions: Mapping[str, object] | None = None
) -> FrameView | None:
    """The frame tree of the document, or None when its frames could not be built.

    ``joint_positions`` (joint name from the root scope -> radians or metres, a list of two for
    revolute2 and universal): every frame is posed by forward kinematics with those values (0 for the
    joints not named, mimic followers from their leaders, even when none is given); None: the poses as
    written (every joint at 0, mimic relations not applied).
    """
    facts = getattr(analysis, "xacro", None)
    if facts is not None:  # a xacro document: the tree of its expansion, each name placed where it was written
        expanded = facts.expanded
        view = frame_view(expanded, resource_paths, joint_positions) if expanded is not None else None
        return _in_xacro_sources(view, facts, analysis.path) if view is not None else None
    if analysis.graphs is None:
        return None
    described = _as_described(analysis)
    dropped: dict[str, str] = {}
    if described is not None:
        analysis, dropped = described
    g = analysis.graphs
    assert g is not None
    root = g.root
    base = root.node
    if base is None:
        return None
    frames: list[FrameEntry] = []
    truncated = False
    walk = _Walk(analysis, base, root, resource_paths, tuple(getattr(analysis.options, "package_paths", ()) or ()))
    frames.append(
        FrameEntry(
            0,
            root.kind,
            root.name or ("world" if root.kind == "world" else MODEL_FRAME),
            None,
            Transform(),
            None,
            None,
            None,
            _name_span(base),
        )
    )
    stack: list[tuple[Scope, int | None]] = [(root, 0)]
    refs = _references(analysis)
    while stack:
        scope, parent_id = stack.pop()
        children: list[tuple[Scope, int]] = []
        for name, node in list(scope.frames.items()):
            # aliases are listed where declared; what an <include merge="true"> brings in is declared in the
            # include's view of the model, which has joined this scope (Scope.real), and is listed here
            if node.scope is None or node.scope.real is not scope:
                continue
            if name == MODEL_FRAME or node is WORLD_SENTINEL or node.kind == "world":
                continue
            if name.startswith("_merged__") and name.endswith("__model__"):
                continue
            if len(frames) >= MAX_ENTRIES:
                truncated = True
                break
            entry = _entry(walk, node, len(frames), parent_id)
            if id(node) in refs:
                entry = replace(entry, references=tuple(refs[id(node)]))
            frames.append(entry)
            if node.kind == "model" and node.inner is not None:
                children.append((node.inner, entry.id))
        stack.extend(reversed(children))
    # without positions: the poses as written (every joint at 0, mimic relations not applied), which a
    # viewer moves itself; with them (even none): forward kinematics, mimic followers placed by their leaders
    values = (
        joint_values(walk.motions, joint_positions) if joint_positions is not None else joint_values(walk.motions, {})
    )
    if joint_positions is None:
        values = {name: tuple(0.0 for _ in vs) for name, vs in values.items()}
    moved = any(v != 0.0 for vs in values.values() for v in vs)
    deltas = body_motions(walk.motions, values) if moved else {}
    frames = [_moved(e, deltas.get(walk.bodies.get(e.id)), values.get(e.name)) for e in frames]
    if dropped:
        frames = [replace(e, problem=dropped[e.name]) if e.kind == "link" and e.name in dropped else e for e in frames]
    return FrameView(root.kind, root.name, frames, truncated)


_DESCRIBED = "features.frame_view.urdf_as_described"  # key of FrameGraphs.memo: (analysis, dropped) or None


def _as_described(analysis: Analysis) -> tuple[Analysis, dict[str, str]] | None:
    """A URDF whose links without mass libsdformat leaves out (with every link below them) is drawn as the URDF
    describes it: a robot written for rviz, or a xacro whose inertials an argument turns on (franka's fr3), would
    be an empty view. The analysis of its conversion keeping those links, and each such link's note (its frame
    entry's ``problem``, shown in the tree); None when nothing is left out. Kept in the memo of the analysis's
    frame graphs (derived data, freed with them)."""
    root = analysis.xml.root
    if root is None or root.tag != "robot":
        return None
    causes = [d for d in analysis.diagnostics if d.data and d.data.get("urdf") == "massless"]
    if not causes:
        return None
    memo = analysis.graphs.memo  # type: ignore[union-attr]
    if _DESCRIBED not in memo:
        import copy

        from ..formats.urdf import URDF_SDF_VERSION, urdf_to_model
        from ..semantics.frames.graphs import FrameGraphs
        from ..model import version_tuple

        model, _ = urdf_to_model(analysis.xml, analysis.path, keep_massless=True)
        if model is None or not model.links:
            memo[_DESCRIBED] = None
        else:
            kept = copy.copy(analysis)
            kept.graphs = FrameGraphs(model, version_tuple(URDF_SDF_VERSION), None)
            dropped: dict[str, str] = {}
            for d in causes:
                for name in sorted(d.data.get("gone", ())):
                    dropped.setdefault(
                        name,
                        "libsdformat leaves this link out of the converted model (a link above it, or itself, has no "
                        "mass): Gazebo does not load it; drawn as the URDF describes it",
                    )
            memo[_DESCRIBED] = (kept, dropped)
    return memo[_DESCRIBED]


def why_no_frames(analysis: Analysis) -> str:
    """Why a document has no frames to show: its first error, or what it lacks."""
    errors = sorted((d for d in analysis.diagnostics if d.is_error and d.path is None), key=lambda d: d.span.start)
    if errors:
        line = analysis.lines.position(min(errors[0].span.start, len(analysis.text)), "utf-32")[0] + 1
        return f"line {line}: {errors[0].message}"
    root = analysis.xml.root
    if root is None:
        return "the document has no root element"
    return f"<{root.tag}> holds no model or world to draw"


def _moved(e: FrameEntry, delta: Transform | None, position: tuple[float, ...] | None) -> FrameEntry:
    """``e`` carried by its link's motion ``delta`` (None: at rest), with its joint values."""
    if e.kind != "joint":
        position = None
    if delta is None:
        return replace(e, position=position) if position else e
    return replace(
        e,
        pose=delta * e.pose if e.pose is not None else None,
        axes=tuple(rotate(delta.q, a) if a is not None else None for a in e.axes),  # type: ignore[misc]
        visuals=tuple(replace(v, pose=delta * v.pose) for v in e.visuals),
        collisions=tuple(replace(v, pose=delta * v.pose) for v in e.collisions),
        position=position or (),
    )


def _in_xacro_sources(view: FrameView, facts, path: str | None) -> FrameView:
    """``view`` of an expansion with every span moved to where its text was written (the source map)."""
    here = os.path.abspath(path) if path else None
    frames = []
    for e in view.frames:
        if e.span is not None and e.path is None:
            origin = facts.expansion.origin(e.span.start)
            if origin is not None:
                src = origin.source
                file = None if here is not None and os.path.abspath(src.file) == here else src.file
                e = replace(e, path=file, span=Span(*src.span))
            else:
                e = replace(e, span=None)
        frames.append(e)
    return replace(view, frames=frames)


def _name_span(node: FrameNode) -> Span | None:
    span = node.name_span
    if span is not None:
        return span
    el = getattr(node.entity, "element", None)
    return el.tag_span if isinstance(el, XmlElement) else None


def _references(analysis: Analysis) -> dict[int, list[FrameReference]]:
    """The references of this document by the frame they name (its id): one pass over the
    resolutions and the plugin parameters naming joints, links and models."""
    from ..queries.frames import local_resolutions, segments

    out: dict[int, list[FrameReference]] = {}

    def add(node: FrameNode, ref: FrameReference) -> None:
        found = out.setdefault(id(node), [])
        if len(found) < MAX_REFERENCES:
            found.append(ref)

    for res in local_resolutions(analysis):
        segs = segments(res)
        if segs and segs[-1].node is not None:
            add(segs[-1].node, FrameReference(segs[-1].span, res.ref.role))
    if "<plugin" in analysis.text:
        from ..queries.plugins import plugin_segments

        for span, node, by in plugin_segments(analysis):
            add(node, FrameReference(span, "plugin", by))
    for found in out.values():
        found.sort(key=lambda r: r.span.start)
    return out


def _in_urdf(el: XmlElement) -> bool:
    """Whether ``el`` is part of a URDF ``<robot>`` (the document, or a URDF file an include brought)."""
    top = el
    while top.parent is not None:
        top = top.parent
    return top.tag == "robot"


def _body(analysis: Analysis, node: FrameNode | None) -> FrameNode | None:
    """The link ``node`` moves with (None: the world, a static model, or none)."""
    if node is None or node is WORLD_SENTINEL or node.kind == "world":
        return None
    link = analysis.frame_facts(node).link
    return link if link is not None and link.kind == "link" else None


def _entry(walk: _Walk, node: FrameNode, ident: int, parent: int | None) -> FrameEntry:
    from ..queries.frames import name_from, pose_problem

    analysis, base, root = walk.analysis, walk.base, walk.root
    pose = relative_pose(analysis, node, base)
    link, why = attached_summary(analysis, node)
    problem = None
    if pose is None:
        problem = pose_problem(analysis, node)
    elif link is None:
        problem = why
    path = node.scope.path if node.scope is not None else None
    entity = node.entity
    el = getattr(entity, "element", None)
    urdf = isinstance(el, XmlElement) and _in_urdf(el)
    body = _body(analysis, node) if pose is not None else None
    if body is not None:
        walk.bodies[ident] = body
    kw: dict = {}
    name = name_from(root, node)
    if node.kind == "joint":
        facts = JointFacts(getattr(entity, "type", None), ())
        if isinstance(el, XmlElement):
            facts = urdf_joint_facts(el) if urdf else sdf_joint_facts(el)
        kw["joint_type"] = facts.type if urdf else getattr(entity, "type", None)
        parent_ref, child_ref = getattr(entity, "parent", None), getattr(entity, "child", None)
        kw["joint_parent"] = parent_ref.text if parent_ref is not None else None
        kw["joint_child"] = child_ref.text if child_ref is not None else None
        kw["limits"] = tuple(a.limit for a in facts.axes)
        kw["mimics"] = tuple(a.mimic for a in facts.axes)
        if pose is not None and isinstance(el, XmlElement):
            axes = tuple(
                _axis(analysis, node, pose, base, el, i, a.xyz, a.expressed_in, urdf) for i, a in enumerate(facts.axes)
            )
            kw["axes"] = axes
            parent_body = None
            g = analysis.graphs
            if parent_ref is not None and node.scope is not None and g is not None:
                target = g.resolve(parent_ref, node.scope, allow_world=True, record=False).target
                parent_body = _body(analysis, target) if isinstance(target, FrameNode) else None
            mimics = tuple(_leader(root, node, a.mimic) for a in facts.axes)
            walk.motions.append(JointMotion(name, facts.type, pose, parent_body, body, axes, mimics, facts.pitch))
            kw["leaders"] = tuple(m[0] if m is not None else None for m in mimics)
            kw["parent_link"] = name_from(root, parent_body) if parent_body is not None else None
            kw["child_link"] = name_from(root, body) if body is not None else None
            kw["pitch"] = facts.pitch
    elif node.kind in ("link", "frame") and pose is not None and walk.budget > 0 and isinstance(el, XmlElement):
        if urdf and el.tag == "link":
            kw["visuals"] = _urdf_geometries(walk, el, pose, path, "visual")
            kw["collisions"] = _urdf_geometries(walk, el, pose, path, "collision")
        elif node.kind == "link" and el.tag == "body":  # a body of an included MJCF model
            kw["visuals"] = _mjcf_geometries(walk, el, pose, path)
        elif node.kind == "link":
            kw["visuals"] = _geometries(walk, el, pose, path, "visual")
            kw["collisions"] = _geometries(walk, el, pose, path, "collision")
    return FrameEntry(ident, node.kind, name, parent, pose, link, problem, path, _name_span(node), **kw)


def _leader(root: Scope, node: FrameNode, mimic: Mimic | None) -> tuple[str, int, Mimic] | None:
    """The leader joint of a mimic, named from the root scope as the kinematics names joints."""
    from ..queries.frames import name_from

    if mimic is None or node.scope is None:
        return None
    leader = node.scope.frames.get(mimic.joint)
    if leader is None or leader.kind != "joint":
        return None
    return (name_from(root, leader), mimic.axis, mimic)


def _axis(
    analysis: Analysis,
    node: FrameNode,
    pose: Transform,
    base: FrameNode,
    el: XmlElement,
    index: int,
    xyz: tuple[float, float, float] | None,
    expressed: str | None,
    urdf: bool,
) -> tuple[float, float, float] | None:
    """One axis in the root frame: ``<xyz>`` is in the joint frame unless ``expressed_in`` names another
    (or SDFormat 1.4's ``use_parent_model_frame`` says the model frame); a URDF axis is in the joint frame."""
    g = analysis.graphs
    if xyz is None or g is None:
        return None
    frame_rot = pose.q
    axis_el = el.child(("axis", "axis2")[index]) if not urdf else None
    xyz_el = axis_el.child("xyz") if axis_el is not None else None
    if expressed and xyz_el is not None and node.scope is not None:
        res = g.resolve(_ref(xyz_el, expressed), node.scope, allow_world=node.scope.kind == "world", record=False)
        target = res.target
        if target is WORLD_SENTINEL:
            target = base if base.kind == "world" else None
        in_root = relative_pose(analysis, target, base) if isinstance(target, FrameNode) else None
        if in_root is None:
            return None
        frame_rot = in_root.q
    elif _parent_model_frame(axis_el, analysis.version) and node.scope is not None and node.scope.node is not None:
        scope_pose = relative_pose(analysis, node.scope.node, base)
        if scope_pose is None:
            return None
        frame_rot = scope_pose.q
    return _unit(rotate(frame_rot, xyz))


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


def _here(walk: _Walk, path: str | None) -> str | None:
    p = path or walk.analysis.path
    return os.path.dirname(os.path.abspath(p)) if p else None


def _geometries(walk: _Walk, el: XmlElement, link_pose: Transform, path: str | None, tag: str) -> tuple[Visual, ...]:
    """The ``<visual>`` (or ``<collision>``) elements of an SDFormat link, posed in the root frame."""
    analysis, base = walk.analysis, walk.base
    out: list[Visual] = []
    here = _here(walk, path)
    for vis in el.children_named(tag):
        if walk.budget <= 0:
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
        visual = _shape(
            shape_el,
            vis.get("name") or "",
            pose,
            here,
            walk.resource_paths,
            vis if tag == "visual" else None,
            walk.package_paths,
            walk.model_roots(path),
        )
        if visual is not None:
            walk.budget -= 1
            out.append(visual)
    return tuple(out)


_MJCF_READERS = "features.frame_view.mjcf_readers"  # key of FrameGraphs.memo: id(root) -> (root, its reader)


def _mjcf_geometries(walk: _Walk, body: XmlElement, link_pose: Transform, path: str | None) -> tuple[Visual, ...]:
    """The primitive geoms of an MJCF ``<body>`` (formats.mjcf.geoms), posed in the root frame."""
    root = body
    while root.parent is not None:
        root = root.parent
    if root.tag != "mujoco":
        return ()
    from ..formats.mjcf.geoms import body_geoms, reader_for

    graphs = walk.analysis.graphs
    if graphs is None:  # never: the walk starts from them
        return ()
    # derived data of the analysis: kept in the memo of its frame graphs, and freed with them
    readers = graphs.memo.setdefault(_MJCF_READERS, {})
    got = readers.get(id(root))  # the root is kept with its reader: its id is not reused meanwhile
    if got is None or got[0] is not root:
        got = readers[id(root)] = (root, reader_for(root, path))
    reader: MjcfReader = got[1]
    out = []
    for g in body_geoms(reader, body, max(0, walk.budget)):
        walk.budget -= 1
        out.append(Visual(g.name, g.shape, link_pose * g.pose, g.size, color=g.color))
    return tuple(out)


def _urdf_geometries(
    walk: _Walk, el: XmlElement, link_pose: Transform, path: str | None, tag: str
) -> tuple[Visual, ...]:
    """The ``<visual>`` (or ``<collision>``) elements of a URDF link as urdfdom reads them: ``<origin>`` in the
    link frame, ``<geometry>`` with attributes, ``<material>`` by colour or by the name of a robot-level one."""
    from ..formats.urdf.inertia import origin_of

    out: list[Visual] = []
    here = _here(walk, path)
    for vis in el.children_named(tag):
        if walk.budget <= 0:
            break
        geometry = vis.child("geometry")
        shape_el = (
            next((c for c in geometry.children if c.tag in ("box", "cylinder", "sphere", "mesh")), None)
            if geometry is not None
            else None
        )
        if shape_el is None:
            continue
        pose = link_pose * origin_of(vis)
        color = _urdf_color(walk, vis) if tag == "visual" else None
        v = _urdf_shape(
            shape_el,
            vis.get("name") or "",
            pose,
            here,
            walk.resource_paths,
            color,
            walk.package_paths,
            walk.model_roots(path),
        )
        if v is not None:
            walk.budget -= 1
            out.append(v)
    return tuple(out)


def _urdf_color(walk: _Walk, vis: XmlElement) -> tuple[float, float, float, float] | None:
    material = vis.child("material")
    if material is None:
        return None
    color = material.child("color")
    rgba = _numbers(color.get("rgba"), 4) if color is not None else None
    if rgba is not None:
        return (rgba[0], rgba[1], rgba[2], rgba[3])
    top = vis
    while top.parent is not None:
        top = top.parent
    named = walk.urdf_materials.get(id(top))
    if named is None:
        named = {}
        for m in top.children_named("material"):
            c = m.child("color")
            v = _numbers(c.get("rgba"), 4) if c is not None else None
            if v is not None and m.get("name"):
                named.setdefault(m.get("name") or "", (v[0], v[1], v[2], v[3]))
        walk.urdf_materials[id(top)] = named
    return named.get(material.get("name") or "")


def _urdf_shape(
    el: XmlElement,
    name: str,
    pose: Transform,
    here: str | None,
    resource_paths: tuple[str, ...],
    color: tuple[float, float, float, float] | None,
    package_paths: tuple[str, ...] = (),
    model_roots: tuple[str, ...] = (),
) -> Visual | None:
    tag = el.tag
    size: tuple[float, ...] | None
    if tag == "box":
        size = _numbers(el.get("size"), 3)
    elif tag == "cylinder":
        r, length = _numbers(el.get("radius"), 1), _numbers(el.get("length"), 1)
        size = (r[0], length[0]) if r is not None and length is not None else None
    elif tag == "sphere":
        size = _numbers(el.get("radius"), 1)
    else:
        uri = (el.get("filename") or "").strip()
        if not uri:
            return None
        scale = _numbers(el.get("scale"), 3) or (1.0, 1.0, 1.0)
        mesh, problem, version = _mesh(uri, here, resource_paths, package_paths, model_roots)
        return Visual(
            name,
            "mesh",
            pose,
            (),
            mesh,
            uri,
            (scale[0], scale[1], scale[2]),
            color,
            problem=problem,
            mesh_version=version,
        )
    if size is None or not all(s >= 0 for s in size):
        return None
    return Visual(name, tag, pose, size, color=color)


def _mesh(
    uri: str,
    here: str | None,
    resource_paths: tuple[str, ...],
    package_paths: tuple[str, ...] = (),
    model_roots: tuple[str, ...] = (),
) -> tuple[str | None, str | None, int | None]:
    """(the mesh file, why there is none: the MESH_LOOKUP warning's words, its modification time) for a mesh URI."""
    from ..semantics.includes.mesh_files import find_mesh

    path, problem = find_mesh(uri, here, resource_paths, model_roots, package_paths)
    if path is None:
        return None, problem or f"'{uri}' is not fetched (the network is never used)", None
    try:
        return path, None, os.stat(path).st_mtime_ns
    except OSError:
        return None, f"the mesh '{uri}' cannot be read", None


def frame_json(e: FrameEntry, locate: "Callable[[Span, str | None], object]", file_uri: "Callable[[str], str]") -> dict:
    """One entry as ``sdformat/frames`` answers it (docs/server.md); ``locate`` turns a span in a file into an
    LSP location, ``file_uri`` a path into a URI. Shared by the language server and ``sdformat-lsp view``."""
    out: dict = {
        "id": e.id,
        "kind": e.kind,
        "name": e.name,
        "parent": e.parent,
        "pose": pose_json(e.pose),
        "attachedTo": e.attached_to,
        "problem": e.problem,
    }
    if e.span is not None:
        loc = locate(e.span, e.path)
        if loc is not None:
            out["location"] = loc
    if e.references:  # the places of this document naming it (a plugin parameter's with ``by``)
        out["references"] = [
            {"location": locate(r.span, None), "role": r.role, **({"by": r.by} if r.by else {})} for r in e.references
        ]
    if e.kind == "joint":
        out["joint"] = {
            "type": e.joint_type,
            "parent": e.joint_parent,
            "child": e.joint_child,
            "parentLink": e.parent_link,
            "childLink": e.child_link,
            "axes": [list(a) if a is not None else None for a in e.axes],
            "limits": [
                {"lower": lim.lower, "upper": lim.upper, "effort": lim.effort, "velocity": lim.velocity}
                for lim in e.limits
            ],
            "mimic": [
                {
                    "joint": m.joint,
                    "leader": e.leaders[i] if i < len(e.leaders) else None,
                    "axis": "axis2" if m.axis else "axis",
                    "multiplier": m.multiplier,
                    "offset": m.offset,
                    "reference": m.reference,
                }
                if m is not None
                else None
                for i, m in enumerate(e.mimics)
            ],
            "position": list(e.position),
            "pitch": e.pitch,
        }
    if e.visuals:
        out["visuals"] = [_geometry_json(v, file_uri) for v in e.visuals]
    if e.collisions:
        out["collisions"] = [_geometry_json(v, file_uri) for v in e.collisions]
    return out


def pose_json(t: Transform | None) -> dict | None:
    if t is None:
        return None
    return {"xyz": list(t.p), "rpy": list(t.rpy), "quaternion": list(t.quat_xyzw)}


def _geometry_json(v: Visual, file_uri: "Callable[[str], str]") -> dict:
    return {
        "name": v.name,
        "shape": v.shape,
        "pose": pose_json(v.pose),
        "size": list(v.size),
        "mesh": file_uri(v.mesh_path) if v.mesh_path else None,
        "meshUri": v.mesh_uri,
        "meshProblem": v.problem,
        "meshVersion": v.mesh_version,
        "textures": _textures_json(v, file_uri),
        "scale": list(v.scale),
        "color": list(v.color) if v.color is not None else None,
        "material": v.material,
        "transparency": v.transparency,
        "pbr": {_PBR_KEYS[k]: (file_uri(x) if isinstance(x, str) else x) for k, x in v.pbr} if v.pbr else None,
    }


def _textures_json(v: Visual, file_uri: "Callable[[str], str]") -> dict[str, str] | None:
    """A COLLADA mesh's images, ``<init_from>`` text -> file URI, so that a viewer asks for them with the mesh
    (``semantics.includes.mesh_textures``); None for other meshes and shapes."""
    from ..semantics.includes.mesh_textures import collada_textures

    if not v.mesh_path or not v.mesh_path.lower().endswith(".dae"):
        return None
    return {ref: file_uri(path) for ref, path in collada_textures(v.mesh_path)}


# SDFormat's <pbr><metal> children the view draws, and their names in the frames answer
_PBR_KEYS = {
    "albedo_map": "albedoMap",
    "normal_map": "normalMap",
    "roughness_map": "roughnessMap",
    "metalness_map": "metalnessMap",
    "roughness": "roughness",
    "metalness": "metalness",
}


def _pbr(
    vis: XmlElement | None,
    here: str | None,
    resource_paths: tuple[str, ...],
    package_paths: tuple[str, ...],
    model_roots: tuple[str, ...],
) -> tuple[tuple[str, str | float], ...]:
    """The metal workflow of a visual's <material><pbr>: its texture maps found as meshes are (a map that does not
    resolve is left out) and its roughness and metalness."""
    material = vis.child("material") if vis is not None else None
    pbr = material.child("pbr") if material is not None else None
    metal = pbr.child("metal") if pbr is not None else None
    if metal is None:
        return ()
    out: list[tuple[str, str | float]] = []
    for tag in _PBR_KEYS:
        c = metal.child(tag)
        text = (c.text or "").strip() if c is not None else ""
        if not text:
            continue
        if tag.endswith("_map"):
            path, _problem, _version = _mesh(text, here, resource_paths, package_paths, model_roots)
            if path is not None:
                out.append((tag, path))
        else:
            n = _numbers(text, 1)
            if n is not None:
                out.append((tag, n[0]))
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


def _script_name(vis: XmlElement | None) -> str | None:
    material = vis.child("material") if vis is not None else None
    script = material.child("script") if material is not None else None
    name = script.child("name") if script is not None else None
    text = (name.text or "").strip() if name is not None else ""
    return text or None


def _shape(
    el: XmlElement,
    name: str,
    pose: Transform,
    here: str | None,
    resource_paths: tuple[str, ...],
    vis: XmlElement | None,
    package_paths: tuple[str, ...] = (),
    model_roots: tuple[str, ...] = (),
) -> Visual | None:
    color = _color(vis)
    material = _script_name(vis)
    transparency = 0.0
    if vis is not None:
        t = _child_numbers(vis, "transparency", 1)
        transparency = min(1.0, max(0.0, t[0])) if t is not None else 0.0
    tag = el.tag
    size: tuple[float, ...] | None
    if tag == "box":
        size = _child_numbers(el, "size", 3)
    elif tag in ("cylinder", "capsule"):
        r, length = _child_numbers(el, "radius", 1), _child_numbers(el, "length", 1)
        size = (r[0], length[0]) if r is not None and length is not None else None
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
        mesh, problem, version = _mesh(uri, here, resource_paths, package_paths, model_roots)
        return Visual(
            name,
            "mesh",
            pose,
            (),
            mesh,
            uri,
            (scale[0], scale[1], scale[2]),
            color,
            material,
            transparency,
            problem,
            version,
            _pbr(vis, here, resource_paths, package_paths, model_roots),
        )
    if size is None or not all(s >= 0 for s in size):
        return None
    return Visual(
        name,
        tag,
        pose,
        size,
        color=color,
        material=material,
        transparency=transparency,
        pbr=_pbr(vis, here, resource_paths, package_paths, model_roots),
    )


__all__ = ["FrameEntry", "FrameView", "Visual", "frame_json", "frame_view", "pose_json", "why_no_frames"]
