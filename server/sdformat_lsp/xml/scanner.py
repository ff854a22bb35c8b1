"""A tolerant, offset-exact XML scanner.

lxml tells us *whether* a document is well formed but only knows lines, not
the columns of attribute values, and its recovery drops exactly the
half-typed attribute a user is completing. This scanner builds the tree the
rest of the server works on: it never raises, never expands entities, never
reads a DTD, and keeps every tag, attribute and text span it saw.
"""

from __future__ import annotations

import re
import sys
from typing import Mapping
from weakref import ref

from ..spelling import one_edit
from ..text import Span
from . import repeats
from .tree import LEAF, NEW_ATTRIBUTES, NO_ATTRIBUTES, Attributes, XmlAttribute, XmlElement

# A name's first character: A-Z, a-z, '_', ':' or U+00C0 to U+FFFF. Written as the complement
# because re compiles a range of 65,000 code points by visiting each (about 10 ms per pattern at
# every start-up); the complement holds only short ranges and compiles to the same set.
_NAME_START = r"[^\x00-9;-@\[-^`{-\xBF\U00010000-\U0010FFFF]"
# The careful path's patterns, compiled on first use (re keeps them): most documents never need
# them, and compiling them would cost every start-up half a millisecond.
_TAG_NAME = _NAME_START + r"[^\s/<>=\"']*"
_SPACE = r"\s*"
_ATTR = r"""([^\s/<>="']+)(?:\s*=\s*(?:"([^"<]*)("?)|'([^'<]*)('?)|([^\s<>"'/]*)))?"""
_END_TAG = r"</([^\s<>]*)\s*(>?)"
# The common token in one match: a complete start tag (with its text and end tag when it holds
# only text) or end tag, then the character data up to the next '<' (leading white space apart).
# Anything else takes the careful path. Possessive quantifiers (*+): no piece can give back
# characters to let the rest match, and not trying saves a fifth of the time.
# Groups: name, attributes (with the white space before '>' or '/>'), '/', text, white space in
# its end tag; or the end tag's name and white space; then the character data. Every offset
# follows from their lengths (no call to the match object but one: see _scan); the white space
# between tokens is not captured, as a string for it would be made at every token.
_TOKEN_PATTERN = (
    r"""<(?:(""" + _NAME_START + r"""[^\s/<>="']*+)((?:\s++[^\s/<>="']++\s*+=\s*+(?:"[^"<]*+"|'[^'<]*+'))*+\s*+)"""
    r"""(?:(/)>|>(?:([^<]*+)</\1(\s*+)>)?)|/([^\s<>]*+)(\s*+)>)\s*+([^<]*+)"""
)
# The attributes of such a tag as contiguous pieces: their lengths give every offset.
_TOKEN_ATTR_PATTERN = r"""(\s++)([^\s/<>="']++)(\s*+=\s*+)(?:"([^"<]*+)"|'([^'<]*+)')"""


def greedy(pattern: str) -> str:
    """The pattern with its possessive quantifiers made plain greedy, for Python 3.10.

    Python's `re` has possessive quantifiers from 3.11 on. Each possessive piece above is
    followed by a character it cannot match, so the greedy form matches exactly the same
    text; it only backtracks (linearly) before failing. tests/core/test_python_versions.py compares them.
    """
    return pattern.replace("*+", "*").replace("++", "+")


_POSSESSIVE = sys.version_info >= (3, 11)
_TOKEN = re.compile(_TOKEN_PATTERN if _POSSESSIVE else greedy(_TOKEN_PATTERN))
# a scanner object matches at where its last match ended (no position to pass); Pattern.scanner is
# CPython's, undocumented, and missing from the type stubs
_token_scanner = _TOKEN.scanner  # type: ignore[attr-defined]
_TOKEN_ATTR = re.compile(_TOKEN_ATTR_PATTERN if _POSSESSIVE else greedy(_TOKEN_ATTR_PATTERN))
_TAIL = re.compile(r"\s*+([^<]*+)" if _POSSESSIVE else r"\s*([^<]*)")  # what a token reads after an end tag
_ENTITY = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);")
_PREDEFINED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}
# The look-ahead after the name keeps the name whole: without it, a tag that does not end (a '<' in
# a long attribute value) is tried again with each shorter name, quadratic in the name's length.
_ANY_TAG = (
    r"<(/?)(" + _NAME_START + r"[^\s/<>=\"']*)(?![^\s/<>=\"'])(?:\"[^\"]*\"|'[^']*'|[^<>\"'])*?(/?)>"
)  # compiled on first use
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
    __slots__ = ("root", "extra_roots", "doctype_span", "unclosed", "depth", "half_typed", "suspect", "misspelt")

    def __init__(self) -> None:
        self.root: XmlElement | None = None
        self.extra_roots: list[XmlElement] = []
        self.doctype_span: Span | None = None
        self.unclosed: list[XmlElement] = []
        self.half_typed: list[XmlElement] = []  # unclosed elements with nothing in them, out of the tree
        self.depth = 0  # the most elements open at once
        self.suspect = False  # an unclosed element whose end tag, by indentation, closed a child of its tag
        self.misspelt: list[XmlElement] = []  # elements closed by an end tag with a misspelt name (see _misspelt)


