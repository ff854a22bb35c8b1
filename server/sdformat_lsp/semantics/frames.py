"""Scopes and the two frame graphs of a model or world.

Every frame is a :class:`FrameNode`. A nested model is one node, named by
its model name in the enclosing scope and ``__model__`` inside its own.
Each node has at most one outgoing edge in each graph (``attached_to`` and
``relative_to``), so walking and cycle detection are iterative and linear;
the graphs are also kept as networkx ``DiGraph`` objects for the features
(ancestors, cycles) and for anyone who wants to inspect them.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, replace
from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Callable, Iterator

from ..model import Frame, Include, Joint, Link, Model, PoseSpec, Ref, World, version_tuple
from .pose import IDENTITY, Transform, transform_of

if TYPE_CHECKING:  # networkx costs ~70 ms to import: only the features that walk the graphs load it
    import networkx as nx

MODEL_FRAME = "__model__"


def _weak(obj: object | None):
    """A weak reference to ``obj`` (None stays None)."""
    return weakref.ref(obj) if obj is not None else None

WORLD = "world"


class FrameNode:
    """A vertex of the frame graphs: a link, joint, frame, model or the world."""

    __slots__ = (
        "kind", "name", "_scope", "entity", "_inner", "static",
        "attached_ref", "_attached_to", "attached_default",
        "relative_ref", "_relative_to", "_pose_spec",
        "_link", "_link_state", "_pose", "_pose_state", "__weakref__",
    )

    def __init__(self, kind: str, name: str, scope: "Scope | None", entity: object | None) -> None:
        self.kind = kind  # link, joint, frame, model, world
        self.name = name  # local name in ``scope``
        self._scope = _weak(scope)  # the scope that lists this node by ``name`` (None: the root)
        self.entity = entity  # Link/Joint/Frame/Model/World of the document model
        self._inner = None  # for models and the world: the scope it opens
        self.static = False
        self.attached_ref: Ref | None = None  # the reference that gave the edge
        self._attached_to = None  # weak, like every reference between nodes (see ``scope``)
        self.attached_default = False  # edge follows a default rule, not a written reference
        self.relative_ref: Ref | None = None
        self._relative_to = None
        self._pose_spec: PoseSpec | None = None  # the <pose> giving ``transform`` (None: identity)
        self._link = None  # a weak reference to the memoised attached link
        self._link_state = 0  # 0 unknown, 1 resolved to _link, 2 failed, 3 the node itself
        self._pose: Transform | None = None
        self._pose_state = 0

    # Back-references are weak: scopes own their nodes and child scopes, so an
    # analysis that is dropped is freed by reference counting at once instead of
    # waiting for (and paying for) a pass of the cyclic garbage collector.
    @property
    def scope(self) -> "Scope | None":
        return self._scope() if self._scope is not None else None

    @scope.setter
    def scope(self, value: "Scope | None") -> None:
        self._scope = _weak(value)

    @property
    def inner(self) -> "Scope | None":
        return self._inner() if self._inner is not None else None

    @inner.setter
    def inner(self, value: "Scope | None") -> None:
        self._inner = _weak(value)

    @property
    def attached_to(self) -> "FrameNode | None":
        """What this frame is attached to (the edge of the attached_to graph)."""
        return self._attached_to() if self._attached_to is not None else None

    @attached_to.setter
    def attached_to(self, value: "FrameNode | None") -> None:
        self._attached_to = _weak(value)

    @property
    def relative_to(self) -> "FrameNode | None":
        """The frame this frame's pose is expressed in (the edge of the relative_to graph)."""
        return self._relative_to() if self._relative_to is not None else None

    @relative_to.setter
    def relative_to(self, value: "FrameNode | None") -> None:
        self._relative_to = _weak(value)

    @property
    def transform(self) -> Transform:
        """``X_{relative_to, self}`` as written. Computed when asked, not kept: a few hundred bytes
        per frame of a 100 MB world, for a value most frames never need after the checks."""
        return transform_of(self._pose_spec)

    @property
    def is_sink(self) -> bool:
        """A legal end of an attached_to chain: a link, a static model, the world."""
        return self.kind in ("link", "world") or (self.kind == "model" and self.static)

    @property
    def name_span(self):
        return getattr(self.entity, "name_span", None)

    def scoped_name(self) -> str:
        """The name of this node as written from the root scope (``a::b::L``)."""
        if self.scope is None:
            return MODEL_FRAME if self.kind == "model" else self.name
        parts = [self.name]
        s = self.scope
        while s.parent is not None:
            parts.append(s.name)
            s = s.parent
        return "::".join(reversed(parts))

    def __repr__(self) -> str:
        return f"<FrameNode {self.kind} {self.name}>"


