"""The names of one MJCF document as the editor navigates them: where each is defined and used.

An actuator's ``joint="elbow"``, an equality's ``body1``, a geom's ``material``,
a body's ``childclass``: each names an element of one kind (MuJoCo keeps a
namespace per kind, so a joint and a body may share a name). The places come
from :func:`.name_references.named_places`, the same tables that report a name
no element defines, so what the editor follows and what the check refuses
never differ. Elements brought by ``<include file>`` are followed into their
file (``Source.file``); positions under the cursor are those of the document
itself.
"""

from __future__ import annotations

from ...text import Span
from ...xml import XmlElement
from .inclusion import Inclusion, Source
from .name_references import Classes, Place, default_classes, named_places

__all__ = ["MjcfNames", "Place", "place_span", "place_file"]


def place_span(place: Place) -> Span:
    """The span of the name's value (the element's tag if the attribute has gone)."""
    a = place.src.element.attr(place.attr)
    return a.value_span if a is not None else place.src.element.tag_span


def place_file(place: Place) -> str | None:
    """The file the place is written in: None for the document itself."""
    return place.src.file


class MjcfNames:
    """Every definition and use of a name in the ``<mujoco>`` document ``root`` (saved at ``path``)."""

    def __init__(self, root: XmlElement, path: str | None) -> None:
        self._inclusion = Inclusion(path, lambda *args, **kwargs: None)  # keeps the included trees alive
        top = self._inclusion.children(Source(root, None))
        self.places = named_places(top, self._inclusion.children)
        self.classes: Classes = default_classes(top, self._inclusion.children)
        self._by_name: dict[tuple[str, str], list[Place]] = {}
        for p in self.places:
            self._by_name.setdefault((p.kind, p.name), []).append(p)

    def at(self, offset: int) -> Place | None:
        """The place of the document itself whose name value holds ``offset`` (its end included)."""
        for p in self.places:
            if p.src.at is None:
                span = place_span(p)
                if span.start <= offset <= span.end and p.src.element.attr(p.attr) is not None:
                    return p
        return None

    def all(self, kind: str, name: str) -> list[Place]:
        """The definitions and uses of ``name`` as a ``kind``."""
        return list(self._by_name.get((kind, name), ()))

    def declarations(self, kind: str, name: str) -> list[Place]:
        return [p for p in self.all(kind, name) if p.declares]

    def names_of(self, kind: str) -> set[str]:
        return {p.name for p in self.places if p.kind == kind and p.declares}
