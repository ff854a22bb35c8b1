"""An MJCF model's kinematic tree as an interface model (bodies as links, sites and cameras as frames).

MuJoCo's conventions, from its XML reference:

- ``<worldbody>`` is the world; each ``<body>`` is placed in its parent body's
  frame by ``pos`` and one orientation (``orientation.py``). The interface
  model's frame is MuJoCo's world frame, so a body's link pose is the
  composition from the world down to it; the canonical link is the first body
  of ``<worldbody>``.
- ``<site>`` and ``<camera>`` are frames fixed in their body: frames attached
  to its link (to ``__model__`` when written in ``<worldbody>`` itself).
- ``<joint>`` (``hinge``, ``slide``, ``ball``, ``free``; ``hinge`` by default)
  and ``<freejoint>`` connect a body to its parent: joints whose child is the
  body's link, posed at ``pos`` in the body frame.
- ``<frame>`` (MuJoCo 3) places what it holds and is not itself a frame of the
  compiled model.
- ``<default>`` classes: an element takes each attribute it does not write from
  its class (``class``, else the ``childclass`` of the nearest enclosing body or
  frame that has one, else ``main``), then that class's ancestors.
- ``<include file>`` inserts the children of the named file's root element
  (``<mujoco>``, ``<mujocoinclude>``: MuJoCo drops it whatever its name),
  relative to the including model file's directory; what it brings is
  located at the ``<include>``.
- Angles are degrees unless ``<compiler angle="radian">``; ``eulerseq`` is
  ``xyz`` unless the compiler says otherwise.

Unnamed bodies become links named ``body<N>`` (N: MuJoCo's body index, the
world being 0) so that what they carry still has a link; unnamed sites,
cameras and joints are left out (nothing can name them). ``<replicate>``,
``<attach>``, ``<composite>`` and ``<flexcomp>`` generate bodies at compile
time and are not followed (docs/deviations.md). A camera aiming at a body
(``mode="targetbody"``, ``"targetbodycom"``) is turned by MuJoCo as the
model moves: its frame here is the orientation written.
"""

from __future__ import annotations

import os

from ...diagnostics import Diagnostic, error, warning
from ...interface import InterfaceFrame, InterfaceJoint, InterfaceLink, InterfaceModel
from ...model.transform import Transform
from ...xml import XmlDocument, XmlElement
from .inclusion import Inclusion, Source
from .name_references import MJCF_REFERENCE_UNKNOWN, check_names
from .orientation import ORIENTATIONS, orientation

MJCF_ERROR = "MJCF_ERROR"
JOINT_TYPES = {"hinge": "revolute", "slide": "prismatic", "ball": "ball", "free": "free"}
_PLACED = ("body", "site", "camera", "joint", "geom", "frame", "light")
_NOT_FOLLOWED = ("replicate", "attach", "composite", "flexcomp")


def is_mjcf(xml: XmlDocument) -> bool:
    return xml.root is not None and xml.root.tag == "mujoco"


