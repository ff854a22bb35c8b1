"""The tree of a text made by a writer as it writes, without scanning the text again.

A writer that produces well-formed XML (a xacro expansion, formats/xacro/writer.py)
knows every offset as it writes: it tells a :class:`TreeBuilder` where each
element's tag, attributes, text and end tag are, and gets the tree the scanner
would build from the same text (the same slots, set directly as the scanner
sets them). :func:`parser.parse_built` then finds the problems as ``parse``
does, and parses afresh whenever there is any. ``tests/xacro/test_written_tree.py``
compares the two trees on real expansions.
"""

from __future__ import annotations

from typing import Mapping, cast
from weakref import ref

from .scanner import decode
from .tree import LEAF, NO_ATTRIBUTES, Attributes, XmlAttribute, XmlElement

_new_element = XmlElement.__new__
_new_attribute = XmlAttribute.__new__
_new_attributes = Attributes.__new__


class TreeBuilder:
    """Elements told in document order (see the module's docstring). ``complete`` is False once
    something was told that this builder does not make (text beside child elements, CDATA, a
    second root): the caller parses the text instead."""

    __slots__ = ("complete", "depth", "open_elements", "root")

    def __init__(self) -> None:
        self.root: XmlElement | None = None
        self.depth = 0  # the most elements open at once, as the scanner counts them
        self.complete = True
        # the elements open: [element, weak reference to it, its children so far, anything written inside]
        self.open_elements: list[list] = []

    def _element(self, tag: str, ts: int, attributes: list) -> XmlElement:
        el = _new_element(XmlElement)
        el.tag = tag
        el.ts = ts
        attrs: Mapping[str, XmlAttribute] = NO_ATTRIBUTES
        if attributes:
            items = []
            for name, raw, vs in attributes:
                a = _new_attribute(XmlAttribute)
                a.name = name
                a.value = decode(raw)
                a.ns = vs - len(name) - 2
                a._ne = len(name)
                a._vs = len(name) + 2
                a._ve = len(name) + 2 + len(raw)
                items.append(a)
            attrs = cast("Mapping[str, XmlAttribute]", _new_attributes(Attributes, items))  # registered a Mapping
        el.attributes = attrs
        el.children = LEAF
        el.text = ""
        frames = self.open_elements
        if frames:
            frame = frames[-1]
            el._parent = frame[1]
            frame[2].append(el)
            frame[3] = True
        else:
            el._parent = None
            if self.root is not None:
                self.complete = False  # a second root (the scanner's extra roots)
            self.root = el
        return el

    def leaf(self, tag: str, ts: int, attributes: list, body_start: int, body: str) -> None:
        """``<tag ...>body</tag>`` (``attributes``: (name, value as written, value start) each)."""
        el = self._element(tag, ts, attributes)
        stag = body_start - ts
        etag = stag + len(body)
        el._stag = stag
        el._etag = etag
        el._end = etag + len(tag) + 3
        stripped = body.strip()
        if stripped:
            el.text = decode(body)
            el._tss = stag + len(body) - len(body.lstrip())
            el._tsx = (len(stripped) << 2) | 1
        else:
            el._tss = -1
            el._tsx = 1

    def empty(self, tag: str, ts: int, attributes: list, end: int) -> None:
        """``<tag .../>``, ``end`` after its '>'."""
        el = self._element(tag, ts, attributes)
        el._stag = el._end = end - ts
        el._tss = el._etag = -1
        el._tsx = 3

    def open(self, tag: str, ts: int, attributes: list, stag_end: int) -> None:
        """An element with content to write inside; :meth:`close` ends it."""
        el = self._element(tag, ts, attributes)
        el._stag = el._end = stag_end - ts
        el._tss = el._etag = -1
        el._tsx = 0
        self.open_elements.append([el, ref(el), [], False])

    def inside(self) -> None:
        """A comment or processing instruction written inside the element open (nothing of the tree)."""
        if self.open_elements:
            self.open_elements[-1][3] = True

    def close(self, etag_start: int, end: int) -> None:
        """The end tag of the innermost open element, from ``etag_start`` to ``end`` (after its '>')."""
        el, _, kids, written = self.open_elements.pop()
        ts = el.ts
        el._etag = etag_start - ts
        el._end = end - ts
        el._tsx |= 1
        if kids:
            el.children = tuple(kids)
        if written:  # the scanner held it open: the depth it reached
            height = len(self.open_elements) + 1
            if height > self.depth:
                self.depth = height