def _add_text(el: XmlElement, text: str, start: int, end: int, more: dict[int, list]) -> None:
    raw = text[start:end]
    stripped = raw.strip()
    if not stripped:
        return
    lead = len(raw) - len(raw.lstrip())
    trail = len(raw.rstrip())
    _append_text(el, decode(raw), more)
    s, e = start + lead, start + trail
    if el.text_span is None:
        el.text_span = Span(s, e)
    else:
        el.text_span = Span(el.text_span.start, e)


def _append_text(el: XmlElement, piece: str, more: dict[int, list]) -> None:
    """Text in several pieces (around comments, CDATA, a bare '<'): collected in a list and
    joined once at the end, as ``el.text += piece`` copies the text so far every time."""
    if not el.text:
        el.text = piece
        return
    parts = more.get(id(el))
    if parts is None:
        more[id(el)] = parts = [el, el.text]
    parts.append(piece)


def _text_after_tag(top: XmlElement, text: str, tag_end: int, end: int, chars: str, more: dict[int, list]) -> None:
    """Character data after a tag, up to ``end`` (the next '<'), that is not only white space:
    text of the open element ``top`` (rare in SDFormat: text around comments, or mixed content)."""
    raw = text[tag_end:end]
    if "&" in raw:
        raw = decode(raw)
    start = end - len(chars) - top.ts
    if top._tss < 0:
        top.text = raw
        top._tss = start
    else:
        _append_text(top, raw, more)
    top._tsx = ((start + len(chars.rstrip()) - top._tss) << 2) | (top._tsx & 3)


def _leaf_text(body: str) -> tuple[str, int, int]:
    """What a leaf's text gives its element: the text decoded, and the start (relative to the
    text's) and length of the text with white space stripped (length 0: only white space). The
    scanner reads each distinct short text once: a world repeats "1", "0 0 1" and its poses."""
    stripped = body.strip()
    if not stripped:
        return "", 0, 0
    return decode(body), len(body) - len(body.lstrip()), len(stripped)


_SHARED_TEXT = 64  # element texts up to this long are shared between elements that repeat them


def scan(text: str) -> ScanResult:
    """Build the element tree of ``text``, whatever state it is in.

    A document that leaves elements open at its end is scanned a second time
    matching end tags by indentation too (see :func:`_indent_closes`): an
    element typed unclosed inside another of the same tag (a ``<model>`` in a
    model) otherwise takes the enclosing element's end tag, and the error lands
    at the end of the file instead of at the typing. A well-formed document
    is scanned once and never judged by its indentation.
    """
    result = _scan(text, False)
    if result.suspect:
        second = _scan(text, True)
        if len(second.unclosed) <= len(result.unclosed):
            return second
    return result


