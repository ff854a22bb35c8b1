"""Reading the small parts of an element: its name, its references, its pose.

Every layer that reads a pose or a name from the tree (the document builder,
the include parameters, the inertial checks, the converters, the printer)
reads it here, so that each value is parsed and each problem worded once.
A reader collects its problems in ``diagnostics``; ``version`` decides the
spellings it accepts (``frame=`` for ``relative_to=`` before 1.7).
"""

from __future__ import annotations

import math
import re

from ..diagnostics import Diagnostic, Fix, error
from ..text import Span
from ..xml import XmlDocument, XmlElement
from ..xml.tree import XmlAttribute
from .elements import NO_POSE, PoseSpec, Ref

_TRUE = {"true", "1"}
_FALSE = {"false", "0"}
_NUMBER = re.compile(r"\S+")


def version_tuple(version: str | None) -> tuple[int, int]:
    """``"1.10"`` -> ``(1, 10)``; unparsable -> ``(0, 0)``."""
    if not version:
        return (0, 0)
    parts = version.strip().split(".")
    try:
        return (int(parts[0]), int(parts[1]) if len(parts) > 1 else 0)
    except ValueError:
        return (0, 0)


def parse_bool(text: str | None) -> bool | None:
    if text is None:
        return None
    t = text.strip().lower()
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    return None


