"""XML tree to document model, with the basic checks the phases rely on.

Names, joint ``<parent>``/``<child>`` and pose values must be readable before
any frame graph can be built; problems with them are reported here, once.
Nested models are built bottom-up without recursion: a model may be nested
ten thousand levels deep.
"""

from __future__ import annotations

import math
import re

from ..diagnostics import Diagnostic, Fix, error
from ..text import Span
from ..xml import XmlDocument, XmlElement
from ..xml.tree import XmlAttribute
from .elements import NO_POSE, Document, Frame, Include, Joint, Link, Model, Named, PoseSpec, Ref, World

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


class Builder:
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
                        f"<{el.tag}> needs a name attribute: add name=\"...\"",
                        el.tag_span,
                        fixes=(Fix(f"Add name=\"{free}\"", Span(el.tag_span.end, el.tag_span.end), f' name="{free}"'),),
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
        if fmt not in ("euler_rpy", "quat_xyzw"):
            self.diagnostics.append(
                error("PARAMETER_ERROR", f"rotation_format '{fmt}' is not known: use 'euler_rpy' or 'quat_xyzw'", fmt_attr.value_span)
            )
            return PoseSpec(el, relative_to=rel, valid=False)
        quat = fmt == "quat_xyzw"
        if deg_attr is not None and deg_value is None:
            self.diagnostics.append(error("PARAMETER_ERROR", f"degrees must be 'true' or 'false', not '{deg_attr.value}'", deg_attr.value_span))
            valid = False
        if quat and degrees:
            self.diagnostics.append(
                error(
                    "PARAMETER_ERROR",
                    "degrees=\"true\" only applies to Euler angles; a quaternion (rotation_format=\"quat_xyzw\") has no degrees: remove the attribute",
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
                    error("PARAMETER_ERROR", f"'{m.group(0)}' in <pose> is not a number", Span(start, start + len(m.group(0))))
                )
                return PoseSpec(el, relative_to=rel, valid=False)
        if len(values) != expected:
            what = "x y z qx qy qz qw" if quat else "x y z roll pitch yaw"
            self.diagnostics.append(
                error("PARAMETER_ERROR", f"<pose> needs {expected} numbers ({what}), found {len(values)}", span)
            )
            return PoseSpec(el, relative_to=rel, valid=False)
        if quat and all(abs(v) < 1e-300 for v in values[3:]):
            self.diagnostics.append(error("PARAMETER_ERROR", "the quaternion in <pose> is zero: it cannot describe a rotation", span))
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

    # -- elements --------------------------------------------------------

    def link(self, el: XmlElement) -> Link:
        name, span = self.name_of(el)
        return Link("link", name, span, el, self.pose(el))

    def frame(self, el: XmlElement) -> Frame:
        name, span = self.name_of(el)
        return Frame("frame", name, span, el, self.pose(el), attached_to=self.attr_ref(el, "attached_to", "attached_to"))

    def joint(self, el: XmlElement) -> Joint:
        name, span = self.name_of(el)
        parent_el = child_el = axis_el = axis2_el = None
        for c in el.children:  # the first of each, in one pass
            t = c.tag
            if t == "parent":
                parent_el = parent_el or c
            elif t == "child":
                child_el = child_el or c
            elif t == "axis":
                axis_el = axis_el or c
            elif t == "axis2":
                axis2_el = axis2_el or c
        for tag, found in (("parent", parent_el), ("child", child_el)):
            if found is None:
                self.diagnostics.append(
                    error(
                        "ELEMENT_MISSING",
                        f"joint '{name}' has no <{tag}>: add <{tag}>FRAME</{tag}> naming the {tag} link or frame",
                        span.value_span if span is not None else el.tag_span,
                    )
                )
        expressed: list[Ref] = []
        mimics: list[Ref] = []
        upmf = False
        for axis in (axis_el, axis2_el):
            if axis is None:
                continue
            xyz = axis.child("xyz")
            if xyz is not None:
                r = self.attr_ref(xyz, "expressed_in", "expressed_in")
                if r is not None:
                    expressed.append(r)
            if self.version < (1, 7) and parse_bool((axis.child("use_parent_model_frame") or _EMPTY).text):
                upmf = True
            mimic = axis.child("mimic")
            if mimic is not None:
                r = self.attr_ref(mimic, "joint", "mimic")
                if r is not None:
                    mimics.append(r)
        jtype = el.get("type")
        return Joint(
            "joint",
            name,
            span,
            el,
            self.pose(el),
            type=jtype.strip() if jtype is not None else None,
            parent=self.text_ref(parent_el, "parent"),
            child=self.text_ref(child_el, "child"),
            expressed_in=tuple(expressed),
            mimics=tuple(mimics),
            use_parent_model_frame=upmf,
        )

    def include(self, el: XmlElement) -> Include:
        uri_el = el.child("uri")
        name_el = el.child("name")
        pose_el = el.child("pose")
        static = parse_bool(el.child("static").text) if el.child("static") is not None else None
        merge = bool(parse_bool(el.get("merge")))
        if uri_el is None:
            self.diagnostics.append(
                error("ATTRIBUTE_MISSING", "<include> has no <uri>: add <uri>model://NAME</uri> or a path to the model", el.tag_span)
            )
        return Include(
            el,
            self.text_ref(uri_el, "uri") if uri_el is not None else None,
            name_el.text.strip() if name_el is not None else None,
            name_el.text_span if name_el is not None else None,
            self.pose(el, pose_el) if pose_el is not None else None,
            self.text_ref(el.child("placement_frame"), "placement_frame"),
            static,
            merge,
        )

    def model(self, el: XmlElement, nested: dict[int, Model]) -> Model:
        name, span = self.name_of(el)
        links: list[Link] = []
        joints: list[Joint] = []
        frames: list[Frame] = []
        models: list[Model] = []
        includes: list[Include] = []
        members: list[Named] = []
        for c in el.children:
            t = c.tag
            if t == "link":
                x: Named = self.link(c)
                links.append(x)
            elif t == "joint":
                x = self.joint(c)
                joints.append(x)
            elif t == "frame":
                x = self.frame(c)
                frames.append(x)
            elif t == "model":
                x = nested[id(c)]
                models.append(x)
            else:
                if t == "include":
                    includes.append(self.include(c))
                continue
            members.append(x)
        static_el = el.child("static")
        return Model(
            "model",
            name,
            span,
            el,
            self.pose(el),
            canonical_link=self.attr_ref(el, "canonical_link", "canonical_link"),
            placement_frame=self.attr_ref(el, "placement_frame", "placement_frame"),
            static=bool(parse_bool(static_el.text)) if static_el is not None else False,
            links=tuple(links),
            joints=tuple(joints),
            frames=tuple(frames),
            models=tuple(models),
            includes=tuple(includes),
            members=tuple(members),
        )

    def models_under(self, el: XmlElement) -> dict[int, Model]:
        """Build every model element below ``el`` (children first), iteratively."""
        order: list[XmlElement] = []
        stack = [c for c in el.children if c.tag == "model"]
        while stack:
            m = stack.pop()
            order.append(m)
            stack.extend(c for c in m.children if c.tag == "model")
        built: dict[int, Model] = {}
        for m in reversed(order):
            built[id(m)] = self.model(m, built)
        return built

    def world(self, el: XmlElement) -> World:
        name, span = self.name_of(el)
        built = self.models_under(el)
        models: list[Model] = []
        frames: list[Frame] = []
        joints: list[Joint] = []
        includes: list[Include] = []
        members: list[Named] = []
        for c in el.children:
            if c.tag == "model":
                models.append(built[id(c)])
                members.append(models[-1])
            elif c.tag == "frame":
                frames.append(self.frame(c))
                members.append(frames[-1])
            elif c.tag == "joint" and self.version >= (1, 10):
                joints.append(self.joint(c))
                members.append(joints[-1])
            elif c.tag == "include":
                includes.append(self.include(c))
        return World(name, span, el, tuple(models), tuple(frames), tuple(joints), tuple(includes), tuple(members))

    def document(self) -> Document:
        root = self.xml.root
        if root is None:
            return Document(None, None, None)
        if root.tag != "sdf":
            return Document(None, None, root)
        va = root.attr("version")
        version = va.value.strip() if va is not None else None
        self.version = version_tuple(version)
        worlds: list[World] = []
        models: list[Model] = []
        others: list[XmlElement] = []
        built = self.models_under(root)
        for c in root.children:
            if c.tag == "world":
                worlds.append(self.world(c))
            elif c.tag == "model":
                models.append(built[id(c)])
            elif c.tag in ("actor", "light"):
                others.append(c)
        return Document(version, va.value_span if va is not None else None, root, tuple(worlds), tuple(models), tuple(others))


_EMPTY = XmlElement("", 1, 1, 1)


def _free_name(el: XmlElement) -> str:
    """A name for a quick fix that no sibling of the same tag uses yet."""
    taken = {c.get("name") for c in (el.parent.children if el.parent else [])}
    base = el.tag
    i = 1
    while f"{base}_{i}" in taken:
        i += 1
    return f"{base}_{i}"


def build(xml: XmlDocument) -> tuple[Document, list[Diagnostic]]:
    b = Builder(xml)
    doc = b.document()
    return doc, b.diagnostics


__all__ = ["build", "version_tuple", "parse_bool"]
