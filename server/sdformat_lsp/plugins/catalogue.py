"""Looking a ``<plugin>`` up in the generated catalogue (see ``scripts/generate_plugins.py``).

Gazebo finds a system by its library file name and then the class by the
``name`` attribute; the same system is written many ways: with or without
``lib`` and ``.so``, ``gz-sim-``, ``gz-sim8-`` or ``ignition-gazebo6-``
(gz-sim's loader turns the last into the first: ``normalizePluginFilename``
in ``src/Util.cc``), ``gz::sim::systems::X`` or ``ignition::gazebo::systems::X``
(``normalizePluginName``). ``key`` reduces a file name to one spelling; a
library that two catalogued sources build (gazebo_ros_pkgs' ROS 1 and ROS 2
branches share file names) is one :class:`Plugin` whose parameters are the
union of both, open when either is.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache

from ..records import record

DATA = os.path.join(os.path.dirname(__file__), "data", "catalogue.json")
SIM_DOCS = "https://gazebosim.org/api/sim/{major}/"

_VERSIONED = re.compile(r"^(gz-sim|gz-gui|ignition-gazebo|ignition-gui)\d*-")
_LIB = re.compile(r"^lib(?=.)")
_SUFFIX = re.compile(r"\.(so(\.[\d.]+)?|dylib|dll)$")


@record
class Param:
    """One parameter: what ``<name>`` inside the plugin is read as."""

    name: str
    type: str  # a spec value type ("double", "bool", "vector3"...), "string" (any text) or "other" (not checked)
    default: str | None = None
    repeats: bool = False
    required: bool = False
    names: str | None = None  # "joint", "link", "model", "entity", "topic", "uri" or None
    children: tuple[str, ...] = ()
    documented_only: bool = False  # listed in the header's documentation, not found read in the code
    url: str = ""  # the upstream line that reads it
    doc_url: str = ""  # the line of the plugin's documentation that describes it


@record
class Plugin:
    """A plugin as a ``<plugin>`` names it, with the parameters its sources read."""

    title: str  # the first name to show: the class, or the library
    filenames: tuple[str, ...]  # library names as built (gz-sim-diff-drive-system, gazebo_ros_diff_drive)
    names: tuple[str, ...]  # class names Gazebo instantiates (gz::sim::systems::DiffDrive and the aliases)
    params: dict  # name -> Param (a dict for lookup; never mutated)
    open: bool  # the sources read names decided at run time: unknown parameters are not reported
    sources: tuple[str, ...]  # catalogue sources ("gz-sim", "gazebo_ros_pkgs@ros2")
    url: str  # the upstream source or documentation of the plugin
    gui: bool = False


def key(filename: str) -> str:
    """The one spelling of a plugin library name that every accepted spelling reduces to."""
    name = os.path.basename(filename.strip())
    name = _SUFFIX.sub("", name)
    name = _LIB.sub("", name)
    name = _VERSIONED.sub(lambda m: ("gz-sim" if m.group(1) in ("gz-sim", "ignition-gazebo") else "gz-gui") + "-", name)
    return name


def class_key(name: str) -> str:
    """A class name as gz-sim's loader reads it (ignition::gazebo -> gz::sim)."""
    name = name.strip()
    if name.startswith("ignition::gazebo::"):
        return "gz::sim::" + name[len("ignition::gazebo::") :]
    return name


@lru_cache(maxsize=1)
def _load() -> tuple[dict, dict[str, list[dict]]]:
    """The table's sources and its entries by ``key`` (raw: a lookup builds only the plugin it finds)."""
    try:
        with open(DATA, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):  # a broken installation: no catalogue, no plugin checks
        return {}, {}
    merged: dict[str, list[dict]] = {}
    for entry in data.get("plugins", ()):
        for filename in entry["filenames"]:
            merged.setdefault(key(filename), []).append(entry)
    return data.get("sources", {}), merged


_BUILT: dict[str, Plugin] = {}


def _plugin(k: str) -> Plugin | None:
    found = _BUILT.get(k)
    if found is not None:
        return found
    sources, merged = _load()
    entries = merged.get(k)
    if not entries:
        return None
    params: dict[str, Param] = {}
    for entry in entries:
        for name, p in entry["params"].items():
            if name in params and params[name].type != p.get("type", "string"):
                params[name] = Param(name, "string", None, True, False, params[name].names)
                continue
            if name in params and not params[name].documented_only:
                continue
            params[name] = Param(
                name,
                p.get("type", "string"),
                p.get("default"),
                bool(p.get("repeats")),
                bool(p.get("required")) and len(entries) == 1,
                p.get("names"),
                tuple(p.get("children", ())),
                bool(p.get("documented_only")),
                _line_url(sources, entry, p.get("at")),
                _line_url(sources, entry, p.get("doc")),
            )
    first = entries[0]
    names = tuple(dict.fromkeys(n for e in entries for n in e["names"]))
    title = names[0].rsplit("::", 1)[-1] if names else first["filenames"][0]
    found = Plugin(
        title,
        tuple(dict.fromkeys(f for e in entries for f in e["filenames"])),
        names,
        params,
        any(e["open"] for e in entries),
        tuple(s for e in entries for s in e.get("sources", (e["source"],))),
        _url(sources.get(first["source"], {}), first),
        bool(first.get("gui")),
    )
    _BUILT[k] = found
    return found


def _line_url(sources: dict, entry: dict, at: str | None) -> str:
    """The link to a parameter's line: ``at`` is "path#Lnn" in the entry's source, or
    "source:path#Lnn" when the line is in another branch's sources."""
    if not at:
        return ""
    label, _, where = at.rpartition(":") if ":" in at.split("#", 1)[0] else ("", "", at)
    source = sources.get(label or entry["source"], {})
    repo, commit = source.get("repo", ""), source.get("commit", "")
    return f"https://github.com/{repo}/blob/{commit}/{where}" if repo and commit else ""


def _url(source: dict, entry: dict) -> str:
    repo, commit = source.get("repo", ""), source.get("commit", "")
    path = entry.get("header") or entry.get("dir") or ""
    return f"https://github.com/{repo}/blob/{commit}/{path}" if repo else ""


def sources() -> dict:
    """The catalogued sources: name -> {repo, commit, ...}."""
    return _load()[0]


def plugins() -> dict[str, Plugin]:
    """Every catalogued plugin by :func:`key` of its library name."""
    out = {}
    for k in _load()[1]:
        found = _plugin(k)
        if found is not None:
            out[k] = found
    return out


def lookup(filename: str | None, name: str | None = None) -> Plugin | None:
    """The plugin a ``<plugin filename= name=>`` loads, or None when it is not one we know.

    A known library with a class name it does not register is not known either
    (Gazebo would not load it; something else may answer to that name).
    """
    if not filename:
        return None
    found = _plugin(key(filename))
    if found is None:
        return None
    if name and found.names and class_key(name) not in found.names:
        return None
    return found


__all__ = ["Param", "Plugin", "class_key", "key", "lookup", "plugins", "sources"]
