"""The frame graphs: scopes, frames, the ``attached_to`` and ``relative_to`` graphs, and poses.

Holds :class:`FrameGraphs` (``graphs.py``) and its parts: the nodes and scopes (``vertices.py``),
libsdformat's element-order rules, the canonical link and pre-1.7 renaming (``order.py``),
building the scopes and nodes with includes and merges (``building.py``), resolving references
and drawing the edges (``edges.py``), the cycle searches (``cycles.py``) and the questions asked
of built graphs: attached links, poses, chains (``answers.py``).

Exports the graph types every layer above uses (``from sdformat_lsp.semantics.frames import
FrameGraphs, FrameNode, Scope, ...``). Never reports a diagnostic (the checks judge the graphs),
never reads a file (an include is resolved by the resolver the analysis hands in), and never
recurses over user data: every walk is iterative.
"""

from .graphs import (
    MAX_INCLUDED_INSTANCES,
    MODEL_FRAME,
    WORLD,
    WORLD_SENTINEL,
    FrameGraphs,
    FrameNode,
    IncludeResolver,
    Resolution,
    Scope,
    canonical_name,
    find_cycles,
)

__all__ = [
    "MAX_INCLUDED_INSTANCES",
    "MODEL_FRAME",
    "WORLD",
    "WORLD_SENTINEL",
    "FrameGraphs",
    "FrameNode",
    "IncludeResolver",
    "Resolution",
    "Scope",
    "canonical_name",
    "find_cycles",
]
