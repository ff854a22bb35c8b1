"""The keys of ``<gazebo reference>`` blocks, carried into SDFormat as libsdformat carries them.

libsdformat (``parser_urdf.cc``: ``ParseSDFExtension`` and the
``InsertSDFExtension*`` functions, the same in 12 and main) reads a URDF's
``<gazebo>`` blocks into a list of extensions per reference. When a link is
lumped into its parent by fixed-joint reduction, its extensions move to the
parent with it (after the parent's own, in lumping order). Then:

* a link's collisions get ``mu1``, ``mu2``, ``fdir1`` (``surface/friction/ode``),
  ``kp``, ``kd``, ``maxVel``, ``minDepth`` (``surface/contact/ode``),
  ``laserRetro``, ``maxContacts`` and the children of ``<collision>`` blocks;
  its visuals a ``<material>`` script name and the children of ``<visual>``
  blocks. Which collisions (visuals) an extension reaches depends on their
  converted names: the link's own extensions reach those without
  ``_fixed_joint_lump__`` in the name, a lumped link's extensions those whose
  name holds ``_fixed_joint_lump__LINK_collision``;
* the link gets ``turnGravityOff`` (``<gravity>``), ``dampingFactor``
  (``<velocity_decay>``), ``selfCollide`` (``<self_collide>``) and every other
  element of the block, copied as it is;
* a joint gets ``stopCfm``, ``stopErp`` (``physics/ode/limit``),
  ``provideFeedback``, ``implicitSpringDamper`` (or ``cfmDamping``),
  ``fudgeFactor`` (``physics/ode``), ``springStiffness`` and
  ``springReference`` (``axis/dynamics``) and every other element.

A key given twice for one element keeps the last value, as libsdformat's
``AddKeyValue`` does. Collision and visual names follow libsdformat too, since
they decide where the keys go: ``NAME_collision`` (``NAME`` the URDF name, else
the link's) with ``_N`` from the second on, prefixed by
``LINK_fixed_joint_lump__`` unless it starts with the link's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from ..formats.urdf.values import key_value
from ..formats.urdf.writer import number
from ..formats.urdf.extensions import HANDLED
from ..xml import XmlElement

LUMP = "_fixed_joint_lump__"
_STOD = re.compile(r"\s*[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)", re.IGNORECASE)
_STOI = re.compile(r"\s*[+-]?\d+")


def _stod(text: str) -> str | None:
    """``std::stod`` of ``text`` written back as a number (None when it reads no number)."""
    m = _STOD.match(text)
    return number(float(m.group(0))) if m else None


def _stoi(text: str) -> str | None:
    m = _STOI.match(text)
    return str(int(m.group(0))) if m else None


def _flag(text: str) -> bool:
    return text.lower() in ("true", "yes") or text == "1"


@dataclass
class Node:
    """A small element tree for what is written: keys are set in place, blobs copied whole."""

    tag: str
    text: str = ""
    attrs: list[tuple[str, str]] = field(default_factory=list)
    children: list["Node"] = field(default_factory=list)

    @staticmethod
    def of(el: XmlElement) -> "Node":
        return Node(
            el.tag,
            el.text.strip() if not el.children else "",
            [(n, a.value) for n, a in el.attributes.items()],
            [Node.of(c) for c in el.children],
        )

    def ensure(self, *path: str) -> "Node":
        node = self
        for tag in path:
            found = next((c for c in node.children if c.tag == tag), None)
            if found is None:
                found = Node(tag)
                node.children.append(found)
            node = found
        return node

    def set(self, tag: str, value: str) -> None:
        """libsdformat's AddKeyValue: the last value given wins, written at the end."""
        self.children = [c for c in self.children if c.tag != tag] + [Node(tag, value)]

    def lines(self, indent: str) -> list[str]:
        attrs = "".join(f" {n}={quoteattr(v)}" for n, v in self.attrs)
        if not self.children:
            return [
                f"{indent}<{self.tag}{attrs}>{escape(self.text)}</{self.tag}>"
                if self.text
                else f"{indent}<{self.tag}{attrs}/>"
            ]
        out = [f"{indent}<{self.tag}{attrs}>"]
        for c in self.children:
            out += c.lines(indent + "  ")
        return out + [f"{indent}</{self.tag}>"]


@dataclass
class Extension:
    """One ``<gazebo reference>`` block as libsdformat reads it."""

    origin: str  # the reference as written (a lumped link's name stays)
    keys: dict[str, str]  # tag -> value text, the last of each
    collision_blobs: list[XmlElement]
    visual_blobs: list[XmlElement]
    blobs: list[XmlElement]  # everything else, copied as it is


def read_extensions(robot: XmlElement) -> dict[str, list[Extension]]:
    out: dict[str, list[Extension]] = {}
    for ext in robot.children_named("gazebo"):
        ref = ext.get("reference")
        if not ref:
            continue
        e = Extension(ref, {}, [], [], [])
        for c in ext.children:
            if c.tag == "collision":
                e.collision_blobs += c.children
            elif c.tag == "visual":
                e.visual_blobs += c.children
            elif c.tag in HANDLED:
                e.keys[c.tag] = key_value(c)
            else:
                e.blobs.append(c)
        out.setdefault(ref, []).append(e)
    return out


