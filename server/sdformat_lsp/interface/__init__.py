"""Models written in other formats, as libsdformat's interface API sees them.

An ``<include>`` may name a file that is not SDFormat: a *model parser*
(``sdformat_lsp.model_parsers`` entry points, the configuration's
``[model-parsers]`` table, or the built-in MJCF reader) turns it into an
:class:`InterfaceModel`, and its links, frames, joints and nested models
enter the including model's frame graph as libsdformat adds them
(``FrameSemantics.cc``: an interface link's pose is relative to its model
frame, an interface frame's to what it is attached to, an interface joint's
to its child, a nested interface model's to its parent model's frame).

These are the types a parser returns (after the model composition proposal's
section 1.5 and libsdformat's ``InterfaceModel``, ``InterfaceLink``,
``InterfaceFrame``, ``InterfaceJoint``), :class:`ParseError` for what it
rejects, and :class:`IncludedFile`, what it is given. Poses are six numbers
(x y z roll pitch yaw, radians), a 4x4 homogeneous matrix (rows), or a
:class:`~sdformat_lsp.model.transform.Transform`. See docs/includes.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

__all__ = [
    "IncludedFile",
    "InterfaceFrame",
    "InterfaceJoint",
    "InterfaceLink",
    "InterfaceModel",
    "ParseError",
    "Pose",
]

# six numbers, a 4x4 matrix (rows) or a model.transform.Transform: see pose.as_transform
Pose = Any
IDENTITY_POSE: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


class ParseError(Exception):
    """What a parser raises for a file it is meant to read but cannot: one error on the
    ``<include>``, with ``line`` (1-based, in the included file) as its related location."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


@dataclass(frozen=True)
class IncludedFile:
    """What a parser is given: the file an ``<include>`` names, and what the include says of it."""

    path: str  # absolute path of the file
    text: str  # its text (from the editor when it is open there)
    name: str | None = None  # //include/name, None when not written: the parser names the model
    uri: str = ""  # //include/uri as written
    static: bool | None = None  # //include/static, None when not written


@dataclass(frozen=True)
class InterfaceLink:
    """A link: its local name and its pose in the model frame."""

    name: str
    pose: Pose = IDENTITY_POSE
    line: int | None = None  # where it is defined in the file (1-based), for locations
    source: object | None = field(default=None, compare=False, repr=False)  # a built-in reader's XML element


@dataclass(frozen=True)
class InterfaceFrame:
    """A frame: its local name, the frame it is attached to (a link, frame or joint of the
    same model, a nested model's ``child::name``, or ``__model__``) and its pose there."""

    name: str
    attached_to: str
    pose: Pose = IDENTITY_POSE
    line: int | None = None
    source: object | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class InterfaceJoint:
    """A joint: its local name, its child (link or frame) and its pose in the child's frame.
    ``type`` is informational (hover); libsdformat's interface joint has none."""

    name: str
    child: str
    pose: Pose = IDENTITY_POSE
    type: str | None = None
    parent: str | None = None  # informational, as type
    line: int | None = None
    source: object | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class InterfaceModel:
    """A model: its local name (no ``::``), its canonical link (a link of this model or
    ``nested::link``), its model frame's pose in the including model's frame (used when the
    ``<include>`` has no ``<pose>``), and its links, frames, joints and nested models.

    ``pose_in_canonical_link`` is the seed's "model frame pose in the canonical link's
    frame": libsdformat derives it from the canonical link's pose in the model frame, so
    when given it must agree with that (else the parser's result is rejected)."""

    name: str
    canonical_link: str
    pose_in_parent: Pose = IDENTITY_POSE
    links: Sequence[InterfaceLink] = ()
    frames: Sequence[InterfaceFrame] = ()
    joints: Sequence[InterfaceJoint] = ()
    models: Sequence["InterfaceModel"] = ()
    static: bool = False
    pose_in_canonical_link: Pose | None = None
    supports_merge: bool = False  # libsdformat's ParserSupportsMergeInclude
    files: Sequence[
        str
    ] = ()  # other files the parser read for it (included parts): a change to one reads the model again
    line: int | None = None
    source: object | None = field(default=None, compare=False, repr=False)