class MjcfReader:
    """Reads one ``<mujoco>`` document; ``read()`` gives the interface model and the diagnostics."""

    def __init__(self, xml: XmlDocument, path: str | None, name: str | None = None) -> None:
        self.xml = xml
        self.path = path
        self.name = name
        self.diagnostics: list[Diagnostic] = []
        self.degrees = True
        self.eulerseq = "xyz"
        self.classes: dict[str, tuple[str | None, dict[str, dict[str, str]]]] = {}
        self.inclusion = Inclusion(path, self.report)
        self.children = self.inclusion.children

    # -- diagnostics ---------------------------------------------------------

    def report(
        self, src: Source, message: str, attr: str | None = None, severity=error, code=MJCF_ERROR, fixes=()
    ) -> None:
        if src.at is not None:
            where = src.at.tag_span
            message = f"{message} (in a file included here)"
        else:
            a = src.element.attr(attr) if attr else None
            where = a.value_span if a is not None else src.element.tag_span
        self.diagnostics.append(severity(code, message, where, fixes=fixes, data={"mjcf": True}))

    # -- values ----------------------------------------------------------------

    def _numbers(self, src: Source, attr: str, text: str) -> list[float] | None:
        try:
            return [float(t) for t in text.split()]
        except ValueError:
            self.report(src, f'{attr}="{text}" is not a list of numbers', attr)
            return None

    def value(self, src: Source, name: str, cls: str | None) -> str | None:
        """``name`` as the element writes it, else from its class and the class's ancestors."""
        return inherited_value(self.classes, src.element, name, cls)

    def _class_of(self, src: Source, childclass: str) -> str:
        cls = src.element.get("class")
        if cls is None:
            return childclass
        if cls not in self.classes:
            self.report(
                src,
                f"class '{cls}' is not defined by any <default>: the element keeps MuJoCo's built-in defaults",
                "class",
            )
            return childclass
        return cls

    def placement(self, src: Source, cls: str | None) -> Transform:
        """``pos`` and orientation of an element in its parent's frame (for a site or geom with
        ``fromto``: the segment's midpoint, Z along it, as MuJoCo places it)."""
        if src.element.tag in ("site", "geom"):
            fromto = self.value(src, "fromto", cls)
            nums = self._numbers(src, "fromto", fromto) if fromto is not None else None
            if nums is not None and len(nums) == 6:
                a, b = nums[:3], nums[3:]
                d = [a[i] - b[i] for i in range(3)]  # MuJoCo's Z points from the second point to the first
                if any(d):
                    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2)
                    return Transform(mid, orientation("zaxis", d, False, "xyz"))
        pos_text = self.value(src, "pos", cls)
        pos = (0.0, 0.0, 0.0)
        if pos_text is not None:
            nums = self._numbers(src, "pos", pos_text)
            if nums is not None and len(nums) == 3:
                pos = (nums[0], nums[1], nums[2])
            elif nums is not None:
                self.report(src, f"pos needs 3 numbers, not {len(nums)}", "pos")
        written = [k for k in ORIENTATIONS if src.element.get(k) is not None]
        if len(written) > 1:
            self.report(
                src,
                f"{' and '.join(written)} both give an orientation: MuJoCo refuses more than one; keep one",
                written[1],
            )
        kind, text = (written[0], src.element.get(written[0]) or "") if written else self._class_orientation(src, cls)
        q = (1.0, 0.0, 0.0, 0.0)
        if kind is not None:
            nums = self._numbers(src, kind, text)
            if nums is not None:
                try:
                    q = orientation(kind, nums, self.degrees, self.eulerseq)
                except ValueError as exc:
                    self.report(src, f'{kind}="{text}": {exc}', kind)
        return Transform(pos, q)

    def _class_orientation(self, src: Source, cls: str | None) -> tuple[str | None, str]:
        """The orientation a class gives: that of the nearest class (then its ancestors) writing one, as
        MuJoCo keeps one orientation per class (a class's ``euler`` replaces its parent's ``zaxis``)."""
        seen = set()
        while cls is not None and cls not in seen:
            seen.add(cls)
            entry = self.classes.get(cls)
            if entry is None:
                break
            attrs = entry[1].get(src.element.tag, {})
            kind = next((k for k in ORIENTATIONS if k in attrs), None)
            if kind is not None:
                return kind, attrs[kind]
            cls = entry[0]
        return None, ""

    # -- the document --------------------------------------------------------

    def settings(self, top: list[Source]) -> None:
        for s in top:
            if s.element.tag == "compiler":
                angle = s.element.get("angle")
                if angle in ("degree", "radian"):
                    self.degrees = angle == "degree"
                elif angle is not None:
                    self.report(s, f'angle="{angle}" is not degree or radian', "angle")
                seq = s.element.get("eulerseq")
                if seq is not None:
                    if len(seq) == 3 and all(ch in "xyzXYZ" for ch in seq):
                        self.eulerseq = seq
                    else:
                        self.report(s, f'eulerseq="{seq}" is not three of x, y, z, X, Y, Z', "eulerseq")
        for s in top:
            if s.element.tag == "default":
                self._defaults(s)
        self.classes.setdefault("main", (None, {}))

    def _defaults(self, top: Source) -> None:
        stack: list[tuple[Source, str | None]] = [(top, None)]
        while stack:
            src, parent = stack.pop()
            name = src.element.get("class") or ("main" if parent is None else None)
            if name is None:
                self.report(src, "a nested <default> needs a class attribute", None)
                continue
            if name in self.classes and not (name == "main" and parent is None):
                self.report(src, f"class '{name}' is defined twice", "class")
            attrs: dict[str, dict[str, str]] = {}
            self.classes[name] = (parent, attrs)
            for c in self.children(src):
                if c.element.tag == "default":
                    stack.append((c, name))
                else:
                    attrs.setdefault(c.element.tag, {}).update({k: a.value for k, a in c.element.attributes.items()})

    def read(self) -> tuple[InterfaceModel | None, list[Diagnostic]]:
        root = self.xml.root
        if root is None or root.tag != "mujoco":
            return None, self.diagnostics
        top = self.children(Source(root, None))
        self.settings(top)
        model_name = (
            self.name
            or root.get("model")
            or (os.path.splitext(os.path.basename(self.path))[0] if self.path else "mujoco")
        )
        links: list[InterfaceLink] = []
        frames: list[InterfaceFrame] = []
        joints: list[InterfaceJoint] = []
        kinds: list[str] = []  # "site" or "camera", per frame
        poses: dict[str, Transform] = {}  # link name -> its pose in the model frame
        body_index = 0
        worldbodies = [s for s in top if s.element.tag == "worldbody"]
        # (source, parent link name or None for the world, X_M_parent, childclass)
        stack: list[tuple[Source, str | None, Transform, str]] = []
        for wb in reversed(worldbodies):
            for c in reversed(self.children(wb)):
                stack.append((c, None, Transform(), wb.element.get("childclass") or "main"))
        while stack:
            src, parent, x_mp, childclass = stack.pop()
            tag = src.element.tag
            if tag in _NOT_FOLLOWED:
                self.report(
                    src,
                    f"<{tag}> generates bodies when MuJoCo compiles the model: what it makes is not checked here",
                    None,
                    severity=warning,
                )
                continue
            if tag not in ("body", "frame", "site", "camera"):
                continue
            cls = self._class_of(src, childclass)
            if tag in ("body", "frame") and src.element.get("childclass") is not None:
                cc = src.element.get("childclass") or childclass
                if cc not in self.classes:
                    self.report(src, f"childclass '{cc}' is not defined by any <default>", "childclass")
                    cc = childclass
                inner = cc
            else:
                inner = childclass
            x = x_mp * self.placement(src, cls)
            loc = src.at if src.at is not None else src.element
            if tag == "frame":
                for c in reversed(self.children(src)):
                    stack.append((c, parent, x, inner))
                continue
            name = src.element.get("name")
            if tag in ("site", "camera"):
                if name:
                    pose = x if parent is None else poses.get(parent, Transform()).inverse() * x
                    frames.append(InterfaceFrame(name, parent or "__model__", pose, source=loc))
                    kinds.append(tag)
                continue
            body_index += 1
            link = name or f"body{body_index}"
            if link in poses or _reserved(link):  # MuJoCo refuses repeated body names: only a made-up name can clash
                link = _free(f"{link}.body", poses)
            links.append(InterfaceLink(link, x, source=loc))
            poses[link] = x
            kids = self.children(src)
            for c in kids:
                el = c.element
                if el.tag == "freejoint":
                    jn = el.get("name")
                    if jn:
                        joints.append(
                            InterfaceJoint(
                                jn,
                                link,
                                (0, 0, 0, 0, 0, 0),
                                type="free",
                                parent=parent or "world",
                                source=c.at if c.at is not None else el,
                            )
                        )
                elif el.tag == "joint":
                    jcls = self._class_of(c, inner)
                    jn = el.get("name")
                    jtype = self.value(c, "type", jcls) or "hinge"
                    if jtype not in JOINT_TYPES:
                        self.report(c, f'type="{jtype}" is not a joint type (hinge, slide, ball, free)', "type")
                    pos = self._placement_pos(c, jcls)
                    if jn:
                        joints.append(
                            InterfaceJoint(
                                jn,
                                link,
                                Transform(pos),
                                type=JOINT_TYPES.get(jtype, jtype),
                                parent=parent or "world",
                                source=c.at if c.at is not None else el,
                            )
                        )
            for c in reversed(kids):
                if c.element.tag in ("body", "frame", "site", "camera", *_NOT_FOLLOWED):
                    stack.append((c, link, x, inner))
        check_names(top, self.children, self._unknown_name)
        frames, joints = _own_names(poses, frames, kinds, joints)
        canonical = links[0].name if links else ""
        model = InterfaceModel(
            model_name,
            canonical,
            links=links,
            frames=frames,
            joints=joints,
            static=not links,
            source=root,
            files=tuple(dict.fromkeys(self.inclusion.files)),
        )
        return model, self.diagnostics

    def _unknown_name(self, src: Source, message: str, attr: str, fixes: tuple) -> None:
        self.report(src, message, attr, code=MJCF_REFERENCE_UNKNOWN, fixes=fixes)

    def _placement_pos(self, src: Source, cls: str | None) -> tuple[float, float, float]:
        text = self.value(src, "pos", cls)
        if text is None:
            return (0.0, 0.0, 0.0)
        nums = self._numbers(src, "pos", text)
        if nums is None or len(nums) != 3:
            return (0.0, 0.0, 0.0)
        return (nums[0], nums[1], nums[2])


