"""Names an MJCF model refers to that it does not define.

MuJoCo refuses to compile a model in which an attribute names an element that
does not exist: an actuator's ``joint``, a sensor's ``site``, an equality's
``body1``, a contact exclusion's ``body2``, a tendon's ``joint`` or ``site``,
a geom's ``material`` or ``mesh``, a material's ``texture``, a camera's
``target``... (checked against the ``mujoco`` package: "unknown transmission
target", "material 'x' not found in geom 0", ...). Each such name is reported
where it is written, with the nearest defined name of the same kind.

Names live in one namespace per kind, as in MuJoCo. A mesh, texture, hfield or
skin without ``name`` is named by its file's base name without extension, as
MuJoCo names it; the world body is ``world``. A name written in a ``<default>``
class (a geom class's ``material``, a site class's ``material``, a material
class's ``texture``, a tendon class's ``material``: the only names MuJoCo's
schema lets a class give) is refused by MuJoCo only once an element takes it
from the class (its ``class``, else the ``childclass`` of the nearest enclosing
body or frame, else ``main``, then the class's ancestors): it is reported where
the class writes it, once, when some element of the model takes it. A model
holding ``<replicate>``, ``<attach>``, ``<composite>`` or ``<flexcomp>`` is not
checked: those make elements and names when MuJoCo compiles the model, which the
reader does not follow.

The same tables give the editor's navigation its places (:func:`named_places`):
every definition and every use of a name, default classes (``<default
class>``, named by ``class`` and ``childclass``) included.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Iterable
from typing import NamedTuple

from ...diagnostics import Fix
from .inclusion import Source

MJCF_REFERENCE_UNKNOWN = "MJCF_REFERENCE_UNKNOWN"
GENERATING = ("replicate", "attach", "composite", "flexcomp")

# the kind of name an element of <worldbody>, <asset> or <deformable> defines
_DEFINES = {
    "body": "body",
    "joint": "joint",
    "freejoint": "joint",
    "geom": "geom",
    "site": "site",
    "camera": "camera",
    "light": "light",
    "mesh": "mesh",
    "material": "material",
    "texture": "texture",
    "hfield": "hfield",
    "skin": "skin",
    "flex": "flex",
}
_NAMED_BY_FILE = ("mesh", "texture", "hfield", "skin")

_ACTUATOR = {
    "joint": "joint",
    "jointinparent": "joint",
    "tendon": "tendon",
    "site": "site",
    "refsite": "site",
    "body": "body",
    "cranksite": "site",
    "slidersite": "site",
}
_SENSOR = {
    "site": "site",
    "joint": "joint",
    "tendon": "tendon",
    "actuator": "actuator",
    "body": "body",
    "camera": "camera",
    "geom1": "geom",
    "geom2": "geom",
    "body1": "body",
    "body2": "body",
}
_EQUALITY = {
    "body1": "body",
    "body2": "body",
    "site1": "site",
    "site2": "site",
    "joint1": "joint",
    "joint2": "joint",
    "tendon1": "tendon",
    "tendon2": "tendon",
    "flex": "flex",
}
_TREE = {"material": "material", "mesh": "mesh", "hfield": "hfield", "target": "body"}
# section -> tag -> attribute -> kind (tag "*": every element of the section)
REFERENCES: dict[str, dict[str, dict[str, str]]] = {
    "actuator": {"*": _ACTUATOR},
    "sensor": {"*": _SENSOR},
    "equality": {"*": _EQUALITY},
    "contact": {"pair": {"geom1": "geom", "geom2": "geom"}, "exclude": {"body1": "body", "body2": "body"}},
    "tendon": {
        "spatial": {"material": "material"},
        "fixed": {"material": "material"},
        "site": {"site": "site"},
        "geom": {"geom": "geom", "sidesite": "site"},
        "joint": {"joint": "joint"},
    },
    "worldbody": {"geom": _TREE, "site": _TREE, "camera": _TREE, "light": _TREE},
    "asset": {"material": {"texture": "texture"}, "layer": {"texture": "texture"}},
    "deformable": {"skin": {"material": "material"}, "flex": {"material": "material"}},
}
# what a <default> class may give an element that names another element (MuJoCo's schema refuses the rest)
INHERITED: dict[str, dict[str, str]] = {
    "geom": {"material": "material", "mesh": "mesh", "hfield": "hfield"},
    "site": {"material": "material"},
    "material": {"texture": "texture"},
    "tendon": {"material": "material"},
}
_CLASSED = {
    "spatial": "tendon",
    "fixed": "tendon",
}  # the tag a class gives its attributes under, when not the element's
_TAKING = {
    "worldbody": ("geom", "site"),
    "asset": ("material",),
    "tendon": ("spatial", "fixed"),
}  # where elements take them
_OBJTYPES = {"body": "body", "xbody": "body", "geom": "geom", "site": "site", "camera": "camera"}
_WORDS = {"body": "a body", "geom": "a geom", "site": "a site", "camera": "a camera", "light": "a light"}

Report = Callable[[Source, str, str, tuple[Fix, ...]], None]


class Place(NamedTuple):
    """Where an MJCF model defines (``declares``) or names a ``kind`` of name: ``attr`` of ``src``'s element."""

    kind: str
    name: str
    src: Source
    attr: str
    declares: bool


