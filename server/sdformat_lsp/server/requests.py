"""One way to write a request handler: a module-level function behind :func:`with_snapshot`.

On the model of ruff's ``run_with_snapshot``: the decorator takes what every request about a
document does first, once, so that a handler holds only its own work. It finds the document
(a document that is not open gets the handler's ``otherwise`` answer), notes the client's
version of its text, waits for the analysis of that text (``Scheduler.analysis``), converts the
request's position with *that* analysis' ``LineIndex`` in the negotiated encoding, and calls
``handler(request, analysis, offset)``; the handler converts its answer back with
``request.place``, so a result always matches the text it was computed from. Unexpected
exceptions are logged and answered by :func:`faults.guarded`.

Handlers that need no analysis (lifecycle notifications, formatting, colour presentation) use
:func:`handler`, which only guards them. Both record the function; ``app`` registers every
recorded handler on the server it makes (:func:`register`). Handlers are typed against
``session.Session``, never the application.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, TypeVar

import dataclasses

from ..semantics.incremental import Unmappable
from .convert import MovedLines, Place, to_offset, to_range
from .faults import guarded

if TYPE_CHECKING:
    from lsprotocol import types

    from ..semantics import Analysis
    from ..text import Span
    from .session import Session

F = TypeVar("F", bound=Callable[..., Any])

# (method, options, the function pygls calls with the server first) in the order they were written
_HANDLERS: list[tuple[str, Any, Callable[..., Any]]] = []


class Request:
    """What a handler gets besides the analysis and the offset: the server, the request's
    parameters, how to place spans, and the client's version of the text analysed."""

    __slots__ = ("server", "params", "place", "version")

    def __init__(self, server: Session, params: Any, place: Place, version: int | None) -> None:
        self.server = server
        self.params = params
        self.place = place
        self.version = version

    def earlier_names(self, labels: Iterable[str], details: bool = True) -> bool:
        """Whether an earlier analysis answers (see :func:`with_snapshot`) and one of ``labels`` names the
        element edited since: the answer is then the new analysis's to give (raise ``Unmappable``). Without
        ``details`` (poses, resolved later against the current analysis), an edit of a pose value changes
        nothing the labels say (``Shift.pose_value``)."""
        lines = self.place.lines
        if not isinstance(lines, MovedLines) or (not details and lines.shift.pose_value):
            return False
        return any(lines.shift.names(label) for label in labels)

    def renamed(self) -> tuple[str, str] | None:
        """When an earlier analysis answers and the edit since only renamed an element nothing else names:
        its old and new name (``Shift.renamed_alone``)."""
        lines = self.place.lines
        return lines.shift.renamed_alone() if isinstance(lines, MovedLines) else None

    def current(self, offset: int, text: str) -> tuple[int, int]:
        """``offset`` of the analysed ``text`` as an offset of the document's current text, and that text's
        length (they differ when an earlier analysis answers: see :func:`with_snapshot`'s ``earlier``)."""
        lines = self.place.lines
        if isinstance(lines, MovedLines):
            return lines.shift.to_current(offset), len(lines.now.text)
        return offset, len(text)

    def range(self, span: Span) -> types.Range:
        """``span`` of the analysed text as an LSP range in the negotiated encoding."""
        return to_range(self.place.lines, span, self.place.encoding)


def text_document_uri(params: Any) -> str | None:
    """The URI of the document a request is about (``params.text_document.uri``)."""
    return params.text_document.uri


def _none(params: Any) -> None:
    return None


def with_snapshot(
    method: str,
    options: Any = None,
    *,
    position: bool = True,
    uri: Callable[[Any], str | None] = text_document_uri,
    otherwise: Callable[[Any], Any] = _none,
    when: Callable[[Session, Any], bool] | None = None,
    earlier: bool = False,
    listing: Callable[[Session], bool] | None = None,
) -> Callable[[F], F]:
    """Record ``handler(request, analysis, offset)`` as the handler of ``method`` (with ``options``).

    ``position``: convert ``params.position`` to ``offset`` (else ``offset`` is None); ``uri``:
    where the request names its document; ``otherwise(params)``: the answer when there is no
    document or no analysis; ``when(server, params)``: asked first, before any waiting, whether
    the request is answered at all (``otherwise`` if not). ``earlier``: while the analysis of the
    current text is being built after an edit checked incrementally, a position outside the edited
    element is answered at once from the last full analysis, its places moved through the edit
    (``Scheduler.earlier``: only when nothing outside that element can depend on it); a place of
    the answer inside the element (``Unmappable``) sends the request to the new analysis.
    ``listing(server)`` true: the answer lists names and kinds without poses, which an edit of a pose
    value changes nowhere outside the edited element (``Shift.for_listing``)."""

    def decorate(handler: F) -> F:
        async def run(ls: Session, params: Any) -> Any:
            if when is not None and not when(ls, params):
                return otherwise(params)
            doc_uri = uri(params)
            doc = ls.documents.get(doc_uri) if doc_uri else None
            if doc_uri is None or doc is None:
                return otherwise(params)
            version = doc.version
            if earlier and position:
                got = ls.scheduler.earlier(doc_uri)
                if got is not None:
                    before, shift = got
                    if listing is not None and shift.pose_value and listing(ls):
                        shift = shift.for_listing()
                    place = dataclasses.replace(ls.place(doc_uri, before), lines=MovedLines(doc.lines, shift))
                    try:
                        at = to_offset(place.lines, params.position, place.encoding)
                        return handler(Request(ls, params, place, version), before, at)
                    except Unmappable:
                        pass  # the edited element: the new analysis answers
            analysis: Analysis | None = await ls.scheduler.analysis(doc_uri)
            if analysis is None:
                return otherwise(params)
            place = ls.place(doc_uri, analysis)
            offset = to_offset(place.lines, params.position, place.encoding) if position else None
            return handler(Request(ls, params, place, version), analysis, offset)

        run.__name__ = run.__qualname__ = handler.__name__
        _HANDLERS.append((method, options, guarded(method)(run)))
        return handler

    return decorate


def handler(method: str, options: Any = None, *, notification: bool = False, guard: bool = True) -> Callable[[F], F]:
    """Record ``fn(ls, params)`` as the handler of ``method``: guarded (a notification's faults are
    logged and swallowed), the server passed first."""

    def decorate(fn: F) -> F:
        _HANDLERS.append((method, options, guarded(method, notification=notification)(fn) if guard else fn))
        return fn

    return decorate


def register(server: Any) -> None:
    """Attach every recorded handler to ``server`` (the pygls server ``app`` makes)."""
    for method, options, fn in _HANDLERS:
        server.feature(method, options)(fn)
