"""An :class:`InterfaceModel` as the document model, so that the frame graphs take it like any model.

libsdformat wraps interface links, frames, joints and models in the same
wrappers as their SDFormat twins (``FrameSemantics.cc``): a link's pose is
relative to ``__model__``, a frame is attached to, and posed relative to, its
``attached_to``, a joint is posed relative to its child, a nested model
relative to its parent's model frame, and the model frame is attached to the
canonical link. So the document model built here says exactly that, and the
frame building of SDFormat models does the rest (include pose, placement
frame, name, merge).

What a parser returns is checked first (:class:`InterfaceFault`): a result
the graphs cannot hold (a missing canonical link, a frame attached to a name
that does not exist, a cycle, names repeated or scoped) is the parser's fault,
reported on the include, never half used.

Every element points into the included file: at the XML element a built-in
reader gave (``source``), else at the ``line`` the parser gave (the name's
first occurrence on that line), else at the start of the file.
"""

from __future__ import annotations

import math
from typing import Iterable

from ..model import Frame, Joint, Link, Model, PoseSpec, Ref
from ..model.elements import Named, Where
from ..text import Span
from ..xml import XmlElement
from . import InterfaceFrame, InterfaceJoint, InterfaceLink, InterfaceModel
from .pose import as_transform

MAX_ELEMENTS = 200_000  # links, frames, joints and models in one result: more is not a model but a runaway parser
MODEL_FRAME = "__model__"


class InterfaceFault(Exception):
    """The parser returned something that is not a usable interface model; the message says what."""


