"""Scopes and the two frame graphs of a model or world.

Every frame is a :class:`FrameNode`. A nested model is one node, named by
its model name in the enclosing scope and ``__model__`` inside its own.
Each node has at most one outgoing edge in each graph (``attached_to`` and
``relative_to``), so walking and cycle detection are iterative and linear;
the graphs are also kept as networkx ``DiGraph`` objects for the features
(ancestors, cycles) and for anyone who wants to inspect them.

The nodes and scopes live in :mod:`.vertices` (libsdformat's element-order rules in
:mod:`.order`, the cycle searches in :mod:`.cycles`); building them in
:mod:`.building`, resolving references and drawing edges in
:mod:`.edges`, the queries (attached link, pose, cycles) in
:mod:`.answers`. Everything stays importable from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...model import Include, Model, Ref, World
from ...xml import XmlDocument, XmlElement
from .building import ScopeBuilding
from .edges import EdgeBuilding
from .cycles import find_cycles
from .vertices import MODEL_FRAME, WORLD, WORLD_SENTINEL, FrameNode, IncludeResolver, Resolution, Scope
from .order import canonical_name
from .answers import FrameQueries

if TYPE_CHECKING:  # networkx costs ~70 ms to import: only the features that walk the graphs load it
    import networkx as nx

__all__ = [  # the rest of the package imports these from here
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

MAX_INCLUDED_INSTANCES = 50_000  # included models placed in one document (the largest real worlds have a few thousand)


class FrameGraphs(ScopeBuilding, EdgeBuilding, FrameQueries):
    """Scopes, nodes and both graphs of one document's root (a model or a world)."""

    def __init__(
        self,
        root: Model | World,
        version: tuple[int, int],
        include_resolver: IncludeResolver | None = None,
        max_instances: int = MAX_INCLUDED_INSTANCES,
        other_worlds: tuple[World, ...] = (),
        xml: XmlDocument | None = None,
    ) -> None:
        self.version = version
        self.include_resolver = include_resolver
        # Included models placed so far (at any depth) and the budget: files that include each
        # other several times grow exponentially (11 files each including the next 4 times are
        # a million models); past the budget nothing more is expanded and ``over_budget`` names
        # the include of this document whose expansion crossed it.
        self.instances = 0
        self.max_instances = max_instances
        self.over_budget: Include | None = None
        self._expanding: Include | None = None  # the include of this document being expanded
        self.nodes: list[FrameNode] = []
        self.scopes: list[Scope] = []  # every scope, held here (nodes and child scopes point back weakly)
        self.resolutions: list[Resolution] = []
        self.by_ref: dict[int, Resolution] = {}
        self._attached: nx.DiGraph | None = None
        self._relative_graph: nx.DiGraph | None = None
        self.inner_poses: list[tuple[Ref, Scope]] = []  # relative_to of visuals, collisions, sensors... inside links
        self._inner_views: dict[int, Scope] = {}  # id(merged view) -> the scope its links' inner poses resolve in
        self.included: list[
            tuple[Include, Scope]
        ] = []  # (include, its scope; for merge="true" the view of the merged entities)
        # includes that could not be loaded (missing, Fuel offline), by id of the scope they are written in:
        # what they would bring is unknown, so references that may lead into them are not judged
        self.holes: dict[int, list[Include]] = {}
        # ids of the scopes of includes loaded with errors (reported on the include): their content may be
        # incomplete (a URDF whose massless links libsdformat left out), so references into them are not judged
        self.flawed: set[int] = set()
        self.merged_placement: dict[int, tuple[Ref, Scope]] = {}  # id(proxy frame) -> (placement_frame, view)
        # id(view of a merge, or its proxy frame) -> (its include, the scope it joined)
        self.merged_into: dict[int, tuple[Include, Scope]] = {}
        self._canonical_memo: dict[int, FrameNode | None] = {}
        # Derived data the layers above keep with these graphs (which never change once built), by a
        # key naming the module that owns each entry: freed with the graphs, so with their analysis
        # (completion's listings, the scopes' frame lists, the reference index of hover and definition).
        self.memo: dict[str, Any] = {}  # each entry's type is its owner's
        # the analysed document (``xml``, when given and free of XML problems), so that building can
        # search its text instead of walking elements (see ``ScopeBuilding._document_text``)
        self._text: str | None = None
        self._text_root: XmlElement | None = None
        if xml is not None and xml.root is not None and not xml.problems and not xml.half_typed:
            self._text, self._text_root = xml.text, xml.root
        self._in_document: dict[int, bool] = {}  # id(element) -> in that document's tree (while building)
        if isinstance(root, World):
            self.root = self._world_scope(root)
        else:
            self.root = self._model_scopes(root, None)
        # the other worlds of a file with several (libsdformat loads them all): roots of their own in the
        # same graphs, so that every feature finds their frames; no name reaches from one world into another
        self.other_roots: list[Scope] = [self._world_scope(w) for w in other_worlds]
        # only building reads the document: the graphs do not keep its tree alive
        self._text, self._text_root, self._in_document = None, None, {}
        self._edges()

    def root_of(self, node: FrameNode) -> Scope | None:
        """The root scope ``node`` belongs to: ``root``, or one of ``other_roots``."""
        s = node.inner if node.scope is None else node.scope
        while s is not None and s.parent is not None:
            s = s.parent
        return s

    @property
    def attached(self) -> nx.DiGraph:
        """The attached_to graph (edge: frame -> what it is attached to), built on first use."""
        if self._attached is None:
            import networkx as nx

            g = nx.DiGraph()
            g.add_nodes_from(self.nodes)
            g.add_edges_from((n, n.attached_to) for n in self.nodes if n.attached_to is not None)
            self._attached = g
        return self._attached

    @property
    def relative(self) -> nx.DiGraph:
        """The relative_to graph (edge: frame -> the frame its pose is expressed in), built on first use."""
        if self._relative_graph is None:
            import networkx as nx

            g = nx.DiGraph()
            g.add_nodes_from(self.nodes)
            g.add_edges_from(
                (n, n.relative_to, {"ref": n.relative_ref}) for n in self.nodes if n.relative_to is not None
            )
            self._relative_graph = g
        return self._relative_graph
