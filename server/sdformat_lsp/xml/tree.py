"""The XML tree with exact source spans.

Mutable while the scanner builds it, read-only by convention afterwards (leaves
share one empty children list and attribute-less elements one empty mapping).
Every span is a :class:`~sdformat_lsp.text.Span` of code-point offsets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterator, Mapping
from weakref import ref

from ..diagnostics import Diagnostic
from ..text import LineIndex, Span


# Span(a, b) without the Python-level NamedTuple constructor: spans are built on every access.
_span = tuple.__new__


@dataclass(slots=True, eq=False)
class XmlAttribute:
    """An attribute; spans are built on demand (a large world has 100,000 of them)."""

    name: str
    value: str  # entity references decoded (only the five predefined and numeric ones)
    ns: int  # name start
    ne: int  # name end
    vs: int  # value start, inside the quotes
    ve: int  # value end
    terminated: bool = True  # False while the user has not typed the closing quote

    @property
    def name_span(self) -> Span:
        return _span(Span, (self.ns, self.ne))

    @property
    def value_span(self) -> Span:
        return _span(Span, (self.vs, self.ve))

    @property
    def span(self) -> Span:
        """The whole attribute, closing quote included."""
        return _span(Span, (self.ns, max(self.ve + (1 if self.terminated else 0), self.ne)))


class _Leaf(list):
    """The one empty ``children`` list shared by every leaf the scanner builds.

    A large world has 100,000 leaves; a list each would cost memory and
    collector time. It compares equal to ``[]`` and refuses to be changed.
    """

    __slots__ = ()

    def _read_only(self, *args, **kwargs):
        raise TypeError("a leaf's children list is shared: assign a new list instead")

    append = extend = insert = remove = pop = clear = sort = reverse = _read_only
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only


LEAF: list["XmlElement"] = _Leaf()
NO_ATTRIBUTES: Mapping[str, XmlAttribute] = MappingProxyType({})  # shared by elements without attributes


class XmlElement:
    """An element; a plain slotted class because a large world has 150,000.

    The scanner gives leaves the shared :data:`LEAF` list and attribute-less
    elements :data:`NO_ATTRIBUTES`; the text span is kept as two offsets.
    """

    __slots__ = (
        "tag", "ts", "stag_end", "end", "attributes", "children", "_parent",
        "text", "_tss", "_tse", "etag_start", "self_closing", "closed", "__weakref__",
    )

    def __init__(
        self,
        tag: str,  # qualified, prefix included ("gz:plugin")
        ts: int,  # tag name start (just after '<')
        stag_end: int,  # end of the start tag (after '>', or as far as it was typed)
        end: int,  # end of the element, end tag included
        attributes: Mapping[str, XmlAttribute] | None = None,
        children: list["XmlElement"] | None = None,
        parent: "XmlElement | None" = None,
        text: str = "",  # direct character data, decoded
        text_span: Span | None = None,  # the direct text with surrounding white space stripped
        etag_start: int = -1,  # start of the end tag, -1 without one
        self_closing: bool = False,
        closed: bool = False,  # has '/>' or a matching end tag
    ) -> None:
        self.tag = tag
        self.ts = ts
        self.stag_end = stag_end
        self.end = end
        self.attributes = {} if attributes is None else attributes
        self.children = [] if children is None else children
        self.parent = parent
        self.text = text
        self._tss, self._tse = text_span if text_span is not None else (-1, -1)
        self.etag_start = etag_start
        self.self_closing = self_closing
        self.closed = closed

    @property
    def parent(self) -> "XmlElement | None":
        """The enclosing element. Held weakly, so that a tree has no reference
        cycles and a dropped document is freed at once, not by the cyclic
        collector; it is there as long as the root is held (an XmlDocument, a
        model Document or an analysis holds it)."""
        p = self._parent
        return p() if p is not None else None

    @parent.setter
    def parent(self, element: "XmlElement | None") -> None:
        self._parent = ref(element) if element is not None else None

    @property
    def text_span(self) -> Span | None:
        return _span(Span, (self._tss, self._tse)) if self._tss >= 0 else None

    @text_span.setter
    def text_span(self, span: Span | None) -> None:
        self._tss, self._tse = span if span is not None else (-1, -1)

    @property
    def tag_span(self) -> Span:
        return _span(Span, (self.ts, self.ts + len(self.tag)))

    @property
    def start_tag_span(self) -> Span:
        return _span(Span, (self.ts - 1, self.stag_end))

    @property
    def span(self) -> Span:
        return _span(Span, (self.ts - 1, self.end))

    @property
    def end_tag_span(self) -> Span | None:
        return _span(Span, (self.etag_start, self.end)) if self.etag_start >= 0 else None

    def attr(self, name: str) -> XmlAttribute | None:
        return self.attributes.get(name)

    def get(self, name: str, default: str | None = None) -> str | None:
        a = self.attributes.get(name)
        return a.value if a is not None else default

    def child(self, tag: str) -> "XmlElement | None":
        for c in self.children:
            if c.tag == tag:
                return c
        return None

    def children_named(self, tag: str) -> list["XmlElement"]:
        return [c for c in self.children if c.tag == tag]

    def iter(self) -> Iterator["XmlElement"]:
        """Depth-first, document order, without recursion (trees can be deep)."""
        stack = [self]
        while stack:
            el = stack.pop()
            yield el
            stack.extend(reversed(el.children))

    def ancestors(self) -> Iterator["XmlElement"]:
        p = self.parent
        while p is not None:
            yield p
            p = p.parent

    @property
    def local_name(self) -> str:
        return self.tag.rpartition(":")[2]

    @property
    def prefix(self) -> str | None:
        return self.tag.partition(":")[0] if ":" in self.tag else None

    def __repr__(self) -> str:  # keep debugging output short
        return f"<XmlElement {self.tag} {self.span}>"


@dataclass(slots=True, eq=False)
class XmlDocument:
    text: str
    lines: LineIndex
    root: XmlElement | None
    problems: list[Diagnostic] = field(default_factory=list)
    has_doctype: bool = False

    def element_at(self, offset: int) -> XmlElement | None:
        """The innermost element whose span contains ``offset``."""
        node = self.root
        if node is None or not node.span.contains(offset):
            return None
        while True:
            for c in node.children:
                if c.span.start <= offset <= c.span.end:
                    node = c
                    break
            else:
                return node

    def iter(self) -> Iterator[XmlElement]:
        return self.root.iter() if self.root is not None else iter(())
