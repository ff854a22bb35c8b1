"""Editor features over an :class:`~sdformat_lsp.semantics.analysis.Analysis`.

Protocol-agnostic on purpose: offsets in, frozen dataclasses out. The LSP
server converts offsets to positions and these results to lsprotocol types.
"""

from .code_actions import CodeAction, code_actions
from .common import CursorTarget, Location, TextEdit, target_at
from .completion import CompletionItem, CompletionList, complete
from .definition import definition
from .hover import HoverResult, hover
from .references import references
from .rename import RenameError, prepare_rename, rename
from .symbols import Symbol, document_symbols

__all__ = [
    "CodeAction", "CompletionItem", "CompletionList", "CursorTarget", "HoverResult", "Location", "RenameError",
    "Symbol", "TextEdit", "code_actions", "complete", "definition", "document_symbols", "hover", "prepare_rename",
    "references", "rename", "target_at",
]