Classes = dict[str, tuple[str | None, dict[str, dict[str, Source]]]]


def check_names(top: list[Source], children: Callable[[Source], list[Source]], report: Report) -> None:
    """Report every reference of the model (``top``: the root's children, includes replaced; ``children``:
    an element's children, includes replaced) to a name no element of its kind defines, and every name
    a ``<default>`` class gives an element of the model that no element of its kind defines."""
    elements = list(_walk(top, children))
    if any(src.element.tag in GENERATING for _, src, _ in elements):
        return
    names: dict[str, set[str]] = {"body": {"world"}}
    for section, src, _ in elements:
        found = _definition(section, src)
        if found is not None:
            names.setdefault(found[0], set()).add(found[1])
    for section, src, _ in elements:
        for attr, kind in _references(section, src):
            value = src.element.get(attr)
            if value is None or value == "" or value in names.get(kind, ()):
                continue
            _report_unknown(src, attr, value, kind, names.get(kind, set()), report)
    classes = default_classes(top, children)
    reported: set[tuple[int, str]] = set()
    for section, src, cls in elements:
        if src.element.tag not in _TAKING.get(section, ()):
            continue
        tag = _CLASSED.get(src.element.tag, src.element.tag)
        for attr, kind in INHERITED.get(tag, {}).items():
            if src.element.get(attr) is not None:
                continue
            given = class_source(classes, tag, attr, cls)
            value = given.element.get(attr) if given is not None else None
            if given is None or value is None or value == "" or value in names.get(kind, ()):
                continue
            if (id(given.element), attr) not in reported:
                reported.add((id(given.element), attr))
                why = f"MuJoCo refuses to compile the {src.element.tag} that takes it from class '{cls}'"
                _report_unknown(given, attr, value, kind, names.get(kind, set()), report, why)


def default_classes(top: list[Source], children: Callable[[Source], list[Source]]) -> Classes:
    """Class name -> (parent class, {tag: {attribute: the default element writing it}}), as MuJoCo nests them
    (the outermost ``<default>`` is ``main``; a nested one without ``class`` is left out)."""
    classes: Classes = {}
    stack: list[tuple[Source, str | None]] = [(s, None) for s in top if s.element.tag == "default"]
    while stack:
        src, parent = stack.pop()
        name = src.element.get("class") or ("main" if parent is None else None)
        if name is None:
            continue
        attrs: dict[str, dict[str, Source]] = {}
        classes.setdefault(name, (parent, attrs))
        for c in children(src):
            if c.element.tag == "default":
                stack.append((c, name))
            else:
                attrs.setdefault(c.element.tag, {}).update({k: c for k in c.element.attributes})
    return classes


def class_source(classes: Classes, tag: str, attr: str, cls: str | None) -> Source | None:
    """The ``<default>`` child that gives ``attr`` to a ``tag`` of class ``cls`` (through the class's ancestors)."""
    seen = set()
    while cls is not None and cls not in seen:
        seen.add(cls)
        entry = classes.get(cls)
        if entry is None:
            return None
        given = entry[1].get(tag, {}).get(attr)
        if given is not None:
            return given
        cls = entry[0]
    return None


