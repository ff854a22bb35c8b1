"""XML tree to document model, with the basic checks the phases rely on.

Names, joint ``<parent>``/``<child>`` and pose values must be readable before
any frame graph can be built; problems with them are reported here, once.
Nested models are built bottom-up without recursion: a model may be nested
ten thousand levels deep.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, error
from ..xml import XmlDocument, XmlElement
from .elements import Document, Frame, Include, Joint, Link, Model, Named, Ref, World
from .reading import ElementReader, parse_bool, version_tuple


class Builder(ElementReader):
    """The document model of one XML tree (:func:`build`)."""

    # -- elements --------------------------------------------------------

    def link(self, el: XmlElement) -> Link:
        name, span = self.name_of(el)
        return Link("link", name, span, el, self.pose(el))

    def frame(self, el: XmlElement) -> Frame:
        name, span = self.name_of(el)
        return Frame(
            "frame", name, span, el, self.pose(el), attached_to=self.attr_ref(el, "attached_to", "attached_to")
        )

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
        static_el = el.child("static")
        static = parse_bool(static_el.text) if static_el is not None else None
        merge = bool(parse_bool(el.get("merge")))
        if uri_el is None:
            self.diagnostics.append(
                error(
                    "ATTRIBUTE_MISSING",
                    "<include> has no <uri>: add <uri>model://NAME</uri> or a path to the model",
                    el.tag_span,
                )
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
        x: Named
        for c in el.children:
            t = c.tag
            if t == "link":
                x = self.link(c)
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
        return Document(
            version, va.value_span if va is not None else None, root, tuple(worlds), tuple(models), tuple(others)
        )


_EMPTY = XmlElement("", 1, 1, 1)


def build(xml: XmlDocument) -> tuple[Document, list[Diagnostic]]:
    b = Builder(xml)
    doc = b.document()
    return doc, b.diagnostics


__all__ = ["build", "version_tuple", "parse_bool"]
