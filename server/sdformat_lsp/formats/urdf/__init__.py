"""URDF: read as libsdformat reads it (into the document model), written from plain descriptions.

libsdformat reads a URDF through urdfdom and turns it into an SDFormat 1.11
model (``parser_urdf.cc``). ``urdf_to_model`` does the same on our XML tree,
so that a URDF is analysed like the SDFormat file it becomes, with every name
and reference pointing back at the URDF text. ``reader`` (with ``joints`` and
``tree``) is urdfdom's part, ``to_model`` libsdformat's conversion.
"""

from __future__ import annotations

from ...diagnostics import Diagnostic, warning
from ...model import Model
from ...xml import XmlDocument, XmlElement
from .reader import Reader
from .to_model import ModelMaker
from .values import URDF_SDF_VERSION, XACRO, is_urdf


def is_xacro(robot: XmlElement) -> bool:
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
    if is_xacro(xml.root):
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
    model = ModelMaker(conv).convert()
    return model, conv.diagnostics


__all__ = ["URDF_SDF_VERSION", "is_urdf", "is_xacro", "urdf_to_model"]
