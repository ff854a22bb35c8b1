"""Reading a xacro file into the expander's tree, with the span of every node.

expat (the parser under minidom, which ROS's xacro uses) decides what is
well-formed and what the text and attribute values are, so that both read the
same document; the spans are found by reading the markup at the offsets expat
reports. An XML error is a located :class:`XacroError`.
"""

from __future__ import annotations

import re

from bisect import bisect_right
from xml.parsers import expat

from .errors import XacroError
from .nodes import Attr, Comment, Document, Element, Instruction, Text
from .source_map import Origin

_XML_PREFIX = frozenset({"xml"})
_ATTR = re.compile(r"""\s*([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


class _Offsets:
    """UTF-8 byte offsets (what expat reports) to code-point offsets."""

    def __init__(self, text: str) -> None:
        self.bytes_at: list[int] = []  # byte offset just after each non-ASCII character
        self.extra: list[int] = []  # bytes more than characters up to there
        if not text.isascii():
            extra = 0
            for i, ch in enumerate(text):
                if ord(ch) > 0x7F:
                    n = len(ch.encode("utf-8", "surrogatepass")) - 1
                    extra += n
                    self.bytes_at.append(i + extra + 1)
                    self.extra.append(extra)

    def char(self, byte: int) -> int:
        if not self.bytes_at:
            return byte
        i = bisect_right(self.bytes_at, byte) - 1
        return byte - (self.extra[i] if i >= 0 else 0)


def read_document(text: str, file: str) -> Document:
    """The tree of ``text`` (the contents of ``file``); raises XacroError on bad XML."""
    offsets = _Offsets(text)
    parser = expat.ParserCreate("utf-8")
    parser.buffer_text = True
    parser.ordered_attributes = True
    top: list = []
    stack: list[Element] = []
    pending: list[str] = []
    state: dict = {"cdata": False, "cdata_start": 0}

    prefixes: list[frozenset] = []  # the namespace prefixes declared, per open element
    ascii_only = not offsets.bytes_at
    char = offsets.char
    last = 0
    empty = False

    def flush(until: int) -> None:
        nonlocal last
        if pending:
            data = "".join(pending)
            pending.clear()
            node = Text(data, Origin(file, (last, until)), raw=text[last:until] == data)
            if stack:
                stack[-1].children.append(node)
        last = until

    def here() -> int:
        return parser.CurrentByteIndex if ascii_only else char(parser.CurrentByteIndex)

    match_attr = _ATTR.match
    find = text.find

    def start(name: str, attrs: list[str]) -> None:
        nonlocal last, empty
        at = parser.CurrentByteIndex if ascii_only else char(parser.CurrentByteIndex)
        if pending:
            flush(at)
        name_end = at + 1 + len(name)
        elem = Element(name, Origin(file, (at + 1, name_end)))
        pos = name_end
        if attrs:
            table = elem.attrs
            for k in range(0, len(attrs), 2):
                key = attrs[k]
                value = attrs[k + 1]
                m = match_attr(text, pos)
                if m is not None and m.group(1) == key:
                    g = 2 if m.group(2) is not None else 3
                    vs, ve = m.span(g)
                    table[key] = Attr(value, Origin(file, (vs, ve)), m.group(g) == value)
                    pos = m.end()
                else:  # not expected: expat read the tag; keep the value, place it at the tag
                    table[key] = Attr(value, Origin(file, (at + 1, name_end)))
        close = find(">", pos)
        close = len(text) if close < 0 else close + 1
        # namespace prefixes: minidom (ROS's xacro) reads with namespaces, where a prefix no
        # xmlns:prefix declares is an error ("unbound prefix")
        scope = prefixes[-1] if prefixes else _XML_PREFIX
        declared = [k[6:] for k in attrs[::2] if k.startswith("xmlns:")]
        if declared:
            scope = scope | frozenset(declared)
        prefixes.append(scope)
        for k in range(0, len(attrs), 2):
            if (attrs[k] == "xmlns" or attrs[k].startswith("xmlns:")) and " " in attrs[k + 1]:
                # minidom's expat separates a namespace from a name by a space: it refuses one in a URI
                attr = elem.attrs.get(attrs[k])
                raise XacroError(
                    f"the namespace URI of {attrs[k]} contains a space, which ROS's xacro refuses; remove it",
                    attr.origin if attr is not None else Origin(file, (at + 1, name_end)),
                )
        for qname, where in ((name, (at + 1, name_end)), *((k, (at + 1, close)) for k in attrs[::2])):
            if ":" in qname and (qname.count(":") > 1 or qname[0] == ":" or qname[-1] == ":"):
                raise XacroError(
                    f"'{qname}' is not a name with a namespace prefix (prefix:name), which ROS's xacro "
                    "refuses (not well-formed with namespaces)",
                    Origin(file, where),
                )
            if ":" in qname and not qname.startswith("xmlns:") and qname.split(":", 1)[0] not in scope:
                raise XacroError(
                    f"the namespace prefix of '{qname}' is not declared: add "
                    f'xmlns:{qname.split(":", 1)[0]}="..." to this element or an enclosing one '
                    "(ROS's xacro refuses the document: unbound prefix)",
                    Origin(file, where),
                )
        last = close
        elem.end = close  # until the end tag is seen
        if stack:
            stack[-1].children.append(elem)
        else:
            top.append(elem)
        stack.append(elem)
        empty = text[close - 2] == "/"

    def end(name: str) -> None:
        nonlocal last, empty
        prefixes.pop()
        if empty:  # <tag/>: the start tag was the whole element
            empty = False
            stack.pop()
            return
        at = parser.CurrentByteIndex if ascii_only else char(parser.CurrentByteIndex)
        if pending:
            flush(at)
        elem = stack.pop()
        close = find(">", at)
        last = elem.end = len(text) if close < 0 else close + 1

    def comment(data: str) -> None:
        nonlocal last
        at = here()
        flush(at)
        end_at = at + len(data) + 7
        node = Comment(data, Origin(file, (at, end_at)))
        (stack[-1].children if stack else top).append(node)
        last = end_at

    def instruction(target: str, data: str) -> None:
        nonlocal last
        at = here()
        flush(at)
        close = text.find("?>", at)
        end_at = len(text) if close < 0 else close + 2
        node = Instruction(target, data, Origin(file, (at, end_at)))
        (stack[-1].children if stack else top).append(node)
        last = end_at

    def chars(data: str) -> None:
        if state["cdata"]:
            pending.append(data)
            return
        if stack:
            pending.append(data)

    def cdata_start() -> None:
        at = here()
        flush(at)
        state["cdata"] = True
        state["cdata_start"] = at

    def cdata_end() -> None:
        nonlocal last
        at = here()
        data = "".join(pending)
        pending.clear()
        state["cdata"] = False
        node = Text(data, Origin(file, (state["cdata_start"] + 9, at)), raw=True, cdata=True)
        if stack:
            stack[-1].children.append(node)
        last = at + 3

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CommentHandler = comment
    parser.ProcessingInstructionHandler = instruction
    parser.CharacterDataHandler = chars
    parser.StartCdataSectionHandler = cdata_start
    parser.EndCdataSectionHandler = cdata_end
    try:
        parser.Parse(text.encode("utf-8", "surrogatepass"), True)
    except expat.ExpatError as exc:
        at = offsets.char(parser.ErrorByteIndex) if parser.ErrorByteIndex >= 0 else 0
        reason = expat.ErrorString(exc.code) if exc.code is not None else str(exc)
        raise XacroError(f"the XML is not well-formed: {reason}", Origin(file, (at, min(at + 1, len(text))))) from None
    except RecursionError:
        raise XacroError("the XML is nested too deeply to read", Origin(file, (0, 0))) from None
    root = next((n for n in top if type(n) is Element), None)
    return Document(top, root)


SHARED = "xacro:macro"  # the elements a cached tree hands out shared (see DocumentCache.read)


class DocumentCache:
    """Read trees kept by file and text, for callers that expand the same files again and again
    (the editor: an included library is read at every edit of the document including it). A
    tree is handed out as a copy, since the expander changes what it is given; at most
    ``size`` trees are kept, the least recently used dropped first."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.trees: dict[tuple[str, str], Document] = {}

    def read(self, text: str, file: str) -> Document:
        key = (file, text)
        doc = self.trees.pop(key, None)
        if doc is None:
            doc = read_document(text, file)  # raises on bad XML: nothing kept
            if len(self.trees) >= self.size:
                del self.trees[next(iter(self.trees))]
        self.trees[key] = doc
        # the macros' definitions shared, not copied: the expander copies a macro's body at each call
        # and never changes the definition itself (tests/xacro/test_xacro_edits.py: the same expansion)
        return Document([n.copy(None, SHARED) for n in doc.children], None).with_root()


MAX_CUTS = 16  # tags looked back at for a place to cut a document that is not well-formed


def _open_elements(data: bytes, final: bool) -> list[str] | int:
    """The names of the elements open at the end of ``data`` (outermost first), or the byte offset of
    its first mistake (expat's, as :func:`read_document` reads)."""
    parser = expat.ParserCreate()
    stack: list[str] = []
    parser.StartElementHandler = lambda name, attrs: stack.append(name)
    parser.EndElementHandler = lambda name: stack.pop()
    try:
        parser.Parse(data, final)
    except expat.ExpatError:
        return max(parser.ErrorByteIndex, 0)
    return stack


def before_the_mistake(text: str) -> str | None:
    """For an editor's document that is not well-formed (cut short, an end tag or a quote deleted): the
    text up to the tag where the first mistake is, with the elements open there closed after it, so
    that what the user wrote before the mistake still expands (its macros, properties and robot for
    navigation and completion); ``text`` itself when it is well-formed, None when nothing before the
    mistake can be read. Offsets up to the cut are those of ``text``."""
    data = text.encode("utf-8", "surrogatepass")
    found = _open_elements(data, True)
    if not isinstance(found, int):
        return text
    cut = len(data[:found].decode("utf-8", "ignore"))
    for _ in range(MAX_CUTS):
        k = text.rfind("<", 0, cut + 1)
        if k <= 0:
            return None
        prefix = text[:k]
        stack = _open_elements(prefix.encode("utf-8", "surrogatepass"), False)
        if isinstance(stack, list) and stack:
            closed = prefix + "".join(f"</{name}>" for name in reversed(stack))
            if _open_elements(closed.encode("utf-8", "surrogatepass"), True) == []:
                return closed
        cut = k - 1
    return None