def part_names(link: str, parts: list[tuple[str, XmlElement]], tag: str) -> list[str]:
    """libsdformat's names of a link's collisions (visuals): ``parts`` are (owner link, element), the
    link's own first, then the lumped ones in lumping order."""
    out = []
    for i, (owner, el) in enumerate(parts):
        name = el.get("name") or ""
        if owner != link and LUMP not in name:
            name = name or owner
        name = (name or link) + f"_{tag}" + (f"_{i}" if i else "")
        out.append(name if name.startswith(link) else f"{link}{LUMP}{name}")
    return out


def _reaches(ext: Extension, link: str, name: str, tag: str) -> bool:
    if ext.origin == link:
        return LUMP not in name
    return f"{LUMP}{ext.origin}_{tag}" in name


def collision_extras(exts: list[Extension], link: str, name: str) -> list[Node]:
    """What the extensions add to collision ``name`` of ``link``."""
    holder = Node("collision")
    for e in exts:
        if not _reaches(e, link, name, "collision"):
            continue
        for blob in e.collision_blobs:
            node = Node.of(blob)
            if node.tag == "surface":
                holder.children = [c for c in holder.children if c.tag != "surface"]
            holder.children.append(node)
        k = e.keys
        for key, path, sdf, read in (
            ("mu1", ("surface", "friction", "ode"), "mu", _stod),
            ("mu2", ("surface", "friction", "ode"), "mu2", _stod),
            ("fdir1", ("surface", "friction", "ode"), "fdir1", str.strip),
            ("kp", ("surface", "contact", "ode"), "kp", _stod),
            ("kd", ("surface", "contact", "ode"), "kd", _stod),
            ("maxVel", ("surface", "contact", "ode"), "max_vel", _stod),
            ("minDepth", ("surface", "contact", "ode"), "min_depth", _stod),
            ("laserRetro", (), "laser_retro", _stod),
            ("maxContacts", (), "max_contacts", _stoi),
        ):
            if key in k and read(k[key]) is not None:
                holder.ensure(*path).set(sdf, read(k[key]))  # type: ignore[arg-type]
    return holder.children


def visual_extras(exts: list[Extension], link: str, name: str) -> tuple[str | None, list[Node]]:
    """(material script name, blobs) the extensions add to visual ``name`` of ``link``."""
    script, blobs = None, []
    for e in exts:
        if not _reaches(e, link, name, "visual"):
            continue
        blobs += [Node.of(b) for b in e.visual_blobs]
        if e.keys.get("material"):
            script = e.keys["material"]
    return script, blobs


def link_extras(exts: list[Extension]) -> list[Node]:
    """What a link gets besides sensors and plugins (which are written with their poses moved)."""
    holder = Node("link")
    for e in exts:
        k = e.keys
        if "turnGravityOff" in k:
            holder.set("gravity", "false" if not _flag_off(k["turnGravityOff"]) else "true")
        if "dampingFactor" in k and _stod(k["dampingFactor"]) is not None:
            v = _stod(k["dampingFactor"])
            holder.children = [c for c in holder.children if c.tag != "velocity_decay"]
            holder.children.append(Node("velocity_decay", children=[Node("linear", v), Node("angular", v)]))  # type: ignore[arg-type]
        if "selfCollide" in k:
            holder.set("self_collide", "true" if _flag(k["selfCollide"]) else "false")
        holder.children += [Node.of(b) for b in e.blobs if b.tag not in ("sensor", "plugin")]
    return holder.children


def _flag_off(text: str) -> bool:
    """turnGravityOff: gravity stays on only for false, no or 0."""
    return text.lower() in ("false", "no") or text == "0"


def joint_extras(exts: list[Extension]) -> tuple[list[Node], list[Node]]:
    """(children of the joint's ``<axis><dynamics>``, other children of the joint)."""
    dynamics, joint = Node("dynamics"), Node("joint")
    for e in exts:
        k = e.keys
        for key, path, sdf in (
            ("stopCfm", ("physics", "ode", "limit"), "cfm"),
            ("stopErp", ("physics", "ode", "limit"), "erp"),
            ("fudgeFactor", ("physics", "ode"), "fudge_factor"),
        ):
            if key in k and _stod(k[key]) is not None:
                joint.ensure(*path).set(sdf, _stod(k[key]))  # type: ignore[arg-type]
        for key, sdf in (("springReference", "spring_reference"), ("springStiffness", "spring_stiffness")):
            if key in k and _stod(k[key]) is not None:
                dynamics.set(sdf, _stod(k[key]))  # type: ignore[arg-type]
        if "provideFeedback" in k:
            v = "true" if _flag(k["provideFeedback"]) else "false"
            joint.ensure("physics").set("provide_feedback", v)
            joint.ensure("physics", "ode").set("provide_feedback", v)
        for key in ("cfmDamping", "implicitSpringDamper"):
            if key in k:
                v = "true" if _flag(k[key]) else "false"
                joint.ensure("physics", "ode").set("implicit_spring_damper", v)
                joint.ensure("physics", "ode").set("cfm_damping", v)
        joint.children += [Node.of(b) for b in e.blobs]
    return dynamics.children, joint.children