class Scope:
    """A model or world and the frames it declares."""

    __slots__ = (
        "kind", "name", "entity", "_parent", "_node", "frames", "children", "version", "path",
        "links_order", "models_order", "_into", "__weakref__",
    )

    def __init__(
        self,
        kind: str,  # model or world
        name: str,
        entity: "Model | World",
        parent: "Scope | None",
        node: FrameNode | None = None,  # the model's own frame (its __model__); the world node for a world
        frames: "MutableMapping[str, FrameNode] | None" = None,
        children: "dict[str, Scope] | None" = None,
        version: tuple[int, int] = (1, 12),
        path: str | None = None,  # the file this scope was written in, when not the analysed document
    ) -> None:
        self.kind = kind
        self.name = name
        self.entity = entity
        self._parent = _weak(parent)
        self._node = _weak(node)
        self.frames = frames if frames is not None else {}
        self.children = children if children is not None else {}
        self.version = version
        self.path = path
        # libsdformat's element order, which decides the canonical link: links and nested models
        # as they come in the file, with what an include brings in at the include's place
        self.links_order: list[FrameNode] = []
        self.models_order: list["Scope | None"] = []
        self._into = None  # for the view of a merge: the scope it was merged into (weak)

    @property
    def real(self) -> "Scope":
        """The model or world this scope's names belong to: itself, or for a merged view the scope it joined."""
        s = self
        while s._into is not None:
            into = s._into()
            if into is None:
                break
            s = into
        return s

    @property
    def parent(self) -> "Scope | None":
        return self._parent() if self._parent is not None else None

    @parent.setter
    def parent(self, value: "Scope | None") -> None:
        self._parent = _weak(value)

    @property
    def node(self) -> FrameNode | None:
        return self._node() if self._node is not None else None

    @node.setter
    def node(self, value: FrameNode | None) -> None:
        self._node = _weak(value)

    def __repr__(self) -> str:
        return f"<Scope {self.kind} {self.name!r}>"

    def describe(self) -> str:
        return f"{self.kind} '{self.name}'"

    def iter_scopes(self) -> Iterator["Scope"]:
        stack = [self]
        while stack:
            s = stack.pop()
            yield s
            stack.extend(reversed(list(s.children.values())))

    def nested_frames(self) -> Iterator[tuple[str, FrameNode]]:
        """Every name legal in a reference from this scope: local names and paths down."""
        stack: list[tuple[str, Scope]] = [("", self)]
        while stack:
            prefix, s = stack.pop()
            for name, node in s.frames.items():
                if prefix and name == WORLD and node.kind == "world":
                    continue
                yield prefix + name, node
            for cname, child in reversed(list(s.children.items())):
                stack.append((f"{prefix}{cname}::", child))


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a written reference resolved to, segment by segment."""

    ref: Ref
    scope: Scope
    target: FrameNode | None
    # (start, end, FrameNode | Scope | None) per `::` segment; None for the common case, one segment
    # spanning the whole reference and resolved to ``target`` (see ``segments``): a 100 MB world has
    # a million references, and three tuples and two ints each are 200 MB
    parts: tuple[tuple[int, int, object], ...] | None
    problem: str | None = None  # why it did not resolve: 'empty', 'reserved', 'missing'
    missing_in: Scope | None = None  # the scope where the lookup failed
    written_in: str | None | bool = True  # the file the reference is written in; True: the file of ``scope``

    @property
    def segments(self) -> tuple[tuple[int, int, object], ...]:
        """(start, end, FrameNode | Scope | None) per `::` segment of the reference."""
        if self.parts is not None:
            return self.parts
        span = self.ref.span
        return ((span[0], span[1], self.target),)

    @property
    def source_path(self) -> str | None:
        """The file the reference text lies in (None: the analysed document)."""
        return self.scope.path if self.written_in is True else self.written_in  # type: ignore[return-value]


IncludeResolver = Callable[[Include, "Scope"], Model | None]


MAX_INCLUDED_INSTANCES = 50_000  # included models placed in one document (the largest real worlds have a few thousand)


class FrameGraphs:
    """Scopes, nodes and both graphs of one document's root (a model or a world)."""

    def __init__(self, root: Model | World, version: tuple[int, int], include_resolver: IncludeResolver | None = None,
                 max_instances: int = MAX_INCLUDED_INSTANCES, other_worlds: tuple[World, ...] = ()) -> None:
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
        self.included: list[tuple[Include, Scope]] = []  # (include, its scope; for merge="true" the view of the merged entities)
        # includes that could not be loaded (missing, Fuel offline), by id of the scope they are written in:
        # what they would bring is unknown, so references that may lead into them are not judged
        self.holes: dict[int, list[Include]] = {}
        self.merged_placement: dict[int, tuple[Ref, Scope]] = {}  # id(proxy frame) -> (placement_frame, view)
        # id(view of a merge, or its proxy frame) -> (its include, the scope it joined)
        self.merged_into: dict[int, tuple[Include, Scope]] = {}
        self._canonical_memo: dict[int, FrameNode | None] = {}
        if isinstance(root, World):
            self.root = self._world_scope(root)
        else:
            self.root = self._model_scopes(root, None)
        # the other worlds of a file with several (libsdformat loads them all): roots of their own in the
        # same graphs, so that every feature finds their frames; no name reaches from one world into another
        self.other_roots: list[Scope] = [self._world_scope(w) for w in other_worlds]
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
            g.add_edges_from((n, n.relative_to, {"ref": n.relative_ref}) for n in self.nodes if n.relative_to is not None)
            self._relative_graph = g
        return self._relative_graph

    # -- building ------------------------------------------------------

    def _node(self, kind: str, name: str, scope: Scope | None, entity: object | None) -> FrameNode:
        n = FrameNode(kind, name, scope, entity)
        self.nodes.append(n)
        return n

    def _add_member(self, scope: Scope, node: FrameNode) -> None:
        if node.name and node.name not in scope.frames:
            scope.frames[node.name] = node

    def _world_scope(self, world: World) -> Scope:
        scope = Scope("world", world.name, world, None, version=self.version)
        self.scopes.append(scope)
        wnode = self._node("world", WORLD, None, world)
        wnode.inner = scope
        scope.node = wnode
        scope.frames[WORLD] = wnode
        for member in world.members:
            if isinstance(member, Model):
                self._model_scopes(member, scope)
            elif isinstance(member, Frame):
                self._add_member(scope, self._node("frame", member.name, scope, member))
            elif isinstance(member, Joint):
                self._add_member(scope, self._node("joint", member.name, scope, member))
        for inc in world.includes:
            self._include(inc, scope)
        return scope

    def _include(self, inc: Include, scope: Scope) -> None:
        """Resolve ``inc`` and add what it brings at its place in ``scope``'s element order."""
        if self.include_resolver is None or self.over_budget is not None:
            return
        model = self.include_resolver(inc, scope)
        if model is None:
            if inc.uri is not None and inc.uri.text:  # an include without a URI brings nothing (and is reported)
                self.holes.setdefault(id(scope), []).append(inc)
            return
        own = scope.path is None  # written in this document, not in an included file
        self.instances += 1
        if self.instances > self.max_instances:
            self.over_budget = inc if own or self._expanding is None else self._expanding
            return
        if own:
            self._expanding = inc
        try:
            if inc.merge:
                view = self._merge(model, inc, scope)
                self.included.append((inc, view))
                # libsdformat copies the merged elements into the including model where the include was
                scope.links_order.extend(view.links_order)
                scope.models_order.extend(view.models_order)
            else:
                child = self._model_scopes(model, scope)
                self.included.append((inc, child))
                scope.models_order.append(child)
        finally:
            if own:
                self._expanding = None

    def _merge(self, model: Model, inc: Include, scope: Scope) -> Scope:
        """``<include merge="true">``: the model's entities join ``scope`` (libsdformat 1.9+).

        A proxy frame ``_merged__NAME__model__`` in ``scope`` stands for the
        included model frame: it is attached to the model's canonical link (as
        libsdformat chooses it for the model alone, merged links of its own
        merges included) and posed by the include (or the model's own pose).
        The merged entities live in ``scope`` under their own names; what they
        wrote as ``__model__`` (and every default) means the proxy. They are
        kept in a *view* of ``scope`` (same names, parent and children;
        ``__model__`` is the proxy; ``path`` is the included file) so that they
        resolve exactly as libsdformat resolves them after merging. A world
        takes no links.
        """
        pose = model.pose
        if pose.relative_to is None or not pose.relative_to.text:  # not relative to the canonical link it is attached to
            pose = replace(pose, relative_to=Ref(MODEL_FRAME if scope.kind == "model" else WORLD, inc.element.tag_span, "relative_to", inc.element))
        proxy_entity = Frame("frame", f"_merged__{model.name}__model__", None, inc.element, pose)
        proxy = self._node("frame", proxy_entity.name, scope, proxy_entity)
        self._add_member(scope, proxy)
        path = getattr(model.source, "path", None) if model.source is not None else scope.path
        view = Scope(scope.kind, scope.name, model, scope.parent, node=proxy, frames=_MergedFrames(scope.frames, proxy),
                     children=scope.children, version=self.version, path=path)
        self.scopes.append(view)
        self.merged_into[id(view)] = (inc, scope)
        view._into = _weak(scope)
        self.merged_into[id(proxy)] = (inc, scope)
        if inc.placement_frame is not None and inc.placement_frame.text and inc.pose is not None:
            self.merged_placement[id(proxy)] = (inc.placement_frame, view)
        for item in _in_element_order(model):
            if isinstance(item, Include):
                self._include(item, view)
            elif isinstance(item, Model):
                view.models_order.append(self._model_scopes(item, view))
            elif isinstance(item, Link):
                if scope.kind == "world":
                    continue  # MERGE_INCLUDE_UNSUPPORTED, reported by the resolver
                node = self._node("link", item.name, view, item)
                self._add_member(view, node)
                view.links_order.append(node)
            elif isinstance(item, Joint):
                self._add_member(view, self._node("joint", item.name, view, item))
            elif isinstance(item, Frame):
                self._add_member(view, self._node("frame", item.name, view, item))
        canonical = model.canonical_link.text if model.canonical_link is not None and model.canonical_link.text else canonical_name(view)
        if scope.kind == "world" and canonical and "::" not in canonical:
            canonical = None  # a link of the merged model itself: a world takes none (reported by the resolver)
        if canonical:
            proxy.entity = replace(proxy_entity, attached_to=Ref(canonical, inc.element.tag_span, "attached_to", inc.element))
        return view

    def _model_scopes(self, model: Model, parent: Scope | None) -> Scope:
        """Create the scope of ``model`` and of every model nested in it, iteratively."""
        top: Scope | None = None
        # (model, parent scope, index of its place in the parent's models_order or -1)
        stack: list[tuple[Model, Scope | None, int]] = [(model, parent, -1)]
        while stack:
            m, p, slot = stack.pop()
            written = getattr(m.source, "version", None) if m.source is not None else None
            version = version_tuple(written) if written else (0, 0)
            if version == (0, 0):  # written in the analysed document, or no usable version: the enclosing file's
                version = p.version if p is not None else self.version
            scope = Scope("model", m.name, m, p, version=version, path=getattr(m.source, "path", None) if m.source else (p.path if p else None))
            self.scopes.append(scope)
            node = self._node("model", m.name, p, m)
            node.inner = scope
            node.static = m.static  # libsdformat: a model nested in a static model is not static itself
            scope.node = node
            scope.frames[MODEL_FRAME] = node
            if top is None:
                top = scope
            if p is not None:
                self._add_member(p, node)
                if m.name and m.name not in p.children:
                    p.children[m.name] = scope
                if slot >= 0:
                    p.models_order[slot] = scope
            nested: list[tuple[Model, Scope, int]] = []
            legacy = _LegacyNames() if scope.version < (1, 7) else None
            for item in _in_element_order(m):
                if isinstance(item, Include):
                    before = len(scope.models_order)
                    self._include(item, scope)
                    if legacy is not None and len(scope.models_order) > before and scope.models_order[-1] is not None:
                        legacy.name(scope.models_order[-1].name, "model")
                elif isinstance(item, Model):
                    scope.models_order.append(None)  # filled when the nested model's scope is made
                    nested.append((item, scope, len(scope.models_order) - 1))
                    if legacy is not None:
                        legacy.name(item.name, "model")
                elif isinstance(item, Link):
                    link = self._node("link", legacy.name(item.name, "link") if legacy else item.name, scope, item)
                    self._add_member(scope, link)
                    scope.links_order.append(link)
                    self._inner_poses(item, scope)
                elif isinstance(item, Joint):
                    self._add_member(scope, self._node("joint", legacy.name(item.name, "joint") if legacy else item.name, scope, item))
                elif isinstance(item, Frame):
                    self._add_member(scope, self._node("frame", legacy.name(item.name, "frame") if legacy else item.name, scope, item))
            stack.extend(reversed(nested))
        assert top is not None
        return top

    def _inner_poses(self, link: Link, scope: Scope) -> None:
        """Poses of a link's visuals, collisions, sensors, lights...: their relative_to names a frame of the model.

        In a merged link, ``__model__`` there is the model the link joined, not
        the proxy frame: libsdformat's merge (parser.cc) rewrites ``__model__``
        only in the merged links', joints' and frames' own poses, parents,
        children and axes, and a visual's pose is then resolved in the graph of
        the model it joined.
        """
        scope = self.inner_pose_scope(scope)
        stack = [c for c in link.element.children if c.tag != "pose"]
        while stack:
            el = stack.pop()
            if el.tag == "plugin" or el.prefix is not None:
                continue  # free-form content
            if el.tag == "pose":
                a = el.attr("relative_to")
                if a is not None and a.value:
                    self.inner_poses.append((Ref(a.value, a.value_span, "relative_to", el), scope))
                continue
            stack.extend(el.children)

    def inner_pose_scope(self, view: Scope) -> Scope:
        """Where the poses inside a link or joint of ``view`` resolve: ``view`` itself, or for a
        merged view its names with ``__model__`` meaning the scope it joined (see ``_inner_poses``);
        the path stays the included file's, so that problems are located there."""
        if view._into is None:
            return view
        inner = self._inner_views.get(id(view))
        if inner is None:
            real = view.real
            inner = Scope(view.kind, view.name, view.entity, view.parent, node=real.node, frames=real.frames,
                          children=view.children, version=view.version, path=view.path)
            inner._into = _weak(real)
            self._inner_views[id(view)] = inner
        return inner

    # -- references ----------------------------------------------------

    def resolve(self, ref: Ref, scope: Scope, allow_world: bool = False, record: bool = True) -> Resolution:
        """Resolve ``ref`` written in ``scope``: down into nested scopes, never up."""
        text = ref.text
        res: Resolution
        if not text:
            res = Resolution(ref, scope, None, (), "empty", scope)
        elif text == "__root__":
            res = Resolution(ref, scope, None, (), "reserved", scope)
        elif text == WORLD and allow_world and scope.kind == "model":
            # a joint's parent 'world' is the world, whatever the model names so (Joint::ResolveParentLink)
            res = Resolution(ref, scope, WORLD_SENTINEL, ((ref.span.start, ref.span.end, None),), None, None)
        elif "::" in text and self.version < (1, 8) and text in scope.frames:
            # before 1.8 '::' was not a scope separator: flattened models use it in plain names
            node = scope.frames[text]
            res = Resolution(ref, scope, node, None, None, None)
        else:
            parts = text.split("::")
            segments: list[tuple[int, int, object]] = []
            offset = ref.span.start
            cur = scope
            target: FrameNode | None = None
            problem = None
            for i, part in enumerate(parts):
                start, end = offset, offset + len(part)
                offset = end + 2
                last = i == len(parts) - 1
                if not part:
                    problem = "missing"
                    break
                if not last:
                    child = cur.children.get(part)
                    if child is None:
                        segments.append((start, end, None))
                        problem = "missing"
                        break
                    segments.append((start, end, child))
                    cur = child
                    continue
                node = cur.frames.get(part)
                if node is not None and node.kind == "world" and (cur is not scope or not (allow_world or scope.kind == "world")):
                    node = None
                if node is None and part == WORLD and allow_world and cur is scope and scope.kind == "model":
                    target = WORLD_SENTINEL
                    segments.append((start, end, None))
                    break
                segments.append((start, end, node))
                if node is None:
                    problem = "missing"
                else:
                    target = node
            literal = scope.frames.get(text) if problem == "missing" and "::" in text else None
            if literal is not None:  # a name that contains '::' (URDF names, which libsdformat keeps as they are)
                res = Resolution(ref, scope, literal, None, None, None)
            elif (len(segments) == 1 and target is not None and segments[0][2] is target
                  and segments[0][0] == ref.span.start and segments[0][1] == ref.span.end):
                res = Resolution(ref, scope, target, None, problem, None)
            else:
                res = Resolution(ref, scope, target, tuple(segments), problem, cur if problem == "missing" else None)
        if record:
            self.resolutions.append(res)
            self.by_ref[id(ref)] = res
        return res

    def resolution(self, ref: Ref | None) -> Resolution | None:
        """The recorded resolution of ``ref``, if it was resolved during building."""
        return self.by_ref.get(id(ref)) if ref is not None else None

    # -- edges ---------------------------------------------------------

    def _edges(self) -> None:
        for ref, scope in self.inner_poses:
            self.resolve(ref, scope)
        for node in self.nodes:
            entity = node.entity
            scope = node.scope
            if node.kind == "world":
                continue
            if scope is None:  # the root model: source of relative_to, attached to its canonical link
                self._model_attachment(node)
                continue
            default_base = scope.node  # __model__ of a model, the world node of a world
            if node.kind == "link":
                self._relative(node, entity.pose, scope, default_base)
            elif node.kind == "model":
                self._model_attachment(node)
                self._relative(node, entity.pose, scope, default_base)
                inc = entity.from_include
                if inc is not None and inc.placement_frame is not None and inc.placement_frame.text and node.inner is not None:
                    # written in the including file, resolved inside the included model
                    res = self.resolve(inc.placement_frame, node.inner, record=False)
                    res = replace(res, written_in=scope.path)
                    self.resolutions.append(res)
                    self.by_ref[id(inc.placement_frame)] = res
            elif node.kind == "joint":
                if entity.parent is not None:
                    self.resolve(entity.parent, scope, allow_world=True)
                child = self.resolve(entity.child, scope) if entity.child is not None else None
                if child is not None:
                    self._attach(node, child.target, entity.child)
                self._relative(node, entity.pose, scope, child.target if child is not None else None, default_ref=entity.child)
            elif node.kind == "frame":
                if entity.attached_to is not None and entity.attached_to.text:
                    at = self.resolve(entity.attached_to, scope, allow_world=scope.kind == "world")
                    self._attach(node, at.target, entity.attached_to)
                    self._relative(node, entity.pose, scope, at.target, default_ref=entity.attached_to)
                else:  # no attached_to, or attached_to="": the default
                    self._attach(node, default_base, None, default=True)
                    self._relative(node, entity.pose, scope, default_base)

    def _attach(self, node: FrameNode, target: FrameNode | None, ref: Ref | None, default: bool = False) -> None:
        node.attached_ref = ref
        node.attached_default = default
        if target is not None and target is not WORLD_SENTINEL:
            node.attached_to = target

    def _model_attachment(self, node: FrameNode) -> None:
        """The model frame's edge, as libsdformat's ``buildFrameAttachedToGraph`` makes it.

        A static model is a sink (its ``canonical_link`` is still resolved, for
        the checks). Otherwise the canonical link: the written one, else the
        first link in element order, else the canonical link of the first
        nested model, depth first (static or not); a model whose nested models
        offer no link at all is attached to its first nested model.
        """
        model: Model = node.entity
        scope = node.inner
        assert scope is not None
        cref = model.canonical_link
        written = cref is not None and bool(cref.text)
        res = self.resolve(cref, scope) if written else None
        if node.static:
            return
        if res is not None:
            target = res.target
            nested = node.scope is not None and node.scope.kind == "model"
            if target is not None and target.kind != "link" and not nested:
                target = None  # a top-level model must name a link (checkCanonicalLinkNames): reported, not followed
            self._attach(node, target, cref)  # nested: whatever frame it names, as libsdformat's graph does
            return
        first = next((c for c in scope.models_order if c is not None), None)
        target = scope.links_order[0] if scope.links_order else self._canonical_target(first)
        if target is None and first is not None:
            target = first.node  # no link anywhere down: the first nested model (static ones are sinks)
        if target is not None:
            self._attach(node, target, None, default=True)

    def _canonical_target(self, scope: Scope | None) -> FrameNode | None:
        """The frame libsdformat's ``CanonicalLinkAndRelativeName`` names for ``scope`` (static or not), memoised."""
        path: list[Scope] = []
        result: FrameNode | None = None
        s = scope
        while s is not None:
            if id(s) in self._canonical_memo:
                result = self._canonical_memo[id(s)]
                break
            path.append(s)
            cref = getattr(s.entity, "canonical_link", None)
            if cref is not None and cref.text:
                result = self.resolve(cref, s, record=False).target
                break
            if s.links_order:
                result = s.links_order[0]
                break
            s = next((c for c in s.models_order if c is not None), None)
        for p in path:
            self._canonical_memo[id(p)] = result
        return result

    def _relative(self, node: FrameNode, pose: PoseSpec, scope: Scope, default: FrameNode | None, default_ref: Ref | None = None) -> None:
        node._pose_spec = pose
        if pose is not None and pose.relative_to is not None and pose.relative_to.text:
            res = self.resolve(pose.relative_to, scope)
            node.relative_ref = pose.relative_to
            target = res.target
        else:
            node.relative_ref = default_ref
            target = default
        if target is not None and target is not WORLD_SENTINEL:
            node.relative_to = target

    # -- queries -------------------------------------------------------

    def real_scope(self, scope: Scope | None) -> Scope | None:
        """The model or world a merged view belongs to (``scope`` itself when it is not a view)."""
        return scope.real if scope is not None else None

    def attached_link(self, node: FrameNode) -> FrameNode | None:
        """The sink of ``node``'s attached_to chain, if it is a legal one."""
        if node._link_state:
            return _memo_link(node)
        path: list[FrameNode] = []
        seen: set[int] = set()
        cur: FrameNode | None = node
        result: FrameNode | None = None
        while cur is not None:
            if cur._link_state:
                result = _memo_link(cur)
                break
            if id(cur) in seen:
                result = None
                break
            seen.add(id(cur))
            path.append(cur)
            if cur.attached_to is None:
                result = cur if cur.is_sink else None
                break
            cur = cur.attached_to
        for p in path:
            if result is p:  # a sink: remember "itself" without a reference to itself (no cycle to collect)
                p._link, p._link_state = None, 3
            else:
                p._link, p._link_state = _weak(result), 1 if result is not None else 2
        return result

    def attached_cycle(self, node: FrameNode) -> list[FrameNode] | None:
        return _cycle_from(node, lambda n: n.attached_to)

    def relative_cycle(self, node: FrameNode) -> list[FrameNode] | None:
        return _cycle_from(node, lambda n: n.relative_to)

    def pose(self, node: FrameNode) -> Transform | None:
        """``X_root_node``: relative to the root model frame or the world; None if unresolvable."""
        if node._pose_state:
            return node._pose
        path: list[FrameNode] = []
        seen: set[int] = set()
        cur: FrameNode | None = node
        base: Transform | None = None
        while True:
            if cur._pose_state:
                base = cur._pose
                break
            if id(cur) in seen:
                base = None
                break
            seen.add(id(cur))
            path.append(cur)
            if cur.relative_to is None:
                if cur.scope is None:  # the root: the source of the graph
                    base = IDENTITY
                    path.pop()
                    cur._pose, cur._pose_state = IDENTITY, 1
                else:
                    base = None
                break
            cur = cur.relative_to
        for p in reversed(path):
            if base is not None:
                base = base * self.edge_transform(p)
            p._pose = base
            p._pose_state = 1 if base is not None else 2
        return node._pose

    def pose_resolves(self, node: FrameNode, memo: dict[int, bool]) -> bool:
        """Whether :meth:`pose` of ``node`` is not None, without computing (and keeping) the
        poses: the relative_to chain reaches the root. A check of every frame needs only this,
        and a pose kept for each of a 100 MB world's frames costs hundreds of MB."""
        path: list[FrameNode] = []
        seen: set[int] = set()
        cur: FrameNode | None = node
        while True:
            if cur._pose_state:
                ok = cur._pose_state == 1
                break
            known = memo.get(id(cur))
            if known is not None:
                ok = known
                break
            if id(cur) in seen:
                ok = False
                break
            seen.add(id(cur))
            path.append(cur)
            if cur.relative_to is None:
                ok = cur.scope is None  # the root: the source of the graph
                break
            cur = cur.relative_to
        for p in path:
            memo[id(p)] = ok
        return ok

    def edge_transform(self, node: FrameNode) -> Transform:
        """``X_{relative_to, node}``, with a nested model's placement frame applied."""
        if node.kind == "frame" and id(node) in self.merged_placement:
            pf, view = self.merged_placement[id(node)]
            res = self.resolve(pf, view, record=False)
            if res.target is not None and res.target is not node:
                inside = self.relative_pose(res.target, node)
                if inside is not None:
                    return node.transform * inside.inverse()
        if node.kind == "model" and node.scope is not None:
            model: Model = node.entity
            pf = model.placement_frame
            inc = model.from_include
            if inc is not None and inc.placement_frame is not None and inc.placement_frame.text:
                pf = inc.placement_frame
            if pf is not None and pf.text and node.inner is not None:
                res = self.resolve(pf, node.inner, record=False)
                if res.target is not None:
                    inside = self.relative_pose(res.target, node)
                    if inside is not None:
                        return node.transform * inside.inverse()
        return node.transform

    def relative_pose(self, node: FrameNode, base: FrameNode) -> Transform | None:
        """``X_base_node`` by walking up from ``node`` until ``base`` (no memo, bounded)."""
        acc = IDENTITY
        cur = node
        seen: set[int] = set()
        while cur is not base:
            if cur.relative_to is None or id(cur) in seen:
                a, b = self.pose(node), self.pose(base)
                return None if a is None or b is None else b.inverse() * a
            seen.add(id(cur))
            acc = self.edge_transform(cur) * acc
            cur = cur.relative_to
        return acc

    def chain(self, node: FrameNode, limit: int = 64) -> list[FrameNode]:
        """The relative_to chain from ``node`` to its source, for display."""
        out = [node]
        seen = {id(node)}
        cur = node.relative_to
        while cur is not None and id(cur) not in seen and len(out) < limit:
            out.append(cur)
            seen.add(id(cur))
            cur = cur.relative_to
        return out


