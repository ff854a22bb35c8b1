"""The SDFormat schema of one spec version, read from the generated tables.

The tables (``data/<version>.json``) are produced by
``scripts/generate_spec.py`` from libsdformat's description files; this
module only reads them. Element specs are built lazily: nested models refer
to the model definition, so the tree is a graph and cannot be built eagerly.
"""

from __future__ import annotations

import json
import os
from dataclasses import field, replace
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence

from ..records import record

FORMAT = 1

#: Multiplicities that allow more than one occurrence.
MANY = frozenset({"*", "+"})
#: Multiplicities that libsdformat treats as "must be present".
MANDATORY = frozenset({"1", "+"})
DEPRECATED = "-1"


def version_key(version: str) -> tuple[int, ...]:
    """Sort key for "1.10" > "1.9"; unparsable versions sort first."""
    try:
        return tuple(int(p) for p in version.split("."))
    except ValueError:
        return ()


@record(slots=True)
class AttributeSpec:
    """An attribute the spec declares on an element: its type, default and whether it is required."""

    name: str
    type: str
    default: str | None
    required: str  # "1" means required; libsdformat treats anything else as optional
    min: str | None = None
    max: str | None = None
    since_version: str | None = None

    @property
    def is_required(self) -> bool:
        return self.required == "1"


@record(slots=True)
class ChildSpec:
    """A child slot of an element: how often it may appear, where it is defined."""

    name: str
    required: str  # multiplicity in this parent: "0", "1", "*", "+", "-1"
    since_version: str | None
    ref: str | None  # definition id when the child is a whole definition (include / ref)

    @property
    def allows_many(self) -> bool:
        return self.required in MANY

    @property
    def deprecated(self) -> bool:
        return self.required == DEPRECATED


@record(eq=False)
class ElementSpec:
    """What the spec says about one element at one place in the tree."""

    name: str
    type: str | None
    default: str | None
    required: str  # multiplicity as declared where this element appears
    min: str | None
    max: str | None
    enum_values: tuple[str, ...]  # the spec states none structurally; kept for callers
    attributes: Mapping[str, AttributeSpec]
    children: Mapping[str, ChildSpec]
    copy_data: bool  # contents are free-form (plugin bodies)
    since_version: str | None
    deprecated: bool
    definition: str | None  # id of the definition this element is the top of
    schema: "Schema" = field(repr=False)
    _raw: Mapping[str, Any] = field(repr=False, default_factory=dict)
    _def_id: str = field(repr=False, default="")
    #: What :meth:`child` returned so far, by name: a lookup here saves the call on hot paths.
    child_cache: dict[str, "ElementSpec | None"] = field(repr=False, default_factory=dict)

    # Cached: the schema check asks these of every element of a document.
    @cached_property
    def allows_many(self) -> bool:
        return self.required in MANY

    @cached_property
    def required_attributes(self) -> tuple[AttributeSpec, ...]:
        """The attributes that must be present, in name order."""
        return tuple(a for a in self.attributes.values() if a.is_required)

    @property
    def has_value(self) -> bool:
        return self.type is not None

    def attribute(self, name: str) -> AttributeSpec | None:
        return self.attributes.get(name)

    def child(self, name: str) -> "ElementSpec | None":
        """The spec of child ``name``, following includes and nested-model refs."""
        if name in self.child_cache:
            return self.child_cache[name]
        slot = self.children.get(name)
        spec: ElementSpec | None = None
        if slot is not None:
            raw = self._raw["c"][name]
            if slot.ref is not None:
                target = self.schema.definition(slot.ref)
                if target is not None:
                    spec = replace(
                        target,
                        name=name,
                        required=slot.required,
                        since_version=slot.since_version or target.since_version,
                        deprecated=slot.deprecated or target.deprecated,
                        child_cache={},
                    )
            else:
                spec = self.schema._build(name, raw, self._def_id, None)
        self.child_cache[name] = spec
        return spec

    def iter_children(self) -> Iterable["ElementSpec"]:
        for name in sorted(self.children):
            spec = self.child(name)
            if spec is not None:
                yield spec