class _Places:
    """Offsets in the included file for what a parser located by line (or not at all)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.starts.append(i + 1)

    def line(self, line: int | None) -> tuple[int, int]:
        if not isinstance(line, int) or isinstance(line, bool) or line < 1 or line > len(self.starts):
            return 0, 0
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        if end > start and self.text[end - 1] == "\r":
            end -= 1
        return start, end

    def element(self, kind: str, line: int | None) -> XmlElement:
        start, end = self.line(line)
        ts = min(max(start, 1), len(self.text)) if self.text else 0
        return XmlElement(kind, ts, max(ts, end), max(ts, end), closed=True)

    def name(self, name: str, line: int | None) -> Span:
        start, end = self.line(line)
        at = self.text.find(name, start, end) if name and end > start else -1
        if at >= 0:
            return Span(at, at + len(name))
        # the name is not written as such on its line (made by a macro, say): the line's text
        while start < end and self.text[start] in " \t":
            start += 1
        return Span(start, end)


def _element_of(thing, kind: str, places: _Places) -> tuple[XmlElement, Where]:
    """The element standing for ``thing`` and where its name is written."""
    src = getattr(thing, "source", None)
    if isinstance(src, XmlElement):
        attr = src.attr("name")
        return src, (attr if attr is not None else src.tag_span)
    el = places.element(kind, getattr(thing, "line", None))
    return el, places.name(thing.name, getattr(thing, "line", None))


def _pose(value: object, element: XmlElement, what: str, relative_to: Ref | None = None) -> PoseSpec:
    try:
        t = as_transform(value)
    except ValueError as exc:
        raise InterfaceFault(f"{what}: {exc}") from None
    w, x, y, z = t.q
    if not all(math.isfinite(v) for v in (*t.p, w, x, y, z)):
        raise InterfaceFault(f"{what}: the pose is not finite")
    return PoseSpec(element, (*t.p, x, y, z, w), quaternion=True, relative_to=relative_to)


def _name(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InterfaceFault(f"{what} has the name {value!r}, which is not a string")
    if not value:
        raise InterfaceFault(f"{what} has an empty name")
    if "::" in value:
        raise InterfaceFault(f"{what} '{value}' has '::' in its name: a local name is one word; nest a model instead")
    return value


def _items(value: object, kind: type, what: str) -> list:
    try:
        items = list(value)  # type: ignore[call-overload]
    except TypeError:
        raise InterfaceFault(f"{what} is {type(value).__name__}, not a list") from None
    for it in items:
        if not isinstance(it, kind):
            raise InterfaceFault(f"{what} holds {type(it).__name__}, not {kind.__name__}")
    return items


class _Checked:
    """One interface model's members, checked, with its nested models' (by name)."""

    def __init__(self, m: InterfaceModel, label: str) -> None:
        self.m = m
        self.label = label
        self.name = _name(m.name, f"the model {label}")
        self.links: list[InterfaceLink] = _items(m.links, InterfaceLink, f"the links of model '{label}'")
        self.frames: list[InterfaceFrame] = _items(m.frames, InterfaceFrame, f"the frames of model '{label}'")
        self.joints: list[InterfaceJoint] = _items(m.joints, InterfaceJoint, f"the joints of model '{label}'")
        self.models: list[InterfaceModel] = _items(m.models, InterfaceModel, f"the nested models of model '{label}'")
        self.nested: dict[str, _Checked] = {}
        self.kinds: dict[str, str] = {}
        for kind, group in (
            ("link", self.links),
            ("frame", self.frames),
            ("joint", self.joints),
            ("model", self.models),
        ):
            for it in group:
                n = _name(it.name, f"a {kind} of model '{label}'")
                if n == MODEL_FRAME or n == "world" or (n.startswith("__") and n.endswith("__")):
                    raise InterfaceFault(f"the {kind} '{n}' of model '{label}' has a reserved name")
                if n in self.kinds:
                    raise InterfaceFault(
                        f"model '{label}' has two members named '{n}' (a {self.kinds[n]} and a {kind})"
                    )
                self.kinds[n] = kind

    def find(self, path: str) -> str | None:
        """The kind of the member ``path`` names (``a::b::name`` through nested models), or None."""
        parts = path.split("::")
        scope: _Checked | None = self
        for p in parts[:-1]:
            scope = scope.nested.get(p) if scope is not None else None
        if scope is None:
            return None
        if parts[-1] == MODEL_FRAME and len(parts) > 1:
            return "model"
        return scope.kinds.get(parts[-1])


def _check_all(root: object) -> list[_Checked]:
    """Every model of the result, outermost first (parents before children), checked; iterative."""
    if not isinstance(root, InterfaceModel):
        raise InterfaceFault(f"it returned {type(root).__name__}, not an InterfaceModel (or None)")
    top = _Checked(root, str(root.name))
    order = [top]
    count = 0
    i = 0
    while i < len(order):
        c = order[i]
        i += 1
        count += 1 + len(c.links) + len(c.frames) + len(c.joints)
        if count > MAX_ELEMENTS:
            raise InterfaceFault(f"it returned more than {MAX_ELEMENTS:,} links, frames, joints and models")
        for nm in c.models:
            child = _Checked(nm, f"{c.label}::{nm.name}")
            c.nested[child.name] = child
            order.append(child)
    for c in order:
        _check_references(c)
    return order


def _check_references(c: _Checked) -> None:
    m = c.m
    canonical = m.canonical_link
    if not isinstance(canonical, str) or not canonical:
        if not m.static or canonical not in ("", None):
            raise InterfaceFault(f"model '{c.label}' has no canonical link: name one of its links")
    elif c.find(canonical) != "link":
        raise InterfaceFault(f"the canonical link '{canonical}' of model '{c.label}' is not one of its links")
    nxt: dict[str, str] = {}
    for f in c.frames:
        target = f.attached_to
        if not isinstance(target, str) or not target:
            raise InterfaceFault(
                f"the frame '{f.name}' of model '{c.label}' is attached to nothing: name a link, frame or joint, or __model__"
            )
        if target == f.name:
            raise InterfaceFault(f"the frame '{f.name}' of model '{c.label}' is attached to itself")
        if target != MODEL_FRAME and c.find(target) is None:
            raise InterfaceFault(
                f"the frame '{f.name}' of model '{c.label}' is attached to '{target}', which the model does not have"
            )
        nxt[f.name] = target
    for j in c.joints:
        child = j.child
        if not isinstance(child, str) or not child:
            raise InterfaceFault(f"the joint '{j.name}' of model '{c.label}' has no child")
        if child != MODEL_FRAME and c.find(child) is None:
            raise InterfaceFault(
                f"the child '{child}' of the joint '{j.name}' of model '{c.label}' is not in the model"
            )
        nxt[j.name] = child
    for start in nxt:  # attached_to and child chains among this model's frames and joints: no cycle
        seen = {start}
        at = nxt.get(start)
        while at is not None and at in nxt:
            if at in seen:
                raise InterfaceFault(
                    f"the frames and joints of model '{c.label}' are attached in a cycle through '{at}'"
                )
            seen.add(at)
            at = nxt[at]
    if m.pose_in_canonical_link is not None and isinstance(canonical, str) and canonical and "::" not in canonical:
        link = next(lk for lk in c.links if lk.name == canonical)
        try:
            x_ml = as_transform(link.pose)
            x_lm = as_transform(m.pose_in_canonical_link)
        except ValueError as exc:
            raise InterfaceFault(f"model '{c.label}': {exc}") from None
        e = x_ml * x_lm  # the identity when both say the same
        if max(abs(v) for v in e.p) > 1e-9 or abs(abs(e.q[0]) - 1.0) > 1e-9:
            raise InterfaceFault(
                f"model '{c.label}' gives its model frame a pose in the canonical link '{canonical}' that is not the inverse "
                "of that link's pose in the model frame"
            )


def interface_to_model(result: object, text: str) -> Model:
    """The document model of a parser's result (its elements placed in ``text``, the included
    file); :class:`InterfaceFault` when the result is not a usable interface model."""
    order = _check_all(result)
    places = _Places(text)
    built: dict[int, Model] = {}
    for c in reversed(order):  # children before their parents
        built[id(c)] = _model(c, places, [built[id(n)] for n in c.nested.values()])
    return built[id(order[0])]


def _ref(text: str, at: Where, role: str, element: XmlElement) -> Ref:
    return Ref(text, at, role, element)


def _model(c: _Checked, places: _Places, nested: Iterable[Model]) -> Model:
    m = c.m
    element, name_at = _element_of(m, "model", places)
    pose = _pose(m.pose_in_parent, element, f"the pose of model '{c.label}'")
    members: list[Named] = []
    links = []
    for lk in c.links:
        el, at = _element_of(lk, "link", places)
        links.append(
            Link("link", lk.name, at, el, _pose(lk.pose, el, f"the pose of link '{lk.name}' of model '{c.label}'"))
        )
    frames = []
    for f in c.frames:
        el, at = _element_of(f, "frame", places)
        attached = _ref(f.attached_to, el.tag_span if isinstance(f.source, XmlElement) else at, "attached_to", el)
        frames.append(
            Frame(
                "frame",
                f.name,
                at,
                el,
                _pose(f.pose, el, f"the pose of frame '{f.name}' of model '{c.label}'"),
                attached_to=attached,
            )
        )
    joints = []
    for j in c.joints:
        el, at = _element_of(j, "joint", places)
        where = el.tag_span if isinstance(j.source, XmlElement) else at
        parent = _ref(j.parent, where, "parent", el) if isinstance(j.parent, str) and j.parent else None
        joints.append(
            Joint(
                "joint",
                j.name,
                at,
                el,
                _pose(j.pose, el, f"the pose of joint '{j.name}' of model '{c.label}'"),
                type=j.type if isinstance(j.type, str) else None,
                parent=parent,
                child=_ref(j.child, where, "child", el),
            )
        )
    models = tuple(nested)
    members.extend(links)
    members.extend(frames)
    members.extend(joints)
    members.extend(models)
    canonical = (
        _ref(
            m.canonical_link,
            element.tag_span if isinstance(m.source, XmlElement) else name_at,
            "canonical_link",
            element,
        )
        if isinstance(m.canonical_link, str) and m.canonical_link
        else None
    )
    return Model(
        "model",
        c.name,
        name_at,
        element,
        pose,
        canonical_link=canonical,
        static=bool(m.static),
        links=tuple(links),
        joints=tuple(joints),
        frames=tuple(frames),
        models=models,
        members=tuple(members),
    )
