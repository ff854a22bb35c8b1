"""A tolerant, offset-exact XML scanner.

lxml tells us *whether* a document is well formed but only knows lines, not
the columns of attribute values, and its recovery drops exactly the
half-typed attribute a user is completing. This scanner builds the tree the
rest of the server works on: it never raises, never expands entities, never
reads a DTD, and keeps every tag, attribute and text span it saw.
"""

from __future__ import annotations

import re

from ..text import Span
from .tree import XmlAttribute, XmlElement

_TAG_NAME = re.compile(r"[A-Za-z_:\u00C0-\uFFFF][^\s/<>=\"']*")
_SPACE = re.compile(r"\s*")
_ATTR = re.compile(
    r"""([^\s/<>="']+)(?:\s*=\s*(?:"([^"<]*)("?)|'([^'<]*)('?)|([^\s<>"'/]*)))?"""
)
_END_TAG = re.compile(r"</([^\s<>]*)\s*(>?)")
# The common case, a complete well-formed start tag, in one match; anything else takes the careful path.
_FAST_START = re.compile(
    r"""<([A-Za-z_:\u00C0-\uFFFF][^\s/<>="']*)((?:\s+[^\s/<>="']+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(/?)>"""
)
_FAST_ATTR = re.compile(r"""([^\s/<>="']+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')""")
_ENTITY = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);")
_PREDEFINED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}
_ANY_TAG = re.compile(r"<(/?)([A-Za-z_:\u00C0-\uFFFF][^\s/<>=\"']*)(?:\"[^\"]*\"|'[^']*'|[^<>\"'])*?(/?)>")
_LOOKAHEADS = 32  # interrupted start tags per document worth a look ahead (each is linear)


def _entity(m: re.Match[str]) -> str:
    ref = m.group(1)
    if ref[0] == "#":
        try:
            code = int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:])
            return chr(code)
        except (ValueError, OverflowError):
            return m.group(0)
    return _PREDEFINED[ref]


def decode(raw: str) -> str:
    """Decode the predefined and numeric character references only."""
    return _ENTITY.sub(_entity, raw) if "&" in raw else raw


class ScanResult:
    __slots__ = ("root", "extra_roots", "doctype_span", "unclosed")

    def __init__(self) -> None:
        self.root: XmlElement | None = None
        self.extra_roots: list[XmlElement] = []
        self.doctype_span: Span | None = None
        self.unclosed: list[XmlElement] = []


def _add_text(el: XmlElement, text: str, start: int, end: int) -> None:
    raw = text[start:end]
    stripped = raw.strip()
    if not stripped:
        return
    lead = len(raw) - len(raw.lstrip())
    trail = len(raw.rstrip())
    el.text += decode(raw)
    s, e = start + lead, start + trail
    if el.text_span is None:
        el.text_span = Span(s, e)
    else:
        el.text_span = Span(el.text_span.start, e)


def scan(text: str) -> ScanResult:
    """Build the element tree of ``text``, whatever state it is in."""
    result = ScanResult()
    stack: list[XmlElement] = []
    n = len(text)
    pos = 0
    lookaheads = 0
    find = text.find
    fast_start = _FAST_START.match
    end_tag = _END_TAG.match

    def attach(el: XmlElement, leaf: bool = False) -> None:
        if stack:
            el.parent = stack[-1]
            stack[-1].children.append(el)
        elif result.root is None:
            result.root = el
        else:
            result.extra_roots.append(el)
        if not (el.self_closing or leaf):
            stack.append(el)

    while pos < n:
        lt = find("<", pos)
        if lt < 0:
            if stack:
                _add_text(stack[-1], text, pos, n)
            break
        if lt > pos and stack and not text[pos:lt].isspace():
            _add_text(stack[-1], text, pos, lt)
        nxt = text[lt + 1 : lt + 2]
        if nxt == "/":
            m = end_tag(text, lt)
            pos = m.end()
            name = m.group(1)
            if stack and stack[-1].tag == name:
                el = stack.pop()
            else:
                for depth in range(len(stack) - 1, -1, -1):
                    if stack[depth].tag == name:
                        break
                else:
                    continue  # a stray end tag: lxml reports it; nothing to close
                while len(stack) > depth + 1:
                    el = stack.pop()
                    el.end = lt
                    result.unclosed.append(el)
                el = stack.pop()
            el.etag_start = lt
            el.end = pos
            el.closed = bool(m.group(2))
            continue
        if nxt == "!":
            if text.startswith("<!--", lt):
                end = find("-->", lt + 4)
                pos = n if end < 0 else end + 3
            elif text.startswith("<![CDATA[", lt):
                end = find("]]>", lt + 9)
                if stack:
                    _add_text(stack[-1], text, lt + 9, n if end < 0 else end)
                pos = n if end < 0 else end + 3
            else:
                pos = _skip_declaration(text, lt)
                if text.startswith("<!DOCTYPE", lt) and result.doctype_span is None:
                    result.doctype_span = Span(lt, pos)
            continue
        if nxt == "?":
            end = find("?>", lt + 2)
            pos = n if end < 0 else end + 2
            continue
        fast = fast_start(text, lt)
        if fast is not None:
            pos = fast.end()
            attach(_fast_element(fast))
            continue
        m = _TAG_NAME.match(text, lt + 1)
        if m is None:  # a bare '<' in text
            if stack:
                _add_text(stack[-1], text, lt, lt + 1)
            pos = lt + 1
            continue
        el, pos = _start_tag(text, lt, m)
        leaf = False
        if not el.self_closing and text.startswith("<", pos) and text[pos - 1] != ">" and lookaheads < _LOOKAHEADS:
            # A start tag cut short by '<' (an attribute still being typed): it owns what
            # follows only if its own end tag comes next; else what follows are its siblings.
            lookaheads += 1
            leaf = not _closed_later(text, pos, el.tag)
            if leaf:
                result.unclosed.append(el)
        attach(el, leaf)
    for el in stack:
        el.end = n
        result.unclosed.append(el)
    return result


