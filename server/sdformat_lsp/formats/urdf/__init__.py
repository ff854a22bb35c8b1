"""URDF: read as libsdformat reads it (into the document model), written from plain descriptions.

libsdformat reads a URDF through urdfdom and turns it into an SDFormat 1.11
model (``parser_urdf.cc``). ``urdf_to_model`` does the same on our XML tree,
so that a URDF is analysed like the SDFormat file it becomes, with every name
and reference pointing back at the URDF text. ``reader`` (with ``joints`` and
``tree``) is urdfdom's part, ``to_model`` libsdformat's conversion.
"""

from __future__ import annotations

from ...diagnostics import Diagnostic, Related, warning
from ...model import Model
from ...xml import XmlDocument, XmlElement
from .names import check_scoped_names
from .reader import Reader
from .to_model import ModelMaker
from .values import URDF_SDF_VERSION, XACRO, XACRO_LEFTOVER, is_urdf


def is_xacro(robot: XmlElement) -> bool:
    """Whether a ``<robot>`` uses xacro elements (see ``xacro_elements``)."""
    return bool(xacro_elements(robot))


def xacro_elements(robot: XmlElement) -> list[XmlElement]:
    """The xacro elements (``<xacro:macro>``, ``<xacro:property>``...) of a ``<robot>``, in document order.

    Declaring the namespace is not enough: xacro's output keeps the ``xmlns:xacro`` of its
    input, and those expanded files are plain URDF that libsdformat reads (and refuses) as such.
    """
    prefixes = {"xacro"} | {
        name.split(":", 1)[1]
        for name, a in robot.attributes.items()
        if name.startswith("xmlns:") and "xacro" in a.value
    }
    return [el for el in robot.iter() if el.prefix in prefixes]


def urdf_to_model(
    xml: XmlDocument, path: str | None = None, keep_massless: bool = False
) -> tuple[Model | None, list[Diagnostic]]:
    """Convert the ``<robot>`` of ``xml`` as libsdformat does (``keep_massless``: but keep the links without
    mass that libsdformat leaves out, with those below them, for a view of the robot as described).

    The model is built even when the URDF has errors (they are in the
    diagnostics): what could not be read is left out. None when the root
    is not a ``<robot>``, or is a xacro template (which must be expanded
    before it is a URDF): a ``<robot>`` using xacro elements, unless its
    file is named ``*.urdf``. Gazebo reads a ``.urdf`` file as URDF whatever
    it holds (urdfdom ignores the xacro elements), so that is how it is
    checked, with one warning naming the xacro elements left in it.
    """
    if not is_urdf(xml):
        return None, []
    assert xml.root is not None
    leftovers = xacro_elements(xml.root)
    is_urdf_file = path is not None and path.lower().endswith(".urdf")
    if leftovers and not is_urdf_file:
        return None, [
            warning(
                XACRO,
                "this is a xacro template, not a URDF yet: it is not checked; expand it (`xacro robot.urdf.xacro > robot.urdf`) "
                "and check the result",
                xml.root.tag_span,
                data={"urdf": "xacro"},
            )
        ]
    conv = Reader(xml)
    model = ModelMaker(conv, keep_massless=keep_massless).convert()
    check_scoped_names(conv)
    if leftovers:
        first = leftovers[0]
        more = len(leftovers) - 1
        conv.diagnostics.append(
            warning(
                XACRO_LEFTOVER,
                f"<{first.tag}> is a xacro element left in this URDF"
                + (f", with {more} more" if more else "")
                + ": URDF readers (libsdformat, urdfdom) ignore xacro elements, so this file is checked without them; "
                "if it is a template, expand it with xacro and use the output",
                first.tag_span,
                related=tuple(Related(el.tag_span, f"xacro element <{el.tag}>") for el in leftovers[1:]),
                data={"urdf": "xacro"},
            )
        )
    return model, conv.diagnostics


__all__ = ["URDF_SDF_VERSION", "is_urdf", "is_xacro", "urdf_to_model"]
