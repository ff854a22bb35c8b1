"""urdfdom's reading of a ``<robot>``: links, materials, joints, extensions.

urdfdom's checks (names, joint types, limits, origins, inertials, geometry,
links a joint names, exactly one root) become ``PARSING_ERROR`` (what
libsdformat reports for a URDF urdfdom rejects) or ``DUPLICATE_NAME``
diagnostics. What cannot be read is left out and the rest is kept, so the
editor keeps working on a half-written file.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...diagnostics import Diagnostic, Related, Severity, error, warning
from ...model import NO_POSE, PoseSpec
from ...text_memo import TextMemo
from ...text import Span
from ...xml import XmlDocument, XmlElement
from .joints import read_joint
from .model import UJoint, ULink
from .values import (
    DUPLICATE_NAME,
    GEOMETRY_ATTRS,
    LINK_INVALID,
    MATERIAL,
    PARSING_ERROR,
    key_value,
    number,
    truthy,
)


_DOCTYPE_SUBSET = re.compile(r"<!DOCTYPE[^>\[]*\[")


_VECTORS: TextMemo[tuple[str, int], tuple[float, ...]] = TextMemo(8192)  # robots repeat "0 0 0"


class Reader:
    """The state urdfdom builds while reading, with our diagnostics beside it."""

    def __init__(self, xml: XmlDocument) -> None:
        self.xml = xml
        robot = xml.root
        assert robot is not None
        self.robot: XmlElement = robot
        self.diagnostics: list[Diagnostic] = []
        self.links: dict[str, ULink] = {}
        self.joints: dict[str, UJoint] = {}
        self.materials: set[str] = set()
        self.preserve: set[str] = set()  # preserveFixedJoint
        self.to_revolute: set[str] = set()  # disableFixedJointLumping (without preserveFixedJoint)
        self.static = False
        self.claimed: set[str] = set()  # children of joints that could not be read
        self.unconnected = False  # a joint names no parent or child link: more roots are its consequence
        self.used_materials: list[tuple[str, XmlElement, str]] = []

    # -- diagnostics ---------------------------------------------------

    def error(self, message: str, span: Span, kind: str, code: str = PARSING_ERROR, **kw) -> None:
        self.diagnostics.append(error(code, message, span, data={"urdf": kind}, **kw))

    def attr_span(self, el: XmlElement, name: str) -> Span:
        a = el.attr(name)
        return a.value_span if a is not None else el.tag_span

    def numbers_ok(self, el: XmlElement, attrs: tuple[str, ...], what: str) -> bool:
        ok = True
        for name in attrs:
            a = el.attr(name)
            if a is not None and number(a.value) is None:
                self.error(f'{what}: {name}="{a.value}" is not a number', a.value_span, "number")
                ok = False
        return ok

    def vector(self, el: XmlElement, name: str, what: str, count: int = 3) -> tuple[float, ...] | None:
        """An attribute holding ``count`` numbers (urdfdom's Vector3); None if absent or broken (reported)."""
        a = el.attr(name)
        if a is None:
            return None
        key = (a.value, count)
        known = _VECTORS.get(key)
        if known is not None:
            return known
        values: list[float] = []
        for piece in a.value.split():
            v = number(piece)
            if v is None:
                self.error(f"{what}: '{piece}' in {name}=\"{a.value}\" is not a number", a.value_span, "vector")
                return None
            values.append(v)
        if len(values) != count:
            self.error(f"{what}: {name} needs {count} numbers, found {len(values)}", a.value_span, "vector")
            return None
        return _VECTORS.keep(key, tuple(values))

    def origin(self, owner: XmlElement, what: str) -> PoseSpec | None:
        """The ``<origin xyz rpy>`` of ``owner`` as a pose; None when malformed (reported)."""
        el = owner.child("origin")
        if el is None:
            return NO_POSE
        xyz = self.vector(el, "xyz", f"<origin> of {what}") if el.attr("xyz") is not None else (0.0, 0.0, 0.0)
        rpy = self.vector(el, "rpy", f"<origin> of {what}") if el.attr("rpy") is not None else (0.0, 0.0, 0.0)
        if xyz is None or rpy is None:
            return None
        return PoseSpec(el, (*xyz, *rpy))

    # -- urdfdom's reading ---------------------------------------------

    def read(self) -> None:
        robot = self.robot
        subset = _DOCTYPE_SUBSET.search(self.xml.text) if self.xml.has_doctype else None
        if subset is not None:  # urdfdom's XML reader stops there: libsdformat reports it cannot read the file
            self.error(
                "libsdformat cannot read a URDF whose <!DOCTYPE> holds declarations ([...]): remove the document type declaration",
                Span(subset.start(), subset.end()),
                "doctype",
                "FILE_READ",
            )
        if robot.attr("name") is None:
            self.error('the <robot> needs a name attribute: add name="..."', robot.tag_span, "robot_name")
        for el in robot.children_named("material"):
            self._material(el, top_level=True)
        for el in robot.children_named("link"):
            self._link(el)
        if not robot.children_named("link"):
            self.error("a URDF needs at least one <link>", robot.tag_span, "no_links")
        for el in robot.children_named("joint"):
            read_joint(self, el)
        for el in robot.children_named("gazebo"):
            self._extension(el)
        self.to_revolute -= self.preserve
        for name, mat, what in self.used_materials:
            if name not in self.materials:
                self.diagnostics.append(
                    warning(
                        MATERIAL,
                        f"material '{name}' used by {what} is not defined: define it at the top of the <robot> "
                        "or give it a <color> or <texture> here",
                        self.attr_span(mat, "name"),
                        data={"urdf": "material_undefined"},
                    )
                )

    def _material(self, el: XmlElement, top_level: bool) -> None:
        name = el.get("name")
        if name is None:
            if top_level:  # urdfdom logs it and goes on (a visual's nameless material is an error, see below)
                self.diagnostics.append(
                    warning(
                        MATERIAL, "a <material> needs a name attribute", el.tag_span, data={"urdf": "material_name"}
                    )
                )
            return
        has_color = False
        color = el.child("color")
        if color is not None and color.attr("rgba") is not None:
            has_color = self.vector(color, "rgba", f"color of material '{name}'", 4) is not None
        texture = el.child("texture")
        has_texture = texture is not None and texture.attr("filename") is not None
        if top_level:
            if name in self.materials:
                self.error(
                    f"material '{name}' is defined twice",
                    self.attr_span(el, "name"),
                    "material_duplicate",
                    DUPLICATE_NAME,
                )
            elif not has_color and not has_texture:
                self.diagnostics.append(
                    warning(
                        MATERIAL,
                        f"material '{name}' has neither a <color rgba> nor a <texture filename>: it has no effect",
                        self.attr_span(el, "name"),
                        data={"urdf": "material_empty"},
                    )
                )
        if has_color or has_texture:
            self.materials.add(name)

    def _link(self, el: XmlElement) -> None:
        a = el.attr("name")
        if a is None:
            self.error('a <link> needs a name attribute: add name="..."', el.tag_span, "link_name")
            return
        name = a.value
        what = f"link '{name}'"
        link = ULink(name, a.value_span, el)
        start = len(self.diagnostics)
        inertial = el.child("inertial")
        if inertial is not None:
            link.inertial = True
            mass = inertial.child("mass")
            if self.origin(inertial, f"the inertial of {what}") is None:
                mass = None  # urdfdom stops before the mass: it stays 0
            value_attr = mass.attr("value") if mass is not None else None
            if mass is None or value_attr is None:
                if len(self.diagnostics) == start:
                    self.error(
                        f'the <inertial> of {what} needs <mass value="..."/>', (mass or inertial).tag_span, "mass"
                    )
            else:
                m = number(mass.get("value") or "")
                if m is None:
                    self.error(f"the mass of {what} is not a number", value_attr.value_span, "number")
                else:
                    link.mass = m
            inertia = inertial.child("inertia")
            names = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
            if inertia is None or any(inertia.attr(n) is None for n in names):
                missing = [n for n in names if inertia is None or inertia.attr(n) is None]
                self.error(
                    f"the <inertial> of {what} needs <inertia> with ixx, ixy, ixz, iyy, iyz and izz (missing: {', '.join(missing)})",
                    (inertia or inertial).tag_span,
                    "inertia",
                )
            else:
                self.numbers_ok(inertia, names, f"the inertia of {what}")
        for tag in ("visual", "collision"):
            for part in el.children_named(tag):
                self.origin(part, f"a {tag} of {what}")
                self._geometry(part, f"a {tag} of {what}")
                if tag == "visual":
                    self._visual_material(part, what)
        # urdfdom does not fail on a broken link: it stops reading it at the first problem and keeps what it read
        found = [d for d in self.diagnostics[start:] if d.code == PARSING_ERROR]
        kept = [d for d in self.diagnostics[start:] if d.code != PARSING_ERROR]
        if found:
            message = found[0].message + " (the URDF parser stops reading the link here and keeps what it read so far)"
            kept.insert(0, replace(found[0], code=LINK_INVALID, severity=Severity.WARNING, message=message))
        self.diagnostics[start:] = kept
        if name in self.links:
            other = self.links[name]
            self.error(
                f"link '{name}' is defined twice: link names must be unique",
                a.value_span,
                "link_duplicate",
                DUPLICATE_NAME,
                related=(Related(other.name_span, f"the other link '{name}'"),),
            )
            return
        # a link with a broken part is still a link: joints naming it are fine
        self.links[name] = link

    def _geometry(self, part: XmlElement, what: str) -> bool:
        geom = part.child("geometry")
        if geom is None:
            self.error(f"{what} needs a <geometry>", part.tag_span, "geometry")
            return False
        if not geom.children:
            self.error(
                f"the <geometry> of {what} is empty: add <box>, <cylinder>, <sphere> or <mesh>",
                geom.tag_span,
                "geometry",
            )
            return False
        shape = geom.children[0]
        attrs = GEOMETRY_ATTRS.get(shape.tag)
        if attrs is None:
            self.error(
                f"unknown geometry <{shape.tag}> in {what}: use <box>, <cylinder>, <sphere> or <mesh>",
                shape.tag_span,
                "geometry",
            )
            return False
        missing = [n for n in attrs if shape.attr(n) is None]
        if missing:
            self.error(f"<{shape.tag}> in {what} needs {' and '.join(missing)}", shape.tag_span, "geometry")
            return False
        if shape.tag == "box":
            return self.vector(shape, "size", f"the box of {what}") is not None
        if shape.tag == "mesh":
            return shape.attr("scale") is None or self.vector(shape, "scale", f"the mesh of {what}") is not None
        return self.numbers_ok(shape, attrs, f"the {shape.tag} of {what}")

    def _visual_material(self, visual: XmlElement, what: str) -> bool:
        mat = visual.child("material")
        if mat is None:
            return True
        name = mat.get("name")
        if name is None:
            self.error(f"the <material> of a visual of {what} needs a name attribute", mat.tag_span, "material_name")
            return False
        self._material(mat, top_level=False)
        self.used_materials.append((name, mat, what))
        return True

    def claim(self, joint_el: XmlElement) -> None:
        """The child of a joint left out is not another root: say so once, on the joint."""
        c = joint_el.child("child")
        link = c.get("link") if c is not None else None
        if link:
            self.claimed.add(link)

    def _extension(self, el: XmlElement) -> None:
        ref = el.get("reference") or ""
        for c in el.children:
            if c.tag == "preserveFixedJoint" and truthy(key_value(c)):
                self.preserve.add(ref)
            elif c.tag == "disableFixedJointLumping" and truthy(key_value(c)):
                self.to_revolute.add(ref)
            elif c.tag == "static" and not ref:
                self.static = truthy(key_value(c))
