"""URDF ``<robot>`` to the document model, the way libsdformat converts it.

libsdformat reads a URDF through urdfdom and turns it into an SDFormat 1.11
model (``parser_urdf.cc``). This module does the same on our XML tree, so
that a URDF is analysed like the SDFormat file it becomes, with every name
and reference pointing back at the URDF text:

* urdfdom's checks (names, joint types, limits, origins, inertials,
  geometry, links a joint names, exactly one root) become ``PARSING_ERROR``
  (libsdformat reports a URDF that urdfdom rejects with that code) or
  ``DUPLICATE_NAME`` diagnostics; the model is still built from what can be
  read, leaving the broken joint or link out, so the editor keeps working;
* a joint's ``<origin>`` is the pose of its child link relative to its
  parent link; the joint itself sits on its child link (identity pose), as
  in the converted SDFormat;
* a ``fixed`` joint is lumped: its child link disappears into the parent
  link and two frames remember them, one named after the child link
  (attached to the parent, posed by the origin) and one after the joint (on
  the child's frame); libsdformat chains them the other way round, with the
  same poses and links. ``<gazebo reference="J"><preserveFixedJoint>`` or
  ``<disableFixedJointLumping>`` keep joint ``J`` (the latter as a revolute
  joint with zero limits), and a joint whose parent is ``world`` is never
  lumped;
* a root link named ``world`` is not a link: its joints attach their child
  links to the world, and the model frame stands where the world is;
* a link that ends up without mass (no ``<inertial>`` or a mass <= 0 after
  lumping) is dropped with everything below it, with a
  ``LINK_INERTIA_INVALID`` warning, as libsdformat does;
* ``floating`` and ``planar`` joints have no SDFormat counterpart: the child
  link's pose then names a joint that does not exist, which libsdformat
  reports as ``POSE_RELATIVE_TO_INVALID``;
* ``<gazebo>`` without a reference may hold SDFormat ``<link>``, ``<joint>``,
  ``<frame>`` and ``<model>`` elements that join the model (libsdformat
  renames a joint's ``<child>`` naming a lumped link to the link it went
  into: the joint's pose is moved there), and ``<static>``; the
  ``<robot>``'s own ``<origin>`` is the model pose.

Each link's pose is relative to its URDF parent link (a link, or the frame a
lumped link became), so the resolved poses are those of libsdformat's
converted model. Every reference keeps the text it has in the file: a
``<parent link>``, ``<child link>`` or ``<mimic joint>`` is a reference to
what it names, which find-references and rename rely on.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace

from .diagnostics import Diagnostic, Related, Severity, error, warning
from .model import NO_POSE, Frame, Joint, Link, Model, Named, PoseSpec, Ref
from .model.builder import Builder
from .semantics.pose import Transform, transform_of
from .text import Span
from .xml import XmlAttribute, XmlDocument, XmlElement

URDF_SDF_VERSION = "1.11"  # libsdformat writes converted URDF as SDFormat 1.11
WORLD = "world"

PARSING_ERROR = "PARSING_ERROR"  # what libsdformat reports for a URDF that urdfdom rejects
DUPLICATE_NAME = "DUPLICATE_NAME"
LINK_INERTIA_INVALID = "LINK_INERTIA_INVALID"
POSE_RELATIVE_TO_INVALID = "POSE_RELATIVE_TO_INVALID"
JOINT_PARENT_SAME_AS_CHILD = "JOINT_PARENT_SAME_AS_CHILD"
MATERIAL = "URDF_MATERIAL"  # ours: urdfdom only logs these
LINK_INVALID = "URDF_LINK_INVALID"  # ours: urdfdom ignores a link it cannot read completely
XACRO = "URDF_XACRO"  # ours: a template to expand first

JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
_SDF_JOINT_TYPE = {"revolute": "revolute", "continuous": "revolute", "prismatic": "prismatic", "fixed": "fixed"}
_GEOMETRY_ATTRS = {"box": ("size",), "cylinder": ("radius", "length"), "sphere": ("radius",), "mesh": ("filename",)}
_BLOB_TAGS = ("link", "joint", "frame", "model")

# a number as urdfdom reads it (std::istream >> double, the whole piece)
_FLOAT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")


def is_urdf(xml: XmlDocument) -> bool:
    return xml.root is not None and xml.root.tag == "robot"


def _number(text: str) -> float | None:
    t = text.strip()
    return float(t) if _FLOAT.match(t) else None


def _truthy(text: str) -> bool:
    t = text.strip()
    return t.lower() in ("true", "yes") or t == "1"


def _key_value(el: XmlElement) -> str:
    """A gazebo extension's value: its ``value`` attribute or its text."""
    v = el.get("value")
    return (v if v is not None else el.text).strip()


