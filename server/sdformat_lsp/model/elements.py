"""The SDFormat document model: what the file says, before any resolution.

Frozen dataclasses over the XML tree (``records.record``, whose constructor
stores each slot in one call: a large world builds tens of thousands of
these). Every name and reference keeps its span so that the semantic layer
can point at the exact attribute value.
"""

from __future__ import annotations

from dataclasses import field
from typing import TypeAlias

from ..records import record
from ..text import Span
from ..xml import XmlElement
from ..xml.tree import XmlAttribute

# Where a name or reference is written: a Span, or (built on demand, as most are never asked for)
# the XmlAttribute whose value it is, or the XmlElement whose text it is. A Span kept for each of
# a 100 MB world's two million names and references is 240 MB.
Where: TypeAlias = "Span | XmlAttribute | XmlElement | None"


def span_of(where: Where) -> Span | None:
    """The span a :data:`Where` stands for."""
    if type(where) is XmlAttribute:
        return where.value_span
    if type(where) is XmlElement:
        return where.text_span
    return where  # type: ignore[return-value]  # a Span or None: mypy does not narrow a union by `type(x) is C`


@record(slots=True)
class Ref:
    """A frame reference as written: an attribute value or an element's text."""

    text: str
    at: Where  # see ``span``
    role: str  # relative_to, attached_to, parent, child, canonical_link, placement_frame, expressed_in, mimic
    element: XmlElement

    @property
    def span(self) -> Span:
        """The reference's text in the document."""
        return span_of(self.at)  # type: ignore[return-value]  # never None: model/reading.py's text_ref gives an element without text an empty Span


@record(slots=True)
class PoseSpec:
    """A ``<pose>`` as written; absent poses have ``element=None`` and zero values."""

    element: XmlElement | None
    values: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)  # x y z r p y, or x y z qx qy qz qw
    quaternion: bool = False
    degrees: bool = False
    relative_to: Ref | None = None
    valid: bool = True


NO_POSE = PoseSpec(None)


@record(slots=True)
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


@record(slots=True)
class Link(Named):
    """A ``<link>``."""


@record(slots=True)
class Frame(Named):
    """A ``<frame>``, with its ``attached_to`` as written."""

    attached_to: Ref | None = None


@record(slots=True)
class Joint(Named):
    """A ``<joint>``: its type, parent and child as written."""

    type: str | None = None
    parent: Ref | None = None
    child: Ref | None = None
    expressed_in: tuple[Ref, ...] = ()
    mimics: tuple[Ref, ...] = ()
    use_parent_model_frame: bool = False


@record(slots=True)
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


@record(slots=True)
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


@record(slots=True)
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


@record(slots=True)
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
