"""Definition, references and hover of a URDF's link and joint names, from the URDF as written.

The frame-graph features answer through the SDFormat model a URDF converts
to; where that model lacks the name (libsdformat dropped the link, or the
whole conversion failed) these answer from the robot's own structure
(:mod:`sdformat_lsp.queries.urdf_structure`): on ``<parent link="base_link"/>``
go to ``<link name="base_link">`` whatever libsdformat would make of it.
``features.definition``, ``references`` and ``hover`` ask them second.
"""

from __future__ import annotations

import math

from ..queries.frames import format_numbers
from ..queries.results import HoverResult, Location, Writer
from ..queries.urdf_structure import RobotStructure, UrdfName
from ..semantics.analysis import Analysis
from ..xml import XmlElement


def robot_structure(analysis: Analysis) -> RobotStructure | None:
    """The structure of ``analysis``'s ``<robot>`` (None when the document is not a URDF)."""
    root = analysis.xml.root
    if root is None or root.tag != "robot":
        return None
    return RobotStructure(root)


def _name_span(el: XmlElement):
    a = el.attr("name")
    return a.value_span if a is not None else el.tag_span


def urdf_definition_in(robot: RobotStructure, offset: int) -> tuple[UrdfName, XmlElement] | None:
    """The name at ``offset`` and the element declaring it (None when nothing declares it)."""
    here = robot.name_at(offset)
    if here is None:
        return None
    kind = robot.kind_of(here)
    decl = robot.declaration(kind, here.name) if kind is not None else None
    return (here, decl) if decl is not None else None


def urdf_definition(analysis: Analysis, offset: int) -> list[Location]:
    """The ``<link name>`` or ``<joint name>`` the name under the cursor names, as written."""
    robot = robot_structure(analysis)
    found = urdf_definition_in(robot, offset) if robot is not None else None
    return [Location(None, _name_span(found[1]))] if found is not None else []


def urdf_references(analysis: Analysis, offset: int, include_declaration: bool = True) -> list[Location]:
    """Every declaration (when asked) and use of the link or joint name under the cursor."""
    robot = robot_structure(analysis)
    here = robot.name_at(offset) if robot is not None else None
    kind = robot.kind_of(here) if robot is not None and here is not None else None
    if robot is None or here is None or kind is None:
        return []
    return [Location(None, n.span) for n in robot.uses_of(kind, here.name) if include_declaration or not n.declares]


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
        w.para(f"{decl.get('type') or 'joint'} joint: {w.code(parent or '?')} -> {w.code(child or '?')}; its frame is its child link's")
        if not child:
            return w.text()
        link = child
    else:
        link = name
        joint = robot.parent_joint.get(name)
        below = [j.get("name") or "?" for j in robot.child_joints.get(name, [])]
        if joint is not None:
            w.para(f"Hangs from {w.code(robot.end_link(joint, 'parent') or '?')} by joint {w.code(joint.get('name') or '?')}.")
        if below:
            w.para(f"Joints below it: {', '.join(w.code(b) for b in below)}.")
    root, pose = robot.pose_in_root(link)
    if root == link and kind == "link":
        w.para("It is a root link (no joint names it as its child): the robot's poses are expressed in its frame.")
    else:
        w.items(f"Relative to the root link {w.code(root)} (the joints' origins as written):", _rows(w, pose))
    return w.text()


def urdf_hover(analysis: Analysis, offset: int, markdown: bool = True) -> HoverResult | None:
    """Hover on a link or joint name (declaration or use) of a URDF, from the URDF as written."""
    robot = robot_structure(analysis)
    here = robot.name_at(offset) if robot is not None else None
    if robot is None or here is None:
        return None
    kind = robot.kind_of(here) or ("link" if here.kind == "any" else here.kind)
    return HoverResult(urdf_hover_text(robot, kind, here.name, markdown), here.span)


__all__ = ["robot_structure", "urdf_definition", "urdf_definition_in", "urdf_hover", "urdf_hover_text", "urdf_references"]
