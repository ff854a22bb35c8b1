"""A URDF robot as plain values, ready to be written (``writer``).

Poses are ``model.transform.Transform`` values: a link's parts and a joint's
origin in the URDF frame of the link that holds them. Whoever builds a
``Robot`` (the SDFormat to URDF conversion) has resolved every frame already;
the writer only prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...model.transform import IDENTITY, Transform


@dataclass
class Geometry:
    shape: str  # box, cylinder, sphere, mesh
    size: tuple[float, float, float] = (0.0, 0.0, 0.0)  # box
    radius: float = 0.0  # cylinder, sphere
    length: float = 0.0  # cylinder
    filename: str = ""  # mesh
    scale: tuple[float, float, float] | None = None  # mesh; None: not written (1 1 1)


@dataclass
class Material:
    name: str
    rgba: tuple[float, float, float, float] | None = None
    texture: str | None = None


@dataclass
class Part:
    """A ``<visual>`` or ``<collision>``."""

    name: str | None
    origin: Transform
    geometry: Geometry
    material: Material | None = None  # visuals only


@dataclass
class Inertial:
    origin: Transform
    mass: float
    inertia: tuple[float, float, float, float, float, float]  # ixx ixy ixz iyy iyz izz


@dataclass
class RobotLink:
    name: str
    inertial: Inertial | None = None
    visuals: list[Part] = field(default_factory=list)
    collisions: list[Part] = field(default_factory=list)


@dataclass
class Limit:
    effort: float
    velocity: float
    lower: float | None = None  # None: not written (continuous)
    upper: float | None = None


@dataclass
class Mimic:
    joint: str
    multiplier: float = 1.0
    offset: float = 0.0


@dataclass
class RobotJoint:
    name: str
    type: str  # revolute, continuous, prismatic, fixed
    parent: str
    child: str
    origin: Transform = IDENTITY
    axis: tuple[float, float, float] | None = None  # None: not written
    limit: Limit | None = None
    damping: float | None = None
    friction: float | None = None
    mimic: Mimic | None = None


@dataclass
class Extension:
    """A ``<gazebo>`` block: SDFormat elements Gazebo adds back when it reads the URDF."""

    reference: str | None  # a link or joint name; None for the robot
    body: list[str] = field(default_factory=list)  # serialised XML elements


@dataclass
class Robot:
    name: str
    links: list[RobotLink] = field(default_factory=list)
    joints: list[RobotJoint] = field(default_factory=list)
    extensions: list[Extension] = field(default_factory=list)
    comment: str | None = None
