"""Diagnostics as plain data, shared by every layer below the protocol.

The codes are libsdformat's ``ErrorCode`` names so that users can match
what we say against ``gz sdf --check``; the messages are our own.
"""

from __future__ import annotations

from dataclasses import field
from enum import IntEnum

from .records import record
from .text import Span


RELATED_SHOWN = 20  # related locations listed in full; beyond, one "and N more" entry


class Severity(IntEnum):
    """Numbered like LSP's DiagnosticSeverity, without depending on it."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4


@record(slots=True)
class Related:
    """Another place that explains a diagnostic (a cycle edge, the other duplicate)."""

    span: Span
    message: str
    path: str | None = None  # None: the same document


@record(slots=True)
class Fix:
    """A single-edit repair that a quick fix can offer."""

    title: str
    span: Span
    new_text: str


@record(slots=True)
class Diagnostic:
    """One finding: a code, a severity and a message at a span, with related places and fixes."""

    code: str
    severity: Severity
    message: str
    span: Span
    related: tuple[Related, ...] = ()
    fixes: tuple[Fix, ...] = ()
    path: str | None = None  # None: the document analysed; else the file it lies in
    data: dict = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if len(self.related) > RELATED_SHOWN + 1:
            # a 10,000-frame cycle is one diagnostic, not a 3.5 MB message: the first places,
            # then one entry (at the next place) saying how many more there are
            rest = self.related[RELATED_SHOWN:]
            more = Related(rest[0].span, f"and {len(rest)} more", rest[0].path)
            object.__setattr__(self, "related", self.related[:RELATED_SHOWN] + (more,))

    @property
    def is_error(self) -> bool:
        return self.severity == Severity.ERROR


def error(code: str, message: str, span: Span, **kw) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, span, **kw)


def warning(code: str, message: str, span: Span, **kw) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, message, span, **kw)


def info(code: str, message: str, span: Span, **kw) -> Diagnostic:
    return Diagnostic(code, Severity.INFORMATION, message, span, **kw)
