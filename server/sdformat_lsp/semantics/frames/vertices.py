"""The vertices and scopes of the frame graphs, and the small helpers they share.

Kept apart from :class:`~.frames.FrameGraphs` so that the modules building and
querying the graphs (``frames.building``, ``frames.edges``, ``frames.answers``) can
all import the node types without importing each other: no import cycle.
Nodes and scopes use ``__slots__`` and point back to their scopes weakly, because
a 100 MB world has millions of them (a test caps the memory per character).
"""

from __future__ import annotations

import weakref
from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any, Callable, Iterator, Literal, TypeVar

from ...model import Include, Model, PoseSpec, Ref, World
from ...xml import XmlElement
from ...records import record
from ..pose import Transform, transform_of

MODEL_FRAME = "__model__"

_T = TypeVar("_T")


def weak_ref(obj: _T | None) -> weakref.ReferenceType[_T] | None:
    """A weak reference to ``obj`` (None stays None)."""
    return weakref.ref(obj) if obj is not None else None


WORLD = "world"


class FrameNode:
    """A vertex of the frame graphs: a link, joint, frame, model or the world."""

    __slots__ = (
        "kind",
        "name",
        "_scope",
        "entity",
        "_inner",
        "static",
        "attached_ref",
        "_attached_to",
        "attached_default",
        "relative_ref",
        "_relative_to",
        "_pose_spec",
        "_link",
        "_link_state",
        "_pose",
        "_pose_state",
        "__weakref__",
    )

    def __init__(self, kind: str, name: str, scope: "Scope | None", entity: Any) -> None:
        self.kind = kind  # link, joint, frame, model, world
        self.name = name  # local name in ``scope``
        self._scope = weak_ref(scope)  # the scope that lists this node by ``name`` (None: the root)
        # the Link/Joint/Frame/Model/World of the document model that ``kind`` names (None: the world
        # sentinel): a union tagged by ``kind``, typed Any because a type checker cannot narrow it by
        # the tag, and an isinstance in the loops over every node would cost what ``kind`` already says
        self.entity: Any = entity
        self._inner: weakref.ReferenceType[Scope] | None = None  # for models and the world: the scope it opens
        self.static = False
        self.attached_ref: Ref | None = None  # the reference that gave the edge
        # weak, like every reference between nodes (see ``scope``)
        self._attached_to: weakref.ReferenceType[FrameNode] | None = None
        self.attached_default = False  # edge follows a default rule, not a written reference
        self.relative_ref: Ref | None = None
        self._relative_to: weakref.ReferenceType[FrameNode] | None = None
        self._pose_spec: PoseSpec | None = None  # the <pose> giving ``transform`` (None: identity)
        self._link: weakref.ReferenceType[FrameNode] | None = None  # the memoised attached link
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
        self._scope = weak_ref(value)

    @property
    def inner(self) -> "Scope | None":
        return self._inner() if self._inner is not None else None

    @inner.setter
    def inner(self, value: "Scope | None") -> None:
        self._inner = weak_ref(value)

    @property
    def attached_to(self) -> "FrameNode | None":
        """What this frame is attached to (the edge of the attached_to graph)."""
        return self._attached_to() if self._attached_to is not None else None

    @attached_to.setter
    def attached_to(self, value: "FrameNode | None") -> None:
        self._attached_to = weak_ref(value)

    @property
    def relative_to(self) -> "FrameNode | None":
        """The frame this frame's pose is expressed in (the edge of the relative_to graph)."""
        return self._relative_to() if self._relative_to is not None else None

    @relative_to.setter
    def relative_to(self, value: "FrameNode | None") -> None:
        self._relative_to = weak_ref(value)

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
        "kind",
        "name",
        "entity",
        "_parent",
        "_node",
        "frames",
        "children",
        "version",
        "path",
        "links_order",
        "models_order",
        "_into",
        "__weakref__",
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
        self._parent = weak_ref(parent)
        self._node = weak_ref(node)
        self.frames = frames if frames is not None else {}
        self.children = children if children is not None else {}
        self.version = version
        self.path = path
        # libsdformat's element order, which decides the canonical link: links and nested models
        # as they come in the file, with what an include brings in at the include's place
        self.links_order: list[FrameNode] = []
        self.models_order: list["Scope | None"] = []
        self._into: weakref.ReferenceType[Scope] | None = (
            None  # for the view of a merge: the scope it was merged into (weak)
        )

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
        self._parent = weak_ref(value)

    @property
    def node(self) -> FrameNode | None:
        return self._node() if self._node is not None else None

    @node.setter
    def node(self, value: FrameNode | None) -> None:
        self._node = weak_ref(value)

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