class ElementReader:
    """The readers, over one document (``xml``)."""

    def __init__(self, xml: XmlDocument) -> None:
        self.xml = xml
        self.text = xml.text
        self.diagnostics: list[Diagnostic] = []
        self.version: tuple[int, int] = (0, 0)
        self._numbers: dict[str, tuple[float, ...]] = {}

    # -- small readers -------------------------------------------------

    def numbers(self, text: str) -> tuple[float, ...]:
        """The numbers of a pose's text; () when one is not a finite number.
        Remembered by text: a document repeats its poses (``0 0 0.1 0 0 0``)."""
        found = self._numbers.get(text)
        if found is None:
            try:
                found = tuple(map(float, text.split()))
            except ValueError:
                found = ()
            if not all(map(math.isfinite, found)):
                found = ()
            self._numbers[text] = found
        return found

    def name_of(self, el: XmlElement, required: bool = True) -> tuple[str, XmlAttribute | None]:
        """The name, and the attribute that gives it (its ``value_span``, when needed, is the name's span)."""
        a = el.attributes.get("name")
        if a is None:
            if required:
                free = _free_name(el)
                self.diagnostics.append(
                    error(
                        "ATTRIBUTE_MISSING",
                        f'<{el.tag}> needs a name attribute: add name="..."',
                        el.tag_span,
                        fixes=(Fix(f'Add name="{free}"', Span(el.tag_span.end, el.tag_span.end), f' name="{free}"'),),
                    )
                )
            return "", None
        return a.value, a

    def attr_ref(self, el: XmlElement, attr: str, role: str) -> Ref | None:
        a = el.attributes.get(attr)
        if a is None:
            return None
        return Ref(a.value, a, role, el)

    def text_ref(self, el: XmlElement | None, role: str) -> Ref | None:
        if el is None:
            return None
        if el.text_span is None:
            end = el.start_tag_span.end
            return Ref("", Span(end, end), role, el)
        return Ref(el.text.strip(), el, role, el)  # its span: the element's text span

    def pose(self, owner: XmlElement, pose_el: XmlElement | None = None) -> PoseSpec:
        el = pose_el if pose_el is not None else owner.child("pose")
        if el is None:
            return NO_POSE
        if not el.attributes:  # most poses: six numbers, nothing else to read
            numbers = self.numbers(el.text)
            if len(numbers) == 6:
                return PoseSpec(el, numbers)
        rel, fmt_attr, deg_attr = self._pose_attributes(el) if el.attributes else (None, None, None)
        fmt = fmt_attr.value.strip() if fmt_attr else "euler_rpy"
        deg_value = parse_bool(deg_attr.value) if deg_attr else None
        degrees = bool(deg_value)
        valid = True
        if fmt_attr is not None and fmt not in ("euler_rpy", "quat_xyzw"):  # no attribute: euler_rpy
            self.diagnostics.append(
                error(
                    "PARAMETER_ERROR",
                    f"rotation_format '{fmt}' is not known: use 'euler_rpy' or 'quat_xyzw'",
                    fmt_attr.value_span,
                )
            )
            return PoseSpec(el, relative_to=rel, valid=False)
        quat = fmt == "quat_xyzw"
        if deg_attr is not None and deg_value is None:
            self.diagnostics.append(
                error(
                    "PARAMETER_ERROR", f"degrees must be 'true' or 'false', not '{deg_attr.value}'", deg_attr.value_span
                )
            )
            valid = False
        if quat and degrees and deg_attr is not None:  # degrees: deg_attr was read
            self.diagnostics.append(
                error(
                    "PARAMETER_ERROR",
                    'degrees="true" only applies to Euler angles; a quaternion (rotation_format="quat_xyzw") has no degrees: remove the attribute',
                    deg_attr.span,
                )
            )
            valid = False
        expected = 7 if quat else 6
        if not el.text or el.text.isspace():  # no words (str.split and isspace agree on white space)
            return PoseSpec(el, relative_to=rel, quaternion=False, degrees=degrees, valid=valid)
        numbers = self.numbers(el.text)  # the common case; any problem is found (and placed) by the loop below
        if len(numbers) == expected:
            if not quat or any(abs(v) >= 1e-300 for v in numbers[3:]):
                return PoseSpec(el, numbers, quat, degrees, rel, valid)
        span = el.text_span or el.tag_span
        values: list[float] = []
        for m in _NUMBER.finditer(el.text):
            try:
                v = float(m.group(0))
                if not math.isfinite(v):
                    raise ValueError
                values.append(v)
            except ValueError:
                start = span.start + (m.start() - (len(el.text) - len(el.text.lstrip())))
                self.diagnostics.append(
                    error(
                        "PARAMETER_ERROR",
                        f"'{m.group(0)}' in <pose> is not a number",
                        Span(start, start + len(m.group(0))),
                    )
                )
                return PoseSpec(el, relative_to=rel, valid=False)
        if len(values) != expected:
            what = "x y z qx qy qz qw" if quat else "x y z roll pitch yaw"
            self.diagnostics.append(
                error("PARAMETER_ERROR", f"<pose> needs {expected} numbers ({what}), found {len(values)}", span)
            )
            return PoseSpec(el, relative_to=rel, valid=False)
        if quat and all(abs(v) < 1e-300 for v in values[3:]):
            self.diagnostics.append(
                error("PARAMETER_ERROR", "the quaternion in <pose> is zero: it cannot describe a rotation", span)
            )
            return PoseSpec(el, relative_to=rel, valid=False)
        return PoseSpec(el, tuple(values), quat, degrees, rel, valid)

    def _pose_attributes(self, el: XmlElement) -> tuple[Ref | None, XmlAttribute | None, XmlAttribute | None]:
        """relative_to (in 1.5/1.6 also its older name frame), rotation_format and degrees of a
        ``<pose>``, in one pass over its attributes."""
        rel_attr = frame_attr = fmt_attr = deg_attr = None
        for a in el.attributes.values():  # names are unique; were one repeated, the first counts (as with get)
            name = a.name
            if name == "relative_to":
                rel_attr = rel_attr or a
            elif name == "degrees":
                deg_attr = deg_attr or a
            elif name == "rotation_format":
                fmt_attr = fmt_attr or a
            elif name == "frame":
                frame_attr = frame_attr or a
        if rel_attr is not None:
            rel = Ref(rel_attr.value, rel_attr, "relative_to", el)
        elif frame_attr is not None and frame_attr.value and self.version < (1, 7):
            rel = Ref(frame_attr.value, frame_attr, "relative_to", el)  # 1.5/1.6 name of the same idea
        else:
            rel = None
        return rel, fmt_attr, deg_attr


def _free_name(el: XmlElement) -> str:
    """A name for a quick fix that no sibling of the same tag uses yet."""
    taken = {c.get("name") for c in (el.parent.children if el.parent else [])}
    base = el.tag
    i = 1
    while f"{base}_{i}" in taken:
        i += 1
    return f"{base}_{i}"


__all__ = ["ElementReader", "parse_bool", "version_tuple"]
