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
MuJoCo names it; the world body is ``world``. Only attributes written on an
element are checked (a name inherited from a ``<default>`` class is MuJoCo's to
refuse once an element uses it). A model holding ``<replicate>``, ``<attach>``,
``<composite>`` or ``<flexcomp>`` is not checked: those make elements and names
when MuJoCo compiles the model, which the reader does not follow.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Iterable

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
_OBJTYPES = {"body": "body", "xbody": "body", "geom": "geom", "site": "site", "camera": "camera"}
_WORDS = {"body": "a body", "geom": "a geom", "site": "a site", "camera": "a camera", "light": "a light"}

Report = Callable[[Source, str, str, tuple[Fix, ...]], None]


def check_names(top: list[Source], children: Callable[[Source], list[Source]], report: Report) -> None:
    """Report every reference of the model (``top``: the root's children, includes replaced; ``children``:
    an element's children, includes replaced) to a name no element of its kind defines."""
    elements = list(_walk(top, children))
    if any(src.element.tag in GENERATING for _, src in elements):
        return
    names: dict[str, set[str]] = {"body": {"world"}}
    for section, src in elements:
        kind = _defined_kind(section, src)
        if kind is None:
            continue
        name = src.element.get("name")
        if not name and kind in _NAMED_BY_FILE:
            file = src.element.get("file")
            name = os.path.splitext(os.path.basename(file))[0] if file else None
        if name:
            names.setdefault(kind, set()).add(name)
    for section, src in elements:
        for attr, kind in _references(section, src):
            value = src.element.get(attr)
            if value is None or value == "" or value in names.get(kind, ()):
                continue
            _report_unknown(src, attr, value, kind, names.get(kind, set()), report)


def _walk(top: list[Source], children: Callable[[Source], list[Source]]) -> Iterable[tuple[str, Source]]:
    """(section, element) of every element outside ``<default>`` (a section: the root's child holding it)."""
    stack = [(s.element.tag, s) for s in reversed(top) if s.element.tag != "default"]
    while stack:
        section, src = stack.pop()
        yield section, src
        for c in reversed(children(src)):
            stack.append((section, c))


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


def _report_unknown(src: Source, attr: str, value: str, kind: str, defined: set[str], report: Report) -> None:
    what = _WORDS.get(kind, f"a {kind}")
    message = f'{attr}="{value}" names no {kind} of this model: MuJoCo refuses to compile it'
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
