"""SDFormat to URDF with the same kinematics.

In URDF a link's frame is the frame of the joint above it, and a joint's
``<origin>`` is that frame expressed in the frame of the parent link. So:

* the root link keeps its SDFormat frame; every other link's URDF frame is
  the SDFormat frame of its parent joint (``X_B_J``, resolved through every
  ``relative_to``, model pose and placement frame by the frame graphs);
* a joint's origin is ``F(parent)^-1 * X_B_J`` where ``F`` is a link's URDF
  frame: not the child's ``<pose>`` copied (the classic mistake), and not
  the child link's pose either when the joint has a pose of its own;
* a link's inertial, visuals, collisions and sensors are re-expressed from
  its SDFormat frame into its URDF frame;
* the axis is re-expressed in the joint frame (``expressed_in`` and
  ``use_parent_model_frame`` honoured).

What URDF cannot say (ball, universal, screw, revolute2, gearbox joints,
shapes URDF lacks, a model that is not a tree) is refused with a message
naming it, unless ``lossy`` is set, which keeps the nearest thing and warns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..formats.urdf.description import Limit, Mimic, Part, Robot, RobotJoint, RobotLink
from ..formats.urdf.writer import write
from ..model.transform import Transform, rotate
from ..semantics import Analysis
from .extensions import Extensions
from .flatten import WORLD, Body, Connection, Flat, FlattenError, flatten
from .parts import Notes, PartReader, value, vec3
from .joint_tree import build_tree

KEPT = {"revolute": "revolute", "continuous": "continuous", "prismatic": "prismatic", "fixed": "fixed"}
INFINITE = 1e16  # SDFormat's default joint limits: no limit


DEFAULT_SEPARATOR = "__"


@dataclass
class UrdfOptions:
    model: str | None = None
    # What joins a nested model's name to its links' and joints': '__' by default, since
    # libsdformat 14.1 and later refuse '::' in URDF names; '::' (or None) keeps the scope as
    # written, which ROS tools and libsdformat 12 read (with a warning).
    name_separator: str | None = DEFAULT_SEPARATOR
    lossy: bool = False
    mesh_uri: str = "package"  # package, file or keep
    frames: bool = True
    resource_paths: tuple[str, ...] = ()
    package_paths: tuple[str, ...] = ()  # searched first for package:// meshes (the configuration's package-paths)


@dataclass
class Conversion:
    text: str | None  # None when refused
    errors: list[str]
    warnings: list[str]
    robot: Robot | None = None


def sdf_to_urdf(analysis: Analysis, options: UrdfOptions | None = None) -> Conversion:
    options = options or UrdfOptions()
    notes = Notes(lossy=options.lossy)
    broken = sum(1 for d in analysis.diagnostics if d.is_error)
    if broken:  # libsdformat would not load it: converting what it says is a guess
        notes.lost(
            f"the file has {broken} error(s), which `sdformat-lsp check` lists"
            + (": converted as far as it can be read" if options.lossy else "")
        )
    try:
        flat = flatten(analysis, options.model)
    except FlattenError as exc:
        return Conversion(None, [*notes.errors, str(exc)], notes.warnings)
    robot = UrdfMaker(flat, options, notes).make()
    if notes.errors or robot is None:
        return Conversion(None, notes.errors, notes.warnings)
    return Conversion(write(robot), [], notes.warnings, robot)


class UrdfMaker:
    def __init__(self, flat: Flat, options: UrdfOptions, notes: Notes) -> None:
        self.flat = flat
        self.options = options
        self.notes = notes
        self.parts = PartReader(flat, notes, options.mesh_uri, options.resource_paths, options.package_paths)
        self.ext = Extensions()

    def name(self, scoped: str) -> str:
        sep = self.options.name_separator
        return scoped.replace("::", sep) if sep not in (None, "::") else scoped

    def make(self) -> Robot | None:
        flat = self.flat
        kinds = {c.name: self._type(c) for c in flat.connections}
        tree = build_tree(flat, self.notes)
        if tree is None:
            return None
        self.tree = tree
        robot = Robot(
            self.name(flat.name) or "robot", comment=f"converted from SDFormat model '{flat.name}' by sdformat-lsp"
        )
        frame: dict[str, Transform] = {WORLD: flat.world_pose.inverse()}
        for body in tree.order:
            j = tree.parent.get(body.name)
            frame[body.name] = j.pose if j is not None else body.pose
        if tree.world:
            robot.links.append(RobotLink(WORLD))
        for body in tree.order:
            robot.links.append(self._link(body, frame[body.name]))
        inverse = {name: t.inverse() for name, t in frame.items()}
        for body in tree.order:
            j = tree.parent.get(body.name)
            if j is not None:
                robot.joints.append(self._joint(j, kinds[j.name], inverse))
        for name, (parent, origin) in tree.extra.items():  # roots joined with --lossy
            robot.joints.append(
                RobotJoint(
                    name,
                    "fixed",
                    self.name(parent),
                    self.name(tree.extra_child[name]),
                    frame[parent].inverse() * origin,
                )
            )
        self._keep_sensor_names(tree, kinds)
        if self.options.frames:
            self._markers(robot, frame)
        self.ext.model(flat.model.element, flat.model.static)
        robot.extensions = self.ext.extensions()
        self._unique(robot)
        return robot

    # -- joints --------------------------------------------------------

    def _type(self, c: Connection) -> str:
        t = (c.entity.type or "").strip()
        if t in KEPT:
            return KEPT[t]
        if not t:
            self.notes.errors.append(f"joint '{c.name}' has no type")
            return "fixed"
        self.notes.lost(
            f"joint '{c.name}' is a {t} joint, which URDF cannot express"
            + (": made fixed" if self.notes.lossy else " (--lossy makes it fixed)")
        )
        return "fixed"

    def _joint(self, c: Connection, kind: str, inverse: dict[str, Transform]) -> RobotJoint:
        parent = c.parent or WORLD
        origin = inverse[parent] * c.pose
        j = RobotJoint(self.name(c.name), kind, self.name(parent), self.name(c.child or ""), origin)
        original = (c.entity.type or "").strip()
        if kind == "fixed" or original not in KEPT:
            return j
        axis = c.entity.element.child("axis")
        j.axis = self._axis(c, axis)
        limit = axis.child("limit") if axis is not None else None
        lower, upper = value(limit, "lower", -INFINITE), value(limit, "upper", INFINITE)
        effort, velocity = value(limit, "effort", -1.0), value(limit, "velocity", -1.0)
        if kind == "revolute" and lower <= -INFINITE and upper >= INFINITE:
            j.type = kind = "continuous"  # what libsdformat reads a continuous URDF joint as
        if kind == "continuous":
            if (effort, velocity) != (-1.0, -1.0):
                j.limit = Limit(effort, velocity)
        else:
            j.limit = Limit(effort, velocity, lower, upper)
        dyn = axis.child("dynamics") if axis is not None else None
        if dyn is not None:
            j.damping, j.friction = value(dyn, "damping", 0.0), value(dyn, "friction", 0.0)
        mimic = axis.child("mimic") if axis is not None else None
        if mimic is not None:
            j.mimic = self._mimic(c, mimic)
        self.ext.joint(j.name, c.entity.element)
        return j

    def _axis(self, c: Connection, axis) -> tuple[float, float, float]:
        xyz_el = axis.child("xyz") if axis is not None else None
        xyz = vec3(xyz_el.text if xyz_el is not None else None, (0.0, 0.0, 1.0))
        flat = self.flat
        expressed = c.pose  # the joint frame
        ref = next((r for r in c.entity.expressed_in if r.element is xyz_el), None)
        if ref is not None and ref.text:
            res = flat.graphs.resolve(ref, c.scope, record=False)
            target = flat.in_base(res.target) if res.target is not None else None
            if target is None:
                self.notes.errors.append(
                    f"the axis of joint '{c.name}' is expressed in '{ref.text}', which does not resolve"
                )
            else:
                expressed = target
        elif c.entity.use_parent_model_frame or c.scope.version < (1, 5):
            model = flat.in_base(c.scope.node) if c.scope.node is not None else None
            expressed = model if model is not None else Transform()
        v = rotate((c.pose.inverse() * expressed).q, xyz)
        n = math.sqrt(sum(x * x for x in v))
        if n < 1e-12:
            self.notes.errors.append(f"the axis of joint '{c.name}' is a zero vector")
            return (0.0, 0.0, 1.0)
        return (v[0] / n, v[1] / n, v[2] / n)

    def _mimic(self, c: Connection, el) -> Mimic | None:
        ref = next((r for r in c.entity.mimics if r.element is el), None)
        res = self.flat.graphs.resolve(ref, c.scope, record=False) if ref is not None else None
        leader = next((o.name for o in self.flat.connections if res is not None and o.node is res.target), None)
        if leader is None:
            self.notes.warnings.append(
                f"joint '{c.name}' mimics '{el.get('joint')}', which is no joint of the model: mimic left out"
            )
            return None
        return Mimic(self.name(leader), value(el, "multiplier", 1.0), value(el, "offset", 0.0))

    # -- links ---------------------------------------------------------

    def _link(self, body: Body, frame: Transform) -> RobotLink:
        name = self.name(body.name)
        inverse = frame.inverse()
        link = RobotLink(name, self.parts.inertial_in(body, inverse))
        element = body.node.entity.element
        for tag, out in (("visual", link.visuals), ("collision", link.collisions)):
            for el in element.children_named(tag):
                what = f"a {tag} of link '{body.name}'"
                geometry, turn = self.parts.geometry(what, el)
                if geometry is None:
                    continue
                origin = inverse * self.parts.pose(body, el)
                if turn is not None:
                    origin = origin * turn
                part = Part(el.get("name"), origin, geometry)
                if tag == "visual":
                    part.material, script = self.parts.material(what, el, f"{name}/{el.get('name') or 'visual'}")
                    if script:
                        self.ext.key(name, "material", script)
                out.append(part)
        self.ext.link(name, element, inverse, lambda el: self.parts.pose(body, el))
        return link

    def _keep_sensor_names(self, tree, kinds: dict[str, str]) -> None:
        """Fixed joints whose lumping would put two sensors of one name into a link keep their link (preserveFixedJoint).

        libsdformat lumps the child link of a fixed joint into its parent, sensors included, and refuses a link
        with two sensors of one name; keeping that one joint is exact and leaves every other joint as it was.
        """
        group: dict[str, str] = {}
        sensors: dict[str, set[str]] = {}
        for body in tree.order:
            j = tree.parent.get(body.name)
            own = [c.get("name") or "" for c in body.node.entity.element.children_named("sensor")]
            g = body.name
            if j is not None and kinds[j.name] == "fixed" and j.parent not in (None, WORLD):
                g = group[j.parent]
                clash = sorted(set(own) & sensors[g])
                if clash:
                    self.ext.key(self.name(j.name), "preserveFixedJoint", "true")
                    self.notes.warnings.append(
                        f"fixed joint '{j.name}' is kept (preserveFixedJoint): lumping link '{body.name}' into "
                        f"'{g}' would give that link two sensors named '{clash[0]}'"
                    )
                    g = body.name
            group[body.name] = g
            sensors.setdefault(g, set()).update(own)

    def _markers(self, robot: Robot, frame: dict[str, Transform]) -> None:
        """Explicit ``<frame>``s as massless links on fixed joints (libsdformat lumps them back into frames)."""
        for m in self.flat.markers:
            parent = m.body
            if parent is None:
                parent = WORLD if self.tree.world else None
            if parent is None:
                self.notes.warnings.append(f"frame '{m.name}' is attached to no link of the model: left out")
                continue
            name = self.name(m.name)
            robot.links.append(RobotLink(name))
            robot.joints.append(
                RobotJoint(f"{name}_joint", "fixed", self.name(parent), name, frame[parent].inverse() * m.pose)
            )

    def _unique(self, robot: Robot) -> None:
        """Every link and joint name once: libsdformat's converted model has one namespace for all of them."""
        seen: dict[str, str] = {}
        scoped = [x.name for x in robot.links if "::" in x.name] + [x.name for x in robot.joints if "::" in x.name]
        if scoped:
            self.notes.warnings.append(
                f"{len(scoped)} link and joint name(s) keep the '::' of their scope (such as '{scoped[0]}'): ROS tools read "
                "them, but libsdformat 14.1 and later (Gazebo Harmonic on) refuse a URDF whose names hold '::'; "
                "the default separator, __, writes names both read"
            )
        for kind, names in (("link", [x.name for x in robot.links]), ("joint", [x.name for x in robot.joints])):
            for n in names:
                if n in seen:
                    sep = self.options.name_separator
                    how = "" if sep in (None, "::") else f" once '::' is replaced by '{sep}'"
                    self.notes.errors.append(
                        f"the {seen[n]} and the {kind} '{n}' have the same name{how}: rename one of them"
                    )
                else:
                    seen[n] = f"{kind} '{n}'"


__all__ = ["Conversion", "UrdfOptions", "sdf_to_urdf"]
