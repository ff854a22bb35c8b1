"""Suppression comments and per-code severities: the last step of every analysis.

``<!-- sdformat-lsp: disable-next-line CODE[,CODE] -->`` silences those codes
on the line after the comment; ``<!-- sdformat-lsp: disable CODE -->``
silences them in the whole file. A suppression that silences nothing is
reported (``UNUSED_SUPPRESSION``), as ruff reports an unused ``noqa``, so
that stale ones do not pile up; a comment that starts like a directive but
is not one is reported too (``SUPPRESSION_INVALID``). Both run here, below
the shells, so the command line and the server agree.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Mapping

from ...codes import CODES
from ...diagnostics import Diagnostic, Fix, Severity, warning
from ...records import record
from ...text import LineIndex, Span

MARK = "sdformat-lsp"
UNUSED = "UNUSED_SUPPRESSION"
INVALID = "SUPPRESSION_INVALID"
NEXT_LINE = "disable-next-line"
FILE_WIDE = "disable"

_COMMENT = re.compile(r"<!--(.*?)-->", re.S)
_DIRECTIVE = re.compile(r"^\s*sdformat-lsp\s*:\s*(\S+)(.*?)\s*$", re.S)
_CODE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")

LEVELS = {
    "error": Severity.ERROR,
    "warning": Severity.WARNING,
    "info": Severity.INFORMATION,
    "hint": Severity.HINT,
    "off": None,
}


@record(slots=True)
class Suppression:
    """A suppression comment: which codes it silences, on the next line or in the whole file."""

    kind: str  # NEXT_LINE or FILE_WIDE
    span: Span  # the whole comment
    codes: tuple[tuple[str, Span], ...]  # each code with where it is written
    line: int  # NEXT_LINE: the 0-based line it covers


def find_suppressions(text: str, lines: LineIndex) -> tuple[list[Suppression], list[Diagnostic]]:
    """Every suppression comment of ``text``, and diagnostics for malformed ones."""
    found: list[Suppression] = []
    bad: list[Diagnostic] = []
    if MARK not in text:
        return found, bad
    for m in _COMMENT.finditer(text):
        body = m.group(1)
        if MARK not in body:
            continue
        d = _DIRECTIVE.match(body)
        if d is None:
            continue
        span = Span(m.start(), m.end())
        verb, rest = d.group(1), d.group(2)
        if verb not in (NEXT_LINE, FILE_WIDE):
            bad.append(
                warning(
                    INVALID,
                    f"'{verb}' is not a sdformat-lsp directive: write 'disable-next-line CODE' or 'disable CODE'",
                    span,
                    fixes=(Fix("Remove this comment", _removal(text, span), ""),),
                )
            )
            continue
        base = m.start(1) + d.start(2)
        codes = tuple((c.group(0), Span(base + c.start(), base + c.end())) for c in _CODE.finditer(rest))
        if not codes:
            bad.append(
                warning(
                    INVALID,
                    f"'{verb}' names no code: write e.g. '<!-- sdformat-lsp: {verb} MODEL_WITHOUT_LINK -->'",
                    span,
                )
            )
            continue
        line = lines.line_of(m.end()) + 1
        found.append(Suppression(verb, span, codes, line))
    return found, bad


def _removal(text: str, span: Span) -> Span:
    """The comment, with its line when nothing else is on it."""
    start = text.rfind("\n", 0, span.start) + 1
    end = text.find("\n", span.end)
    end = len(text) if end < 0 else end + 1
    if text[start : span.start].strip() or text[span.end : end].strip():
        return span
    return Span(start, end)


def apply_suppressions(analysis, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` without the suppressed ones, plus the unused and invalid suppressions.

    Diagnostics lying in an included file obey that file's comments (its
    text is in the included analysis); only this document's unused
    suppressions are reported here (the included file reports its own).
    """
    own, bad = find_suppressions(analysis.text, analysis.lines)
    others: dict[str, list[Suppression]] = {}
    used: set[tuple[int, str]] = set()  # (comment start, code) of this document
    out: list[Diagnostic] = []
    for d in diagnostics:
        if d.path is None or d.path == analysis.path:
            sups, lines, mine = own, analysis.lines, True
        else:
            sups, lines, mine = _included(analysis, d.path, others)
        hit = _covering(sups, lines, d) if sups else None
        if hit is None:
            out.append(d)
        elif mine:
            used.add((hit.span.start, d.code))
    silenced_unused = any(s.kind == FILE_WIDE and any(c == UNUSED for c, _ in s.codes) for s in own)
    for s in own:
        for code, span in s.codes:
            if code == UNUSED and s.kind == FILE_WIDE:
                continue
            if (s.span.start, code) in used:
                continue
            if silenced_unused:
                continue
            what = "the next line" if s.kind == NEXT_LINE else "this file"
            if code not in CODES:
                msg = f"{code} is not a diagnostic code, so this suppression silences nothing"
            else:
                msg = f"no {code} diagnostic on {what}: this suppression is not needed"
            fix = Fix(f"Remove the unused suppression of {code}", *_drop_code(analysis.text, s, code, span))
            out.append(warning(UNUSED, msg, span, fixes=(fix,)))
    out.extend(bad)
    return out


def _included(analysis, path: str, memo: dict[str, list[Suppression]]):
    sub = analysis.included_analysis(path)
    if sub is None:
        return [], None, False
    if path not in memo:
        memo[path] = find_suppressions(sub.text, sub.lines)[0]
    return memo[path], sub.lines, False


def _covering(sups: list[Suppression], lines: LineIndex, d: Diagnostic) -> Suppression | None:
    line = None
    for s in sups:
        if not any(c == d.code for c, _ in s.codes):
            continue
        if s.kind == FILE_WIDE:
            return s
        if line is None:
            line = lines.line_of(d.span.start)
        if s.line == line:
            return s
    return None


def _drop_code(text: str, s: Suppression, code: str, span: Span) -> tuple[Span, str]:
    """The edit removing ``code`` from the comment, or the comment itself when it is the only code."""
    if len(s.codes) == 1:
        return _removal(text, s.span), ""
    body = text[s.span.start : s.span.end]
    keep = [c for c, _ in s.codes if c != code]
    codes_start = s.codes[0][1].start - s.span.start
    codes_end = s.codes[-1][1].end - s.span.start
    return s.span, body[:codes_start] + ",".join(keep) + body[codes_end:]


def apply_severities(diagnostics: list[Diagnostic], overrides: Mapping[str, str] | None) -> list[Diagnostic]:
    """Per-code severities from the configuration; ``off`` drops the code."""
    if not overrides:
        return diagnostics
    out = []
    for d in diagnostics:
        level = overrides.get(d.code)
        if level is None:
            out.append(d)
            continue
        sev = LEVELS[level]
        if sev is not None:
            out.append(d if d.severity == sev else replace(d, severity=sev))
    return out


def suppression_comment(kind: str, codes: list[str] | tuple[str, ...]) -> str:
    return f"<!-- {MARK}: {kind} {','.join(codes)} -->"


__all__ = [
    "FILE_WIDE",
    "INVALID",
    "NEXT_LINE",
    "UNUSED",
    "Suppression",
    "apply_severities",
    "apply_suppressions",
    "find_suppressions",
    "suppression_comment",
]