@record(slots=True, frozen=False, unsafe_hash=True)
class Resolution:
    """What a written reference resolved to, segment by segment.

    Read-only by convention, hashed and compared by value like a frozen dataclass, but not
    declared frozen: a frozen dataclass sets each field through ``object.__setattr__``, which
    makes one five times dearer to create (0.5 against 0.1 µs), and a document makes one per
    reference (25,000 for a 100,000-line world).
    """

    ref: Ref
    scope: Scope
    target: FrameNode | None
    # (start, end, FrameNode | Scope | None) per `::` segment; None for the common case, one segment
    # spanning the whole reference and resolved to ``target`` (see ``segments``): a 100 MB world has
    # a million references, and three tuples and two ints each are 200 MB
    parts: tuple[tuple[int, int, object], ...] | None
    problem: str | None = None  # why it did not resolve: 'empty', 'reserved', 'missing'
    missing_in: Scope | None = None  # the scope where the lookup failed
    written_in: str | None | Literal[True] = True  # the file the reference is written in; True: the file of ``scope``

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
        return self.scope.path if self.written_in is True else self.written_in


class MergedFrames(MutableMapping):
    """The frames of a scope as seen by entities merged into it: ``__model__`` is their proxy frame.

    Reads and writes go to the scope's own table (merged names are the
    scope's names); only ``__model__`` differs.
    """

    __slots__ = ("_base", "_proxy")

    def __init__(self, base: MutableMapping[str, FrameNode], proxy: FrameNode) -> None:
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


class _WorldSentinel(FrameNode):
    pass


WORLD_SENTINEL = _WorldSentinel("world", WORLD, None, None)


def memo_link(node: FrameNode) -> FrameNode | None:
    """The remembered attached link (state 1: another node, 2: none, 3: the node itself)."""
    state = node._link_state
    if state == 1:
        link = node._link  # set with state 1, never None then
        return link() if link is not None else None
    return node if state == 3 else None


IncludeResolver = Callable[[Include, Scope], Model | None]


class GraphTables:
    """The tables of :class:`~.frames.FrameGraphs` that its parts (``building``, ``edges``, ``answers``)
    fill and read, declared once for the type checker: ``FrameGraphs.__init__`` creates them (and
    says what each holds). Annotations only, so nothing here exists at run time."""

    version: tuple[int, int]
    include_resolver: IncludeResolver | None
    instances: int
    max_instances: int
    over_budget: Include | None
    _expanding: Include | None
    nodes: list[FrameNode]
    scopes: list[Scope]
    resolutions: list[Resolution]
    by_ref: dict[int, Resolution]
    inner_poses: list[tuple[Ref, Scope]]
    _inner_views: dict[int, Scope]
    included: list[tuple[Include, Scope]]
    holes: dict[int, list[Include]]
    flawed: set[int]
    merged_placement: dict[int, tuple[Ref, Scope]]
    merged_into: dict[int, tuple[Include, Scope]]
    _canonical_memo: dict[int, FrameNode | None]
    _text: str | None
    _text_root: XmlElement | None
    _in_document: dict[int, bool]

    if TYPE_CHECKING:  # a part calls another's methods through the whole class

        def resolve(self, ref: Ref, scope: Scope, allow_world: bool = False, record: bool = True) -> Resolution: ...
