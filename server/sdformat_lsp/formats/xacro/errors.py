"""xacro's own errors as located exceptions, and their plain diagnostics.

The processor raises :class:`XacroError` where xacro stops; the expander
catches it at the element being processed, records one diagnostic there and
goes on with the rest of the document (ROS's xacro stops at the first error,
so the command line fails when there is any). A :class:`LimitError` (a macro
calling itself, an include cycle, an expansion over its budget) ends the whole
expansion: what follows would only repeat it.
"""

from __future__ import annotations

from ...diagnostics import Diagnostic, Related, Severity
from ...text import Span
from .source_map import Origin

ERROR = "XACRO_ERROR"  # ours: xacro cannot expand the document here
LIMIT = "XACRO_LIMIT"  # ours: the expansion is over a bound (recursion, size, time)
WARNING = "XACRO_WARNING"  # ours: xacro expands it but something is ignored or odd


class XacroError(Exception):
    """An error of the document being expanded, at ``origin`` (None: where the expander is)."""

    code = ERROR

    def __init__(self, message: str, origin: Origin | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.origin = origin


class Unresolved(XacroError):
    """A name (property, macro, block) that is not defined: after an include that failed, most
    likely one the missing file defines, so then not reported again (one cause, one error)."""


class LimitError(XacroError):
    """A bound of the expansion was reached: the expansion stops."""

    code = LIMIT


UNRESOLVED = "unresolved"  # in a diagnostic's data: a name that is not defined (an Unresolved error)


def diagnostic(
    code: str, severity: Severity, message: str, origin: Origin | None, data: dict | None = None
) -> Diagnostic:
    """A plain diagnostic at ``origin``, the chain of macro calls as related places."""
    if origin is None:
        return Diagnostic(code, severity, message, Span(0, 0), data=data or {})
    related = tuple(
        Related(Span(*call.span), f"from the call of macro '{call.name}'", call.file) for call in origin.calls()
    )
    return Diagnostic(code, severity, message, Span(*origin.span), related, path=origin.file, data=data or {})