def _scan(text: str, by_indent: bool) -> ScanResult:
    """One pass (see :func:`scan`).

    A well-formed tag takes one regex match, with its attributes and the
    text after it, and no Python function call: a 100,000-line world has
    250,000 tags. Everything else goes through the careful path.
    """
    result = ScanResult()
    stack: list[XmlElement] = []
    top: XmlElement | None = None  # stack[-1]
    top_ref = None  # a weak reference to it: the parent of what follows
    shut: XmlElement | None  # the element an end tag closes (None: it closes none)
    n = len(text)
    pos = 0
    depth = 0
    lookaheads = 0
    find = text.find
    token = _token_scanner(text, 0).match  # matches at where the last match ended: no arguments to pass
    intern = sys.intern
    new = XmlElement.__new__
    new_attr = XmlAttribute.__new__
    new_attrs = NEW_ATTRIBUTES
    shapes: dict[str, tuple[tuple[str, str, int, int, int, int], ...]] = {}  # attributes as written, by text
    more: dict[int, list] = {}  # id(element) -> [element, text pieces...] for text in several pieces
    tags: dict[str, str] = {}  # tag names, interned
    leaf_texts: dict[str, tuple[str, int, int]] = {}  # short texts of leaves, read once each (see _leaf_text)
    # Repeated subtrees (see repeats.py), in the first scan only
    templates = None if by_indent else repeats.Templates(text)
    pending: list = [] if templates is None else templates.pending  # cleared in place wherever not clean
    while pos < n:
        m = token()
        if m is not None:
            name, attr_src, slash, body, body_space, end_name, end_space, chars = m.groups()
            if name is not None:
                ts = pos + 1
                stag = len(name) + len(attr_src)  # the start tag's end, before its '>' or '/>'
                attrs: dict[str, XmlAttribute] | Mapping[str, XmlAttribute] = NO_ATTRIBUTES
                if len(attr_src) > 1:  # white space alone holds no attribute
                    shape = shapes.get(attr_src)
                    if shape is None:
                        shapes[attr_src] = shape = _attribute_shape(attr_src)
                    if shape:  # the slots set directly, without __init__
                        items = []
                        p = ts + len(name)
                        for aname, value, ns, ne, vs, ve in shape:
                            a = new_attr(XmlAttribute)
                            a.name = aname
                            a.value = value
                            a.ns = p + ns
                            a._ne = ne
                            a._vs = vs
                            a._ve = ve  # terminated (see XmlAttribute)
                            items.append(a)
                        attrs = new_attrs(Attributes, items)
                el = new(XmlElement)
                try:
                    el.tag = tags[name]  # a subscript: cheaper than a call, and a document has few names
                except KeyError:
                    el.tag = tags[name] = intern(name)
                el.ts = ts
                el.attributes = attrs
                el.children = LEAF
                el._parent = top_ref
                el.text = ""
                if top is not None:
                    if top.children is LEAF:
                        top.children = [el]
                    else:
                        top.children.append(el)  # type: ignore[attr-defined]  # an open element's: a list
                elif result.root is None:
                    result.root = el
                else:
                    result.extra_roots.append(el)
                # offsets but ts are kept relative to it (see XmlElement)
                if body is not None:  # <name>text</name> in one go: closed
                    el._stag = stag = stag + 1
                    el._etag = etag = stag + len(body)
                    el._end = etag + len(name) + 3 + len(body_space)
                    known = leaf_texts.get(body)
                    if known is None:
                        known = _leaf_text(body)
                        if len(body) <= _SHARED_TEXT:  # one string for each repeated text ("1", "0 0 1")
                            leaf_texts[body] = known
                    value, lead, length = known
                    if length:
                        el.text = value
                        el._tss = stag + lead
                        el._tsx = (length << 2) | 1
                    else:
                        el._tss = -1
                        el._tsx = 1
                elif slash is not None:  # closed and self-closing
                    el._stag = el._end = stag + 2
                    el._tss = el._etag = -1
                    el._tsx = 3
                else:  # left open: it becomes the parent of what follows
                    el._stag = el._end = stag + 1
                    el._tss = el._etag = -1
                    el._tsx = 0
                    repeated = templates.opened(el, name, attr_src, pos) if templates is not None else None
                    if repeated is not None:  # a copy, closed: what follows its end tag is read next
                        template, source = repeated
                        height = len(stack) + repeats.copy_into(el, template)
                        if height > depth:
                            depth = height
                        end = pos + len(source)
                        tail = _TAIL.match(text, end)
                        assert tail is not None  # every part of it is optional: it always matches
                        chars = tail.group(1)
                        pos = tail.end()
                        if chars and top is not None:
                            pending.clear()
                            _text_after_tag(top, text, end, pos, chars, more)
                        token = _token_scanner(text, pos).match
                        continue
                    stack.append(el)
                    top = el
                    top_ref = ref(el)  # nearly every element left open gets children
                    if len(stack) > depth:
                        depth = len(stack)
                    pos = m.end()
                    if chars:
                        pending.clear()
                        _text_after_tag(el, text, ts + el._end, pos, chars, more)
                    continue
            else:
                at = None
                if (
                    top is not None
                    and top.tag == end_name
                    and (not by_indent or (at := _indent_closes(stack, end_name, pos, text)) is None)
                ):
                    shut = stack.pop()
                    top_ref = shut._parent  # made for the element it closes into, when that was opened
                    top = stack[-1] if stack else None
                else:
                    pending.clear()  # not clean: every element still open holds this end tag
                    shut = _close_mismatched(stack, end_name, pos, result, text, at)
                    top = stack[-1] if stack else None
                    top_ref = ref(top) if top is not None else None  # the one made when it was opened
                if shut is not None:
                    ets = shut.ts
                    shut._etag = pos - ets
                    shut._end = pos + len(end_name) + 3 + len(end_space) - ets
                    shut._tsx |= 1  # closed
                    if shut.children is not LEAF:
                        shut.children = tuple(shut.children)  # complete: 48 bytes for one child, not 64 and up
                    if pending and pending[-1][0] is shut and templates is not None:  # closed cleanly: a template
                        templates.closed(shut)
            end = m.end()
            if chars and top is not None:  # text that is not only white space
                pending.clear()
                tag_end = pos + (el._end + 1 if name is not None else len(end_name) + 3 + len(end_space))
                _text_after_tag(top, text, tag_end, end, chars, more)
            pos = end
            continue
        # The careful path: text after something unusual, comments, declarations, broken tags.
        pending.clear()
        lt = find("<", pos)
        if lt != pos:
            if lt < 0:
                if top is not None:
                    _add_text(top, text, pos, n, more)
                break
            if top is not None and not text[pos:lt].isspace():
                _add_text(top, text, pos, lt, more)
            pos = lt
            token = _token_scanner(text, pos).match
            continue
        nxt = text[lt + 1 : lt + 2]
        if nxt == "/":
            end_tag = re.compile(_END_TAG).match(text, lt)
            assert end_tag is not None  # '</' is there, and the rest of the pattern is optional
            pos = end_tag.end()
            name = end_tag.group(1)
            at = None if not by_indent or top is None or top.tag != name else _indent_closes(stack, name, lt, text)
            if top is not None and top.tag == name and at is None:
                shut = stack.pop()
            else:
                shut = _close_mismatched(stack, name, lt, result, text, at)
            if shut is not None:
                shut.etag_start = lt
                shut.end = pos
                shut.closed = bool(end_tag.group(2))
                if shut.children is not LEAF:
                    shut.children = tuple(shut.children)
        elif nxt == "!":
            if text.startswith("<!--", lt):
                end = find("-->", lt + 4)
                pos = n if end < 0 else end + 3
            elif text.startswith("<![CDATA[", lt):
                end = find("]]>", lt + 9)
                if top is not None:
                    _add_text(top, text, lt + 9, n if end < 0 else end, more)
                pos = n if end < 0 else end + 3
            else:
                pos = _skip_declaration(text, lt)
                if text.startswith("<!DOCTYPE", lt) and result.doctype_span is None:
                    result.doctype_span = Span(lt, pos)
        elif nxt == "?":
            end = find("?>", lt + 2)
            pos = n if end < 0 else end + 2
        else:
            m = re.compile(_TAG_NAME).match(text, lt + 1)
            if m is None:  # a bare '<' in text
                if top is not None:
                    _add_text(top, text, lt, lt + 1, more)
                pos = lt + 1
                token = _token_scanner(text, pos).match
                continue
            el, pos = _start_tag(text, lt, m)
            leaf = el.self_closing
            if not leaf and text.startswith("<", pos) and text[pos - 1] != ">":
                # A start tag cut short by '<' (an attribute still being typed): what follows on a
                # later line indented no deeper is its sibling; otherwise it owns what follows only
                # if its own end tag comes next (looked for a bounded number of times: each is linear).
                col = _indent(text, lt)
                nxt_col = _indent(text, pos)
                if col >= 0 and 0 <= nxt_col <= col and text.count("\n", lt, pos) + text.count("\r", lt, pos) > 0:
                    leaf = True
                elif lookaheads < _LOOKAHEADS:
                    lookaheads += 1
                    leaf = not _closed_later(text, pos, el.tag)
                if leaf:
                    result.unclosed.append(el)
            if top is not None:
                el.parent = top
                if top.children is LEAF:
                    top.children = [el]
                else:
                    top.children.append(el)  # type: ignore[attr-defined]  # an open element's: a list
            elif result.root is None:
                result.root = el
            else:
                result.extra_roots.append(el)
            if not leaf:
                stack.append(el)
                depth = max(depth, len(stack))
        top = stack[-1] if stack else None
        top_ref = ref(top) if top is not None else None
        token = _token_scanner(text, pos).match
    for el in reversed(stack):
        el.end = n
        result.unclosed.append(el)
        if not result.suspect and _took_its_end_tag(el, text):
            result.suspect = True
    if len(stack) > 1:
        _regroup(stack[1:], text)  # the root stays what it is
    _detach_half_typed(result)
    for parts in more.values():
        parts[0].text = "".join(parts[1:])
    result.depth = depth
    return result


