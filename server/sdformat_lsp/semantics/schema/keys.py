"""The keys by which the schema check's walk remembers a ``<model>`` or ``<link>`` found clean:
its source text without where the element is placed and what it is called.

The walk skips a subtree whose key is that of one it found clean (schema/validation.py, checks/same_text.py).
A whole-text key never finds the models of a populated world again (3k_shapes: ``box_0``,
``box_1``... each at its own ``<pose>``), nor the links of a generated one: they differ only in
their names and poses. So the key of a model or link leaves out

- the value of its own ``name`` attribute, when the spec at that place gives ``name`` a free
  type (any text, no bounds): the schema check then reads nothing of the value (whether a name
  is given, or empty, is the model builder's to report); checks/domain.py words a message with a link's
  name but decides by its ``<inertial>`` alone; the name phase compares the name in the parent's
  walk, outside the subtree;
- the value of its ``<pose>``, when that is its first child and its only one, without a child
  element (the value is then text alone: a child would be visited) and with an end tag;
- for a model, likewise the pose value of each ``<link>`` directly in it (not the links' names:
  the name phase compares those inside the model's walk).

Those poses belong to the model builder (``schema.validation._BUILT_POSES``), which reads and checks
their values; the walk reads a pose's tag and attributes, which stay in the key. A second
``<pose>`` keeps the first one's value in the key: repeated once-only elements are compared by
value (``schema.validation._content``). Every cut is decided by the subtree's structure, so two
elements with equal keys differ only in values the walk does not read, and the one checked tells
what the other would report. The key's last item keeps these keys apart from whole-text ones.
"""

from __future__ import annotations

from ...spec import ElementSpec
from ...xml import XmlElement

PLACED = frozenset({"model", "link"})  # the elements whose keys leave out their names and poses
_POSE = "pose"
_FREE_TYPES = frozenset({"string", "std::string"})  # attribute types any text is a value of


def any_text(aspec) -> bool:
    """Whether every text is a value of the attribute ``aspec`` (an ``AttributeSpec``): a free type
    without bounds. The schema check gives such a value no verdict and reads nothing of it; it asks
    this same function, so that what it does not read is what the keys leave out."""
    return aspec.type in _FREE_TYPES and aspec.min is None and aspec.max is None


def placed_key(text: str, el: XmlElement, kids, start: int, end: int, spec: ElementSpec) -> tuple:
    """The key of ``el`` (a model or link; ``text[start:end]`` is its source, ``kids`` its
    children, ``spec`` its spec at this place): its text with the values above left out."""
    cuts: list[tuple[int, int]] = []
    name = el.attributes.get("name")
    if name is not None and name.terminated:
        aspec = spec.attributes.get("name")
        if aspec is not None and any_text(aspec):
            cuts.append(name.value_span)
    pose = _pose_value(kids)
    if pose is not None:
        cuts.append(pose)
    if el.tag == "model":
        for c in kids:
            if c.tag == "link" and c.children:
                pose = _pose_value(c.children)
                if pose is not None:
                    cuts.append(pose)
    if not cuts:
        return (text[start:end], id(spec))
    pieces = []
    at = start
    for a, b in cuts:  # in document order: the name in the start tag, then children in order
        pieces.append(text[at:a])
        at = b
    pieces.append(text[at:end])
    return ("".join(pieces), id(spec), _POSE)


def _pose_value(kids) -> tuple[int, int] | None:
    """Where the value of the ``<pose>`` among ``kids`` lies, when it is the first of them and the
    only pose, has no child element and has an end tag; else None."""
    first = kids[0]
    if first.tag != _POSE or first.children or first._etag < 0:
        return None
    for i in range(1, len(kids)):
        if kids[i].tag == _POSE:
            return None
    ts = first.ts  # from the end of the start tag to the start of the end tag (offsets kept relative to ts)
    return (ts + first._stag, ts + first._etag)
