"""Definition, references, hover and rename of the names written in an MJCF (``<mujoco>``) document.

On ``joint="elbow"`` of an actuator, ``site1`` of an equality, ``material`` of a
geom or of a geom class, ``class`` or ``childclass``: go to the element that
defines the name (into an included file when it is there), list every use, show
what it is (bodies, joints, sites and cameras with the pose the frame hover
gives their definition), rename it everywhere it is written. The places are
:mod:`sdformat_lsp.formats.mjcf.name_places`'; ``features`` asks these first in an
MJCF document, then the frame graphs.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..formats.mjcf.name_places import MjcfNames, Place, place_file, place_span
from ..queries.results import HoverResult, Location, TextEdit, Writer
from ..semantics.analysis import Analysis
from ..text import Span

FRAME_KINDS = ("body", "joint", "site", "camera")
_NAME = re.compile(r"[^\s\"'<>&]+")
FrameHover = Callable[[int], "HoverResult | None"]


_NAMES = "features.mjcf_names.names"  # key of FrameGraphs.memo: the document's MjcfNames


def mjcf_names(analysis: Analysis) -> MjcfNames | None:
    """The names of ``analysis``'s ``<mujoco>`` document (None when it is not MJCF): made once per
    analysis and kept with its frame graphs (they walk the document and read its included files)."""
    root = analysis.xml.root
    if root is None or root.tag != "mujoco":
        return None
    memo = analysis.graphs.memo if analysis.graphs is not None else None
    names = memo.get(_NAMES) if memo is not None else None
    if names is None:
        names = MjcfNames(root, analysis.path)
        if memo is not None:
            memo[_NAMES] = names
    return names


def _here(analysis: Analysis, offset: int) -> tuple[MjcfNames, Place] | None:
    names = mjcf_names(analysis)
    place = names.at(offset) if names is not None else None
    return (names, place) if names is not None and place is not None else None


def _location(place: Place) -> Location:
    return Location(place_file(place), place_span(place))


def mjcf_definition(analysis: Analysis, offset: int) -> list[Location]:
    """The element defining the name under the cursor (``<default class>`` for a class)."""
    found = _here(analysis, offset)
    if found is None:
        return []
    names, place = found
    return [_location(p) for p in names.declarations(place.kind, place.name)]


def mjcf_references(analysis: Analysis, offset: int, include_declaration: bool = True) -> list[Location]:
    """Every use of the name under the cursor (and its definition when asked), in this file and its includes."""
    found = _here(analysis, offset)
    if found is None:
        return []
    names, place = found
    found_places = [p for p in names.all(place.kind, place.name) if include_declaration or not p.declares]
    return [_location(p) for p in sorted(found_places, key=lambda p: (place_file(p) or "", place_span(p).start))]


def mjcf_hover(analysis: Analysis, offset: int, markdown: bool, frame_hover: FrameHover) -> HoverResult | None:
    """What the name under the cursor is: a body, joint, site or camera as the frame hover shows its
    definition; any other kind by where it is defined and how often it is used."""
    found = _here(analysis, offset)
    if found is None:
        return None
    names, place = found
    span = place_span(place)
    decls = names.declarations(place.kind, place.name)
    if place.kind in FRAME_KINDS and len(decls) == 1 and place_file(decls[0]) is None:
        shown = frame_hover(place_span(decls[0]).start)
        if shown is not None:
            return HoverResult(shown.text, span)
    w = Writer(markdown)
    kind = "default class" if place.kind == "class" else place.kind
    w.para(f"{w.bold(kind)} {w.code(place.name)}")
    if place.kind == "body" and place.name == "world":
        w.para("MuJoCo's world body: the frame of `<worldbody>`." if markdown else "MuJoCo's world body.")
    elif not decls:
        w.para(f"No {kind} of this model is named {w.code(place.name)}: MuJoCo refuses to compile it.")
    for d in decls:
        where = place_file(d) or "this file"
        line = d.src.element.start_tag_span.start
        text = analysis.text if place_file(d) is None else None
        at = f", line {text.count(chr(10), 0, line) + 1}" if text is not None else ""
        how = " (named by its file)" if d.attr == "file" else ""
        w.para(f"Defined in {where}{at}{how}.")
    entry = names.classes.get(place.name) if place.kind == "class" else None
    if entry is not None:  # what the class gives, and where the rest comes from
        parent, given = entry
        rows = [f"{w.code(tag)}: {', '.join(sorted(attrs))}" for tag, attrs in sorted(given.items())]
        w.items("Gives what an element of its class does not write:" if rows else "Gives nothing of its own.", rows)
        if parent is not None:
            w.para(f"The rest from class {w.code(parent)}.")
    uses = sum(1 for p in names.all(place.kind, place.name) if not p.declares)
    w.para(f"Named {uses} time{'s' if uses != 1 else ''} in the model.")
    return HoverResult(w.text(), span)


def _renamable(analysis: Analysis, offset: int) -> tuple[MjcfNames, Place, Span] | str | None:
    found = _here(analysis, offset)
    if found is None:
        return None
    names, place = found
    decls = names.declarations(place.kind, place.name)
    if place.kind == "body" and place.name == "world":
        return "'world' is MuJoCo's world body and cannot be renamed"
    if not decls:
        return f"no {place.kind} is named '{place.name}' in this model, so there is nothing to rename"
    if any(d.attr == "file" for d in decls):
        return f"{place.kind} '{place.name}' is named by its file; give it a name attribute to rename it"
    elsewhere = next((place_file(p) for p in names.all(place.kind, place.name) if place_file(p) is not None), None)
    if elsewhere is not None:
        return f"{place.kind} '{place.name}' is also written in the included file {elsewhere}; rename it there and here by hand"
    return names, place, place_span(place)


def mjcf_rename_refusal(analysis: Analysis, offset: int) -> tuple[str, str] | None:
    """(why, the included file) when the MJCF name at ``offset`` cannot be renamed because an included
    file writes it too: the refusal worth showing at ``prepareRename``."""
    found = _renamable(analysis, offset)
    here = _here(analysis, offset) if isinstance(found, str) else None
    if here is None:
        return None
    names, place = here
    elsewhere = next((place_file(p) for p in names.all(place.kind, place.name) if place_file(p) is not None), None)
    return (found, elsewhere) if isinstance(found, str) and elsewhere is not None else None


def mjcf_prepare_rename(analysis: Analysis, offset: int) -> Span | None | str:
    """The span to rename at ``offset``; a sentence saying why not; None when no MJCF name is there."""
    found = _renamable(analysis, offset)
    return found[2] if isinstance(found, tuple) else found


def mjcf_rename(analysis: Analysis, offset: int, new_name: str) -> list[TextEdit] | str | None:
    """Edits giving the name under the cursor ``new_name`` wherever it is written; a sentence saying why
    not (the new name is taken by another element of its kind, or is not a name); None off MJCF names."""
    found = _renamable(analysis, offset)
    if not isinstance(found, tuple):
        return found
    names, place, _ = found
    if not _NAME.fullmatch(new_name):
        return f"'{new_name}' is not a name MuJoCo accepts here (no spaces, quotes, < > or &)"
    if new_name != place.name and new_name in names.names_of(place.kind):
        return f"another {place.kind} is already named '{new_name}': MuJoCo refuses two of one kind with one name"
    return [TextEdit(place_span(p), new_name) for p in names.all(place.kind, place.name)]


__all__ = [
    "mjcf_definition",
    "mjcf_hover",
    "mjcf_names",
    "mjcf_prepare_rename",
    "mjcf_rename_refusal",
    "mjcf_references",
    "mjcf_rename",
]