class _MergedFrames(MutableMapping):
    """The frames of a scope as seen by entities merged into it: ``__model__`` is their proxy frame.

    Reads and writes go to the scope's own table (merged names are the
    scope's names); only ``__model__`` differs.
    """

    __slots__ = ("_base", "_proxy")

    def __init__(self, base: dict, proxy: FrameNode) -> None:
        self._base = base
        self._proxy = proxy

    def __getitem__(self, key: str) -> FrameNode:
        return self._proxy if key == MODEL_FRAME else self._base[key]

    def __contains__(self, key: object) -> bool:
        return key == MODEL_FRAME or key in self._base

    def __setitem__(self, key: str, value: FrameNode) -> None:
        if key != MODEL_FRAME:
            self._base[key] = value

    def __delitem__(self, key: str) -> None:
        del self._base[key]

    def __iter__(self) -> Iterator[str]:
        for k in self._base:
            if k != MODEL_FRAME:
                yield k
        yield MODEL_FRAME

    def __len__(self) -> int:
        return len(self._base) + (0 if MODEL_FRAME in self._base else 1)


def canonical_name(scope: Scope) -> str:
    """libsdformat's ``CanonicalLinkAndRelativeName`` of a model scope whose own ``canonical_link`` is not written.

    The first link in element order (merged links at their include's place);
    without links, the canonical link of the first nested model, depth first,
    prefixed with its name (its written ``canonical_link`` if it has one).
    Static models are no exception. '' when there is none.
    """
    prefix = ""
    s: Scope | None = scope
    for _ in range(1_000_000):
        if s is None:
            break
        if s is not scope:
            cref = getattr(s.entity, "canonical_link", None)
            if cref is not None and cref.text:
                return prefix + cref.text
        if s.links_order:
            return prefix + s.links_order[0].name
        first = next((c for c in s.models_order if c is not None), None)
        if first is None:
            break
        prefix += first.name + "::"
        s = first
    return ""


