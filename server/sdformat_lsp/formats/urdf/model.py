"""The links and joints of a URDF as urdfdom reads them, with their spans."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...model import PoseSpec, Ref
from ...text import Span
from ...xml import XmlAttribute, XmlElement
from .inertia import Body


@dataclass
class ULink:
    name: str
    name_span: Span
    element: XmlElement
    inertial: bool = False
    mass: float = 0.0
    parent_joint: "UJoint | None" = None
    child_joints: list["UJoint"] = field(default_factory=list)
    # filled by the conversion
    lumped: bool = False
    has_inertial: bool = False  # after lumping
    total_mass: float = 0.0
    body: "Body | None" = None  # after lumping: mass and inertia in the link frame, lumped links' included


@dataclass
class UJoint:
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
