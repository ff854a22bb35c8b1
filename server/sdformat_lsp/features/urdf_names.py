"""Definition, references and hover of a URDF's link and joint names, from the URDF as written.

The frame-graph features answer through the SDFormat model a URDF converts
to; where that model lacks the name (libsdformat dropped the link, or the
whole conversion failed) these answer from the robot's own structure
(:mod:`sdformat_lsp.queries.urdf_structure`): on ``<parent link="base_link"/>``
go to ``<link name="base_link">`` whatever libsdformat would make of it.
``features.definition``, ``references`` and ``hover`` ask them second.
"""

from __future__ import annotations

from ..queries.results import HoverResult, Location
from ..queries.urdf_structure import RobotStructure, UrdfName, urdf_hover_text
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


def urdf_hover(analysis: Analysis, offset: int, markdown: bool = True) -> HoverResult | None:
    """Hover on a link or joint name (declaration or use) of a URDF, from the URDF as written."""
    robot = robot_structure(analysis)
    here = robot.name_at(offset) if robot is not None else None
    if robot is None or here is None:
        return None
    kind = robot.kind_of(here) or ("link" if here.kind == "any" else here.kind)
    return HoverResult(urdf_hover_text(robot, kind, here.name, markdown), here.span)


__all__ = [
    "robot_structure",
    "urdf_definition",
    "urdf_definition_in",
    "urdf_hover",
    "urdf_hover_text",
    "urdf_references",
]
