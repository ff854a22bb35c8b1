"""The URDF as the SDFormat model libsdformat converts it to (``parser_urdf.cc``).

* a joint's ``<origin>`` is the pose of its child link relative to its parent
  link; the joint itself sits on its child link (identity pose);
* a ``fixed`` joint is lumped: its child link disappears into the parent link
  and two frames remember them, one named after the child link (attached to
  the parent, posed by the origin) and one after the joint (on the child's
  frame); libsdformat chains them the other way round, with the same poses
  and links. ``<gazebo reference="J"><preserveFixedJoint>`` or
  ``<disableFixedJointLumping>`` keep joint ``J`` (the latter as a revolute
  joint with zero limits), and a joint whose parent is ``world`` is never lumped;
* a root link named ``world`` is not a link: its joints attach their child
  links to the world, and the model frame stands where the world is;
* a link that ends up without mass is dropped with everything below it, with
  a ``LINK_INERTIA_INVALID`` warning, as libsdformat does;
* ``floating`` and ``planar`` joints have no SDFormat counterpart: the child
  link's pose then names a joint that does not exist
  (``POSE_RELATIVE_TO_INVALID``, as libsdformat reports it);
* ``<gazebo>`` without a reference may hold SDFormat ``<link>``, ``<joint>``,
  ``<frame>`` and ``<model>`` elements that join the model, and ``<static>``;
  the ``<robot>``'s own ``<origin>`` is the model pose.

Every reference keeps the text it has in the file, so find-references and
rename work on the URDF text.
"""

from __future__ import annotations

from dataclasses import replace

from ...diagnostics import Diagnostic, Related, Severity, warning
from ...model import NO_POSE, Frame, Joint, Link, Model, Named, PoseSpec, Ref
from ...model.builder import Builder
from ...model.transform import Transform, transform_of
from . import inertia
from .extensions import check_extensions
from .model import UJoint, ULink
from .reader import Reader
from .connect import connect
from .values import (
    BLOB_TAGS,
    DUPLICATE_NAME,
    LINK_INERTIA_INVALID,
    POSE_RELATIVE_TO_INVALID,
    SDF_JOINT_TYPE,
    WORLD,
)


