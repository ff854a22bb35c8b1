"""Documents caught mid-typing, built from intact ones (issue 11, "recovery while typing").

For every element E of an intact document, the text typed so far of a new
element like E is inserted just before E, cut at each place typing passes
through: right after '<', inside the tag name, inside the first attribute
value, before the '>', and the whole start tag with no end tag (an unclosed
element). The analysis of each must give exactly one error, at the insertion,
and otherwise the intact document's diagnostics, hovers and definitions
(shifted by the insertion).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from sdformat_lsp.features.definition import definition
from sdformat_lsp.features import hover
from sdformat_lsp.semantics import Analysis, analyze
from sdformat_lsp.text import Span

_START = re.compile(r"<([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:\"[^\"<]*\"|'[^'<]*'))*)\s*(/?)>")
_COMMENT = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>", re.S)
PLACES = ("after <", "inside the name", "inside a value", "before >", "unclosed")


@dataclass(frozen=True)
class Case:
    place: str
    at: int  # where the insertion starts
    typed: str

    def apply(self, text: str) -> str:
        return text[: self.at] + self.typed + text[self.at :]


def cases(text: str, root_too: bool = False) -> Iterator[Case]:
    """The cut-short insertions for every element's start tag (not the root's, and not before the XML
    declaration or text outside the root, where typing an element means something else)."""
    visible = _COMMENT.sub(lambda c: " " * len(c.group(0)), text)  # no element is typed inside a comment
    for i, m in enumerate(_START.finditer(visible)):
        at = m.start()
        line_start = text.rfind("\n", 0, at) + 1
        name, attrs = m.group(1), m.group(2)
        if not root_too and i == 0:
            continue  # the root (<sdf>, <robot>, a legacy <gazebo>): an element typed before it is a second root
        fresh = re.sub(r'(name\s*=\s*["\'])', r"\1typed_", attrs, count=1)  # a name no one uses
        indent = text[line_start:at] if not text[line_start:at].strip() else ""
        tail = "\n" + indent
        yield Case("after <", at, "<" + tail)
        if len(name) > 1:
            yield Case("inside the name", at, "<" + name[: len(name) // 2] + tail)
        v = re.search(r"""=\s*["']""", fresh)
        if v is not None:
            yield Case("inside a value", at, "<" + name + fresh[: v.end() + 2] + tail)
        yield Case("before >", at, "<" + name + fresh + tail)
        if not m.group(3):  # an element with content: its start tag alone, never closed
            yield Case("unclosed", at, "<" + name + fresh + ">" + tail)
        else:
            yield Case("unclosed", at, "<" + name + fresh + ">" + tail)


def _shift(span: Span, case: Case) -> Span:
    n = len(case.typed)
    return Span(
        span.start + n if span.start >= case.at else span.start, span.end + n if span.end >= case.at else span.end
    )


def _key(d, case: Case | None) -> tuple:
    span = d.span if case is None or d.path is not None else _shift(d.span, case)
    related = tuple(
        (r.message, r.path, r.span if case is None or r.path is not None else _shift(r.span, case)) for r in d.related
    )
    return (d.code, int(d.severity), d.message, span, d.path, related)


def probe_offsets(text: str) -> list[int]:
    """Where hover and definition are asked: inside every attribute value and every text."""
    out = [m.start(1) + 1 for m in re.finditer(r"""=\s*["']([^"'<]+)""", text)]
    out += [m.start(1) + 1 for m in re.finditer(r">([^<\s][^<]*)<", text)]
    return out


def compare(
    text: str, case: Case, intact: Analysis, path: str | None = None, probes: list[int] | None = None
) -> list[str]:
    """What differs from the promise; an empty list when it holds."""
    broken_text = case.apply(text)
    broken = analyze(broken_text, path)
    problems: list[str] = []
    end = case.at + len(case.typed)
    at_insertion = [d for d in broken.diagnostics if d.path is None and case.at <= d.span.start <= end]
    errors_there = [d for d in at_insertion if d.is_error]
    if len(errors_there) != 1:
        problems.append(f"{len(errors_there)} errors at the insertion: {[(d.code, d.message) for d in at_insertion]}")
    rest = sorted(_key(d, None) for d in broken.diagnostics if d not in at_insertion)
    expected = sorted(_key(d, case) for d in intact.diagnostics)
    if rest != expected:
        extra = [k for k in rest if k not in expected]
        missing = [k for k in expected if k not in rest]
        problems.append(f"diagnostics differ: extra {extra[:3]} missing {missing[:3]}")
    for off in probes if probes is not None else probe_offsets(text):
        shifted = off + len(case.typed) if off >= case.at else off
        h1, h2 = hover(intact, off), hover(broken, shifted)
        if (h1.text if h1 else None) != (h2.text if h2 else None):
            problems.append(f"hover differs at {off}: {text[off - 10 : off + 10]!r}")
            break
        d1 = [(l.path, _shift(l.span, case) if l.path is None else l.span) for l in definition(intact, off)]
        d2 = [(l.path, l.span) for l in definition(broken, shifted)]
        if d1 != d2:
            problems.append(f"definition differs at {off}: {text[off - 10 : off + 10]!r}: {d1} vs {d2}")
            break
    return problems
