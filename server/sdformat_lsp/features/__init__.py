"""Editor features over an :class:`~sdformat_lsp.semantics.analysis.Analysis`.

Protocol-agnostic on purpose: offsets in, frozen dataclasses out. The LSP
server converts offsets to positions and these results to lsprotocol types.
Each module here imports only :mod:`sdformat_lsp.queries` and the layers
below, never another feature; where two features answer the same request
(hover, completion), the order in which they are asked is decided here.
"""

from __future__ import annotations

from typing import Callable

from ..queries.frames import CursorTarget, prepare_lookups, target_at
from ..queries.includes import offered_frames
from ..queries.results import CompletionItem, CompletionList, HoverResult, Location, TextEdit
from ..semantics.analysis import Analysis
from ..text import Span
from .code_actions import CodeAction, code_actions
from .completion import frame_complete, frame_detail, prepare_listings, renamed_listing
from .definition import definition as frame_definition
from .hover import frame_hover
from .include_info import include_hover
from .links import DocumentLink, document_links
from .mjcf_names import (
    mjcf_definition,
    mjcf_hover,
    mjcf_prepare_rename,
    mjcf_references,
    mjcf_rename,
    mjcf_rename_refusal,
)
from .plugin_completion import plugin_complete
from .plugin_hover import plugin_hover
from .references import references as frame_references
from .rename import RenameError
from .rename import prepare_rename as frame_prepare_rename
from .rename import rename as frame_rename
from .rename import rename_refusal as frame_rename_refusal
from .schema_completion import schema_complete
from .schema_hover import schema_hover
from .symbols import Symbol
from .symbols import document_symbols as model_symbols
from .urdf_completion import urdf_complete
from .urdf_names import urdf_definition, urdf_hover, urdf_references
from .xacro_features import (
    prepare_xacro,
    xacro_complete,
    xacro_definition,
    xacro_hover,
    xacro_prepare_rename,
    xacro_references,
    xacro_rename,
    xacro_symbols,
)


def prepare(analysis: Analysis, stopped: Callable[[], bool] | None = None) -> None:
    """Make now, in the caller's thread, what the first request on ``analysis`` would otherwise make
    (the server calls it in a worker thread on an analysis built in the background). ``stopped()``
    true: the analysis is no longer wanted (its text was edited meanwhile); the listings are not made."""
    prepare_lookups(analysis)
    analysis.name_spans()  # node_defined_at's index (hover, definition on a name)
    if analysis.graphs is not None:
        prepare_listings(analysis, stopped)  # the large listings completion made on the document's earlier analyses
    if analysis.xacro is not None:
        prepare_xacro(analysis)


def hover(analysis: Analysis, offset: int, markdown: bool = True) -> HoverResult | None:
    """On an ``<include>`` (its tags, ``<uri>``, ``<name>``) what it brings in; on a frame
    name, a frame reference or a ``<pose>`` the resolved pose; on a known plugin or its
    parameters what they are; elsewhere, on a tag or attribute name, what the schema says."""
    if analysis.xacro is not None:  # a xacro document: its definitions, and the robot it expands to
        return (
            xacro_hover(analysis, offset, markdown, lambda expanded, at: _robot_hover(expanded, at, markdown))
            or plugin_hover(analysis, offset, markdown)
            or schema_hover(analysis, offset, markdown)
        )
    found = include_hover(analysis, offset, markdown)
    if found is None and _is_mjcf(analysis):  # a name an MJCF model defines or refers to
        found = mjcf_hover(analysis, offset, markdown, lambda at: frame_hover(analysis, at, markdown))
    if found is None and analysis.graphs is not None:
        found = frame_hover(analysis, offset, markdown)
    if found is None:  # a URDF name its conversion lacks: the robot as written
        found = urdf_hover(analysis, offset, markdown)
    if found is None:
        found = plugin_hover(analysis, offset, markdown)
    if found is None:
        found = schema_hover(analysis, offset, markdown)
    return found


def _robot_hover(expanded: Analysis, offset: int, markdown: bool) -> HoverResult | None:
    """A link's or joint's hover in a xacro document's expansion, answered as in a URDF document."""
    found = frame_hover(expanded, offset, markdown) if expanded.graphs is not None else None
    return found or urdf_hover(expanded, offset, markdown)