def _attribute_shape(source: str) -> tuple[tuple[str, str, int, int, int, int], ...]:
    """The attributes in the text between a tag name and its '>': (name, value,
    name start in that text, then name end, value start and value end relative
    to the name start), first of each name only. Documents repeat the same few
    (``name="visual"``, ``degrees="true"``), so the scanner reads each distinct
    text once."""
    out = []
    seen = set()
    p = 0
    for lead, name, eq, dq, sq in _TOKEN_ATTR.findall(source):
        ns = p + len(lead)
        ne = ns + len(name)
        vs = ne + len(eq) + 1
        raw = dq or sq
        p = vs + len(raw) + 1  # after the closing quote
        if name not in seen:
            seen.add(name)
            out.append((sys.intern(name), decode(raw), ns, ne - ns, vs - ns, p - 1 - ns))
    return tuple(out)


def _took_its_end_tag(el: XmlElement, text: str) -> bool:
    """Whether unclosed ``el`` looks robbed of its end tag: a child of the same tag was closed
    by an end tag first on its line, indented as ``el`` and not as that child (the child being
    typed, ``<model name="new">`` in a model, took the model's ``</model>``). Looked at only
    for unclosed elements, each once: linear."""
    own = -2
    for c in el.children:
        if c.tag == el.tag and c._etag >= 0:
            col = _indent(text, c.etag_start)
            if col < 0:
                continue
            if own == -2:
                own = _line_indent(text, el.ts - 1)
            if col == own and col != _line_indent(text, c.ts - 1):
                return True
    return False


