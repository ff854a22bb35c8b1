"""Text to :class:`XmlDocument`: our scanner for the tree, lxml for the verdict.

libsdformat reads XML with tinyxml2, which shrugs at several things libxml2
calls fatal. ``--`` in a comment, an undeclared ``gz:`` or ``drake:`` prefix
and names such as ``gz::system_priority`` (well-formed XML 1.0, only not
namespace-well-formed) are read by libsdformat and by us without a word; a
bare ``&`` is a warning; what lies outside the root element is judged by
``toplevel.py``. Anything else is an ``XML_ERROR``.
"""

from __future__ import annotations

import re
import threading

from lxml import etree

from ..diagnostics import Diagnostic, Fix, Related, Severity
from ..text import LineIndex, Span
from .scanner import ScanResult, scan
from .toplevel import read_top_level
from .tree import XmlDocument, XmlElement

XML_ERROR = "XML_ERROR"

# libxml2 complaints that tinyxml2 (and so libsdformat) accepts and that cost nothing: not reported.
_SILENT = {
    "ERR_HYPHEN_IN_COMMENT",  # '--' inside a comment
    "NS_ERR_UNDEFINED_NAMESPACE",  # gz:, drake: prefixes as Gazebo's and Drake's own files write them
    "NS_ERR_QNAME",  # gz::system_priority: a plain XML 1.0 name, only not a namespace-qualified one
    "NS_ERR_ATTRIBUTE_REDEFINED",
}

# libxml2 complaints that tinyxml2 (and so libsdformat) accepts, worth a warning.
_BARE_AMPERSAND = "a bare '&' should be written '&amp;' (libsdformat reads it as a plain '&')"
_TOLERATED = {
    "ERR_NAME_REQUIRED": _BARE_AMPERSAND,  # only 'xmlParseEntityRef: no name' (see _bare_ampersand)
    "ERR_ENTITYREF_SEMICOL_MISSING": _BARE_AMPERSAND,
    "ERR_UNDECLARED_ENTITY": None,
    "WAR_UNDECLARED_ENTITY": None,
    "WAR_NS_URI": None,
    "WAR_NS_URI_RELATIVE": None,
}
_AT_AMPERSAND = {"ERR_NAME_REQUIRED", "ERR_ENTITYREF_SEMICOL_MISSING", "ERR_UNDECLARED_ENTITY", "WAR_UNDECLARED_ENTITY"}
_PREDEFINED = {"amp", "lt", "gt", "quot", "apos"}
_MAX_WARNINGS = 20
_DECLARATION_INSIDE = (
    "libsdformat cannot read this file: its XML reader (tinyxml2) accepts a declaration <?xml ...?> "
    "only at the start of the file; remove this one"
)
_WORD_END = re.compile(r"[\s<>\"'=/]")
_LONE_CR = re.compile(r"\r(?!\n)")


def _span_at(text: str, offset: int) -> Span:
    """A short span starting at ``offset``: the token there, at least one character."""
    offset = max(0, min(offset, len(text)))
    if offset > 0 and (offset == len(text) or text[offset] in "\r\n"):
        # libxml2 points just past the token at the end of a line: take the character before,
        # never a span that starts or ends inside a line break
        back = offset
        while back > 0 and text[back - 1] in "\r\n":
            back -= 1
        return Span(back - 1, back) if back > 0 else Span(0, 0)
    m = _WORD_END.search(text, offset + 1, min(len(text), offset + 80))
    end = m.start() if m else min(len(text), offset + 1)
    return Span(offset, max(end, min(offset + 1, len(text))))


_ENTITY_NAME = re.compile(r"&[^\s<>&;\"'=/]*")


def _bare_ampersand(text: str, at: int) -> Span | None:
    """The ``&`` (with the name after it) that libxml2 complains about at ``at``.

    libxml2 reports a bare ``&`` where it stopped reading the entity reference: after the
    name (``&del`` + where the ``;`` was expected), or just after the ``&`` when no name
    follows. The mistake is the ``&`` itself: the last one on the line before ``at``.
    None when the line has none (then libxml2 meant something else)."""
    line_start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    amp = text.rfind("&", line_start, at)
    if amp < 0:
        return None
    m = _ENTITY_NAME.match(text, amp)
    return Span(amp, m.end() if m else amp + 1)


