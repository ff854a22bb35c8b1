"""What lies outside the root element, read as libsdformat's XML reader reads it.

libsdformat reads files with tinyxml2 and takes the first ``<sdf>`` element of
the document. tinyxml2 and XML disagree outside the root element, both ways:

- text before the root element is kept as a text node by tinyxml2 (XML forbids
  it): libsdformat reads the file and never looks at the text;
- text after the root element with no ``<`` after it is refused by tinyxml2
  (XML_ERROR_PARSING_TEXT), so libsdformat refuses the file;
- a declaration (``<?...?>``: tinyxml2 reads every processing instruction as
  one) is accepted only when nothing but white space and other declarations
  precede it; after a comment, text or an element tinyxml2 refuses the file
  (XML_ERROR_PARSING_DECLARATION). XML asks for the ``<?xml ...?>``
  declaration at the very start, white space included;
- elements after the root element are read by tinyxml2 and ignored by
  libsdformat (XML forbids a second root).

libxml2 (our well-formedness verdict) would call all of these fatal or none of
them, so this pass decides them itself and blanks what it has judged before
libxml2 sees the text.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, Severity
from ..text import Span

FILE_READ = "FILE_READ"

# One top-level node: a comment, a declaration, a CDATA section, another <!...>, or a run of text.
_NODE = re.compile(r"<!--.*?(?:-->|\Z)|<\?.*?(?:\?>|\Z)|<!\[CDATA\[.*?(?:\]\]>|\Z)|<![^>]*>?|<|[^<]+", re.S)
_SPACE = " \t\r\n\ufeff"


class TopLevel:
    """What :func:`read_top_level` found (a plain class: a dataclass costs start-up time)."""

    __slots__ = ("problems", "blank")

    def __init__(self) -> None:
        self.problems: list[Diagnostic] = []
        self.blank: list[Span] = []  # regions judged here, hidden from libxml2


def _nodes(text: str, start: int, end: int, skip: list[tuple[str, Span]]):
    """(kind, span) of each top-level node in [start, end), stepping over ``skip`` spans (elements, DOCTYPE)."""
    pos = start
    skip = sorted(((k, s) for k, s in skip if s.start >= start and s.end <= end), key=lambda ks: ks[1].start)
    si = 0
    while pos < end:
        if si < len(skip) and skip[si][1].start <= pos:
            yield skip[si]
            pos = max(pos, skip[si][1].end)
            si += 1
            continue
        limit = skip[si][1].start if si < len(skip) else end
        m = _NODE.match(text, pos, limit)
        if m is None or m.end() == pos:
            break
        s = m.group(0)
        if s.startswith("<?"):
            kind = "declaration"
        elif s.startswith("<"):
            kind = "markup"
        elif s.strip(_SPACE):
            kind = "text"
        else:
            kind = "space"
        yield kind, Span(pos, m.end())
        pos = m.end()


def _trimmed(text: str, span: Span) -> Span:
    s = text[span.start : span.end]
    lead = len(s) - len(s.lstrip(_SPACE))
    return Span(span.start + lead, span.start + len(s.rstrip(_SPACE)))


def read_top_level(text: str, root_span: Span, extra_roots: list[Span], doctype: Span | None) -> TopLevel:
    """Judge everything outside ``root_span`` as tinyxml2 and libsdformat do."""
    out = TopLevel()
    skip = [("element", s) for s in extra_roots] + ([("markup", doctype)] if doctype is not None else [])
    only_declarations = True  # nothing but white space and declarations so far
    regions = ((0, root_span.start, True), (root_span.end, len(text), False))
    for start, end, before in regions:
        if not before:
            only_declarations = False  # the root element precedes everything here
        for kind, span in _nodes(text, start, end, skip):
            if kind == "space":
                continue
            if kind == "declaration":
                if not only_declarations:
                    out.problems.append(
                        Diagnostic(
                            FILE_READ,
                            Severity.ERROR,
                            "libsdformat cannot read this file: its XML reader (tinyxml2) accepts a declaration <?...?> "
                            "only at the start of the file, after nothing but white space and other declarations; "
                            "move it to the first line or remove it",
                            _trimmed(text, Span(span.start, min(span.end, span.start + 5))),
                        )
                    )
                    out.blank.append(span)
                elif span.start > 0 and text.startswith("<?xml", span.start) and text[: span.start].strip(_SPACE) == "":
                    if text[: span.start].strip(" \t\r\n") != "":
                        continue  # only a byte order mark precedes it: fine for XML too
                    out.problems.append(
                        Diagnostic(
                            FILE_READ,
                            Severity.HINT,
                            "XML requires the declaration at the very start of the file; libsdformat accepts white space "
                            "before it, but other XML tools refuse the file: remove the white space",
                            Span(span.start, span.start + 5),
                        )
                    )
                    out.blank.append(span)
                continue
            if kind == "element":
                only_declarations = False
                if not before:
                    out.problems.append(
                        Diagnostic(
                            FILE_READ,
                            Severity.WARNING,
                            "an XML document has one root element: libsdformat reads the first (<sdf>, or <robot> in a URDF) and ignores this one",
                            Span(span.start, min(span.end, span.start + 1 + len(_tag(text, span.start)))),
                        )
                    )
                    out.blank.append(span)
                continue
            only_declarations = False
            if kind != "text":
                continue
            where = _trimmed(text, span)
            if not before and "<" not in text[span.end :]:
                out.problems.append(
                    Diagnostic(
                        FILE_READ,
                        Severity.ERROR,
                        "libsdformat cannot read this file: its XML reader (tinyxml2) refuses text at the end of the file, "
                        "after the root element; remove it",
                        where,
                    )
                )
            else:
                side = "before" if before else "after"
                out.problems.append(
                    Diagnostic(
                        FILE_READ,
                        Severity.WARNING,
                        f"text {side} the root element is not XML; libsdformat reads the file and ignores this text: remove it",
                        where,
                    )
                )
            out.blank.append(span)
    if any(p.is_error for p in out.problems):  # the file is not read: what it would ignore does not matter
        out.problems = [p for p in out.problems if p.severity != Severity.WARNING]
    return out


def _tag(text: str, lt: int) -> str:
    m = re.compile(r"<([^\s/>]*)").match(text, lt)
    return m.group(1) if m else ""
