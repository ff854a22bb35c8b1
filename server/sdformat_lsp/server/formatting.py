"""textDocument/formatting and rangeFormatting: the formatter's minimal edits, as LSP text edits.

The engine (``sdformat_lsp.formatting``) works on the document's current text, not on an
analysis, so formatting never waits for the debounce. It runs in a worker thread: a large
world takes a few hundred milliseconds. A document that is not well-formed XML gets no edits
(the diagnostics already say what is wrong with it); the client keeps its text. The indentation
is the configuration file's ``[format]`` where it sets a key, else the editor's.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from ..formatting import FormatOptions, FormatRefused, Indentation, choose_options, format_edits, from_config
from ..text import LineIndex, Span
from .convert import to_range
from .documents import uri_to_path
from .requests import handler

if TYPE_CHECKING:
    from .session import Session

log = logging.getLogger(__name__)


def _options(server: Session, uri: str, options: types.FormattingOptions) -> FormatOptions:
    """The configuration file's ``[format]`` where it sets a key, else the editor's FormattingOptions.

    The file wins so that a project's indentation is the same in every editor (and in
    ``sdformat-lsp format``); an editor's tab size is a per-user default, the file a decision.
    """
    cfg = server.project.for_path(uri_to_path(uri))
    editor = Indentation(width=max(1, int(options.tab_size)), style="space" if options.insert_spaces else "tab")
    return choose_options(from_config(cfg), editor)


def _edits(
    text: str, encoding: str, options: FormatOptions, lines: tuple[int, int] | None
) -> list[types.TextEdit] | None:
    try:
        edits = format_edits(text, options, lines)
    except FormatRefused as exc:
        log.info("not formatted: %s", exc.diagnostic.message)
        return None
    index = LineIndex(text)
    return [types.TextEdit(range=to_range(index, Span(e.start, e.end), encoding), new_text=e.new_text) for e in edits]


@handler(types.TEXT_DOCUMENT_FORMATTING)
async def formatting(ls: Session, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return None
    return await asyncio.to_thread(
        _edits, doc.text, ls.encoding, _options(ls, params.text_document.uri, params.options), None
    )


@handler(types.TEXT_DOCUMENT_RANGE_FORMATTING)
async def range_formatting(ls: Session, params: types.DocumentRangeFormattingParams) -> list[types.TextEdit] | None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return None
    rng = params.range
    last = rng.end.line - 1 if rng.end.character == 0 and rng.end.line > rng.start.line else rng.end.line
    return await asyncio.to_thread(
        _edits, doc.text, ls.encoding, _options(ls, params.text_document.uri, params.options), (rng.start.line, last)
    )
