"""Handlers for the editing aids: inlay hints, colours, folding, selection, highlights,
linked tag editing, workspace symbols and the ``sdformat/frames`` request.

Thin on purpose, like :mod:`.handlers`: module-level functions behind ``requests.with_snapshot``
(positions converted with the analysis' ``LineIndex`` in the negotiated encoding), each calling one
function of :mod:`sdformat_lsp.features`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..semantics import Analysis
from ..text import Span
from .convert import Place, position, to_offset, to_span
from .documents import path_to_uri
from .lazy import LazyModule
from .requests import Request, handler, with_snapshot

if TYPE_CHECKING:
    from ..features.frame_view import FrameEntry
    from .session import Session

# imported on the first request that needs them (see lazy.py)
colors_mod = LazyModule("sdformat_lsp.features.colors")
frame_view_mod = LazyModule("sdformat_lsp.features.frame_view")
highlight_mod = LazyModule("sdformat_lsp.features.highlight")
inlay_mod = LazyModule("sdformat_lsp.features.inlay_hints")
structure_mod = LazyModule("sdformat_lsp.features.structure")

FRAMES_REQUEST = "sdformat/frames"

_HIGHLIGHT_KINDS = {
    "read": types.DocumentHighlightKind.Read,
    "write": types.DocumentHighlightKind.Write,
    "text": types.DocumentHighlightKind.Text,
}


def _inlay_hints_on(server: Session, params: Any) -> bool:
    return server.settings.inlay_hints  # answered at once when off: it reaches the client before any later refresh


@with_snapshot(
    types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False), position=False, when=_inlay_hints_on
)
def inlay_hint(req: Request, analysis: Analysis, offset: None) -> list[types.InlayHint] | None:
    server, place = req.server, req.place
    # Read the settings again after the wait (a settings change re-checks every document, and the
    # check waits for the new settings): the refresh sent meanwhile reaches the client before this
    # answer, and VS Code loses a refresh that comes before the first answer in an editor that has
    # just shown the document, so an answer made with the old settings would stay on screen.
    if not server.settings.inlay_hints:
        return None
    span = to_span(place.lines, req.params.range, place.encoding)
    hints = inlay_mod.inlay_hints(analysis, span, degrees=server.settings.inlay_degrees)
    return [
        types.InlayHint(
            position=position(place.lines, h.offset, place.encoding),
            label=h.label,
            kind=types.InlayHintKind.Type,
            tooltip=h.tooltip,
            padding_left=True,
        )
        for h in hints
    ] or None


def _no_colors(params: Any) -> list[types.ColorInformation]:
    return []


@with_snapshot(types.TEXT_DOCUMENT_DOCUMENT_COLOR, position=False, otherwise=_no_colors)
def document_color(req: Request, analysis: Analysis, offset: None) -> list[types.ColorInformation]:
    return [
        types.ColorInformation(
            range=req.range(c.span),
            color=types.Color(red=c.rgba[0], green=c.rgba[1], blue=c.rgba[2], alpha=c.rgba[3]),
        )
        for c in colors_mod.document_colors(analysis)
    ]


@handler(types.TEXT_DOCUMENT_COLOR_PRESENTATION)
def color_presentation(ls: Session, params: types.ColorPresentationParams) -> list[types.ColorPresentation]:
    c = params.color
    text = colors_mod.color_text((c.red, c.green, c.blue, c.alpha))
    return [types.ColorPresentation(label=text, text_edit=types.TextEdit(range=params.range, new_text=text))]


@with_snapshot(types.TEXT_DOCUMENT_FOLDING_RANGE, position=False)
def folding_range(req: Request, analysis: Analysis, offset: None) -> list[types.FoldingRange] | None:
    lines = req.place.lines
    out: list[types.FoldingRange] = []
    for f in structure_mod.folding_ranges(analysis):
        start, end = lines.line_of(f.start), lines.line_of(f.end)
        if f.kind == "region":
            end -= 1  # the closing tag stays visible, as in other XML editors
        if end > start:
            kind = types.FoldingRangeKind.Comment if f.kind == "comment" else types.FoldingRangeKind.Region
            out.append(types.FoldingRange(start_line=start, end_line=end, kind=kind))
    return out or None


@with_snapshot(types.TEXT_DOCUMENT_SELECTION_RANGE, position=False)
def selection_range(req: Request, analysis: Analysis, offset: None) -> list[types.SelectionRange] | None:
    place = req.place
    out: list[types.SelectionRange] = []
    for pos in req.params.positions:
        at = to_offset(place.lines, pos, place.encoding)
        spans = structure_mod.selection_ranges(analysis, at) or [Span(at, at)]
        parent: types.SelectionRange | None = None
        for s in reversed(spans):  # outermost first, so each range points to its parent
            parent = types.SelectionRange(range=req.range(s), parent=parent)
        assert parent is not None
        out.append(parent)
    return out


@with_snapshot(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
def document_highlight(req: Request, analysis: Analysis, offset: int) -> list[types.DocumentHighlight] | None:
    found = highlight_mod.document_highlights(analysis, offset)
    return [types.DocumentHighlight(range=req.range(h.span), kind=_HIGHLIGHT_KINDS[h.kind]) for h in found] or None


@with_snapshot(types.TEXT_DOCUMENT_LINKED_EDITING_RANGE)
def linked_editing_range(req: Request, analysis: Analysis, offset: int) -> types.LinkedEditingRanges | None:
    spans = highlight_mod.linked_editing_ranges(analysis, offset)
    if not spans:
        return None
    return types.LinkedEditingRanges(ranges=[req.range(s) for s in spans], word_pattern=highlight_mod.TAG_NAME_PATTERN)


@handler(types.WORKSPACE_SYMBOL)
async def workspace_symbol(ls: Session, params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation] | None:
    return await ls.workspace_index.symbols(params.query) or None


@with_snapshot(FRAMES_REQUEST, position=False, uri=lambda params: _uri_of(params))
def frames(req: Request, analysis: Analysis, offset: None) -> dict[str, Any] | None:
    server, place = req.server, req.place
    uri = place.uri
    view = frame_view_mod.frame_view(analysis, server.settings.resource_paths, _joint_positions(req.params))
    if view is None:
        return {
            "uri": uri,
            "version": _version(server, uri),
            "root": None,
            "frames": [],
            "truncated": False,
            "problem": frame_view_mod.why_no_frames(analysis),
        }
    return {
        "uri": uri,
        "version": _version(server, uri),
        "root": {"kind": view.root_kind, "name": view.root_name},
        "truncated": view.truncated,
        "frames": [_frame_json(place, e) for e in view.frames],
    }


def _uri_of(params: Any) -> str | None:
    doc = (
        params.get("textDocument")
        if isinstance(params, dict)
        else getattr(params, "textDocument", None) or getattr(params, "text_document", None)
    )
    if isinstance(doc, dict):
        uri = doc.get("uri")
    else:
        uri = getattr(doc, "uri", None)
    return uri if isinstance(uri, str) else None


def _joint_positions(params: Any) -> dict[str, Any] | None:
    """``jointPositions`` of a frames request: joint name -> a number (or two, as a list); others ignored."""
    got = params.get("jointPositions") if isinstance(params, dict) else getattr(params, "jointPositions", None)
    if isinstance(got, dict):
        return {k: v for k, v in got.items() if isinstance(k, str)}
    if isinstance(got, (list, tuple)):  # [name, value] pairs (app.SdformatProtocol passes them so)
        return {
            p[0]: list(p[1]) if isinstance(p[1], (list, tuple)) else p[1]
            for p in got
            if isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[0], str)
        }
    return None


def _version(server: Session, uri: str) -> int | None:
    doc = server.documents.get(uri)
    return doc.version if doc is not None else None


def _frame_json(place: Place, e: FrameEntry) -> dict[str, Any]:
    return frame_view_mod.frame_json(e, place.location, path_to_uri)


__all__ = ["FRAMES_REQUEST"]