def _fast_element(m: re.Match[str]) -> XmlElement:
    """A complete start tag matched in one go: no recovery needed."""
    attrs: dict[str, XmlAttribute] = {}
    if m.end(2) > m.start(2):
        for a in _FAST_ATTR.finditer(m.string, m.start(2), m.end(2)):
            name = a.group(1)
            if name in attrs:
                continue
            g = 2 if a.group(2) is not None else 3
            attrs[name] = XmlAttribute(name, decode(a.group(g)), a.start(1), a.end(1), a.start(g), a.end(g))
    self_closing = bool(m.group(3))
    end = m.end()
    return XmlElement(m.group(1), m.start(1), end, end, attrs, self_closing=self_closing, closed=self_closing)


def _closed_later(text: str, pos: int, tag: str) -> bool:
    """Is the first end tag after ``pos`` that closes no later start tag ``</tag>``?"""
    depth = 0
    for m in _ANY_TAG.finditer(text, pos):
        if m.group(1):
            if depth == 0:
                return m.group(2) == tag
            depth -= 1
        elif not m.group(3):
            depth += 1
    return False


def _skip_declaration(text: str, lt: int) -> int:
    """Skip ``<!DOCTYPE ...>`` including an internal subset in brackets."""
    depth = 0
    i = lt + 2
    n = len(text)
    quote = ""
    while i < n:
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == ">" and depth <= 0:
            return i + 1
        i += 1
    return n


def _start_tag(text: str, lt: int, m: re.Match[str]) -> tuple[XmlElement, int]:
    name = m.group(0)
    attrs: dict[str, XmlAttribute] = {}
    pos = m.end()
    n = len(text)
    self_closing = False
    while True:
        pos = _SPACE.match(text, pos).end()
        if pos >= n:
            break
        ch = text[pos]
        if ch == ">":
            pos += 1
            break
        if ch == "/":
            if text.startswith("/>", pos):
                pos += 2
                self_closing = True
                break
            pos += 1
            continue
        if ch == "<":
            break
        a = _ATTR.match(text, pos)
        if a is None or a.end() == pos:
            pos += 1  # junk such as a stray quote or '='
            continue
        aname = a.group(1)
        if a.group(2) is not None:
            vs, ve, term, raw = a.start(2), a.end(2), bool(a.group(3)), a.group(2)
        elif a.group(4) is not None:
            vs, ve, term, raw = a.start(4), a.end(4), bool(a.group(5)), a.group(4)
        elif a.group(6) is not None:
            vs, ve, term, raw = a.start(6), a.end(6), False, a.group(6)
        else:
            vs = ve = a.end(1)
            term, raw = False, ""
        if not term:
            nl = raw.find("\n")
            if nl >= 0:  # an unclosed quote: the value is what was typed on that line
                raw = raw[:nl].rstrip("\r")
                ve = vs + len(raw)
        if aname not in attrs:
            attrs[aname] = XmlAttribute(aname, decode(raw), a.start(1), a.end(1), vs, ve, term)
        pos = a.end()
    el = XmlElement(name, lt + 1, pos, pos, attrs, self_closing=self_closing, closed=self_closing)
    return el, pos