@dataclass
class _ULink:
    name: str
    name_span: Span
    element: XmlElement
    inertial: bool = False
    mass: float = 0.0
    parent_joint: "_UJoint | None" = None
    child_joints: list["_UJoint"] = field(default_factory=list)
    # filled by the conversion
    lumped: bool = False
    has_inertial: bool = False  # after lumping
    total_mass: float = 0.0


@dataclass
class _UJoint:
    name: str
    name_span: Span
    element: XmlElement
    type: str | None
    type_attr: XmlAttribute | None
    parent: str
    parent_attr: XmlAttribute
    parent_el: XmlElement
    child: str
    child_attr: XmlAttribute
    child_el: XmlElement
    origin: PoseSpec
    mimic: Ref | None = None


class _Converter:
    def __init__(self, xml: XmlDocument) -> None:
        self.xml = xml
        self.robot = xml.root
        assert self.robot is not None
        self.diagnostics: list[Diagnostic] = []
        self.links: dict[str, _ULink] = {}
        self.joints: dict[str, _UJoint] = {}
        self.materials: set[str] = set()
        self.preserve: set[str] = set()  # preserveFixedJoint
        self.to_revolute: set[str] = set()  # disableFixedJointLumping (without preserveFixedJoint)
        self.static = False
        self.claimed: set[str] = set()  # children of joints that could not be read
        self.unconnected = False  # a joint names no parent or child link: more roots are its consequence
        self.used_materials: list[tuple[str, XmlElement, str]] = []
        self.described: dict[int, str] = {}  # id of a converted member -> how to name it in messages

    # -- diagnostics ---------------------------------------------------

    def _error(self, message: str, span: Span, kind: str, code: str = PARSING_ERROR, **kw) -> None:
        self.diagnostics.append(error(code, message, span, data={"urdf": kind}, **kw))

    def _attr_span(self, el: XmlElement, name: str) -> Span:
        a = el.attr(name)
        return a.value_span if a is not None else el.tag_span

    def _numbers_ok(self, el: XmlElement, attrs: tuple[str, ...], what: str) -> bool:
        ok = True
        for name in attrs:
            a = el.attr(name)
            if a is not None and _number(a.value) is None:
                self._error(f"{what}: {name}=\"{a.value}\" is not a number", a.value_span, "number")
                ok = False
        return ok

    def _vector(self, el: XmlElement, name: str, what: str, count: int = 3) -> tuple[float, ...] | None:
        """An attribute holding ``count`` numbers (urdfdom's Vector3); None if absent or broken (reported)."""
        a = el.attr(name)
        if a is None:
            return None
        values: list[float] = []
        for piece in a.value.split():
            v = _number(piece)
            if v is None:
                self._error(f"{what}: '{piece}' in {name}=\"{a.value}\" is not a number", a.value_span, "vector")
                return None
            values.append(v)
        if len(values) != count:
            self._error(f"{what}: {name} needs {count} numbers, found {len(values)}", a.value_span, "vector")
            return None
        return tuple(values)

    def _origin(self, owner: XmlElement, what: str) -> PoseSpec | None:
        """The ``<origin xyz rpy>`` of ``owner`` as a pose; None when malformed (reported)."""
        el = owner.child("origin")
        if el is None:
            return NO_POSE
        xyz = self._vector(el, "xyz", f"<origin> of {what}") if el.attr("xyz") is not None else (0.0, 0.0, 0.0)
        rpy = self._vector(el, "rpy", f"<origin> of {what}") if el.attr("rpy") is not None else (0.0, 0.0, 0.0)
        if xyz is None or rpy is None:
            return None
        return PoseSpec(el, (*xyz, *rpy))

    # -- urdfdom's reading ---------------------------------------------

    def read(self) -> None:
        robot = self.robot
        if robot.attr("name") is None:
            self._error("the <robot> needs a name attribute: add name=\"...\"", robot.tag_span, "robot_name")
        for el in robot.children_named("material"):
            self._material(el, top_level=True)
        for el in robot.children_named("link"):
            self._link(el)
        if not robot.children_named("link"):
            self._error("a URDF needs at least one <link>", robot.tag_span, "no_links")
        for el in robot.children_named("joint"):
            self._joint(el)
        for el in robot.children_named("gazebo"):
            self._extension(el)
        self.to_revolute -= self.preserve
        for name, mat, what in self.used_materials:
            if name not in self.materials:
                self.diagnostics.append(
                    warning(
                        MATERIAL,
                        f"material '{name}' used by {what} is not defined: define it at the top of the <robot> "
                        "or give it a <color> or <texture> here",
                        self._attr_span(mat, "name"),
                        data={"urdf": "material_undefined"},
                    )
                )

    def _material(self, el: XmlElement, top_level: bool) -> None:
        name = el.get("name")
        if name is None:
            if top_level:  # urdfdom logs it and goes on (a visual's nameless material is an error, see below)
                self.diagnostics.append(warning(MATERIAL, "a <material> needs a name attribute", el.tag_span, data={"urdf": "material_name"}))
            return
        has_color = False
        color = el.child("color")
        if color is not None and color.attr("rgba") is not None:
            has_color = self._vector(color, "rgba", f"color of material '{name}'", 4) is not None
        texture = el.child("texture")
        has_texture = texture is not None and texture.attr("filename") is not None
        if top_level:
            if name in self.materials:
                self._error(f"material '{name}' is defined twice", self._attr_span(el, "name"), "material_duplicate", DUPLICATE_NAME)
            elif not has_color and not has_texture:
                self.diagnostics.append(
                    warning(
                        MATERIAL,
                        f"material '{name}' has neither a <color rgba> nor a <texture filename>: it has no effect",
                        self._attr_span(el, "name"),
                        data={"urdf": "material_empty"},
                    )
                )
        if has_color or has_texture:
            self.materials.add(name)

    def _link(self, el: XmlElement) -> None:
        a = el.attr("name")
        if a is None:
            self._error("a <link> needs a name attribute: add name=\"...\"", el.tag_span, "link_name")
            return
        name = a.value
        what = f"link '{name}'"
        link = _ULink(name, a.value_span, el)
        start = len(self.diagnostics)
        inertial = el.child("inertial")
        if inertial is not None:
            link.inertial = True
            mass = inertial.child("mass")
            if self._origin(inertial, f"the inertial of {what}") is None:
                mass = None  # urdfdom stops before the mass: it stays 0
            if mass is None or mass.attr("value") is None:
                if len(self.diagnostics) == start:
                    self._error(f"the <inertial> of {what} needs <mass value=\"...\"/>", (mass or inertial).tag_span, "mass")
            else:
                m = _number(mass.get("value") or "")
                if m is None:
                    self._error(f"the mass of {what} is not a number", mass.attr("value").value_span, "number")
                else:
                    link.mass = m
            inertia = inertial.child("inertia")
            names = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
            if inertia is None or any(inertia.attr(n) is None for n in names):
                missing = [n for n in names if inertia is None or inertia.attr(n) is None]
                self._error(
                    f"the <inertial> of {what} needs <inertia> with ixx, ixy, ixz, iyy, iyz and izz (missing: {', '.join(missing)})",
                    (inertia or inertial).tag_span,
                    "inertia",
                )
            else:
                self._numbers_ok(inertia, names, f"the inertia of {what}")
        for tag in ("visual", "collision"):
            for part in el.children_named(tag):
                self._origin(part, f"a {tag} of {what}")
                self._geometry(part, f"a {tag} of {what}")
                if tag == "visual":
                    self._visual_material(part, what)
        # urdfdom does not fail on a broken link: it stops reading it at the first problem and keeps what it read
        found = [d for d in self.diagnostics[start:] if d.code == PARSING_ERROR]
        kept = [d for d in self.diagnostics[start:] if d.code != PARSING_ERROR]
        if found:
            message = found[0].message + " (the URDF parser stops reading the link here and keeps what it read so far)"
            kept.insert(0, replace(found[0], code=LINK_INVALID, severity=Severity.WARNING, message=message))
        self.diagnostics[start:] = kept
        if name in self.links:
            other = self.links[name]
            self._error(
                f"link '{name}' is defined twice: link names must be unique",
                a.value_span,
                "link_duplicate",
                DUPLICATE_NAME,
                related=(Related(other.name_span, f"the other link '{name}'"),),
            )
            return
        # a link with a broken part is still a link: joints naming it are fine
        self.links[name] = link

    def _geometry(self, part: XmlElement, what: str) -> bool:
        geom = part.child("geometry")
        if geom is None:
            self._error(f"{what} needs a <geometry>", part.tag_span, "geometry")
            return False
        if not geom.children:
            self._error(f"the <geometry> of {what} is empty: add <box>, <cylinder>, <sphere> or <mesh>", geom.tag_span, "geometry")
            return False
        shape = geom.children[0]
        attrs = _GEOMETRY_ATTRS.get(shape.tag)
        if attrs is None:
            self._error(f"unknown geometry <{shape.tag}> in {what}: use <box>, <cylinder>, <sphere> or <mesh>", shape.tag_span, "geometry")
            return False
        missing = [n for n in attrs if shape.attr(n) is None]
        if missing:
            self._error(f"<{shape.tag}> in {what} needs {' and '.join(missing)}", shape.tag_span, "geometry")
            return False
        if shape.tag == "box":
            return self._vector(shape, "size", f"the box of {what}") is not None
        if shape.tag == "mesh":
            return shape.attr("scale") is None or self._vector(shape, "scale", f"the mesh of {what}") is not None
        return self._numbers_ok(shape, attrs, f"the {shape.tag} of {what}")

    def _visual_material(self, visual: XmlElement, what: str) -> bool:
        mat = visual.child("material")
        if mat is None:
            return True
        name = mat.get("name")
        if name is None:
            self._error(f"the <material> of a visual of {what} needs a name attribute", mat.tag_span, "material_name")
            return False
        self._material(mat, top_level=False)
        self.used_materials.append((name, mat, what))
        return True

    def _joint(self, el: XmlElement) -> None:
        a = el.attr("name")
        if a is None:
            self._error("a <joint> needs a name attribute: add name=\"...\"", el.tag_span, "joint_name")
            self._claim(el)
            return
        name = a.value
        what = f"joint '{name}'"
        if name in self.joints:
            other = self.joints[name]
            self._error(
                f"joint '{name}' is defined twice: joint names must be unique",
                a.value_span,
                "joint_duplicate",
                DUPLICATE_NAME,
                related=(Related(other.name_span, f"the other joint '{name}'"),),
            )
            self._claim(el)
            return
        # what is wrong inside a joint is reported, but the joint still connects its links
        origin = self._origin(el, what) or NO_POSE
        t = el.attr("type")
        jtype: str | None = None
        if t is None:
            self._error(f"{what} needs a type attribute: one of {', '.join(JOINT_TYPES)}", a.value_span, "joint_type")
        elif t.value not in JOINT_TYPES:
            self._error(f"{what} has an unknown type '{t.value}': use one of {', '.join(JOINT_TYPES)}", t.value_span, "joint_type")
        else:
            jtype = t.value
        if jtype not in ("floating", "fixed"):
            axis = el.child("axis")
            if axis is not None and axis.attr("xyz") is not None:
                self._vector(axis, "xyz", f"the axis of {what}")
        limit = el.child("limit")
        if limit is not None:
            self._numbers_ok(limit, ("lower", "upper", "effort", "velocity"), f"the limits of {what}")
            for need in ("effort", "velocity"):
                if limit.attr(need) is None:
                    self._error(f"the <limit> of {what} needs {need}=\"...\"", limit.tag_span, "limit")
        elif jtype in ("revolute", "prismatic") and t is not None:
            self._error(
                f"{what} is {jtype} and needs a <limit effort=\"...\" velocity=\"...\"/> (lower and upper default to 0)",
                t.value_span,
                "limit",
            )
        safety = el.child("safety_controller")
        if safety is not None:
            self._numbers_ok(safety, ("soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity"), f"the safety controller of {what}")
            if safety.attr("k_velocity") is None:
                self._error(f"the <safety_controller> of {what} needs k_velocity=\"...\"", safety.tag_span, "safety")
        calibration = el.child("calibration")
        if calibration is not None:
            self._numbers_ok(calibration, ("rising", "falling"), f"the calibration of {what}")
        mimic_ref = None
        mimic = el.child("mimic")
        if mimic is not None:
            self._numbers_ok(mimic, ("multiplier", "offset"), f"the mimic of {what}")
            ma = mimic.attr("joint")
            if ma is None:
                self._error(f"the <mimic> of {what} needs joint=\"...\"", mimic.tag_span, "mimic")
            else:
                mimic_ref = Ref(ma.value, ma.value_span, "mimic", mimic)
        dynamics = el.child("dynamics")
        if dynamics is not None:
            self._numbers_ok(dynamics, ("damping", "friction"), f"the dynamics of {what}")
            if dynamics.attr("damping") is None and dynamics.attr("friction") is None:
                self._error(f"the <dynamics> of {what} has neither damping nor friction", dynamics.tag_span, "dynamics")
        ends: list[tuple[str, XmlAttribute, XmlElement]] = []
        for tag in ("parent", "child"):
            end = el.child(tag)
            la = end.attr("link") if end is not None else None
            if la is None:
                self._error(
                    f"{what} needs <{tag} link=\"...\"/> naming its {tag} link",
                    end.tag_span if end is not None else a.value_span,
                    "joint_link",
                )
                continue
            ends.append((la.value, la, end))
        if len(ends) != 2:
            self._claim(el)
            self.unconnected = True
            return
        (pname, pattr, pel), (cname, cattr, cel) = ends
        self.joints[name] = _UJoint(name, a.value_span, el, jtype, t, pname, pattr, pel, cname, cattr, cel, origin, mimic_ref)

    def _claim(self, joint_el: XmlElement) -> None:
        """The child of a joint left out is not another root: say so once, on the joint."""
        c = joint_el.child("child")
        if c is not None and c.get("link"):
            self.claimed.add(c.get("link"))

    def _extension(self, el: XmlElement) -> None:
        ref = el.get("reference") or ""
        for c in el.children:
            if c.tag == "preserveFixedJoint" and _truthy(_key_value(c)):
                self.preserve.add(ref)
            elif c.tag == "disableFixedJointLumping" and _truthy(_key_value(c)):
                self.to_revolute.add(ref)
            elif c.tag == "static" and not ref:
                self.static = _truthy(_key_value(c))

    # -- the tree ------------------------------------------------------

    def tree(self) -> list[_ULink]:
        """Connect links and joints as urdfdom does; the roots (one when the URDF is valid)."""
        # urdfdom walks its joints by name: that order is the order of child links
        for jname in sorted(self.joints):
            j = self.joints[jname]
            parent = self.links.get(j.parent)
            child = self.links.get(j.child)
            bad = False
            if child is None:
                self._unknown_link(j, "child")
                bad = True
            if parent is None:
                self._unknown_link(j, "parent")
                self.claimed.add(j.child)
                bad = True
            if bad:
                continue
            if child is parent:
                self.claimed.add(j.child)
                self._error(
                    f"joint '{j.name}' has '{j.child}' as both parent and child: a joint connects two different links",
                    j.child_attr.value_span,
                    "joint_same",
                    JOINT_PARENT_SAME_AS_CHILD,
                )
                continue
            if child.parent_joint is not None:
                other = child.parent_joint
                self._error(
                    f"link '{child.name}' is already the child of joint '{other.name}': in a URDF every link has at most one parent joint",
                    j.child_attr.value_span,
                    "two_parents",
                    related=(Related(other.child_attr.value_span, f"joint '{other.name}'"),),
                )
                continue
            child.parent_joint = j
            parent.child_joints.append(j)
        roots = [self.links[n] for n in sorted(self.links) if self.links[n].parent_joint is None]
        free = [r for r in roots if r.name not in self.claimed]
        if len(free) > 1 and not self.unconnected:
            names = ", ".join(f"'{r.name}'" for r in free)
            for r in free[1:]:
                self._error(
                    f"the URDF has more than one root link ({names}): connect link '{r.name}' to the others with a joint",
                    r.name_span,
                    "roots",
                    related=(Related(free[0].name_span, f"root link '{free[0].name}'"),),
                )
        # links on a loop of joints are reached from no root: urdfdom finds no root, or never sees them
        reached: set[str] = set()
        stack = list(roots)
        while stack:
            link = stack.pop()
            reached.add(link.name)
            stack.extend(self.links[j.child] for j in link.child_joints)
        lost = sorted(set(self.links) - reached)
        if lost:
            j = self.links[lost[0]].parent_joint
            assert j is not None
            names = ", ".join(f"'{n}'" for n in lost)
            self._error(
                f"the joints form a loop through link{'s' if len(lost) > 1 else ''} {names}: a URDF must be a tree; "
                f"joint '{j.name}' is one that closes it",
                j.child_attr.value_span,
                "cycle",
            )
        return roots

    def _unknown_link(self, j: _UJoint, end: str) -> None:
        name = j.parent if end == "parent" else j.child
        attr = j.parent_attr if end == "parent" else j.child_attr
        msg = f"the {end} link '{name}' of joint '{j.name}' is not defined: add <link name=\"{name}\"/> or name an existing link"
        best = difflib.get_close_matches(name, list(self.links), n=1, cutoff=0.6)
        data = {}
        if best:
            msg += f"; did you mean '{best[0]}'?"
            data["suggestion"] = best[0]
        self.diagnostics.append(error(PARSING_ERROR, msg, attr.value_span, data={"urdf": "unknown_link", **data}))

    # -- the conversion ------------------------------------------------

    def reducible(self, j: _UJoint) -> bool:
        return j.type == "fixed" and j.name not in self.preserve and j.name not in self.to_revolute

    def convert(self) -> Model:
        self.read()
        roots = self.tree()
        robot = self.robot
        name_attr = robot.attr("name")
        members: list[Named] = []
        lump_frames: list[Frame] = []
        for root in roots:
            self._lump(root, lump_frames)
        for root in roots:
            if root.name == WORLD:
                for j in root.child_joints:
                    self._create(self.links[j.child], members)
            else:
                self._create(root, members)
        members.extend(self._blobs())
        members.extend(lump_frames)
        members = self._unique(members)
        start = len(self.diagnostics)
        origin = self._origin(robot, "the robot") or NO_POSE
        for i in range(start, len(self.diagnostics)):  # libsdformat reads it leniently: zeros and a console message
            self.diagnostics[i] = replace(self.diagnostics[i], severity=Severity.WARNING)
        return Model(
            "model",
            name_attr.value if name_attr is not None else "",
            name_attr.value_span if name_attr is not None else None,
            robot,
            origin,
            static=self.static,
            links=tuple(m for m in members if isinstance(m, Link)),
            joints=tuple(m for m in members if isinstance(m, Joint)),
            frames=tuple(m for m in members if isinstance(m, Frame)),
            models=tuple(m for m in members if isinstance(m, Model)),
            members=tuple(members),
        )

    def _lump(self, root: _ULink, frames: list[Frame]) -> None:
        """Fixed-joint reduction, bottom-up like libsdformat: frames for lumped joints and links, merged masses."""
        order: list[_ULink] = []  # pre-order; reversed it visits children before parents
        stack = [root]
        while stack:
            link = stack.pop()
            order.append(link)
            stack.extend(self.links[j.child] for j in reversed(link.child_joints))
        for link in order:
            j = link.parent_joint
            link.lumped = j is not None and self.reducible(j) and j.parent != WORLD
        for link in reversed(order):
            link.has_inertial = link.inertial
            link.total_mass = link.mass if link.inertial else 0.0
            for j in link.child_joints:
                c = self.links[j.child]
                if c.lumped and c.has_inertial:
                    link.has_inertial = True
                    link.total_mass += c.total_mass
        # the frames, in libsdformat's order of reduction (post-order over fixed children first)
        out: list[Frame] = []
        work: list[tuple[_ULink, int]] = [(root, 0)]
        while work:
            link, state = work.pop()
            fixed = [self.links[j.child] for j in link.child_joints if self.reducible(j)]
            other = [self.links[j.child] for j in link.child_joints if not self.reducible(j)]
            if state == 0:
                work.append((link, 1))
                work.extend((c, 0) for c in reversed(fixed))
                continue
            if link.lumped:
                out.extend(self._lump_frames(link))
            work.extend((c, 0) for c in reversed(other))
        frames.extend(out)

    def _lump_frames(self, link: _ULink) -> list[Frame]:
        j = link.parent_joint
        assert j is not None
        # libsdformat: frame J attached to P posed by the origin, frame C attached to J. Here C carries the
        # origin and J sits on C, as a joint sits on its child: same poses and links, and both <parent link>
        # and <child link> stay references to what they name (find references, rename).
        to_parent = Ref(j.parent, j.parent_attr.value_span, "attached_to", j.parent_el)
        to_child = Ref(j.child, j.child_attr.value_span, "attached_to", j.child_el)
        if j.name == link.name:  # the name collision is reported; do not make it a cycle too
            joint_frame = Frame("frame", j.name, j.name_span, j.element, j.origin, attached_to=to_parent)
        else:
            joint_frame = Frame("frame", j.name, j.name_span, j.element, NO_POSE, attached_to=to_child)
        frames = [joint_frame, Frame("frame", link.name, link.name_span, link.element, j.origin, attached_to=to_parent)]
        self.described[id(frames[0])] = f"the frame left by lumping fixed joint '{j.name}'"
        self.described[id(frames[1])] = f"the frame left by lumping link '{link.name}' into '{j.parent}'"
        return frames

    def _create(self, top: _ULink, members: list[Named]) -> None:
        """libsdformat's CreateSDF: links with mass and their joints, depth first."""
        stack = [top]
        while stack:
            link = stack.pop()
            j = link.parent_joint
            massless = link.name != WORLD and (not link.has_inertial or link.total_mass <= 0)
            parent_reduced = j is not None and self.reducible(j)
            if massless and not parent_reduced:
                self._massless(link)
                continue
            if not link.lumped and not massless:
                if j is not None:
                    joint = self._sdf_joint(link, j)
                    if joint is not None:
                        members.append(joint)
                members.append(self._sdf_link(link))
            stack.extend(self.links[c.child] for c in reversed(link.child_joints))

    def _massless(self, link: _ULink) -> None:
        why = "has no <inertial>" if not link.has_inertial else f"has a mass of {link.total_mass:g}"
        below = self._count_below(link)
        msg = f"link '{link.name}' {why}: libsdformat leaves it out of the converted model"
        if below:
            msg += f", with the {below} link{'s' if below != 1 else ''} below it"
        msg += "; give it an <inertial> with a positive mass"
        j = link.parent_joint
        if j is not None and j.type == "fixed":
            msg += f", or let its fixed joint '{j.name}' be lumped (remove <preserveFixedJoint>/<disableFixedJointLumping>)"
        self.diagnostics.append(warning(LINK_INERTIA_INVALID, msg, link.name_span, data={"urdf": "massless"}))

    def _count_below(self, link: _ULink) -> int:
        n, stack = 0, [link]
        while stack:
            cur = stack.pop()
            for j in cur.child_joints:
                n += 1
                stack.append(self.links[j.child])
        return n

    def _sdf_link(self, link: _ULink) -> Link:
        j = link.parent_joint
        if j is None:
            return Link("link", link.name, link.name_span, link.element, NO_POSE)
        pose = j.origin
        if j.parent != WORLD:
            pose = replace(pose, relative_to=Ref(j.parent, j.parent_attr.value_span, "relative_to", j.parent_el))
        return Link("link", link.name, link.name_span, link.element, pose)

    def _sdf_joint(self, link: _ULink, j: _UJoint) -> Joint | None:
        sdf_type = _SDF_JOINT_TYPE.get(j.type or "")  # None for a missing or unknown type (reported): keep the joint
        if sdf_type is None and j.type is not None:
            self._error(
                f"joint '{j.name}' is {j.type}: SDFormat has no {j.type} joint, so the conversion leaves it out and the pose of "
                f"link '{link.name}' names a joint that does not exist; use another joint type (a link that moves freely "
                "belongs in a model of its own)",
                j.type_attr.value_span if j.type_attr is not None else j.name_span,
                "joint_unsupported",
                POSE_RELATIVE_TO_INVALID,
            )
            return None
        if sdf_type == "fixed" and j.name in self.to_revolute:
            sdf_type = "revolute"
        mimics = (j.mimic,) if j.mimic is not None and sdf_type != "fixed" else ()
        return Joint(
            "joint",
            j.name,
            j.name_span,
            j.element,
            NO_POSE,
            type=sdf_type,
            parent=Ref(j.parent, j.parent_attr.value_span, "parent", j.parent_el),
            child=Ref(j.child, j.child_attr.value_span, "child", j.child_el),
            mimics=mimics,
        )

    # -- <gazebo> blobs ------------------------------------------------

    def _blobs(self) -> list[Named]:
        b = Builder(self.xml)
        b.version = (1, 11)
        out: list[Named] = []
        for ext in self.robot.children_named("gazebo"):
            if ext.get("reference"):
                continue
            for c in ext.children:
                if c.tag not in _BLOB_TAGS:
                    continue
                if c.tag == "link":
                    out.append(b.link(c))
                elif c.tag == "frame":
                    out.append(b.frame(c))
                elif c.tag == "model":
                    out.append(b.models_under(ext)[id(c)])
                else:
                    out.append(self._moved(b.joint(c)))
        self.diagnostics.extend(b.diagnostics)
        return out

    def _moved(self, joint: Joint) -> Joint:
        """libsdformat renames a blob joint's <child> naming a lumped link to the link it went into.

        The reference stays as written (it still names the frame the lumped link became); the joint's
        pose is moved instead, from that frame to the link, which gives the renamed joint's frame.
        A lumped <parent> needs nothing: the frame is attached to the same link.
        """
        ref = joint.child
        if ref is None or joint.pose.relative_to is not None or not joint.pose.valid:
            return joint
        link = self.links.get(ref.text)
        if link is None or not link.lumped:
            return joint
        inside = Transform()  # X_L_C: the lumped link C in the link L it went into
        seen: set[str] = set()
        while link is not None and link.lumped and link.name not in seen:
            seen.add(link.name)
            j = link.parent_joint
            assert j is not None
            inside = transform_of(j.origin) * inside
            link = self.links.get(j.parent)
        moved = inside.inverse() * transform_of(joint.pose)
        w, x, y, z = moved.q
        element = joint.pose.element if joint.pose.element is not None else ref.element
        return replace(joint, pose=PoseSpec(element, (*moved.p, x, y, z, w), quaternion=True))

    # -- names ---------------------------------------------------------

    def _unique(self, members: list[Named]) -> list[Named]:
        """SDFormat wants one name per frame of a model: a link and a joint may not share one."""
        seen: dict[str, Named] = {}
        out: list[Named] = []
        for m in members:
            if not m.name:
                out.append(m)
                continue
            other = seen.get(m.name)
            if other is None:
                seen[m.name] = m
                out.append(m)
                continue
            span = m.name_span or m.element.tag_span
            self._error(
                f"'{m.name}' names both {self._describe(other)} and {self._describe(m)}: "
                "in the converted SDFormat model every link, joint and frame "
                "needs its own name; rename one of them",
                span,
                "name_collision",
                DUPLICATE_NAME,
                related=(Related(other.name_span or other.element.tag_span, f"the other '{m.name}'"),),
            )
            out.append(m)
        return out

    def _describe(self, m: Named) -> str:
        return self.described.get(id(m), f"a {m.kind}")


def _xacro(robot: XmlElement) -> bool:
    if any(name.startswith("xmlns:") and "xacro" in a.value for name, a in robot.attributes.items()):
        return True
    return any(el.prefix == "xacro" for el in robot.iter())


def urdf_to_model(xml: XmlDocument) -> tuple[Model | None, list[Diagnostic]]:
    """Convert the ``<robot>`` of ``xml`` as libsdformat does.

    The model is built even when the URDF has errors (they are in the
    diagnostics): what could not be read is left out. None when the root
    is not a ``<robot>``, or is a xacro template (which must be expanded
    before it is a URDF).
    """
    if not is_urdf(xml):
        return None, []
    assert xml.root is not None
    if _xacro(xml.root):
        return None, [
            warning(
                XACRO,
                "this is a xacro template, not a URDF yet: it is not checked; expand it (`xacro robot.urdf.xacro > robot.urdf`) "
                "and check the result",
                xml.root.tag_span,
                data={"urdf": "xacro"},
            )
        ]
    conv = _Converter(xml)
    model = conv.convert()
    return model, conv.diagnostics


__all__ = ["URDF_SDF_VERSION", "is_urdf", "urdf_to_model"]
