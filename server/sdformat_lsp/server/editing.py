"""Handlers for the editing aids: inlay hints, colours, folding, selection, highlights,
linked tag editing, workspace symbols and the ``sdformat/frames`` request.

Thin on purpose, like :mod:`.handlers`: each converts positions with the
analysis' ``LineIndex`` in the negotiated encoding and calls one function of
:mod:`sdformat_lsp.features`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..semantics import Analysis
from ..text import Span
from .convert import Place, position, to_offset, to_range, to_span
from .documents import path_to_uri
from .faults import guarded
from .lazy import LazyModule
from .workspace_index import WorkspaceIndex

if TYPE_CHECKING:
    from .app import SdformatLanguageServer

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


def register_editing(server: "SdformatLanguageServer") -> None:
    async def snapshot(uri: str) -> tuple[Analysis, Place] | None:
        if server.documents.get(uri) is None:
            return None
        analysis = await server.scheduler.analysis(uri)
        if analysis is None:
            return None
        return analysis, server.place(uri, analysis)

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    @guarded(types.TEXT_DOCUMENT_INLAY_HINT)
    async def inlay_hint(params: types.InlayHintParams) -> list[types.InlayHint] | None:
        if not server.settings.inlay_hints:
            return None  # answered at once: it reaches the client before any later refresh
        snap = await snapshot(params.text_document.uri)
        # Read the settings again after the wait (a settings change re-checks every document, and the
        # check waits for the new settings): the refresh sent meanwhile reaches the client before this
        # answer, and VS Code loses a refresh that comes before the first answer in an editor that has
        # just shown the document, so an answer made with the old settings would stay on screen.
        if snap is None or not server.settings.inlay_hints:
            return None
        analysis, place = snap
        span = to_span(place.lines, params.range, place.encoding)
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

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_COLOR)
    @guarded(types.TEXT_DOCUMENT_DOCUMENT_COLOR)
    async def document_color(params: types.DocumentColorParams) -> list[types.ColorInformation]:
        snap = await snapshot(params.text_document.uri)
        if snap is None:
            return []
        analysis, place = snap
        return [
            types.ColorInformation(
                range=to_range(place.lines, c.span, place.encoding),
                color=types.Color(red=c.rgba[0], green=c.rgba[1], blue=c.rgba[2], alpha=c.rgba[3]),
            )
            for c in colors_mod.document_colors(analysis)
        ]

    @server.feature(types.TEXT_DOCUMENT_COLOR_PRESENTATION)
    @guarded(types.TEXT_DOCUMENT_COLOR_PRESENTATION)
    def color_presentation(params: types.ColorPresentationParams) -> list[types.ColorPresentation]:
        c = params.color
        text = colors_mod.color_text((c.red, c.green, c.blue, c.alpha))
        return [types.ColorPresentation(label=text, text_edit=types.TextEdit(range=params.range, new_text=text))]

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    @guarded(types.TEXT_DOCUMENT_FOLDING_RANGE)
    async def folding_range(params: types.FoldingRangeParams) -> list[types.FoldingRange] | None:
        snap = await snapshot(params.text_document.uri)
        if snap is None:
            return None
        analysis, place = snap
        out: list[types.FoldingRange] = []
        for f in structure_mod.folding_ranges(analysis):
            start, end = place.lines.line_of(f.start), place.lines.line_of(f.end)
            if f.kind == "region":
                end -= 1  # the closing tag stays visible, as in other XML editors
            if end > start:
                kind = types.FoldingRangeKind.Comment if f.kind == "comment" else types.FoldingRangeKind.Region
                out.append(types.FoldingRange(start_line=start, end_line=end, kind=kind))
        return out or None

    @server.feature(types.TEXT_DOCUMENT_SELECTION_RANGE)
    @guarded(types.TEXT_DOCUMENT_SELECTION_RANGE)
    async def selection_range(params: types.SelectionRangeParams) -> list[types.SelectionRange] | None:
        snap = await snapshot(params.text_document.uri)
        if snap is None:
            return None
        analysis, place = snap
        out: list[types.SelectionRange] = []
        for pos in params.positions:
            offset = to_offset(place.lines, pos, place.encoding)
            spans = structure_mod.selection_ranges(analysis, offset) or [Span(offset, offset)]
            parent: types.SelectionRange | None = None
            for s in reversed(spans):  # outermost first, so each range points to its parent
                parent = types.SelectionRange(range=to_range(place.lines, s, place.encoding), parent=parent)
            assert parent is not None
            out.append(parent)
        return out

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    @guarded(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    async def document_highlight(params: types.DocumentHighlightParams) -> list[types.DocumentHighlight] | None:
        snap = await snapshot(params.text_document.uri)
        if snap is None:
            return None
        analysis, place = snap
        found = highlight_mod.document_highlights(analysis, to_offset(place.lines, params.position, place.encoding))
        return [
            types.DocumentHighlight(range=to_range(place.lines, h.span, place.encoding), kind=_HIGHLIGHT_KINDS[h.kind]) for h in found
        ] or None

    @server.feature(types.TEXT_DOCUMENT_LINKED_EDITING_RANGE)
    @guarded(types.TEXT_DOCUMENT_LINKED_EDITING_RANGE)
    async def linked_editing_range(params: types.LinkedEditingRangeParams) -> types.LinkedEditingRanges | None:
        snap = await snapshot(params.text_document.uri)
        if snap is None:
            return None
        analysis, place = snap
        spans = highlight_mod.linked_editing_ranges(analysis, to_offset(place.lines, params.position, place.encoding))
        if not spans:
            return None
        return types.LinkedEditingRanges(
            ranges=[to_range(place.lines, s, place.encoding) for s in spans], word_pattern=highlight_mod.TAG_NAME_PATTERN
        )

    index = WorkspaceIndex(server)
    server.workspace_index = index

    @server.feature(types.WORKSPACE_SYMBOL)
    @guarded(types.WORKSPACE_SYMBOL)
    async def workspace_symbol(params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation] | None:
        return await index.symbols(params.query) or None

    @server.feature(FRAMES_REQUEST)
    @guarded(FRAMES_REQUEST)
    async def frames(params: Any) -> dict[str, Any] | None:
        uri = _uri_of(params)
        snap = await snapshot(uri) if uri else None
        if snap is None:
            return None
        analysis, place = snap
        view = frame_view_mod.frame_view(analysis, server.settings.resource_paths, _joint_positions(params))
        if view is None:
            return {"uri": uri, "version": _version(server, uri), "root": None, "frames": [], "truncated": False,
                    "problem": frame_view_mod.why_no_frames(analysis)}
        return {
            "uri": uri,
            "version": _version(server, uri),
            "root": {"kind": view.root_kind, "name": view.root_name},
            "truncated": view.truncated,
            "frames": [_frame_json(place, e) for e in view.frames],
        }


def _uri_of(params: Any) -> str | None:
    doc = params.get("textDocument") if isinstance(params, dict) else getattr(params, "textDocument", None) or getattr(params, "text_document", None)
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
        return {p[0]: list(p[1]) if isinstance(p[1], (list, tuple)) else p[1]
                for p in got if isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[0], str)}
    return None


def _version(server: "SdformatLanguageServer", uri: str) -> int | None:
    doc = server.documents.get(uri)
    return doc.version if doc is not None else None


def _frame_json(place: Place, e: "frame_view_mod.FrameEntry") -> dict[str, Any]:
    return frame_view_mod.frame_json(e, place.location, path_to_uri)


__all__ = ["FRAMES_REQUEST", "register_editing"]
