"""The XML tree with exact source spans.

Mutable while the scanner builds it, read-only by convention afterwards (leaves
share one empty children list and attribute-less elements one empty mapping; the
scanner turns the children of each element it closes into a tuple, a sequence
like any other for its readers).
Every span is a :class:`~sdformat_lsp.text.Span` of code-point offsets.
"""

from __future__ import annotations

import bisect
from collections import abc
from types import MappingProxyType
from typing import Callable, Iterator, Mapping, Sequence, cast
from weakref import ref

from ..diagnostics import Diagnostic
from ..text import LineIndex, Span


# Span(a, b) without the Python-level NamedTuple constructor: spans are built on every access.
_span = tuple.__new__


class XmlAttribute:
    """An attribute (a large world has 100,000).

    Only the name start is stored as is; the other offsets are kept relative
    to it, small numbers that Python shares instead of allocating. Spans are
    built on demand.
    """

    # ``_ve`` is the value end relative to ``ns``, bitwise inverted (negative) while the closing
    # quote is missing: one slot less than a ``terminated`` of its own (96 bytes instead of 112)
    __slots__ = ("name", "value", "ns", "_ne", "_vs", "_ve")

    def __init__(
        self,
        name: str,
        value: str,  # entity references decoded (only the five predefined and numeric ones)
        ns: int,  # name start
        ne: int,  # name end
        vs: int,  # value start, inside the quotes
        ve: int,  # value end
        terminated: bool = True,  # False while the user has not typed the closing quote
    ) -> None:
        self.name = name
        self.value = value
        self.ns = ns
        self._ne = ne - ns
        self._vs = vs - ns
        self._ve = ve - ns if terminated else ~(ve - ns)

    @property
    def terminated(self) -> bool:
        """False while the user has not typed the closing quote."""
        return self._ve >= 0

    @terminated.setter
    def terminated(self, value: bool) -> None:
        if value != (self._ve >= 0):
            self._ve = ~self._ve

    @property
    def ne(self) -> int:
        return self.ns + self._ne

    @property
    def vs(self) -> int:
        return self.ns + self._vs

    @property
    def _vend(self) -> int:
        ve = self._ve
        return ve if ve >= 0 else ~ve

    @property
    def ve(self) -> int:
        return self.ns + self._vend

    @property
    def name_span(self) -> Span:
        return _span(Span, (self.ns, self.ns + self._ne))

    @property
    def value_span(self) -> Span:
        ns = self.ns
        ve = self._ve
        return _span(Span, (ns + self._vs, ns + (ve if ve >= 0 else ~ve)))

    @property
    def span(self) -> Span:
        """The whole attribute, closing quote included."""
        ve = self._ve
        return _span(Span, (self.ns, self.ns + max(ve + 1 if ve >= 0 else ~ve, self._ne)))

    def __repr__(self) -> str:
        return f"XmlAttribute({self.name!r}, {self.value!r}, {self.ns}, {self.ne}, {self.vs}, {self.ve}, {self.terminated})"


class Attributes(tuple):
    """The attributes of an element: a read-only mapping from name to :class:`XmlAttribute`,
    kept as a tuple of the attributes in document order (names are unique).

    A dict costs 184 bytes for one entry; this is 48. A 100 MB world has a million elements
    with attributes, nearly all with one or two, so a lookup is a short scan.
    """

    __slots__ = ()

    def get(self, name: str, default=None):  # type: ignore[override]
        for a in tuple.__iter__(self):
            if a.name == name:
                return a
        return default

    def __getitem__(self, name):  # type: ignore[override]
        for a in tuple.__iter__(self):
            if a.name == name:
                return a
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        for a in tuple.__iter__(self):
            if a.name == name:
                return True
        return False

    def __iter__(self) -> Iterator[str]:  # type: ignore[override]
        return (a.name for a in tuple.__iter__(self))

    def keys(self) -> list[str]:
        return [a.name for a in tuple.__iter__(self)]

    def values(self) -> tuple["XmlAttribute", ...]:
        return tuple(tuple.__iter__(self))

    def items(self) -> list[tuple[str, "XmlAttribute"]]:
        return [(a.name, a) for a in tuple.__iter__(self)]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, abc.Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Attributes({dict(self.items())!r})"


abc.Mapping.register(Attributes)