class Schema:
    """One spec version: its definitions and the document root."""

    def __init__(self, version: str, data: Mapping[str, Any]) -> None:
        if data.get("format") != FORMAT:
            raise ValueError(f"spec table {version}: unsupported format {data.get('format')!r}")
        self.version = version
        self._root_id: str = data["root"]
        self._defs: Mapping[str, Any] = data["defs"]
        self._built: dict[str, ElementSpec] = {}

    def __repr__(self) -> str:
        return f"<Schema {self.version}>"

    def root(self) -> ElementSpec:
        spec = self.definition(self._root_id)
        assert spec is not None
        return spec

    def definition(self, def_id: str) -> ElementSpec | None:
        """A top-level description by file stem: "model", "world", "link", "pose"..."""
        if def_id not in self._built:
            raw = self._defs.get(def_id)
            if raw is None:
                return None
            self._built[def_id] = self._build(raw["n"], raw, def_id, def_id)
        return self._built[def_id]

    def definitions(self) -> list[str]:
        return sorted(self._defs)

    def definition_named(self, element_name: str) -> ElementSpec | None:
        """The top-level description whose element is called ``element_name``."""
        spec = self.definition(element_name)
        if spec is not None and spec.name == element_name:
            return spec
        for def_id in sorted(self._defs):
            if self._defs[def_id]["n"] == element_name:
                return self.definition(def_id)
        return None

    def element_at(self, path: Sequence[str]) -> ElementSpec | None:
        """The spec at a path of tag names from the document root, e.g.
        ``("sdf", "world", "model", "link", "pose")``; None when off-spec."""
        if not path:
            return None
        spec = self.root()
        if path[0] != spec.name:
            return None
        for name in path[1:]:
            child = spec.child(name)
            if child is None:
                return None
            spec = child
        return spec

    def _build(self, name: str, raw: Mapping[str, Any], def_id: str, top_of: str | None) -> ElementSpec:
        attrs = {
            an: AttributeSpec(an, a["t"], a.get("d"), a.get("r", "0"), a.get("min"), a.get("max"), a.get("s"))
            for an, a in sorted(raw.get("a", {}).items())
        }
        kids = {
            cn: ChildSpec(cn, c.get("r", "0"), c.get("s"), c.get("ref")) for cn, c in sorted(raw.get("c", {}).items())
        }
        required = raw.get("r", "0")
        return ElementSpec(
            name=name,
            type=raw.get("t"),
            default=raw.get("d"),
            required=required,
            min=raw.get("min"),
            max=raw.get("max"),
            enum_values=tuple(raw.get("e", ())),
            attributes=MappingProxyType(attrs),
            children=MappingProxyType(kids),
            copy_data=bool(raw.get("cd")),
            since_version=raw.get("s"),
            deprecated=required == DEPRECATED,
            definition=top_of,
            schema=self,
            _raw=raw,
            _def_id=def_id,
        )


@lru_cache(maxsize=1)
def _data_files() -> dict[str, Any]:
    """The tables shipped next to this module: paths of the directory beside it, as installed
    (read with ``os``: importlib.resources and the pathlib, zipfile, tempfile and urllib it
    imports cost a one-file check about 3 ms); from a zip, through importlib.resources."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
    if os.path.isdir(here):
        return {name[: -len(".json")]: os.path.join(here, name) for name in os.listdir(here) if name.endswith(".json")}
    from importlib import resources

    root = resources.files(__package__).joinpath("data")
    return {p.name[: -len(".json")]: p for p in root.iterdir() if p.name.endswith(".json")}


def _read_table(path) -> str:
    if isinstance(path, str):
        with open(path, encoding="ascii") as f:
            return f.read()
    return path.read_text(encoding="ascii")


@lru_cache(maxsize=1)
def known_versions() -> tuple[str, ...]:
    """Every spec version with a table, oldest first."""
    return tuple(sorted((name for name in _data_files() if name[:1].isdigit()), key=version_key))


@lru_cache(maxsize=None)
def conversion_rules(step: str) -> Mapping[str, Any] | None:
    """libsdformat's rules of one conversion step (``"1_0"``: 1.0 to 1.2, its ``1_0.convert``) as
    ``scripts/generate_spec.py`` tabulates them: {"c": {child: rules}, "r": [[from element, from
    attribute, to element], ...]}; None when no table holds that step."""
    path = _data_files().get(f"convert_{step}")
    return None if path is None else json.loads(_read_table(path))["rules"]


def latest_version() -> str:
    return known_versions()[-1]


@lru_cache(maxsize=None)
def schema_for(version: str) -> Schema | None:
    """The schema of ``version`` ("1.9"), or None when there is no table for it."""
    files = _data_files()
    path = files.get(version.strip())
    if path is None:
        return None
    return Schema(version.strip(), json.loads(_read_table(path)))
