"""``<gazebo>`` blocks: what URDF cannot hold but Gazebo takes back when it reads the URDF.

Sensors and plugins of a link go into ``<gazebo reference="LINK">`` with
their pose expressed in the link's new URDF frame (libsdformat puts such a
block's elements back into the link, and moves them along when it lumps the
link into another); model plugins go into a ``<gazebo>`` block without a
reference, ``<static>`` too; a joint's spring becomes ``springStiffness`` and
``springReference``, a link's ``<self_collide>`` and ``<gravity>`` their
extension keys, a visual's material script its ``<material>``.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from ..formats.urdf.description import Extension
from ..formats.urdf.writer import number, numbers
from ..model.transform import Transform
from ..xml import XmlElement


def serialize(
    el: XmlElement, pose: Transform | None = None, indent: str = "", texts: dict[int, str] | None = None
) -> str:
    """``el`` as XML text (iteratively); with ``pose``, its ``<pose>`` child is replaced by that pose;
    ``texts``: id(element) -> the text to write for it instead of its own."""
    lines: list[str] = []
    stack: list[tuple[XmlElement, str, bool]] = [(el, indent, False)]
    while stack:
        cur, ind, closing = stack.pop()
        if closing:
            lines.append(f"{ind}</{cur.tag}>")
            continue
        attrs = "".join(f" {name}={quoteattr(a.value)}" for name, a in cur.attributes.items())
        children = list(cur.children)
        replaced = cur is el and pose is not None
        if replaced:
            children = [c for c in children if c.tag != "pose"]
        text = texts.get(id(cur), cur.text).strip() if texts else cur.text.strip()
        if not children and not replaced:
            lines.append(f"{ind}<{cur.tag}{attrs}>{escape(text)}</{cur.tag}>" if text else f"{ind}<{cur.tag}{attrs}/>")
            continue
        lines.append(f"{ind}<{cur.tag}{attrs}>")
        if text:
            lines.append(f"{ind}  {escape(text)}")
        if replaced:
            lines.append(f"{ind}  <pose>{numbers(pose.p)} {numbers(pose.rpy)}</pose>")  # type: ignore[union-attr]
        stack.append((cur, ind, True))
        for c in reversed(children):
            stack.append((c, ind + "  ", False))
    return "\n".join(lines)


class Extensions:
    """The ``<gazebo>`` blocks of one robot, one per reference, in the order they were first needed."""

    def __init__(self) -> None:
        self.blocks: dict[str | None, Extension] = {}

    def add(self, reference: str | None, body: str) -> None:
        ext = self.blocks.get(reference)
        if ext is None:
            ext = self.blocks[reference] = Extension(reference)
        ext.body.append(body)

    def key(self, reference: str | None, tag: str, value: str) -> None:
        self.add(reference, f"<{tag}>{escape(value)}</{tag}>")

    def link(self, name: str, element: XmlElement, inverse: Transform, pose_of) -> None:
        """Sensors, plugins and flags of a link; ``pose_of(el)`` is ``X_B_el``, ``inverse`` the inverse of the link's URDF frame."""
        for c in element.children:
            if c.tag == "sensor":
                self.add(name, serialize(c, inverse * pose_of(c)))
            elif c.tag == "plugin":
                self.add(name, serialize(c))
            elif c.tag == "self_collide":
                self.key(name, "selfCollide", c.text.strip())
            elif c.tag == "gravity":
                self.key(name, "gravity", c.text.strip())

    def joint(self, name: str, element: XmlElement) -> None:
        axis = element.child("axis")
        dyn = axis.child("dynamics") if axis is not None else None
        if dyn is not None:
            for tag, key in (("spring_stiffness", "springStiffness"), ("spring_reference", "springReference")):
                c = dyn.child(tag)
                if c is not None and c.text.strip():
                    self.key(name, key, c.text.strip())
        for c in element.children:
            if c.tag in ("sensor", "plugin"):
                self.add(name, serialize(c))

    def model(self, element: XmlElement, static: bool) -> None:
        if static:
            self.key(None, "static", "true")
        for c in element.children:
            if c.tag == "plugin":
                self.add(None, serialize(c))

    def extensions(self) -> list[Extension]:
        return list(self.blocks.values())


__all__ = ["Extensions", "number", "serialize"]