def inherited_value(classes: dict, element: XmlElement, name: str, cls: str | None) -> str | None:
    """``name`` as ``element`` writes it, else from the ``<default>`` class ``cls`` and its ancestors
    (``classes``: class name -> (parent class, {tag: {attribute: value}})), as MuJoCo inherits them."""
    own = element.get(name)
    if own is not None:
        return own
    seen = set()
    c = cls
    tag = element.tag
    while c is not None and c not in seen:
        seen.add(c)
        entry = classes.get(c)
        if entry is None:
            return None
        parent, attrs = entry
        v = attrs.get(tag, {}).get(name)
        if v is not None:
            return v
        c = parent
    return None


def _reserved(name: str) -> bool:
    return name == "world" or (name.startswith("__") and name.endswith("__")) or "::" in name


def _free(name: str, taken) -> str:
    out, n = name, 1
    while out in taken:
        n += 1
        out = f"{name}{n}"
    return out


def _own_names(
    links: dict, frames: list[InterfaceFrame], kinds: list[str], joints: list[InterfaceJoint]
) -> tuple[list[InterfaceFrame], list[InterfaceJoint]]:
    """Names SDFormat can hold. MuJoCo keeps a namespace per kind (a body, its joint and a site may
    all be called ``arm``); in one SDFormat model they must differ. Bodies keep theirs, then joints,
    sites and cameras keep theirs unless taken (or reserved): those become ``NAME.joint``,
    ``NAME.site``, ``NAME.camera`` (docs/deviations.md)."""
    from dataclasses import replace

    taken = set(links)
    out_joints = []
    for j in joints:
        name = j.name if j.name not in taken and not _reserved(j.name) else _free(f"{j.name}.joint", taken)
        taken.add(name)
        out_joints.append(j if name == j.name else replace(j, name=name))
    out_frames = []
    for f, kind in zip(frames, kinds):
        name = f.name if f.name not in taken and not _reserved(f.name) else _free(f"{f.name}.{kind}", taken)
        taken.add(name)
        out_frames.append(f if name == f.name else replace(f, name=name))
    return out_frames, out_joints


def read_mjcf(
    xml: XmlDocument, path: str | None, name: str | None = None
) -> tuple[InterfaceModel | None, list[Diagnostic]]:
    """The interface model of a ``<mujoco>`` document and what is wrong in it (located in it)."""
    return MjcfReader(xml, path, name).read()
