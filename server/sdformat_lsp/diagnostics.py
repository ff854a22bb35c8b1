"""Diagnostics as plain data, shared by every layer below the protocol.

The codes are libsdformat's ``ErrorCode`` names so that users can match
what we say against ``gz sdf --check``; the messages are our own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from .text import Span


class Severity(IntEnum):
    """Numbered like LSP's DiagnosticSeverity, without depending on it."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4


@dataclass(frozen=True, slots=True)
class Related:
    """Another place that explains a diagnostic (a cycle edge, the other duplicate)."""

    span: Span
    message: str
    path: str | None = None  # None: the same document


@dataclass(frozen=True, slots=True)
class Fix:
    """A single-edit repair that a quick fix can offer."""

    title: str
    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    span: Span
    related: tuple[Related, ...] = ()
    fixes: tuple[Fix, ...] = ()
    path: str | None = None  # None: the document analysed; else the file it lies in
    data: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def is_error(self) -> bool:
        return self.severity == Severity.ERROR


def error(code: str, message: str, span: Span, **kw) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, span, **kw)


def warning(code: str, message: str, span: Span, **kw) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, message, span, **kw)


def info(code: str, message: str, span: Span, **kw) -> Diagnostic:
    return Diagnostic(code, Severity.INFORMATION, message, span, **kw)