def _indent_closes(stack: list[XmlElement], name: str, lt: int, text: str) -> int | None:
    """For the second scan of a document left unbalanced: the depth in ``stack`` of the element
    the end tag at ``lt`` closes by indentation, when that is not the innermost element of its
    tag. An end tag first on its line, indented less than the innermost open ``<name>``, closes
    the nearest open ``<name>`` whose line is indented exactly as much (the innermost stays
    unclosed: it is the one being typed); None when there is no such element."""
    col = _indent(text, lt)
    if col < 0:
        return None
    inner = _line_indent(text, stack[-1].ts - 1)
    if inner < 0 or inner <= col:
        return None
    looked = 0
    for depth in range(len(stack) - 2, -1, -1):
        el = stack[depth]
        if el.tag == name:
            c = _line_indent(text, el.ts - 1)
            if c == col:
                return depth
            looked += 1
            if 0 <= c < col or looked >= _INDENT_REACH:
                return None
    return None


_INDENT_REACH = 16  # open elements of the tag looked at per end tag: linear however deep the nesting


def _close_mismatched(
    stack: list[XmlElement], name: str, lt: int, result: ScanResult, text: str, depth: int | None = None
) -> XmlElement | None:
    """Close the open element an end tag names when it is not the innermost
    (those in between stay unclosed); None for a stray end tag, which closes
    nothing (lxml reports it). ``depth``: the element to close, found by indentation."""
    if depth is None:
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth].tag == name:
                break
        else:
            if stack and _misspelt(name, stack[-1].tag, text, lt):
                result.misspelt.append(stack[-1])
                return stack.pop()
            return None
    if len(stack) > depth + 1:
        chain = stack[depth + 1 :]
        del stack[depth + 1 :]
        for el in reversed(chain):
            el.end = lt
            result.unclosed.append(el)
            if not result.suspect and _took_its_end_tag(el, text):
                result.suspect = True
        _regroup(chain, text)
    return stack.pop()


_END_TAG_DONE = re.compile(r"\s*>")


def _misspelt(written: str, tag: str, text: str, lt: int) -> bool:
    """Whether the end tag ``</written>`` at ``lt``, which closes no open element, is the end tag of the
    innermost one (``tag``) misspelt (``</lnik>``, ``</modelx>``: see spelling.py). Closing that element
    with it analyses the rest as written; the mistake is said once, at the end tag (xml/parser.py). Not
    when the next end tag is the element's own (``</lnk></link>``: a stray end tag, to be removed), nor
    for names of one or two characters (any name is one edit from them), nor for an end tag cut short."""
    if len(tag) < 3 or not one_edit(written, tag):
        return False
    after = _END_TAG_DONE.match(text, lt + 2 + len(written))
    if after is None:
        return False
    nxt = text.find("</", after.end())
    return nxt < 0 or not (
        text.startswith(tag, nxt + 2) and text[nxt + 2 + len(tag) : nxt + 3 + len(tag)] in (">", " ", "\t", "\n", "\r")
    )


