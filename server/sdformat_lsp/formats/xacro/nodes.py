"""The tree the expander works on: elements, texts, comments, each with its origin.

Shaped like the DOM ROS's xacro edits (minidom): an element's children are a
list of nodes in document order, text runs are nodes of their own and are not
merged when content is spliced in, so that the output is written the way
ROS's xacro writes it. Attribute values keep whether they are still the text
written in the source (``raw``): then an offset in the value is an offset from
the start of its origin's span, which places an error on the ``${...}`` that
caused it.
"""

from __future__ import annotations

from .source_map import Call, Origin


class Attr:
    __slots__ = ("origin", "raw", "value")

    def __init__(self, value: str, origin: Origin | None, raw: bool = False) -> None:
        self.value = value
        self.origin = origin
        self.raw = raw  # value is the source text at origin.span, character for character

    def copy(self, call: Call | None) -> "Attr":
        o = self.origin
        return Attr(self.value, o if o is None or call is None else Origin(o.file, o.span, call, o.via), self.raw)


class Text:
    __slots__ = ("blank", "cdata", "data", "origin", "raw")

    def __init__(self, data: str, origin: Origin | None, raw: bool = False, cdata: bool = False) -> None:
        self.data = data
        self.origin = origin
        self.raw = raw
        self.cdata = cdata
        self.blank = not cdata and data.isspace()  # never evaluated nor changed: shared by copies

    def copy(self, call: Call | None, shared: str = "") -> "Text":
        o = self.origin
        return Text(
            self.data, o if o is None or call is None else Origin(o.file, o.span, call, o.via), self.raw, self.cdata
        )


class Comment:
    __slots__ = ("data", "origin")

    def __init__(self, data: str, origin: Origin | None) -> None:
        self.data = data
        self.origin = origin

    def copy(self, call: Call | None, shared: str = "") -> "Comment":
        o = self.origin
        return Comment(self.data, o if o is None or call is None else Origin(o.file, o.span, call, o.via))


class Instruction:
    """A processing instruction (``<?target data?>``)."""

    __slots__ = ("data", "origin", "target")

    def __init__(self, target: str, data: str, origin: Origin | None) -> None:
        self.target = target
        self.data = data
        self.origin = origin

    def copy(self, call: Call | None, shared: str = "") -> "Instruction":
        return Instruction(self.target, self.data, self.origin)


class Element:
    """An element: its tag, attributes (in document order), children, and origin (the span of
    its tag name as written; ``end`` is where the element ends in that file)."""

    __slots__ = ("attrs", "children", "end", "origin", "tag")

    def __init__(self, tag: str, origin: Origin | None, end: int = 0) -> None:
        self.tag = tag
        self.attrs: dict[str, Attr] = {}
        self.children: list = []
        self.origin = origin
        self.end = end

    def copy(self, call: Call | None, shared: str = "") -> "Element":
        """A deep copy; with ``call``, every origin gains that call (iterative: no recursion
        over the depth of user data). Texts of white space only are shared, not copied: nothing
        changes them, and they are not written out where other nodes are. Elements tagged
        ``shared`` are shared too, whole (DocumentCache: the expander never changes a
        ``xacro:macro`` it defines, it copies the body at each call)."""
        o = self.origin
        root = Element(self.tag, o if o is None or call is None else Origin(o.file, o.span, call, o.via), self.end)
        stack = [(self, root)]
        pop = stack.pop
        push = stack.append
        element = Element
        text = Text
        origin = Origin
        while stack:
            src, dst = pop()
            if src.attrs:
                attrs = {}
                for k, a in src.attrs.items():
                    ao = a.origin
                    attrs[k] = Attr(
                        a.value, ao if ao is None or call is None else origin(ao.file, ao.span, call, ao.via), a.raw
                    )
                dst.attrs = attrs
            kids: list = []
            append = kids.append
            for child in src.children:
                kind = type(child)
                if kind is element:
                    if child.tag == shared:
                        append(child)
                        continue
                    co = child.origin
                    new = element(
                        child.tag,
                        co if co is None or call is None else origin(co.file, co.span, call, co.via),
                        child.end,
                    )
                    push((child, new))
                    append(new)
                elif kind is text and child.blank:
                    append(child)
                else:
                    append(child.copy(call))
            dst.children = kids
        return root

    def __repr__(self) -> str:
        return f"<Element {self.tag}>"


class Document:
    """A parsed file: its top-level nodes (comments, instructions, the root element)."""

    __slots__ = ("children", "root")

    def __init__(self, children: list, root: Element | None) -> None:
        self.children = children
        self.root = root

    def with_root(self) -> "Document":
        """This document with ``root`` set to its first element (after copying its children)."""
        self.root = next((n for n in self.children if type(n) is Element), None)
        return self


def size(elem: Element) -> int:
    """The number of nodes of an element's subtree (elements and their children)."""
    n = 0
    stack = [elem]
    while stack:
        e = stack.pop()
        n += 1 + len(e.children)
        stack.extend(c for c in e.children if type(c) is Element)
    return n


def remove_previous_comments(new: list) -> None:
    """Drop the comments right before a xacro element (they describe it), as xacro does: a blank
    text of at most one line break between them does not separate them."""
    j = len(new) - 1
    while j >= 0:
        node = new[j]
        if type(node) is Text and not node.cdata and node.data.isspace() and node.data.count("\n") <= 1:
            j -= 1
            if j < 0:
                return
            node = new[j]
        if type(node) is Comment:
            del new[j]
            j -= 1
        else:
            return