class ModelMaker:
    """libsdformat's conversion of what a ``Reader`` read: lumping, then CreateSDF."""

    def __init__(self, reader: Reader, lump: bool = True, keep_massless: bool = False) -> None:
        self.r = reader
        self.lump = lump  # False: keep every fixed joint (``convert --to sdf --no-lump``)
        # True: a link without mass is kept with the links below it, where libsdformat leaves them out (the 3D
        # view draws a robot described without inertials, features/frame_view.py); never for checking
        self.keep_massless = keep_massless
        self.links = reader.links
        self.described: dict[int, str] = {}  # id of a converted member -> how to name it in messages

    def reducible(self, j: UJoint) -> bool:
        return self.lump and j.type == "fixed" and j.name not in self.r.preserve and j.name not in self.r.to_revolute

    def convert(self) -> Model:
        self.r.read()
        roots = connect(self.r)
        robot = self.r.robot
        name_attr = robot.attr("name")
        members: list[Named] = []
        lump_frames: list[Frame] = []
        for root in roots:
            self._lump(root, lump_frames)
        check_extensions(self.r, self._lumped_homes())
        for root in roots:
            if root.name == WORLD:
                for j in root.child_joints:
                    self._create(self.links[j.child], members)
            else:
                self._create(root, members)
        members.extend(self._blobs())
        members.extend(lump_frames)
        mark_gone_references(self.r.diagnostics, lump_frames)
        members = self._unique(members)
        start = len(self.r.diagnostics)
        origin = self.r.origin(robot, "the robot") or NO_POSE
        for i in range(start, len(self.r.diagnostics)):  # libsdformat reads it leniently: zeros and a console message
            self.r.diagnostics[i] = replace(self.r.diagnostics[i], severity=Severity.WARNING)
        return Model(
            "model",
            name_attr.value if name_attr is not None else "",
            name_attr.value_span if name_attr is not None else None,
            robot,
            origin,
            static=self.r.static,
            links=tuple(m for m in members if isinstance(m, Link)),
            joints=tuple(m for m in members if isinstance(m, Joint)),
            frames=tuple(m for m in members if isinstance(m, Frame)),
            models=tuple(m for m in members if isinstance(m, Model)),
            members=tuple(members),
        )

    def _lump(self, root: ULink, frames: list[Frame]) -> None:
        """Fixed-joint reduction, bottom-up like libsdformat: frames for lumped joints and links, merged masses."""
        order: list[ULink] = []  # pre-order; reversed it visits children before parents
        stack = [root]
        while stack:
            link = stack.pop()
            order.append(link)
            stack.extend(self.links[j.child] for j in reversed(link.child_joints))
        for link in order:
            j = link.parent_joint
            link.lumped = j is not None and self.reducible(j) and j.parent != WORLD
        for link in reversed(order):
            link.has_inertial = link.inertial
            link.total_mass = link.mass if link.inertial else 0.0
            inertial = link.element.child("inertial")
            link.body = inertia.read(inertial, inertia.origin_of(inertial)) if inertial is not None else None
            for j in link.child_joints:
                c = self.links[j.child]
                if c.lumped and c.has_inertial:
                    link.has_inertial = True
                    link.total_mass += c.total_mass
                    if c.body is not None:
                        moved = c.body.moved(transform_of(j.origin))
                        link.body = moved if link.body is None else link.body + moved
        # the frames, in libsdformat's order of reduction (post-order over fixed children first)
        out: list[Frame] = []
        work: list[tuple[ULink, int]] = [(root, 0)]
        while work:
            link, state = work.pop()
            fixed = [self.links[j.child] for j in link.child_joints if self.reducible(j)]
            other = [self.links[j.child] for j in link.child_joints if not self.reducible(j)]
            if state == 0:
                work.append((link, 1))
                work.extend((c, 0) for c in reversed(fixed))
                continue
            if link.lumped:
                out.extend(self._lump_frames(link))
            work.extend((c, 0) for c in reversed(other))
        frames.extend(out)

    def _lumped_homes(self) -> dict[str, str]:
        """Every lumped link and lumped joint -> the link it went into."""
        out: dict[str, str] = {}
        for link in self.links.values():
            home, seen = link, set()
            while home.lumped and home.parent_joint is not None and home.name not in seen:
                seen.add(home.name)
                home = self.links.get(home.parent_joint.parent, home)
            if link.lumped and link.parent_joint is not None:
                out[link.name] = out[link.parent_joint.name] = home.name
        return out

    def _lump_frames(self, link: ULink) -> list[Frame]:
        j = link.parent_joint
        assert j is not None
        # libsdformat: frame J attached to P posed by the origin, frame C attached to J. Here C carries the
        # origin and J sits on C, as a joint sits on its child: same poses and links, and both <parent link>
        # and <child link> stay references to what they name (find references, rename).
        to_parent = Ref(j.parent, j.parent_attr.value_span, "attached_to", j.parent_el)
        to_child = Ref(j.child, j.child_attr.value_span, "attached_to", j.child_el)
        if j.name == link.name:  # the name collision is reported; do not make it a cycle too
            joint_frame = Frame("frame", j.name, j.name_span, j.element, j.origin, attached_to=to_parent)
        else:
            joint_frame = Frame("frame", j.name, j.name_span, j.element, NO_POSE, attached_to=to_child)
        frames = [joint_frame, Frame("frame", link.name, link.name_span, link.element, j.origin, attached_to=to_parent)]
        self.described[id(frames[0])] = f"the frame left by lumping fixed joint '{j.name}'"
        self.described[id(frames[1])] = f"the frame left by lumping link '{link.name}' into '{j.parent}'"
        return frames

    def _create(self, top: ULink, members: list[Named]) -> None:
        """libsdformat's CreateSDF: links with mass and their joints, depth first."""
        stack = [top]
        while stack:
            link = stack.pop()
            j = link.parent_joint
            massless = link.name != WORLD and (not link.has_inertial or link.total_mass <= 0)
            parent_reduced = j is not None and self.reducible(j)
            if massless and not parent_reduced and not self.keep_massless:
                self._massless(link)
                continue
            if not link.lumped and (not massless or self.keep_massless):
                if not massless:
                    self._check_inertia(link)
                if j is not None:
                    joint = self._sdf_joint(link, j)
                    if joint is not None:
                        members.append(joint)
                members.append(self._sdf_link(link))
            stack.extend(self.links[c.child] for c in reversed(link.child_joints))

    def _check_inertia(self, link: ULink) -> None:
        """libsdformat refuses a link (its lumped links included) whose inertia no rigid body can have."""
        why = inertia.problem(link.body) if link.body is not None else None
        if why is None:
            return
        el = link.element.child("inertial")
        own = inertia.read(el, inertia.origin_of(el)) if el is not None else None
        lumped = own is None or inertia.problem(own) is None
        span = (el.child("inertia") or el).tag_span if el is not None and not lumped else link.name_span
        msg = f"link '{link.name}' has {why}"
        if lumped:
            msg += ", once the links lumped into it by fixed joints are added: check their <inertia>"
        else:
            msg += ": check ixx..izz and the off-diagonal terms"
        self.r.error(msg, span, "inertia_invalid", LINK_INERTIA_INVALID)

    def _massless(self, link: ULink) -> None:
        why = "has no <inertial>" if not link.has_inertial else f"has a mass of {link.total_mass:g}"
        below = self._count_below(link)
        msg = f"link '{link.name}' {why}: libsdformat leaves it out of the converted model"
        if below:
            msg += f", with the {below} link{'s' if below != 1 else ''} below it"
        msg += "; give it an <inertial> with a positive mass"
        j = link.parent_joint
        if j is not None and j.type == "fixed":
            msg += f", or let its fixed joint '{j.name}' be lumped (remove <preserveFixedJoint>/<disableFixedJointLumping>)"
        gone = {link.name, *names_below(self.links, link)}
        self.r.diagnostics.append(
            warning(LINK_INERTIA_INVALID, msg, link.name_span, data={"urdf": "massless", "gone": gone})
        )

    def _count_below(self, link: ULink) -> int:
        return len(names_below(self.links, link))

    def _sdf_link(self, link: ULink) -> Link:
        j = link.parent_joint
        if j is None:
            return Link("link", link.name, link.name_span, link.element, NO_POSE)
        pose = j.origin
        if j.parent != WORLD:
            pose = replace(pose, relative_to=Ref(j.parent, j.parent_attr.value_span, "relative_to", j.parent_el))
        return Link("link", link.name, link.name_span, link.element, pose)

    def _sdf_joint(self, link: ULink, j: UJoint) -> Joint | None:
        sdf_type = SDF_JOINT_TYPE.get(j.type or "")  # None for a missing or unknown type (reported): keep the joint
        if sdf_type is None and j.type is not None:
            self.r.error(
                f"joint '{j.name}' is {j.type}: SDFormat has no {j.type} joint, so the conversion leaves it out and the pose of "
                f"link '{link.name}' names a joint that does not exist; use another joint type (a link that moves freely "
                "belongs in a model of its own)",
                j.type_attr.value_span if j.type_attr is not None else j.name_span,
                "joint_unsupported",
                POSE_RELATIVE_TO_INVALID,
            )
            return None
        if sdf_type == "fixed" and j.name in self.r.to_revolute:
            sdf_type = "revolute"
        mimics = (j.mimic,) if j.mimic is not None and sdf_type != "fixed" else ()
        return Joint(
            "joint",
            j.name,
            j.name_span,
            j.element,
            NO_POSE,
            type=sdf_type,
            parent=Ref(j.parent, j.parent_attr.value_span, "parent", j.parent_el),
            child=Ref(j.child, j.child_attr.value_span, "child", j.child_el),
            mimics=mimics,
        )

    # -- <gazebo> blobs ------------------------------------------------

    def _blobs(self) -> list[Named]:
        b = Builder(self.r.xml)
        b.version = (1, 11)
        out: list[Named] = []
        for ext in self.r.robot.children_named("gazebo"):
            if ext.get("reference"):
                continue
            for c in ext.children:
                if c.tag not in BLOB_TAGS:
                    continue
                if c.tag == "link":
                    out.append(b.link(c))
                elif c.tag == "frame":
                    out.append(b.frame(c))
                elif c.tag == "model":
                    out.append(b.models_under(ext)[id(c)])
                else:
                    out.append(self._moved(b.joint(c)))
        self.r.diagnostics.extend(b.diagnostics)
        return out

    def _moved(self, joint: Joint) -> Joint:
        """libsdformat renames a blob joint's <child> naming a lumped link to the link it went into.

        The reference stays as written (it still names the frame the lumped link became); the joint's
        pose is moved instead, from that frame to the link, which gives the renamed joint's frame.
        A lumped <parent> needs nothing: the frame is attached to the same link.
        """
        ref = joint.child
        if ref is None or joint.pose.relative_to is not None or not joint.pose.valid:
            return joint
        link = self.links.get(ref.text)
        if link is None or not link.lumped:
            return joint
        inside = Transform()  # X_L_C: the lumped link C in the link L it went into
        seen: set[str] = set()
        while link is not None and link.lumped and link.name not in seen:
            seen.add(link.name)
            j = link.parent_joint
            assert j is not None
            inside = transform_of(j.origin) * inside
            link = self.links.get(j.parent)
        moved = inside.inverse() * transform_of(joint.pose)
        w, x, y, z = moved.q
        element = joint.pose.element if joint.pose.element is not None else ref.element
        return replace(joint, pose=PoseSpec(element, (*moved.p, x, y, z, w), quaternion=True))

    # -- names ---------------------------------------------------------

    def _unique(self, members: list[Named]) -> list[Named]:
        """SDFormat wants one name per frame of a model: a link and a joint may not share one."""
        seen: dict[str, Named] = {}
        out: list[Named] = []
        for m in members:
            if not m.name:
                out.append(m)
                continue
            other = seen.get(m.name)
            if other is None:
                seen[m.name] = m
                out.append(m)
                continue
            span = m.name_span or m.element.tag_span
            a, b = self._describe(other), self._describe(m)
            both = (
                f"two {m.kind}s (from <gazebo> blocks or the URDF) are named '{m.name}'"
                if a == b
                else f"'{m.name}' names both {a} and {b}"
            )
            self.r.error(
                f"{both}: "
                "in the converted SDFormat model every link, joint and frame "
                "needs its own name; rename one of them",
                span,
                "name_collision",
                DUPLICATE_NAME,
                related=(Related(other.name_span or other.element.tag_span, f"the other '{m.name}'"),),
            )
            out.append(m)
        return out

    def _describe(self, m: Named) -> str:
        return self.described.get(id(m), f"a {m.kind}")


def mark_gone_references(diagnostics: list[Diagnostic], lump_frames: list[Frame]) -> None:
    """The frames fixed joints leave that stay attached to links a massless link took with it: each
    massless diagnostic lists their references (``gone_refs``), so that the analysis reports them
    as consequences of that one cause (semantics/checks/dropped_links.py), not as errors of their own."""
    for d in diagnostics:
        gone = d.data.get("gone") if d.data.get("urdf") == "massless" else None
        if gone:
            d.data["gone_refs"] = [
                f.attached_to.span for f in lump_frames if f.attached_to is not None and f.attached_to.text in gone
            ]


def names_below(links: dict[str, ULink], link: ULink) -> list[str]:
    """The links below ``link`` in the tree of joints."""
    out, stack = [], [link]
    while stack:
        cur = stack.pop()
        for j in cur.child_joints:
            out.append(j.child)
            stack.append(links[j.child])
    return out
