"""URDF to SDFormat, the way libsdformat reads it.

By default fixed joints are lumped as libsdformat lumps them: the child
link's inertial is added to the link it goes into (rigid-body sum), its
visuals and collisions move there with their origins composed, and two
frames keep the names (the joint's frame posed by the origin, the link's on
it); ``<preserveFixedJoint>`` and ``<disableFixedJointLumping>`` are
honoured, joints to ``world`` are never lumped, and links left without mass
are dropped with everything below them (the analysis warns about them).
``lump=False`` keeps every link and joint. A link's pose is its joint's
origin ``relative_to`` the parent link, so the frames are the URDF's
exactly; joints sit on their child link, as in URDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

from ..formats.urdf import inertia
from ..formats.urdf.model import ULink
from ..formats.urdf.reader import Reader
from ..formats.urdf.to_model import ModelMaker
from ..formats.urdf.values import WORLD, number as read_number
from ..formats.urdf.writer import number, numbers
from ..model.transform import Transform, transform_of
from ..semantics import Analysis
from .extensions import serialize
from .gazebo_keys import collision_extras, joint_extras, link_extras, part_names, read_extensions, visual_extras

SDF_VERSION = "1.11"  # what libsdformat converts a URDF to
SCOPED_VERSION = "1.7"  # the newest version whose names may contain '::' (flattened nested models)
MATERIAL_SCRIPTS = "file://media/materials/scripts/gazebo.material"  # libsdformat's default for a <material> name


@dataclass
class SdfOptions:
    lump: bool = True


@dataclass
class SdfConversion:
    text: str | None
    errors: list[str]
    warnings: list[str]


def urdf_to_sdf(analysis: Analysis, options: SdfOptions | None = None) -> SdfConversion:
    options = options or SdfOptions()
    reader = Reader(analysis.xml)
    maker = ModelMaker(reader, lump=options.lump)
    maker.convert()
    errors = [d.message for d in reader.diagnostics if d.is_error]
    warnings = [d.message for d in reader.diagnostics if not d.is_error]
    if errors:
        return SdfConversion(None, errors, warnings)
    writer = SdfWriter(reader, maker, options)
    text = writer.write()
    return SdfConversion(text, [], warnings + writer.warnings)


def _pose(t: Transform, relative_to: str | None, indent: str) -> list[str]:
    rel = f" relative_to={quoteattr(relative_to)}" if relative_to else ""
    values = f"{numbers(t.p)} {numbers(t.rpy)}"
    if values == "0 0 0 0 0 0" and not rel:
        return []
    return [f"{indent}<pose{rel}>{values}</pose>"]


class SdfWriter:
    def __init__(self, reader: Reader, maker: ModelMaker, options: SdfOptions) -> None:
        self.r = reader
        self.maker = maker
        self.options = options
        self.links = reader.links
        self.warnings: list[str] = []
        self.colors = self._colors()
        self.exts = read_extensions(reader.robot)
        self.written: set[str] = set()  # links (the lumped ones too) and joints the extensions can go into

    def _colors(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for m in self.r.robot.children_named("material"):
            c = m.child("color")
            name = m.get("name")
            rgba = c.get("rgba") if c is not None else None
            if name and rgba:
                out[name] = rgba
        return out

    def reducible(self, link: ULink) -> bool:
        j = link.parent_joint
        return j is not None and self.maker.reducible(j) and j.parent != WORLD

    def home(self, link: ULink) -> tuple[ULink, Transform]:
        """The link a lumped link went into, and its frame there."""
        t = Transform()
        while self.reducible(link):
            j = link.parent_joint
            if j is None:  # never: a reducible link has its joint
                break
            t = transform_of(j.origin) * t
            link = self.links[j.parent]
        return link, t

    def write(self) -> str:
        name = self.r.robot.get("name") or "robot"
        version = SDF_VERSION
        if any("::" in n for n in [*self.links, *self.r.joints]):
            version = SCOPED_VERSION
            self.warnings.append(
                f"names contain '::', which SDFormat 1.8 and later reserve for scopes: written as SDFormat {version}"
                + ("; <mimic> needs 1.11 and is left out" if any(j.mimic for j in self.r.joints.values()) else "")
            )
        self.version = version
        out = ['<?xml version="1.0"?>', f'<sdf version="{version}">', f"  <model name={quoteattr(name)}>"]
        if self.r.static:
            out.append("    <static>true</static>")
        robot_origin = self.r.robot.child("origin")
        if robot_origin is not None:
            out += _pose(inertia.origin_of(self.r.robot), None, "    ")
        links, joints, frames = [], [], []
        for link in self._kept():
            if self.reducible(link):
                frames += self._lump_frames(link)
                continue
            links += self._link(link)
            j = link.parent_joint
            if j is not None:
                joints += self._joint(j)
        out += links + joints + frames + self._extensions()
        out += ["  </model>", "</sdf>"]
        return "\n".join(out) + "\n"

    def _kept(self) -> list[ULink]:
        """Links libsdformat keeps, parents first (massless subtrees dropped unless lumped)."""
        roots = [link for link in self.links.values() if link.parent_joint is None]
        stack: list[ULink] = []
        for root in reversed(roots):
            if root.name == WORLD:
                stack.extend(self.links[j.child] for j in reversed(root.child_joints))
            else:
                stack.append(root)
        out = []
        while stack:
            link = stack.pop()
            massless = not link.has_inertial or link.total_mass <= 0
            if massless and not self.reducible(link) and self.options.lump:
                continue
            out.append(link)
            stack.extend(self.links[j.child] for j in reversed(link.child_joints))
        return out

    def _lump_frames(self, link: ULink) -> list[str]:
        j = link.parent_joint
        assert j is not None  # asked of lumped links, each with the joint it went through
        return [
            f"    <frame name={quoteattr(j.name)} attached_to={quoteattr(j.parent)}>",
            *_pose(transform_of(j.origin), None, "      "),
            "    </frame>",
            f"    <frame name={quoteattr(link.name)} attached_to={quoteattr(j.name)}/>",
        ]

    def _members(self, link: ULink) -> list[tuple[ULink, Transform]]:
        out, stack = [], [(link, Transform())]
        while stack:
            cur, t = stack.pop()
            out.append((cur, t))
            for j in reversed(cur.child_joints):
                c = self.links[j.child]
                if self.reducible(c):
                    stack.append((c, t * transform_of(j.origin)))
        return out

    def _link(self, link: ULink) -> list[str]:
        out = [f"    <link name={quoteattr(link.name)}>"]
        j = link.parent_joint
        if j is not None:
            out += _pose(transform_of(j.origin), j.parent if j.parent != WORLD else None, "      ")
        members = self._members(link)
        self.written.update(owner.name for owner, _ in members)
        out += self._inertial(link, members)
        exts = [
            e for owner, _ in members for e in self.exts.get(owner.name, [])
        ]  # the link's own, then the lumped ones'
        for tag in ("visual", "collision"):
            parts = [(owner, t, part) for owner, t in members for part in owner.element.children_named(tag)]
            names = part_names(link.name, [(owner.name, part) for owner, _, part in parts], tag)
            used: set[str] = set()
            for (_owner, t, part), name in zip(parts, names):
                while name in used:  # only when URDF names collide; libsdformat then refuses the file
                    name += "_"
                used.add(name)
                out += self._part(tag, name, part, t, exts, link.name)
        for owner, t in members:
            for ext in self.r.robot.children_named("gazebo"):
                if ext.get("reference") == owner.name:
                    for c in ext.children_named("sensor") + ext.children_named("plugin"):
                        moved = t * _pose_of(c) if c.tag == "sensor" else None
                        out += ["      " + line for line in serialize(c, moved).splitlines()]
        for node in link_extras(exts):
            out += node.lines("      ")
        if not link.element.child("inertial") and not link.has_inertial:
            self.warnings.append(
                f"link '{link.name}' has no <inertial>: SDFormat gives it a mass of 1 and a unit inertia"
            )
        out.append("    </link>")
        return out

    def _inertial(self, link: ULink, members: list[tuple[ULink, Transform]]) -> list[str]:
        body = link.body
        lumped = any(owner is not link and owner.element.child("inertial") is not None for owner, _ in members)
        el = link.element.child("inertial")
        if body is None:
            return []
        written = inertia.read(el, Transform()) if not lumped and el is not None else None
        if written is not None and el is not None:  # always, unlumped with an <inertial>: link.body was read from it
            origin = inertia.origin_of(el)
            values = written.values()  # in the inertial's own axes, as written
        else:
            origin, values = Transform(body.com), body.values()
        ixx, ixy, ixz, iyy, iyz, izz = (number(v) for v in values)
        return [
            "      <inertial>",
            *_pose(origin, None, "        "),
            f"        <mass>{number(body.mass)}</mass>",
            f"        <inertia><ixx>{ixx}</ixx><ixy>{ixy}</ixy><ixz>{ixz}</ixz><iyy>{iyy}</iyy><iyz>{iyz}</iyz><izz>{izz}</izz></inertia>",
            "      </inertial>",
        ]

    def _part(self, tag: str, name: str, part, t: Transform, exts, link: str) -> list[str]:
        geom = part.child("geometry")
        shape = geom.children[0] if geom is not None and geom.children else None
        if shape is None:
            return []
        out = [
            f"      <{tag} name={quoteattr(name)}>",
            *_pose(t * inertia.origin_of(part), None, "        "),
            "        <geometry>",
        ]
        g = shape.tag
        if g == "box":
            out.append(f"          <box><size>{shape.get('size', '1 1 1')}</size></box>")
        elif g == "cylinder":
            out.append(
                f"          <cylinder><radius>{shape.get('radius', '1')}</radius><length>{shape.get('length', '1')}</length></cylinder>"
            )
        elif g == "sphere":
            out.append(f"          <sphere><radius>{shape.get('radius', '1')}</radius></sphere>")
        elif g == "mesh":
            scale = f"<scale>{shape.get('scale')}</scale>" if shape.get("scale") else ""
            out.append(f"          <mesh><uri>{_esc(shape.get('filename', ''))}</uri>{scale}</mesh>")
        out.append("        </geometry>")
        if tag == "collision":
            for node in collision_extras(exts, link, name):
                out += node.lines("        ")
            out.append(f"      </{tag}>")
            return out
        mat = part.child("material")
        script, blobs = visual_extras(exts, link, name)
        c = mat.child("color") if mat is not None else None
        rgba = (c.get("rgba") if c is not None else self.colors.get(mat.get("name") or "")) if mat is not None else None
        lit = _lit(rgba) if rgba else None
        colors = f"<ambient>{lit}</ambient><diffuse>{lit}</diffuse>" if lit else ""
        if script:
            colors += f"<script><name>{_esc(script)}</name><uri>{MATERIAL_SCRIPTS}</uri></script>"
        if colors:
            out.append(f"        <material>{colors}</material>")
        for node in blobs:
            out += node.lines("        ")
        out.append(f"      </{tag}>")
        return out

    def _joint(self, j) -> list[str]:
        kind = {"revolute": "revolute", "continuous": "revolute", "prismatic": "prismatic", "fixed": "fixed"}.get(
            j.type or ""
        )
        if kind is None:
            self.warnings.append(f"joint '{j.name}' is {j.type}: SDFormat has no such joint, so it is left out")
            return []
        to_revolute = kind == "fixed" and j.name in self.r.to_revolute
        self.written.add(j.name)
        parent = j.parent if j.parent == WORLD else self.home(self.links[j.parent])[0].name
        out = [
            f"    <joint name={quoteattr(j.name)} type={quoteattr('revolute' if to_revolute else kind)}>",
            f"      <parent>{_esc(parent)}</parent>",
            f"      <child>{_esc(j.child)}</child>",
        ]
        el = j.element
        dynamics, extras = joint_extras(self.exts.get(j.name, []))
        if to_revolute:
            out.append("      <axis><xyz>0 0 1</xyz><limit><lower>0</lower><upper>0</upper></limit></axis>")
        elif kind != "fixed":
            out += self._axis(j, el, dynamics)
        for node in extras:
            out += node.lines("      ")
        out.append("    </joint>")
        return out

    def _axis(self, j, el, keys) -> list[str]:
        axis = el.child("axis")
        xyz = axis.get("xyz") if axis is not None and axis.get("xyz") else "1 0 0"
        out = ["      <axis>", f"        <xyz>{xyz}</xyz>"]
        limit = el.child("limit")
        if limit is not None:
            bounds = (
                ""
                if j.type == "continuous"
                else (f"<lower>{limit.get('lower', '0')}</lower><upper>{limit.get('upper', '0')}</upper>")
            )
            out.append(
                f"        <limit>{bounds}<effort>{limit.get('effort', '0')}</effort><velocity>{limit.get('velocity', '0')}</velocity></limit>"
            )
        dyn = el.child("dynamics")
        spring = "".join("".join(n.lines("")) for n in keys)
        if dyn is not None or spring:
            d = (
                ""
                if dyn is None
                else f"<damping>{dyn.get('damping', '0')}</damping><friction>{dyn.get('friction', '0')}</friction>"
            )
            out.append(f"        <dynamics>{d}{spring}</dynamics>")
        mimic = el.child("mimic")
        if mimic is not None and mimic.get("joint") and self.version == SDF_VERSION:
            out.append(
                f"        <mimic joint={quoteattr(mimic.get('joint'))}><multiplier>{mimic.get('multiplier', '1')}</multiplier>"
                f"<offset>{mimic.get('offset', '0')}</offset></mimic>"
            )
        out.append("      </axis>")
        return out

    def _homes(self, el) -> dict[int, str] | None:
        """A ``<gazebo>`` joint's ``<parent>`` and ``<child>`` naming a lumped link: the link it went
        into, as libsdformat renames them when it reads the URDF."""
        if el.tag != "joint":
            return None
        out = {}
        for tag in ("parent", "child"):
            ref = el.child(tag)
            link = self.links.get(ref.text.strip()) if ref is not None else None
            if link is not None and self.reducible(link):
                out[id(ref)] = self.home(link)[0].name
        return out

    def _extensions(self) -> list[str]:
        """``<gazebo>`` blocks: model-level SDFormat elements and what a link's block holds (sensors, plugins...)."""
        out: list[str] = []
        skipped: set[str] = set()
        for ext in self.r.robot.children_named("gazebo"):
            ref = ext.get("reference")
            for c in ext.children:
                if ref is None and c.tag not in ("static",):
                    out += ["    " + line for line in serialize(c, texts=self._homes(c)).splitlines()]
                elif ref is not None and ref not in self.written:
                    skipped.add(ref)  # written into the link or joint (see _link, _joint) when there is one
        if skipped:
            self.warnings.append(
                "<gazebo reference> blocks naming no link or joint of the converted model are left out, as libsdformat "
                "leaves them out: " + ", ".join(f"'{n}'" for n in sorted(skipped))
            )
        return out


def _lit(rgba: str) -> str | None:
    """libsdformat's diffuse and ambient for a URDF color: red, green and blue divided by 0.8 (at most 1),
    alpha kept (``CreateVisual``: Gazebo lights colors so that they look as in rviz)."""
    values = [read_number(v) for v in rgba.split()]
    if len(values) != 4 or None in values:
        return None
    return numbers([min(max(c / 0.8, 0.0), 1.0) for c in values[:3]] + [values[3]])  # type: ignore[operator]


def _pose_of(el) -> Transform:
    """The ``<pose>`` of an SDFormat element in a ``<gazebo>`` block (identity when absent or unreadable)."""
    p = el.child("pose")
    values = [read_number(v) for v in (p.text.split() if p is not None else [])]
    if len(values) != 6 or None in values:
        return Transform()
    return Transform.from_xyzrpy(*values)  # type: ignore[arg-type]  # None in values was refused above


def _esc(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(text)