def _in_element_order(model: Model) -> list:
    """The links, joints, frames, nested models and includes of ``model`` in the order the file writes them."""
    if not model.includes:
        return list(model.members)
    items = [(m.element.span.start, i, m) for i, m in enumerate(model.members)]
    items += [(inc.element.span.start, len(items) + i, inc) for i, inc in enumerate(model.includes)]
    items.sort(key=lambda t: (t[0], t[1]))
    return [t[2] for t in items]


class _LegacyNames:
    """libsdformat's renaming of clashing names in files older than SDFormat 1.7 (``Model::Load``).

    In element order, a link, joint or frame whose name an earlier nested
    model, link, joint or frame of the model already has is renamed
    ``NAME_link`` / ``NAME_joint`` / ``NAME_frame`` (then ``NAME_joint0``,
    ``NAME_joint1``... while taken), with a warning; from 1.7 on the clash is
    an error. So in a 1.6 model whose joint is named like its child link,
    that name means the link. A second entity of one kind with one name is
    dropped by libsdformat (its own error): it keeps its name here and is not
    listed.
    """

    __slots__ = ("taken", "by_kind")

    def __init__(self) -> None:
        self.taken: set[str] = set()
        self.by_kind: dict[str, set[str]] = {}

    def name(self, name: str, kind: str) -> str:
        own = self.by_kind.setdefault(kind, set())
        if name in own or kind == "model":
            own.add(name)
            self.taken.add(name)
            return name
        own.add(name)
        new = name
        if name in self.taken:
            new = f"{name}_{kind}"
            i = 0
            while new in self.taken:
                new = f"{name}_{kind}{i}"
                i += 1
        self.taken.add(new)
        return new


