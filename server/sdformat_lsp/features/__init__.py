"""Editor features over an :class:`~sdformat_lsp.semantics.analysis.Analysis`.

Protocol-agnostic on purpose: offsets in, frozen dataclasses out. The LSP
server converts offsets to positions and these results to lsprotocol types.
"""

from .code_actions import CodeAction, code_actions
from .common import CursorTarget, Location, TextEdit, target_at
from .completion import CompletionItem, CompletionList, complete, frame_detail
from .definition import definition
from .hover import HoverResult, hover
from .include_info import include_hover, offered_frames
from .links import DocumentLink, document_links
from .references import references
from .rename import RenameError, prepare_rename, rename, rename_refusal
from .symbols import Symbol, document_symbols

__all__ = [
    "CodeAction", "CompletionItem", "CompletionList", "CursorTarget", "DocumentLink", "HoverResult", "Location", "RenameError",
    "Symbol", "TextEdit", "code_actions", "complete", "definition", "document_links", "document_symbols", "frame_detail", "hover",
    "include_hover", "offered_frames", "prepare_rename", "references", "rename", "rename_refusal", "target_at",
]