def named_places(top: list[Source], children: Callable[[Source], list[Source]]) -> list[Place]:
    """Every definition and every use of a name in the model, in document order per section: elements
    of each kind, ``<default class>`` and the ``class``/``childclass`` naming one, and the names written
    in default classes."""
    out: list[Place] = []
    for section, src, _ in _walk(top, children):
        found = _definition(section, src)
        if found is not None:
            out.append(Place(found[0], found[1], src, found[2], True))
        for attr, kind in _references(section, src):
            value = src.element.get(attr)
            if value:
                out.append(Place(kind, value, src, attr, False))
        for attr in ("class", "childclass"):
            value = src.element.get(attr)
            if value:
                out.append(Place("class", value, src, attr, False))
    stack = [s for s in reversed(top) if s.element.tag == "default"]
    while stack:
        src = stack.pop()
        if src.element.tag == "default":
            name = src.element.get("class")
            if name:
                out.append(Place("class", name, src, "class", True))
            stack.extend(reversed(children(src)))
            continue
        for attr, kind in INHERITED.get(_CLASSED.get(src.element.tag, src.element.tag), {}).items():
            value = src.element.get(attr)
            if value:
                out.append(Place(kind, value, src, attr, False))
    return out


def _definition(section: str, src: Source) -> tuple[str, str, str] | None:
    """(kind, name, the attribute giving the name) of what ``src`` defines, or None."""
    kind = _defined_kind(section, src)
    if kind is None:
        return None
    name = src.element.get("name")
    if name:
        return kind, name, "name"
    file = src.element.get("file") if kind in _NAMED_BY_FILE else None
    if file:
        return kind, os.path.splitext(os.path.basename(file))[0], "file"
    return None


def _walk(top: list[Source], children: Callable[[Source], list[Source]]) -> Iterable[tuple[str, Source, str]]:
    """(section, element, its class) of every element outside ``<default>`` (a section: the root's child
    holding it; the class: ``class``, else the nearest enclosing ``childclass``, else ``main``)."""
    stack = [(s.element.tag, s, "main") for s in reversed(top) if s.element.tag != "default"]
    while stack:
        section, src, inherited = stack.pop()
        yield section, src, src.element.get("class") or inherited
        inner = inherited
        if src.element.tag in ("body", "frame"):
            inner = src.element.get("childclass") or inherited
        for c in reversed(children(src)):
            stack.append((section, c, inner))


def _defined_kind(section: str, src: Source) -> str | None:
    tag = src.element.tag
    if section == "actuator" and tag != "actuator":
        return "actuator"
    if section == "tendon" and tag in ("spatial", "fixed"):
        return "tendon"
    if section in ("worldbody", "asset", "deformable"):
        return _DEFINES.get(tag)
    return None  # elsewhere (an equality's <joint>, a sensor) a tag names no element of the tree


def _references(section: str, src: Source) -> list[tuple[str, str]]:
    tags = REFERENCES.get(section)
    if tags is None or src.element.tag == section:
        return []
    attrs = tags.get(src.element.tag) or tags.get("*") or {}
    out = list(attrs.items())
    if section == "sensor":
        for attr, type_attr in (("objname", "objtype"), ("refname", "reftype")):
            kind = _OBJTYPES.get(src.element.get(type_attr) or "")
            if kind is not None:
                out.append((attr, kind))
    return out


def _report_unknown(
    src: Source,
    attr: str,
    value: str,
    kind: str,
    defined: set[str],
    report: Report,
    why: str = "MuJoCo refuses to compile it",
) -> None:
    what = _WORDS.get(kind, f"a {kind}")
    message = f'{attr}="{value}" names no {kind} of this model: {why}'
    best = difflib.get_close_matches(value, sorted(defined), n=1, cutoff=0.6)
    fixes: tuple[Fix, ...] = ()
    if best:
        message += f"; did you mean '{best[0]}'?"
        a = src.element.attr(attr)
        if a is not None and src.at is None:
            fixes = (Fix(f"Change to '{best[0]}'", a.value_span, best[0]),)
    elif defined:
        message += f"; name {what} the model defines"
    else:
        message += f"; the model defines no {kind}"
    report(src, message, attr, fixes)
