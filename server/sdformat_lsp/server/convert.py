"""Core data to LSP types and back.

Every (line, character) goes through ``LineIndex`` in the negotiated
position encoding; nothing here indexes a string with an LSP character.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from lsprotocol import types

from ..diagnostics import Diagnostic
from ..semantics.incremental import Shift, Unmappable
from ..text import UTF16, LineIndex, Span
from .documents import path_to_uri

SOURCE = "sdformat"

POSE_FRAME_SEMANTICS = "http://sdformat.org/tutorials?tut=pose_frame_semantics"
COMPOSITION = "http://sdformat.org/tutorials?tut=composition_proposal"

# Where a diagnostic code is explained. Exact codes first, then prefixes;
# codes about XML syntax or value types have no page that would help more
# than the message itself, so they get no link.
_DOC_EXACT: dict[str, str] = {
    "MODEL_CANONICAL_LINK_INVALID": POSE_FRAME_SEMANTICS,
    "MODEL_PLACEMENT_FRAME_INVALID": POSE_FRAME_SEMANTICS,
    "JOINT_PARENT_SAME_AS_CHILD": POSE_FRAME_SEMANTICS,
    "JOINT_AXIS_EXPRESSED_IN_INVALID": POSE_FRAME_SEMANTICS,
    "RESERVED_NAME": POSE_FRAME_SEMANTICS,
    "DUPLICATE_NAME": POSE_FRAME_SEMANTICS,
    "MODEL_WITHOUT_LINK": POSE_FRAME_SEMANTICS,
    "NESTED_MODELS_UNSUPPORTED": COMPOSITION,
    "MERGE_INCLUDE_UNSUPPORTED": COMPOSITION,
    "URI_INVALID": COMPOSITION,
    "URI_LOOKUP": COMPOSITION,
}
_DOC_PREFIX: tuple[tuple[str, str], ...] = (
    ("POSE_RELATIVE_TO_", POSE_FRAME_SEMANTICS),
    ("FRAME_ATTACHED_TO_", POSE_FRAME_SEMANTICS),
    ("JOINT_PARENT_LINK_", POSE_FRAME_SEMANTICS),
    ("JOINT_CHILD_LINK_", POSE_FRAME_SEMANTICS),
    ("INCLUDE_", COMPOSITION),
    ("MERGE_INCLUDE", COMPOSITION),
    ("URI_", COMPOSITION),
    ("NESTED_MODEL", COMPOSITION),
    ("INTERFACE_", COMPOSITION),
)


def documentation_link(code: str) -> str | None:
    """The SDFormat documentation page that explains ``code``, if one fits."""
    if code in _DOC_EXACT:
        return _DOC_EXACT[code]
    for prefix, url in _DOC_PREFIX:
        if code.startswith(prefix):
            return url
    return None


class MovedLines(LineIndex):
    """The places of an earlier text shown in the current one: an earlier offset is moved through the
    edit (``semantics.incremental.Shift``) and placed with the current text's lines; a position of the
    current text gives the earlier offset. A place inside the edited element raises ``Unmappable``."""

    __slots__ = ("now", "shift")

    def __init__(self, now: LineIndex, shift: Shift) -> None:
        super().__init__(now.text)
        self.now = now
        self.shift = shift

    def position(self, offset: int, encoding: str = UTF16) -> tuple[int, int]:
        return self.now.position(self.shift.to_current(offset), encoding)

    def offset(self, line: int, character: int, encoding: str = UTF16) -> int:
        found = self.shift.to_earlier(self.now.offset(line, character, encoding))
        if found is None:
            raise Unmappable(line, character)
        return found

    def line_of(self, offset: int) -> int:
        return self.now.line_of(self.shift.to_current(offset))


def position(lines: LineIndex, offset: int, encoding: str) -> types.Position:
    line, character = lines.position(offset, encoding)
    return types.Position(line=line, character=character)


def to_range(lines: LineIndex, span: Span, encoding: str) -> types.Range:
    return types.Range(start=position(lines, span.start, encoding), end=position(lines, span.end, encoding))


def to_offset(lines: LineIndex, pos: types.Position, encoding: str) -> int:
    return lines.offset(pos.line, pos.character, encoding)


def to_span(lines: LineIndex, rng: types.Range, encoding: str) -> Span:
    a = to_offset(lines, rng.start, encoding)
    b = to_offset(lines, rng.end, encoding)
    return Span(min(a, b), max(a, b))


@dataclass(frozen=True, slots=True)
class DiagnosticSupport:
    """What the client said it can show, from ``textDocument.publishDiagnostics``
    (push) or ``textDocument.diagnostic`` (pull)."""

    related_information: bool = True
    code_description: bool = True
    deprecated_tag: bool = False


# Finds the text of another file (open in the editor or on disk) to place a
# related location in it; None when it cannot be read.
LinesOf = Callable[[str], "LineIndex | None"]


@dataclass(frozen=True, slots=True)
class Place:
    """Where a diagnostic is being shown: the document, its URI and path."""

    uri: str
    path: str | None
    lines: LineIndex
    encoding: str
    lines_of: LinesOf

    def same_file(self, path: str | None) -> bool:
        if path is None:
            return True
        if self.path is None:
            return False
        return os.path.normcase(os.path.abspath(path)) == os.path.normcase(os.path.abspath(self.path))

    def location(self, span: Span, path: str | None) -> types.Location:
        """A Location for ``span`` in ``path`` (None or our own path: this document)."""
        if self.same_file(path):
            return types.Location(uri=self.uri, range=to_range(self.lines, span, self.encoding))
        assert path is not None
        other = self.lines_of(path)
        rng = (
            to_range(other, span, self.encoding)
            if other is not None
            else types.Range(types.Position(0, 0), types.Position(0, 0))
        )
        return types.Location(uri=path_to_uri(path), range=rng)


def to_lsp_diagnostic(d: Diagnostic, place: Place, support: DiagnosticSupport) -> types.Diagnostic:
    message = d.message
    related: list[types.DiagnosticRelatedInformation] | None = None
    if d.related:
        if support.related_information:
            related = [
                types.DiagnosticRelatedInformation(location=place.location(r.span, r.path), message=r.message)
                for r in d.related
            ]
        else:
            # The client would drop them: keep the explanation in the message.
            notes = []
            for r in d.related:
                loc = place.location(r.span, r.path)
                where = "" if loc.uri == place.uri else f"{os.path.basename(r.path or '')}:"
                notes.append(f"{where}{loc.range.start.line + 1}: {r.message}")
            message = message + "\n" + "\n".join(notes)
    href = documentation_link(d.code) if support.code_description else None
    tags = [types.DiagnosticTag.Deprecated] if support.deprecated_tag and d.code == "ELEMENT_DEPRECATED" else None
    return types.Diagnostic(
        range=to_range(place.lines, d.span, place.encoding),
        message=message,
        severity=types.DiagnosticSeverity(int(d.severity)),
        code=d.code,
        code_description=types.CodeDescription(href=href) if href else None,
        source=SOURCE,
        related_information=related,
        tags=tags,
    )


def document_diagnostics(
    diagnostics: list[Diagnostic], place: Place, support: DiagnosticSupport
) -> list[types.Diagnostic]:
    """The diagnostics that lie in this document, in document order.

    Diagnostics whose ``path`` names another file (problems inside an
    included file) are left out: the core also reports them on the
    ``<include>`` element of this document, which is where they can be acted on.
    """
    own = [d for d in diagnostics if place.same_file(d.path)]
    own.sort(key=lambda d: (d.span.start, d.span.end, int(d.severity), d.code))
    return [to_lsp_diagnostic(d, place, support) for d in own]


class RawJson:
    """A result already written as the JSON it becomes (the completion list of thousands of frames):
    sent as it is, where pygls' converter would walk every item of it again."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value


def converter_factory():
    """pygls' converter, taught to send a :class:`RawJson` as it is."""
    from pygls.protocol import default_converter

    converter = default_converter()
    converter.register_unstructure_hook(RawJson, lambda raw: raw.value)
    return converter
