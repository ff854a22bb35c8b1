"""The formatter: re-indents the structure of an SDFormat document and changes nothing else.

Why so little: SDFormat files are hand-written, and what an author wrote inside a value, a
comment or a plugin body may matter to someone (a plugin reads its own XML; libsdformat keeps
leading white space in some strings). The only white space that means nothing is the white
space *between elements* of an element that holds elements and no text. The formatter
rewrites exactly that, line by line:

- the indentation of a line that starts with a tag, comment, PI or CDATA section inside such
  an element becomes its depth times the unit (two spaces unless configured);
- white space at the end of such a line is dropped, and blank lines keep their count but
  lose their spaces.

Everything else is copied: attribute order and quoting, multi-line start tags, comments,
CDATA, processing instructions, element text (values), the content of ``<plugin>`` and of
namespaced (``prefix:name``) elements, line endings and the final newline. A document that
is not well-formed XML is not formatted at all (:class:`FormatRefused`): its structure is not
known, so no white space in it is known to be insignificant.

The result is a list of minimal edits (one per changed run of white space on a line), which
the server returns as they are and the command line applies. Formatting is idempotent: the
edits leave every such run as it would be rewritten again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..diagnostics import Diagnostic, Severity
from ..text import LineIndex, Span
from ..xml.parser import well_formed_errors

# The tokens of a well-formed document, each matched at its start. Text is anything up to '<'.
_TOKEN = re.compile(
    r"""(?P<comment><!--.*?-->)"""
    r"""|(?P<cdata><!\[CDATA\[.*?\]\]>)"""
    r"""|(?P<pi><\?.*?\?>)"""
    r"""|(?P<doctype><!DOCTYPE(?:[^\[>"']|"[^"]*"|'[^']*'|\[(?:[^\]"']|"[^"]*"|'[^']*')*\])*>)"""
    r"""|(?P<end></(?P<ename>[^\s>]+)\s*>)"""
    r"""|(?P<start><(?P<sname>[^\s/>!?][^\s/>]*)(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(?P<empty>/?)>)"""
    r"""|(?P<text>[^<]+)""",
    re.S,
)
_DOCTYPE = re.compile(r"<!DOCTYPE(?:[^\[>\"']|\"[^\"]*\"|'[^']*'|\[(?:[^\]\"']|\"[^\"]*\"|'[^']*')*\])*>")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_BLANK = frozenset(" \t\r\n")


@dataclass(frozen=True)
class FormatOptions:
    """The indentation unit: ``indent_size`` spaces, or one tab per level with ``use_tabs``."""

    indent_size: int = 2
    use_tabs: bool = False

    def unit(self) -> str:
        return "\t" if self.use_tabs else " " * max(0, self.indent_size)


@dataclass(frozen=True)
class TextEdit:
    """Replace ``text[start:end]`` (code-point offsets) by ``new_text``."""

    start: int
    end: int
    new_text: str


class FormatRefused(Exception):
    """The document cannot be formatted safely; ``diagnostic`` says why and where."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _free_form(name: str) -> bool:
    """Elements whose content is someone else's: plugin bodies and namespaced extensions."""
    return name == "plugin" or ":" in name


def _tokens(text: str) -> list[tuple[str, int, int, str]]:
    """(kind, start, end, element name) for every token; FormatRefused if something does not fit."""
    out = []
    match = _TOKEN.match
    pos, n = 0, len(text)
    while pos < n:
        m = match(text, pos)
        if m is None:
            raise FormatRefused(
                Diagnostic(
                    "FORMAT", Severity.ERROR, "cannot format: unexpected markup here", Span(pos, min(n, pos + 1))
                )
            )
        kind = m.lastgroup
        if kind == "start":
            out.append(("empty" if m.group("empty") else "start", pos, m.end(), m.group("sname")))
        elif kind == "end":
            out.append(("end", pos, m.end(), m.group("ename")))
        else:
            out.append((kind or "", pos, m.end(), ""))  # every alternative of _TOKEN is a named group
        pos = m.end()
    return out


def _layout(text: str, tokens: list[tuple[str, int, int, str]]) -> tuple[list[int], int]:
    """For each token: the depth at which its container's white space is rewritten, or -1 to keep it;
    and how deep elements nest.

    A container is rewritten when it holds elements, no text (CDATA counts as text), is not
    free-form, and neither is any ancestor. Depth 0 is outside the root element.
    """
    n = len(tokens)
    # First pass: which elements hold elements and no text, and the matching start of each end.
    structural: dict[int, bool] = {}
    stack: list[list] = []  # [start index, has element child, has text]
    for i, (kind, start, end, name) in enumerate(tokens):
        if kind == "start":
            if stack:
                stack[-1][1] = True
            stack.append([i, False, False])
        elif kind == "empty":
            if stack:
                stack[-1][1] = True
        elif kind == "end":
            if not stack or tokens[stack[-1][0]][3] != name:
                raise FormatRefused(
                    Diagnostic(
                        "FORMAT",
                        Severity.ERROR,
                        f"cannot format: </{name}> does not close the open element",
                        Span(start, end),
                    )
                )
            opened, has_child, has_text = stack.pop()
            structural[opened] = has_child and not has_text and not _free_form(tokens[opened][3])
        elif stack and (kind == "cdata" or (kind == "text" and not _BLANK.issuperset(text[start:end]))):
            stack[-1][2] = True
    if stack:
        opened = tokens[stack[-1][0]]
        raise FormatRefused(
            Diagnostic(
                "FORMAT", Severity.ERROR, f"cannot format: <{opened[3]}> is never closed", Span(opened[1], opened[2])
            )
        )
    # Second pass: the depth of each token's container, -1 inside a container that is kept.
    depth_of = [0] * n
    open_depths: list[int] = []  # per open element: its depth, or -1 when its content is kept
    deepest = 0
    for i, (kind, _start, _end, _name) in enumerate(tokens):
        container = open_depths[-1] if open_depths else 0
        if kind == "end":
            open_depths.pop()
            depth_of[i] = open_depths[-1] if open_depths else 0  # white space before </x> is x's parent's
            continue
        depth_of[i] = container
        if kind == "start":
            if container < 0 or not structural.get(i, False):
                open_depths.append(-1)
            else:
                open_depths.append(container + 1)
            if len(open_depths) > deepest:
                deepest = len(open_depths)
    return depth_of, deepest


def _changes(text: str, options: FormatOptions) -> list[tuple[int, int, str]]:
    """(start, end, new text) of every run of white space that formatting changes, in order."""
    own: FormatRefused | None = None
    depth = 0
    try:
        tokens = _tokens(text)
        depth_of, depth = _layout(text, tokens)
    except FormatRefused as exc:
        own = exc
    doctype = _DOCTYPE.search(text)
    problems = well_formed_errors(text, Span(doctype.start(), doctype.end()) if doctype else None, depth)
    if problems:  # the XML layer's verdict, and its message, come first
        first = problems[0]
        raise FormatRefused(Diagnostic("FORMAT", Severity.ERROR, f"cannot format: {first.message}", first.span))
    if own is not None:
        raise own
    unit = options.unit()
    changes: list[tuple[int, int, str]] = []
    add = changes.append
    n = len(tokens)
    blank = _BLANK.issuperset
    split = _NEWLINE.split
    for i, (kind, start, end, _name) in enumerate(tokens):
        if kind != "text" or depth_of[i] < 0:
            continue
        run = text[start:end]
        if not blank(run) or ("\n" not in run and "\r" not in run):
            continue  # text, or spacing between two tokens on one line: kept
        # The line the run ends on is indented for the next token: an end tag at its parent's depth
        # (which _layout recorded for it), anything else at the depth of this run's container.
        if i + 1 < n:
            indent = unit * (depth_of[i + 1] if tokens[i + 1][0] == "end" else depth_of[i])
        else:
            indent = ""  # the end of the document
        # pieces[0] ends a line (trailing white space), pieces[1:-1] are blank lines, pieces[-1] indents the next.
        pieces = split(run)
        offset = start
        last = len(pieces) - 1
        for k, piece in enumerate(pieces):
            want = indent if k == last else ""
            if piece != want:
                add((offset, offset + len(piece), want))
            if k < last:
                offset += len(piece)
                offset += 2 if text.startswith("\r\n", offset) else 1
    return changes


def written_unit(text: str) -> str | None:
    """The indentation unit ``text`` is written with ("\t", or some spaces), or None when it has none.

    Read on the lines formatting would re-indent: a line whose white space the formatter rewrites
    at depth d >= 1 is written with unit u when its indentation is u repeated d times. The unit
    that most such lines are written with is the file's when at least half of them are (a few
    stray lines are what formatting then fixes); without that majority, or in a document that
    cannot be formatted, there is none.
    """
    try:
        tokens = _tokens(text)
        depth_of, _ = _layout(text, tokens)
    except FormatRefused:
        return None
    counts: dict[str, int] = {}
    lines = 0
    for i, (kind, start, end, _name) in enumerate(tokens):
        if kind != "text" or depth_of[i] < 0 or i + 1 >= len(tokens):
            continue
        run = text[start:end]
        if ("\n" not in run and "\r" not in run) or not _BLANK.issuperset(run):
            continue
        depth = depth_of[i + 1] if tokens[i + 1][0] == "end" else depth_of[i]
        indent = _NEWLINE.split(run)[-1]
        if depth < 1:
            continue
        lines += 1
        if len(indent) % depth:
            continue
        unit = indent[: len(indent) // depth]
        if unit and unit * depth == indent and (unit == "\t" or set(unit) == {" "}):
            counts[unit] = counts.get(unit, 0) + 1
    if not counts:
        return None
    # the most used unit; on a tie, the default (two spaces), then the narrower
    best = max(counts, key=lambda u: (counts[u], u == "  ", -len(u)))
    return best if 2 * counts[best] >= lines else None


def format_edits(
    text: str, options: FormatOptions | None = None, lines: tuple[int, int] | None = None
) -> list[TextEdit]:
    """The minimal edits that format ``text``; only those on lines ``lines`` (first, last; 0-based) when given.

    Raises :class:`FormatRefused` when the document is not well-formed XML.
    """
    edits = [TextEdit(a, b, t) for a, b, t in _changes(text, options or FormatOptions())]
    if lines is not None:
        edits = _on_lines(text, edits, lines)
    return edits


def _on_lines(text: str, edits: list[TextEdit], lines: tuple[int, int]) -> list[TextEdit]:
    index = LineIndex(text)
    first, last = lines
    lo = index.offset(max(0, first), 0, "utf-32")
    hi = index.offset(last + 1, 0, "utf-32") if last + 1 < index.line_count else len(text)
    return [e for e in edits if e.start >= lo and e.end <= hi]


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """``text`` with non-overlapping ``edits`` (in any order) applied."""
    out = []
    pos = 0
    for e in sorted(edits, key=lambda e: e.start):
        out.append(text[pos : e.start])
        out.append(e.new_text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def format_text(text: str, options: FormatOptions | None = None) -> str:
    """The formatted document (FormatRefused when it cannot be formatted safely)."""
    out = []
    pos = 0
    for start, end, new in _changes(text, options or FormatOptions()):
        out.append(text[pos:start])
        out.append(new)
        pos = end
    out.append(text[pos:])
    return "".join(out)
