"""Editor features over an :class:`~sdformat_lsp.semantics.analysis.Analysis`.

Protocol-agnostic on purpose: offsets in, frozen dataclasses out. The LSP
server converts offsets to positions and these results to lsprotocol types.
"""

from .common import CursorTarget, Location, TextEdit, target_at
from .definition import definition
from .hover import HoverResult, hover
from .references import references
from .rename import RenameError, prepare_rename, rename

__all__ = [
    "CursorTarget", "HoverResult", "Location", "RenameError", "TextEdit", "definition", "hover", "prepare_rename",
    "references", "rename", "target_at",
]
