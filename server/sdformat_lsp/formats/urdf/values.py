"""What urdfdom accepts as a value, and the diagnostic codes of the URDF reader."""

from __future__ import annotations

import re
from typing import cast

from ...text_memo import TextMemo
from ...xml import XmlDocument, XmlElement

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
XACRO_LEFTOVER = "URDF_XACRO_LEFTOVER"  # ours: xacro elements in a .urdf file, ignored by its readers

JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
SDF_JOINT_TYPE = {"revolute": "revolute", "continuous": "revolute", "prismatic": "prismatic", "fixed": "fixed"}
GEOMETRY_ATTRS = {"box": ("size",), "cylinder": ("radius", "length"), "sphere": ("radius",), "mesh": ("filename",)}
BLOB_TAGS = ("link", "joint", "frame", "model")

# a number as urdfdom reads it (std::istream >> double, the whole piece)
FLOAT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")


def is_urdf(xml: XmlDocument) -> bool:
    return xml.root is not None and xml.root.tag == "robot"


_NUMBERS: TextMemo[str, float | None] = TextMemo(8192)  # a robot repeats "0", "1", "0.05" thousands of times
_UNREAD = object()


def number(text: str) -> float | None:
    found = _NUMBERS.get(text, _UNREAD)  # one lookup: another analysis's thread may clear the table
    if found is not _UNREAD:
        return cast("float | None", found)
    t = text.strip()
    value = float(t) if FLOAT.match(t) else None
    return _NUMBERS.keep(text, value)


def truthy(text: str) -> bool:
    t = text.strip()
    return t.lower() in ("true", "yes") or t == "1"


def key_value(el: XmlElement) -> str:
    """A gazebo extension's value: its ``value`` attribute or its text."""
    v = el.get("value")
    return (v if v is not None else el.text).strip()
