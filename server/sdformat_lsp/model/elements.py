"""The SDFormat document model: what the file says, before any resolution.

Frozen dataclasses over the XML tree. Every name and reference keeps its
span so that the semantic layer can point at the exact attribute value.
"""

from __future__ import annotations

from dataclasses import MISSING, field, fields

from ..records import record
from ..text import Span
from ..xml import XmlElement
from ..xml.tree import XmlAttribute

# Where a name or reference is written: a Span, or (built on demand, as most are never asked for)
# the XmlAttribute whose value it is, or the XmlElement whose text it is. A Span kept for each of
# a 100 MB world's two million names and references is 240 MB.
Where = "Span | XmlAttribute | XmlElement | None"


def _quick_init(cls):
    """Give a frozen slotted dataclass (declared ``init=False``) an ``__init__`` that fills each
    slot through its descriptor.

    The ``__init__`` a frozen dataclass gets calls ``object.__setattr__`` once per field (by a
    global and an attribute lookup each time, to get past the class's own ``__setattr__``, which
    refuses); a slot's descriptor does the same store, bypassing it too, in one call. Same
    parameters, same defaults, same order; the instances are as frozen as before, and equality,
    hashing, ``repr`` and ``dataclasses.replace`` are untouched. The 100,000-line world builds
    70,000 of these objects: 95 -> 67 ms for its build. Fields with a default factory, without
    ``init`` or keyword-only are refused (none here): the generated code would not honour them.
    With ``init=False`` the dataclass makes no ``__init__`` of its own, which would cost start-up
    time for nothing.
    """
    names, params, namespace = [], [], {}
    for f in fields(cls):
        if f.default_factory is not MISSING or not f.init or getattr(f, "kw_only", False) is True:
            raise TypeError(f"{cls.__name__}.{f.name}: _quick_init handles plain fields only")
        names.append(f.name)
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    body = "".join(f"\n    _set_{n}(self, {n})" for n in names)
    exec(f"def __init__(self, {', '.join(params)}):{body}", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    return cls


def span_of(where) -> Span | None:
    """The span a :data:`Where` stands for."""
    kind = type(where)
    if kind is XmlAttribute:
        return where.value_span
    if kind is XmlElement:
        return where.text_span
    return where


@_quick_init
@record(slots=True, init=False)
class Ref:
    """A frame reference as written: an attribute value or an element's text."""

    text: str
    at: Where  # see ``span``
    role: str  # relative_to, attached_to, parent, child, canonical_link, placement_frame, expressed_in, mimic
    element: XmlElement

    @property
    def span(self) -> Span:
        """The reference's text in the document."""
        return span_of(self.at)


@_quick_init
@record(slots=True, init=False)
class PoseSpec:
    """A ``<pose>`` as written; absent poses have ``element=None`` and zero values."""

    element: XmlElement | None
    values: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)  # x y z r p y, or x y z qx qy qz qw
    quaternion: bool = False
    degrees: bool = False
    relative_to: Ref | None = None
    valid: bool = True


NO_POSE = PoseSpec(None)


@_quick_init
@record(slots=True, init=False)
class Named:
    """Anything that is a frame of its scope: link, joint, frame, model."""

    kind: str
    name: str
    name_at: Where  # see ``name_span``
    element: XmlElement
    pose: PoseSpec

    @property
    def name_span(self) -> Span | None:
        """The name attribute's value (None: no name written)."""
        return span_of(self.name_at)


@_quick_init
@record(slots=True, init=False)
class Link(Named):
    """A ``<link>``."""


@_quick_init
@record(slots=True, init=False)
class Frame(Named):
    """A ``<frame>``, with its ``attached_to`` as written."""

    attached_to: Ref | None = None


@_quick_init
@record(slots=True, init=False)
class Joint(Named):
    """A ``<joint>``: its type, parent and child as written."""

    type: str | None = None
    parent: Ref | None = None
    child: Ref | None = None
    expressed_in: tuple[Ref, ...] = ()
    mimics: tuple[Ref, ...] = ()
    use_parent_model_frame: bool = False


@_quick_init
@record(slots=True, init=False)
class Include:
    """An ``<include>``; what it brings in is resolved by the semantic layer."""

    element: XmlElement
    uri: Ref | None  # role 'uri'
    name: str | None
    name_span: Span | None
    pose: PoseSpec | None  # None: keep the included model's own pose
    placement_frame: Ref | None = None
    static: bool | None = None
    merge: bool = False


@_quick_init
@record(slots=True, init=False)
class Model(Named):
    """A ``<model>`` (or one an ``<include>`` brought): its members in document order."""

    canonical_link: Ref | None = None
    placement_frame: Ref | None = None
    static: bool = False
    links: tuple[Link, ...] = ()
    joints: tuple[Joint, ...] = ()
    frames: tuple[Frame, ...] = ()
    models: tuple["Model", ...] = ()
    includes: tuple[Include, ...] = ()
    members: tuple[Named, ...] = ()  # links, joints, frames and models in document order
    from_include: Include | None = None  # set when this model came from an <include>
    source: object | None = field(default=None, compare=False)  # the analysis of the included file


@_quick_init
@record(slots=True, init=False)
class World:
    """A ``<world>`` and its members."""

    name: str
    name_at: Where  # see ``name_span``
    element: XmlElement
    models: tuple[Model, ...] = ()
    frames: tuple[Frame, ...] = ()
    joints: tuple[Joint, ...] = ()
    includes: tuple[Include, ...] = ()
    members: tuple[Named, ...] = ()

    @property
    def name_span(self) -> Span | None:
        """The name attribute's value (None: no name written)."""
        return span_of(self.name_at)


@_quick_init
@record(slots=True, init=False)
class Document:
    """The ``<sdf>`` root: its version and its one world or model."""

    version: str | None
    version_span: Span | None
    element: XmlElement | None
    worlds: tuple[World, ...] = ()
    models: tuple[Model, ...] = ()
    others: tuple[XmlElement, ...] = ()  # top-level actor or light

    @property
    def root(self) -> World | Model | None:
        if self.worlds:
            return self.worlds[0]
        if self.models:
            return self.models[0]
        return None