def definition(analysis: Analysis, offset: int) -> list[Location]:
    """Where the name under the cursor is declared: through the frame graphs, else (a URDF name
    its conversion dropped) the URDF's own ``<link name>`` or ``<joint name>``."""
    if analysis.xacro is not None:
        return xacro_definition(analysis, offset)
    if _is_mjcf(analysis):
        return mjcf_definition(analysis, offset) or frame_definition(analysis, offset)
    return frame_definition(analysis, offset) or urdf_definition(analysis, offset)


def references(analysis: Analysis, offset: int, include_declaration: bool = True) -> list[Location]:
    """Every place naming the frame under the cursor (the frame graphs), else the URDF's own uses of the name."""
    if analysis.xacro is not None:
        return xacro_references(analysis, offset, include_declaration)
    if _is_mjcf(analysis):  # MJCF names, each kind its own namespace (the frame graphs merge them)
        return mjcf_references(analysis, offset, include_declaration)
    return frame_references(analysis, offset, include_declaration) or urdf_references(
        analysis, offset, include_declaration
    )


def prepare_rename(analysis: Analysis, offset: int) -> Span | None:
    """The name that rename would change at ``offset`` (a frame; in a xacro document a macro, property or argument)."""
    if analysis.xacro is not None:
        return xacro_prepare_rename(analysis, offset)
    if _is_mjcf(analysis):
        found = mjcf_prepare_rename(analysis, offset)
        return found if isinstance(found, Span) else None
    return frame_prepare_rename(analysis, offset)


def rename(analysis: Analysis, offset: int, new_name: str) -> list[TextEdit]:
    """Edits renaming what is at ``offset`` everywhere it is named; raises :class:`RenameError`."""
    if analysis.xacro is not None:
        found = xacro_rename(analysis, offset, new_name)
        if isinstance(found, str):
            raise RenameError(found)
        return found
    if _is_mjcf(analysis):
        edits = mjcf_rename(analysis, offset, new_name)
        if not isinstance(edits, list):
            raise RenameError(edits or "there is no MJCF name here to rename")
        return edits
    return frame_rename(analysis, offset, new_name)


def rename_refusal(analysis: Analysis, offset: int) -> RenameError | None:
    """Why the name at ``offset`` cannot be renamed, when it is written in another file too (``path``
    set: the refusal worth showing at ``prepareRename``); None otherwise."""
    if _is_mjcf(analysis):
        found = mjcf_rename_refusal(analysis, offset)
        return RenameError(found[0], found[1]) if found is not None else None
    return frame_rename_refusal(analysis, offset)


def _is_mjcf(analysis: Analysis) -> bool:
    return analysis.xml.root is not None and analysis.xml.root.tag == "mujoco"


def document_symbols(analysis: Analysis) -> list[Symbol]:
    """The world(s) or model as a tree; in a xacro document its macros, properties and arguments."""
    if analysis.xacro is not None:
        return xacro_symbols(analysis) or []
    return model_symbols(analysis)


def complete(analysis: Analysis, offset: int, snippets: bool = True, details: bool = True) -> CompletionList:
    """Frame names legal at ``offset`` in a frame reference; inside a known plugin its parameters
    and the names they take; elsewhere what the schema allows there, as snippets when
    ``snippets``; in a URDF its link and joint names."""
    offset = max(0, min(offset, len(analysis.text)))
    if analysis.xacro is not None:
        return xacro_complete(analysis, offset) or CompletionList([], Span(offset, offset))
    if analysis.xml.root is not None and analysis.xml.root.tag == "robot":  # a URDF: its own names, no SDFormat schema
        return urdf_complete(analysis, offset)
    found = frame_complete(analysis, offset, details)
    if found is None:
        found = plugin_complete(analysis, offset, snippets)
    if found is None:
        found = schema_complete(analysis, offset, snippets)
    return found if found is not None else CompletionList([], Span(offset, offset))


__all__ = [
    "CodeAction",
    "CompletionItem",
    "CompletionList",
    "CursorTarget",
    "DocumentLink",
    "HoverResult",
    "Location",
    "RenameError",
    "Symbol",
    "TextEdit",
    "code_actions",
    "complete",
    "definition",
    "document_links",
    "document_symbols",
    "frame_detail",
    "hover",
    "include_hover",
    "offered_frames",
    "prepare",
    "prepare_rename",
    "references",
    "rename",
    "rename_refusal",
    "renamed_listing",
    "target_at",
]
