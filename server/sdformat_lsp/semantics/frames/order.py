"""The order libsdformat reads a model's elements in, and what it decides by that order.

The canonical link of a model that names none (the first link, or the first nested
model's, in element order) and, before SDFormat 1.7, the renaming of clashing names.
Used while the frame graphs are built (:mod:`.building`); kept apart from the
node types (:mod:`.vertices`) because these are rules of libsdformat's, not structure.
"""

from __future__ import annotations

from ...model import Include, Model, Named
from .vertices import Scope


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


def in_element_order(model: Model) -> list[Named | Include]:
    """The links, joints, frames, nested models and includes of ``model`` in the order the file writes them."""
    if not model.includes:
        return list(model.members)
    items: list[tuple[int, int, Named | Include]] = [(m.element.span.start, i, m) for i, m in enumerate(model.members)]
    items += [(inc.element.span.start, len(items) + i, inc) for i, inc in enumerate(model.includes)]
    items.sort(key=lambda t: (t[0], t[1]))
    return [t[2] for t in items]


class LegacyNames:
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
