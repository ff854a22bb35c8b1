"""A URDF's own names and tree, read from its ``<robot>`` element as written.

The frame graphs of a URDF come from its conversion to SDFormat, and
libsdformat drops what it cannot convert: a root link without
``<inertial>``, everything when a joint names a missing link. The editor's
answers about link and joint names must not depend on that: the user is
most often looking at such a document *because* it is broken. So this module
reads the robot as urdfdom does before any conversion: ``<link name>`` and
``<joint name>`` children of ``<robot>`` declare names, and ``<parent link>``,
``<child link>``, ``<mimic joint>``, ``<transmission><joint name>`` and
``<gazebo reference>`` use them. A link's pose in the root link's frame is
the product of the ``<origin>`` of the joints from the root down to it (a
joint's frame is its child link's frame), as urdfdom's tree gives it.

It takes an element, not an analysis, so that a xacro document's expansion
is read the same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..formats.urdf.inertia import origin_of
from ..model.transform import Transform
from ..text import Span
from ..xml import XmlAttribute, XmlElement
from .frames import format_numbers
from .results import Writer

# (element, attribute) -> the kind of name it uses; "any": a link or else a joint (<gazebo reference>)
USES = {("parent", "link"): "link", ("child", "link"): "link", ("mimic", "joint"): "joint"}


@dataclass(frozen=True, slots=True)
class UrdfName:
    """A name as written: a declaration (``<link name>``) or a use (``<parent link>``)."""

    kind: str  # link, joint, or any (a <gazebo reference>, which may name either)
    name: str
    span: Span  # the attribute's value
    element: XmlElement  # the element holding the attribute
    declares: bool


def _value(el: XmlElement, attr: str, kind: str, declares: bool, out: list[UrdfName]) -> None:
    a: XmlAttribute | None = el.attr(attr)
    if a is not None and a.terminated:
        out.append(UrdfName(kind, a.value.strip(), a.value_span, el, declares))


class RobotStructure:
    """The names of one ``<robot>``: declarations, uses, and the tree the joints make."""

    def __init__(self, robot: XmlElement) -> None:
        self.robot = robot
        self.names: list[UrdfName] = []
        self.links: dict[str, XmlElement] = {}  # the first declaration of each name (urdfdom refuses a second)
        self.joints: dict[str, XmlElement] = {}
        self.parent_joint: dict[str, XmlElement] = {}  # link -> the first joint naming it as child
        self.child_joints: dict[str, list[XmlElement]] = {}  # link -> joints naming it as parent
        for el in robot.children:
            tag = el.tag
            if tag in ("link", "joint"):
                _value(el, "name", tag, True, self.names)
                name = (el.get("name") or "").strip()
                if name:
                    (self.links if tag == "link" else self.joints).setdefault(name, el)
                if tag == "joint":
                    for c in el.children:
                        kind = USES.get((c.tag, "link" if c.tag != "mimic" else "joint"))
                        if kind is not None:
                            _value(c, "link" if kind == "link" else "joint", kind, False, self.names)
                    parent, child = self.end_link(el, "parent"), self.end_link(el, "child")
                    if child:
                        self.parent_joint.setdefault(child, el)
                    if parent:
                        self.child_joints.setdefault(parent, []).append(el)
            elif tag == "gazebo":
                _value(el, "reference", "any", False, self.names)
            elif tag == "transmission":
                for c in el.children_named("joint"):
                    _value(c, "name", "joint", False, self.names)

    @staticmethod
    def end_link(joint: XmlElement, tag: str) -> str:
        """The link a joint's ``<parent>`` or ``<child>`` (``tag``) names, as written ("" when none)."""
        c = joint.child(tag)
        return (c.get("link") or "").strip() if c is not None else ""

    def name_at(self, offset: int) -> UrdfName | None:
        """The declaration or use whose value holds ``offset`` (its end included)."""
        for n in self.names:
            if n.span.start <= offset <= n.span.end:
                return n
        return None

    def kind_of(self, name: UrdfName) -> str | None:
        """What ``name`` names: link or joint (a <gazebo reference> names a link first); None if nothing."""
        if name.kind != "any":
            return name.kind
        if name.name in self.links:
            return "link"
        if name.name in self.joints:
            return "joint"
        return None

    def declaration(self, kind: str, name: str) -> XmlElement | None:
        return (self.links if kind == "link" else self.joints).get(name)

    def uses_of(self, kind: str, name: str) -> list[UrdfName]:
        """Every declaration and use of ``name`` as a ``kind``, in document order."""
        return [
            n
            for n in self.names
            if n.name == name and (n.kind == kind or (n.kind == "any" and self.kind_of(n) == kind))
        ]

    def root_of(self, link: str) -> tuple[list[XmlElement], str]:
        """The joints from the root down to ``link`` (root first) and the root link's name; a
        cycle stops the walk where it closes (the link reached twice is then called the root)."""
        chain: list[XmlElement] = []
        seen = {link}
        here = link
        while True:
            joint = self.parent_joint.get(here)
            if joint is None:
                break
            parent = self.end_link(joint, "parent")
            if not parent or parent in seen:
                break
            chain.append(joint)
            seen.add(parent)
            here = parent
        chain.reverse()
        return chain, here

    def pose_in_root(self, link: str) -> tuple[str, Transform]:
        """``link``'s pose in its root link's frame and the root link's name."""
        chain, root = self.root_of(link)
        t = Transform()
        for joint in chain:
            t = t * origin_of(joint)
        return root, t


def _rows(w: Writer, t) -> list[str]:
    rpy = t.rpy
    deg = tuple(math.degrees(a) for a in rpy)
    return [
        f"xyz: {w.code(format_numbers(t.p))}",
        f"rpy: {w.code(format_numbers(rpy))} rad ({w.code(format_numbers(deg))} deg)",
        f"quaternion (x y z w): {w.code(format_numbers(t.quat_xyzw))}",
    ]


def urdf_hover_text(robot: RobotStructure, kind: str, name: str, markdown: bool = True) -> str:
    """What a link or joint is in the robot as written: its place in the tree and its pose in the root link's frame."""
    w = Writer(markdown)
    decl = robot.declaration(kind, name)
    w.para(f"{w.bold(kind)} {w.code(name)}")
    if decl is None:
        declaration = f'<{kind} name="{name}">'
        w.para(f"No {w.code(declaration)} in this robot: declare it, or fix the name.")
        return w.text()
    if kind == "joint":
        parent, child = robot.end_link(decl, "parent"), robot.end_link(decl, "child")
        w.para(
            f"{decl.get('type') or 'joint'} joint: {w.code(parent or '?')} -> {w.code(child or '?')}; its frame is its child link's"
        )
        if not child:
            return w.text()
        link = child
    else:
        link = name
        joint = robot.parent_joint.get(name)
        below = [j.get("name") or "?" for j in robot.child_joints.get(name, [])]
        if joint is not None:
            w.para(
                f"Hangs from {w.code(robot.end_link(joint, 'parent') or '?')} by joint {w.code(joint.get('name') or '?')}."
            )
        if below:
            w.para(f"Joints below it: {', '.join(w.code(b) for b in below)}.")
    root, pose = robot.pose_in_root(link)
    if root == link and kind == "link":
        w.para("It is a root link (no joint names it as its child): the robot's poses are expressed in its frame.")
    else:
        w.items(f"Relative to the root link {w.code(root)} (the joints' origins as written):", _rows(w, pose))
    return w.text()


__all__ = ["RobotStructure", "USES", "UrdfName", "urdf_hover_text"]