def _indent(text: str, start: int) -> int:
    """The column of ``start`` if only spaces and tabs precede it on its line, else -1
    (looks back no further than the indentation: a 10,000-tag line costs nothing)."""
    i = start
    while i > 0 and text[i - 1] in " \t":
        i -= 1
    return start - i if i == 0 or text[i - 1] in "\r\n" else -1


def _line_indent(text: str, start: int, reach: int = 256) -> int:
    """The indentation of the line ``start`` lies on (-1 if its start is further back than ``reach``):
    an element after others on its line (``<link name="a"><pose>``) nests by its line's indentation."""
    col = _indent(text, start)
    if col >= 0:
        return col
    lo = max(0, start - reach)
    nl = max(text.rfind("\n", lo, start), text.rfind("\r", lo, start))
    if nl < 0 and lo > 0:
        return -1
    i = nl + 1
    j = i
    while j < start and text[j] in " \t":
        j += 1
    return j - i


def _regroup(chain: list[XmlElement], text: str) -> None:
    """Elements never closed give back the children that are their siblings by indentation.

    ``chain`` is a run of unclosed elements, outermost first, each the last child of
    the one before (they were open together when an end tag closed their parent, or
    when the text ended). Typing ``<link name="new">`` in the middle of a model leaves
    it open until the model's end tag: XML makes every following link and joint its
    child. The indentation says otherwise: going through the content in document order,
    an element on a later line indented no deeper than an open unclosed element ends
    that element (and it gets nothing more); a deleted end tag leaves the
    deeper-indented content where it was. One pass over the content: linear.
    """
    members = {id(el) for el in chain}
    items: list[XmlElement] = []
    for i, el in enumerate(chain):
        kids = el.children
        nxt = chain[i + 1] if i + 1 < len(chain) else None
        for c in kids:
            if c is not nxt:
                items.append(c)
        if nxt is not None:
            items.append(nxt)  # the next member comes after everything its parent held before it
        el.children = LEAF
    cols = {id(el): _line_indent(text, el.ts - 1) for el in chain}
    first = chain[0]
    outer = first.parent
    stack = [first]
    for x in items:
        xcol = _indent(text, x.ts - 1)
        if xcol >= 0:
            while stack and 0 <= cols[id(stack[-1])] and xcol <= cols[id(stack[-1])]:
                stack.pop()
        container = stack[-1] if stack else outer
        if container is None:
            container, stack = first, [first]
        if container.children is LEAF:
            container.children = [x]
        else:
            container.children.append(x)  # type: ignore[attr-defined]  # being regrouped: a list
        x._parent = ref(container)
        if id(x) in members:
            stack.append(x)
    for el in reversed(chain):  # innermost first: an end is that of the last thing inside
        el.end = el.children[-1].end if el.children else el.ts + el._stag


def _detach_half_typed(result: ScanResult) -> None:
    """Elements being typed (a start tag cut short, or left unclosed with nothing in it)
    leave the tree the analysis reads: they mean nothing yet, and as elements they would
    bring warnings and wrong frames. They stay in ``half_typed`` (with their parent) for
    completion, and the parser reports one error at the first of them."""
    bare = [el for el in result.unclosed if not el.children and el is not result.root]  # before any leaves
    if not bare:
        return
    gone = {id(el) for el in bare}
    parents: dict[int, XmlElement] = {}
    for el in bare:
        parent = el.parent
        if parent is not None:
            parents[id(parent)] = parent
            result.half_typed.append(el)
    for parent in parents.values():  # each parent's list rebuilt once: linear in the elements
        kept = [c for c in parent.children if id(c) not in gone]
        parent.children = kept if kept else LEAF


def _closed_later(text: str, pos: int, tag: str) -> bool:
    """Is the first end tag after ``pos`` that closes no later start tag ``</tag>``?"""
    depth = 0
    for m in re.compile(_ANY_TAG).finditer(text, pos):
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
    space = re.compile(_SPACE).match
    attribute = re.compile(_ATTR).match
    while True:
        pos = space(text, pos).end()  # type: ignore[union-attr]  # \s* matches anywhere
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
        a = attribute(text, pos)
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