def _blank(text: str, span: Span) -> str:
    """Replace a region by spaces, keeping line breaks, so offsets stay valid."""
    region = re.sub(r"[^\r\n]", " ", text[span.start : span.end])
    return text[: span.start] + region + text[span.end :]


class _Discard:
    """An lxml parser target that builds nothing: only the error log is wanted,
    and libxml2 checks four times faster without building a tree."""

    def close(self) -> None:
        return None


# libxml2 limits that only its tree builder enforces: past them, build the tree to get the same verdict.
_TREE_DEPTH = 200  # elements deeper than 256 are refused (the scanner's depth, with a margin)
_TREE_TEXT = 10_000_000  # bytes in one text node


def _may_hold_long_text(data: bytes, limit: int = _TREE_TEXT) -> bool:
    """Whether some run of ``data`` without a '<' could be longer than ``limit`` bytes (a text node
    the tree builder refuses). A run that long covers a whole aligned window of ``limit // 2``
    bytes, so one ``find`` per window decides: a 100 MB document gets no tree of its own (which
    would cost libxml2 more than our whole analysis) unless it may need one."""
    step = max(1, limit // 2)
    return any(data.find(b"<", i, i + step) < 0 for i in range(0, len(data) - step + 1, step))


_IDLE: dict[bool, list[etree.XMLParser]] = {False: [], True: []}  # parsers not in use, by mode (tree or not)
_IDLE_LOCK = threading.Lock()


def _lxml_log(data: bytes, tree: bool) -> list:
    """libxml2's complaints about ``data``. Parsers are reused (a new one leaves a reference
    cycle behind), each by one thread at a time: lxml allows a parser to move between threads,
    and the pool holds as many as ran at once (the server analyses two documents at a time)."""
    with _IDLE_LOCK:
        idle = _IDLE[tree]
        parser = idle.pop() if idle else None
    if parser is None:
        parser = _new_parser(tree)
    try:
        try:
            etree.fromstring(data, parser)
        except (etree.XMLSyntaxError, ValueError):
            pass  # the error log says what went wrong
        return list(parser.error_log)  # a copy: the next run of this parser clears it
    finally:
        with _IDLE_LOCK:
            _IDLE[tree].append(parser)


def _new_parser(tree: bool) -> etree.XMLParser:
    return etree.XMLParser(
        recover=True,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        collect_ids=False,
        encoding="utf-8",
        target=None if tree else _Discard(),
    )


def _lxml_entries(text: str, depth: int = 0) -> list:
    """libxml2's log for ``text`` (whose elements nest ``depth`` deep), with our line numbers."""
    if "\r" in text:
        # libxml2 counts lines by LF only (and CRLF); a lone CR ends a line for us, as XML says
        # it does: an LF in its place (same length) gives libxml2 our line numbers
        text = _LONE_CR.sub("\n", text)
    data = text.encode("utf-8", "surrogatepass")
    tree = depth > _TREE_DEPTH or (len(data) > _TREE_TEXT and _may_hold_long_text(data))
    log = _lxml_log(data, tree)
    if not tree and any(e.type_name == "ERR_RESOURCE_LIMIT" for e in log):
        log = _lxml_log(data, True)
    return log


_AHEAD_FROM = 256 * 1024  # characters: below this libxml2 takes under a millisecond, less than a thread is worth


class _Ahead:
    """libxml2's log for a whole text, found in a thread of its own while the scanner reads it.

    libxml2 runs without the interpreter lock, so on a second core its time disappears from
    the parse. The guess is that libxml2 will be asked about the text as it is; :func:`parse`
    uses the log only when it is (no DOCTYPE or top-level text blanked, and nesting shallow
    enough for the check without a tree: see :func:`_lxml_entries`), and asks again otherwise.
    The thread is always joined before :func:`parse` returns or raises.
    """

    def __init__(self, text: str) -> None:
        self._log: list | None = None
        self._thread = threading.Thread(target=self._run, args=(text,), name="sdformat-lsp xml verdict", daemon=True)
        self._thread.start()

    def _run(self, text: str) -> None:
        try:
            self._log = _lxml_entries(text)
        except Exception:  # asked again in the caller's thread, where it raises
            self._log = None

    def log(self) -> list | None:
        """Wait for the thread; its log, or None if it failed."""
        self._thread.join()
        return self._log


def _lxml_problems(text: str, lines: LineIndex, depth: int = 0, log: list | None = None) -> list[Diagnostic]:
    """Our diagnostics from libxml2's log for ``text`` (``log``: that log when already found)."""
    if log is None:
        log = _lxml_entries(text, depth)
    out: list[Diagnostic] = []
    warnings = 0
    fatal_seen = False
    ampersands: set[int] = set()  # the '&'s warned about
    for entry in log:
        line = max(entry.line - 1, 0)
        col = max(entry.column - 1, 0)
        start = lines.offset(line, col, "utf-32") if line < lines.line_count else len(text)
        span = _span_at(text, start)
        kind = entry.type_name
        if kind == "ERR_NAME_REQUIRED" and entry.message.startswith("StartTag"):
            # a '<' not starting a tag (libxml2 files it with a bare '&'): tinyxml2 refuses it too
            if start > 0 and text[start - 1] == "<":
                span = Span(start - 1, start)
            if not fatal_seen:
                fatal_seen = True
                out.append(
                    Diagnostic(
                        XML_ERROR,
                        Severity.ERROR,
                        "a '<' that does not start a tag: write it as '&lt;'",
                        span,
                        data={"xml": kind},
                    )
                )
            continue
        if kind in _SILENT:
            continue
        if kind == "ERR_RESERVED_XML_NAME":
            # A declaration outside the root element is judged by toplevel.py (and blanked); inside it tinyxml2 refuses it.
            out.append(Diagnostic("FILE_READ", Severity.ERROR, _DECLARATION_INSIDE, span, data={"xml": kind}))
            continue
        if kind in _TOLERATED and (kind != "ERR_NAME_REQUIRED" or entry.message.startswith("xmlParseEntityRef")):
            fixes: tuple[Fix, ...] = ()
            msg = _TOLERATED[kind] or entry.message.strip()
            if kind in _AT_AMPERSAND:
                amp = _bare_ampersand(text, start)
                if (
                    amp is None
                    or amp.start in ampersands
                    or any(p.is_error and p.span.start <= amp.start < p.span.end for p in out)
                ):
                    continue  # one warning per '&' (libxml2 may complain twice about one), none where an error is
                ampersands.add(amp.start)
                span = amp
                name = text[amp.start + 1 : amp.end]
                if msg is _BARE_AMPERSAND and name in _PREDEFINED:
                    msg = f"'&{name}' lacks its ';': write '&{name};' (libsdformat reads '&{name}' as it is written)"
                    fixes = (Fix(f"write '&{name};'", Span(amp.end, amp.end), ";"),)
                elif msg is _BARE_AMPERSAND:
                    fixes = (Fix("write '&amp;'", Span(amp.start, amp.start + 1), "&amp;"),)
            if warnings >= _MAX_WARNINGS:
                continue
            warnings += 1
            out.append(Diagnostic(XML_ERROR, Severity.WARNING, msg, span, fixes=fixes, data={"xml": kind}))
            continue
        if fatal_seen:
            continue  # one root cause, one diagnostic: libxml2 cascades after the first
        fatal_seen = True
        message = f"malformed XML: {entry.message.strip()}"
        if (
            kind == "ERR_NAME_REQUIRED"
            and start < len(text)
            and entry.message.startswith("error parsing attribute name")
        ):
            span = Span(start, start + 1)
            message = f"malformed XML: {text[start]!r} cannot start an attribute name in this start tag (libsdformat refuses the file)"
        if "Excessive depth" in entry.message:
            message = "elements are nested too deeply for an XML reader to accept (more than 256 levels): flatten the document"
        out.append(Diagnostic(XML_ERROR, Severity.ERROR, message, span, data={"xml": kind}))
    return out


def parse(text: str) -> XmlDocument:
    """Parse ``text`` into a tree with spans, plus its XML-level diagnostics."""
    ahead = _Ahead(text) if len(text) >= _AHEAD_FROM else None
    try:
        return _parse(text, ahead)
    finally:
        if ahead is not None:
            ahead.log()  # joined on every path: no thread outlives the parse


def parse_built(text: str, root: XmlElement, depth: int) -> XmlDocument:
    """:func:`parse` of ``text`` given the tree the scanner would build from it (its ``root``, and
    the most elements open at once, ``depth``), made by whoever wrote the text (a xacro expansion,
    formats/xacro/writer.py), which saves scanning it. The problems are found as :func:`parse`
    finds them; a text with any problem is parsed afresh, its tree then the scanner's own."""
    scanned = ScanResult()
    scanned.root = root
    scanned.depth = depth
    document = _parse(text, None, scanned)
    return document if not document.problems else parse(text)


def _parse(text: str, ahead: _Ahead | None, scanned: ScanResult | None = None) -> XmlDocument:
    lines = LineIndex(text)
    if scanned is None:
        scanned = scan(text)
    problems: list[Diagnostic] = []
    checked = text
    if scanned.doctype_span is not None:
        problems.append(
            Diagnostic(
                XML_ERROR,
                Severity.WARNING,
                "document type declarations are not supported in SDFormat: the DTD is ignored "
                "and its entities are never expanded; remove the <!DOCTYPE ...>",
                Span(scanned.doctype_span.start, scanned.doctype_span.start + 9),
            )
        )
        checked = _blank(text, scanned.doctype_span)
    if scanned.root is not None:
        top = read_top_level(text, scanned.root.span, [e.span for e in scanned.extra_roots], scanned.doctype_span)
        problems.extend(top.problems)
        for span in top.blank:
            checked = _blank(checked, span)
    if not text.strip():
        problems.append(
            Diagnostic(
                XML_ERROR, Severity.ERROR, "the document is empty: an SDFormat file needs an <sdf> element", Span(0, 0)
            )
        )
    else:
        misspelt = [_end_tag_name(text, el) for el in scanned.misspelt]
        corrected = _corrected(checked, misspelt)
        # the log found ahead is libxml2's verdict on this very text, asked the same way
        log = (
            ahead.log()
            if ahead is not None and checked is text and corrected is checked and scanned.depth <= _TREE_DEPTH
            else None
        )
        found = _lxml_problems(corrected, lines, scanned.depth, log)
        if misspelt and corrected is checked:
            # a misspelt end tag shorter than its element's name: libxml2's complaints from it on are its cascade
            first = misspelt[0][1].start
            found = [p for p in found if not (p.is_error and p.code == XML_ERROR and p.span.start >= first)]
        problems.extend(found)
        problems.extend(_misspelt_end_tag(text, lines, el, span) for el, span in misspelt)
        if scanned.root is None and not any(p.is_error for p in problems):
            problems.append(
                Diagnostic(
                    XML_ERROR,
                    Severity.ERROR,
                    "no XML element found: an SDFormat file needs an <sdf> element",
                    Span(0, min(len(text), 1)),
                )
            )
    if scanned.unclosed:
        problems = _place_unclosed(text, scanned.unclosed, problems)
    return XmlDocument(
        text=text,
        lines=lines,
        root=scanned.root,
        problems=problems,
        has_doctype=scanned.doctype_span is not None,
        half_typed=scanned.half_typed,
    )


def _end_tag_name(text: str, el) -> tuple[object, Span]:
    """The element a misspelt end tag closed (see scanner._misspelt) and the span of the name written in it."""
    start = el.etag_start + 2
    end = start
    while end < len(text) and text[end] not in " \t\r\n>":
        end += 1
    return el, Span(start, end)


def _corrected(text: str, misspelt: list) -> str:
    """``text`` with each misspelt end tag's name replaced by its element's, padded with spaces (``</model >``)
    so that every offset stays: libxml2's verdict on the rest of the document, as if the end tags were right.
    ``text`` itself when there is none, or when a name written is shorter than its element's."""
    if not misspelt or any(len(el.tag) > span.end - span.start for el, span in misspelt):
        return text
    parts, last = [], 0
    for el, span in misspelt:
        parts += [text[last : span.start], el.tag.ljust(span.end - span.start)]
        last = span.end
    parts.append(text[last:])
    return "".join(parts)


def _misspelt_end_tag(text: str, lines: LineIndex, el, span: Span) -> Diagnostic:
    written = text[span.start : span.end]
    line = lines.line_of(el.ts) + 1
    return Diagnostic(
        XML_ERROR,
        Severity.ERROR,
        f"</{written}> does not close <{el.tag}> (opened on line {line}): an XML reader stops here, so libsdformat "
        f"refuses the file; write </{el.tag}> (the rest is checked as if it were)",
        span,
        related=(Related(el.start_tag_span, "opened here"),),
        fixes=(Fix(f"Write </{el.tag}>", span, el.tag),),
        data={"xml": "END_TAG_MISSPELT"},
    )


def _mistake(unclosed: list[XmlElement]) -> XmlElement:
    """The unclosed element where the typing is: the first that holds no other unclosed one."""
    holders: set[int] = set()
    for el in unclosed:  # each ancestor marked once: linear however deep the nesting
        a = el.parent
        while a is not None and id(a) not in holders:
            holders.add(id(a))
            a = a.parent
    inner = [el for el in unclosed if id(el) not in holders] or unclosed
    return min(inner, key=lambda el: el.ts)


def _place_unclosed(text: str, unclosed: list[XmlElement], problems: list[Diagnostic]) -> list[Diagnostic]:
    """One error at the place of the mistake: libxml2 notices an unclosed element or a cut-short
    start tag only where the document stops making sense (at the enclosing end tag, 26 lines
    further down, or at the next '<'); its complaints from the element on are consequences."""
    el = _mistake(unclosed)
    start = el.ts - 1
    if any(p.is_error and p.span.start < start for p in problems):
        return problems  # an earlier mistake: that one is the first thing to fix
    kept = [p for p in problems if p.span.start < start or p.code != XML_ERROR]
    open_value = next((a for a in el.attributes.values() if not a.terminated and a.vs > a.ns + len(a.name)), None)
    stag_end = el.stag_end
    if open_value is not None:
        message = f"the value of {open_value.name} in <{el.tag}> is not closed: add the closing quote"
    elif stag_end <= 0 or text[stag_end - 1 : stag_end] != ">":
        message = f"the <{el.tag}> start tag is not finished: end it with '>' (or '/>' for an empty element)"
    else:
        message = f"<{el.tag}> is never closed: add </{el.tag}> (or end the start tag with '/>')"
    kept.append(
        Diagnostic(
            XML_ERROR, Severity.ERROR, message, el.tag_span, related=(Related(el.start_tag_span, "opened here"),)
        )
    )
    return kept


def well_formed_errors(text: str, doctype: Span | None = None, depth: int = 0) -> list[Diagnostic]:
    """The errors :func:`parse` reports on ``text``, for callers with tokens of their own (the formatter).

    The common case, a document libxml2 accepts without a remark, is decided without building
    the tree (``doctype``: the span of a ``<!DOCTYPE ...>``, blanked as :func:`parse` blanks it;
    ``depth``: how deep elements nest). Anything else gets :func:`parse`'s own verdict.
    """
    if text.strip():
        checked = _blank(text, doctype) if doctype is not None else text
        if not _lxml_problems(checked, LineIndex(text), depth):
            return []
    return [p for p in parse(text).problems if p.is_error]