# Attributes.__new__ as the fast paths call it (the scanner, repeats.copy_into: the slots set without
# __init__), typed as what it makes, a read-only mapping: mypy does not see the registration above
NEW_ATTRIBUTES = cast(
    "Callable[[type[Attributes], list[XmlAttribute]], Mapping[str, XmlAttribute]]", Attributes.__new__
)


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
    elements :data:`NO_ATTRIBUTES`. Only the tag name start ``ts`` is stored as
    is: the other offsets are kept relative to it, mostly small numbers that
    Python shares instead of allocating (20 MB less for a 100,000-line world).
    """

    # 12 slots, 128 bytes: ``_tsx`` packs the text span's length (shifted left by 2) with the two
    # flags, ``closed`` (bit 0) and ``self_closing`` (bit 1); a 100 MB world has 3 million elements
    __slots__ = (
        "tag",
        "ts",
        "_stag",
        "_end",
        "attributes",
        "children",
        "_parent",
        "text",
        "_tss",
        "_tsx",
        "_etag",
        "__weakref__",
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
        self._stag = stag_end - ts
        self._end = end - ts
        self.attributes: Mapping[str, XmlAttribute] = {} if attributes is None else attributes
        self.children: Sequence["XmlElement"] = [] if children is None else children
        self.parent = parent
        self.text = text
        self._tsx = (1 if closed else 0) | (2 if self_closing else 0)
        self.text_span = text_span
        self.etag_start = etag_start

    @property
    def stag_end(self) -> int:
        return self.ts + self._stag

    @stag_end.setter
    def stag_end(self, offset: int) -> None:
        self._stag = offset - self.ts

    @property
    def end(self) -> int:
        return self.ts + self._end

    @end.setter
    def end(self, offset: int) -> None:
        self._end = offset - self.ts

    @property
    def etag_start(self) -> int:
        return self.ts + self._etag if self._etag >= 0 else -1

    @etag_start.setter
    def etag_start(self, offset: int) -> None:
        self._etag = offset - self.ts if offset >= 0 else -1

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
    def closed(self) -> bool:
        """Has '/>' or a matching end tag."""
        return bool(self._tsx & 1)

    @closed.setter
    def closed(self, value: bool) -> None:
        self._tsx = (self._tsx | 1) if value else (self._tsx & ~1)

    @property
    def self_closing(self) -> bool:
        """Written ``<tag/>``."""
        return bool(self._tsx & 2)

    @self_closing.setter
    def self_closing(self, value: bool) -> None:
        self._tsx = (self._tsx | 2) if value else (self._tsx & ~2)

    @property
    def text_span(self) -> Span | None:
        if self._tss < 0:
            return None
        start = self.ts + self._tss
        return _span(Span, (start, start + (self._tsx >> 2)))

    @text_span.setter
    def text_span(self, span: Span | None) -> None:
        flags = self._tsx & 3
        if span is None:
            self._tss = -1
            self._tsx = flags
        else:
            self._tss = span[0] - self.ts
            self._tsx = ((span[1] - span[0]) << 2) | flags

    @property
    def tag_span(self) -> Span:
        return _span(Span, (self.ts, self.ts + len(self.tag)))

    @property
    def start_tag_span(self) -> Span:
        return _span(Span, (self.ts - 1, self.ts + self._stag))

    @property
    def span(self) -> Span:
        return _span(Span, (self.ts - 1, self.ts + self._end))

    @property
    def end_tag_span(self) -> Span | None:
        ts = self.ts
        return _span(Span, (ts + self._etag, ts + self._end)) if self._etag >= 0 else None

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


_BISECT_FROM = 8  # children beyond which element_at looks one up by bisection (a world of 3,000 models)


def _lt(el: XmlElement) -> int:
    return el.ts - 1  # where its '<' is: the start of its span


class XmlDocument:
    """A parsed document: its text, line index, tree and XML-level problems.

    A plain slotted class rather than a dataclass: a dataclass is made by compiling its
    methods' source at import, which every start-up would pay for this one class.
    """

    __slots__ = ("text", "lines", "root", "problems", "has_doctype", "half_typed")

    def __init__(
        self,
        text: str,
        lines: LineIndex,
        root: XmlElement | None,
        problems: list[Diagnostic] | None = None,
        has_doctype: bool = False,
        # elements being typed (cut short, or unclosed with nothing in them): not in the tree the
        # analysis reads, found by element_at for completion and hover (they keep their parent)
        half_typed: list[XmlElement] | None = None,
    ) -> None:
        self.text = text
        self.lines = lines
        self.root = root
        self.problems = [] if problems is None else problems
        self.has_doctype = has_doctype
        self.half_typed = [] if half_typed is None else half_typed

    def __repr__(self) -> str:  # the text and the tree are too long to print
        return f"<XmlDocument {len(self.text)} characters, {len(self.problems)} problems>"

    def element_at(self, offset: int) -> XmlElement | None:
        """The innermost element whose span contains ``offset``."""
        for el in self.half_typed:
            if el.span.start <= offset <= el.span.end:
                return el
        node = self.root
        if node is None or not node.span.contains(offset):
            return None
        while True:
            kids = node.children
            found = None
            if len(kids) > _BISECT_FROM:
                # children are in document order and do not overlap: the one starting last at or before
                # ``offset`` (or the one before it, when it ends just there) is the only one that can hold it
                k = bisect.bisect_right(kids, offset, key=_lt) - 1
                if k > 0 and kids[k - 1].end >= offset:
                    k -= 1
                if k >= 0 and kids[k].ts - 1 <= offset <= kids[k].end:
                    found = kids[k]
            else:
                found = next((c for c in kids if c.ts - 1 <= offset <= c.end), None)
            if found is None:
                return node
            node = found

    def iter(self) -> Iterator[XmlElement]:
        return self.root.iter() if self.root is not None else iter(())
