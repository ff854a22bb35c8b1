"""textDocument/formatting and rangeFormatting: the formatter's minimal edits, as LSP text edits.

The engine (``sdformat_lsp.formatting``) works on the document's current text, not on an
analysis, so formatting never waits for the debounce. It runs in a worker thread: a large
world takes a few hundred milliseconds. A document that is not well-formed XML gets no edits
(the diagnostics already say what is wrong with it); the client keeps its text.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from ..formatting import FormatOptions, FormatRefused, format_edits
from ..text import LineIndex, Span
from .convert import to_range
from .faults import guarded

if TYPE_CHECKING:
    from .app import SdformatLanguageServer

log = logging.getLogger(__name__)


def _options(options: types.FormattingOptions) -> FormatOptions:
    return FormatOptions(indent_size=int(options.tab_size), use_tabs=not options.insert_spaces)


def _edits(text: str, encoding: str, options: FormatOptions, lines: tuple[int, int] | None) -> list[types.TextEdit] | None:
    try:
        edits = format_edits(text, options, lines)
    except FormatRefused as exc:
        log.info("not formatted: %s", exc.diagnostic.message)
        return None
    index = LineIndex(text)
    return [types.TextEdit(range=to_range(index, Span(e.start, e.end), encoding), new_text=e.new_text) for e in edits]


def register_formatting(server: "SdformatLanguageServer") -> None:
    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    @guarded(types.TEXT_DOCUMENT_FORMATTING)
    async def formatting(params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        doc = server.documents.get(params.text_document.uri)
        if doc is None:
            return None
        return await asyncio.to_thread(_edits, doc.text, server.encoding, _options(params.options), None)

    @server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
    @guarded(types.TEXT_DOCUMENT_RANGE_FORMATTING)
    async def range_formatting(params: types.DocumentRangeFormattingParams) -> list[types.TextEdit] | None:
        doc = server.documents.get(params.text_document.uri)
        if doc is None:
            return None
        rng = params.range
        last = rng.end.line - 1 if rng.end.character == 0 and rng.end.line > rng.start.line else rng.end.line
        return await asyncio.to_thread(_edits, doc.text, server.encoding, _options(params.options), (rng.start.line, last))