class _WorldSentinel(FrameNode):
    pass


WORLD_SENTINEL = _WorldSentinel("world", WORLD, None, None)


def _memo_link(node: FrameNode) -> FrameNode | None:
    """The remembered attached link (state 1: another node, 2: none, 3: the node itself)."""
    state = node._link_state
    return node._link() if state == 1 else (node if state == 3 else None)


def find_cycles(nodes: list[FrameNode], step: Callable[[FrameNode], FrameNode | None]) -> list[list[FrameNode]]:
    """Every cycle of a graph where each node has at most one successor, in O(n)."""
    state: dict[int, int] = {}  # 1 on the current walk, 2 finished
    cycles: list[list[FrameNode]] = []
    for start in nodes:
        if id(start) in state:
            continue
        path: list[FrameNode] = []
        index: dict[int, int] = {}
        cur: FrameNode | None = start
        while cur is not None and id(cur) not in state:
            state[id(cur)] = 1
            index[id(cur)] = len(path)
            path.append(cur)
            cur = step(cur)
        if cur is not None and state.get(id(cur)) == 1:
            cycles.append(path[index[id(cur)] :])
        for n in path:
            state[id(n)] = 2
    return cycles


def _cycle_from(node: FrameNode, step: Callable[[FrameNode], FrameNode | None]) -> list[FrameNode] | None:
    """The cycle reached from ``node`` by following ``step``, if any."""
    order: dict[int, int] = {}
    path: list[FrameNode] = []
    cur: FrameNode | None = node
    while cur is not None:
        if id(cur) in order:
            return path[order[id(cur)] :]
        order[id(cur)] = len(path)
        path.append(cur)
        cur = step(cur)
    return None
