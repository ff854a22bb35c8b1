"""Where an ``<include><uri>`` points on disk, and which file a model directory means.

Pure file-system logic, no parsing of SDFormat and never any network access:

* :func:`search_path` - the directories searched for ``model://`` URIs and plain names;
* :func:`lookup` - a URI to a file or directory (or the reason it was not found);
* :func:`model_file` - a model directory to its SDFormat file through ``model.config``.

The rules follow libsdformat's ``findFile`` and ``getModelFilePath`` where they
are defined, and Gazebo's resource paths and Fuel cache for the rest.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...files import FileRefused, read_file

if TYPE_CHECKING:
    from ...packages import PackageLookup

# Environment variables whose directories are searched, in this order, after
# the explicitly configured resource paths.
ENV_VARS = ("SDF_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH", "GAZEBO_MODEL_PATH")

# The newest SDFormat version a model.config entry may name (libsdformat's SDF_VERSION).
PARSER_VERSION = (1, 12)

# Case is ignored only where letters are matched: a pattern-wide IGNORECASE makes re case-fold
# every negated class at compile time (4 ms of each start-up) for the same set of strings.
_FUEL = re.compile(
    r"^(?i:https?)://(?P<host>[^/]+)/(?P<api>[0-9.]+)/(?P<owner>[^/]+)/(?i:models)/(?P<name>[^/]+)(?:/(?P<version>[^/]+))?(?P<rest>/.*)?$"
)


@dataclass(frozen=True, slots=True)
class Lookup:
    """The result of looking up one URI."""

    uri: str
    path: str | None  # the file or directory found; None: not found
    scheme: str  # model, package, file, fuel, path (relative or absolute), name
    searched: tuple[str, ...] = ()  # every place looked at, in order (directories or files)
    remote: bool = False  # a Fuel URI whose model is not in the local cache
    fuel: tuple[str, str, str, str | None] | None = None  # (host, owner, name, version) of a Fuel URI
    found_in: str | None = (
        None  # the place (search directory, package root, the including file's directory) that had it
    )
    package: PackageLookup | None = None  # a package:// URI: where its package was looked for (packages.find_package)


@dataclass(frozen=True, slots=True)
class ModelFileProblem:
    severity: str  # 'error' or 'warning'
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class ModelFile:
    """What ``model.config`` of a model directory selects."""

    directory: str
    path: str | None  # the SDFormat file to load; None when the directory cannot be used
    config: str | None  # the manifest read (model.config or manifest.xml), if any
    version: str | None = None  # the version attribute of the chosen <sdf> entry
    problems: tuple[ModelFileProblem, ...] = ()
    dependencies: tuple[str, ...] = field(default=())  # files whose change changes the answer


def _split_paths(value: str | None) -> list[str]:
    if not value:
        return []
    return [p for p in value.split(os.pathsep) if p]


def search_path(
    resource_paths: tuple[str, ...] | list[str] = (),
    env: dict[str, str] | os._Environ | None = None,
    model_roots: tuple[str, ...] | list[str] = (),
) -> list[str]:
    """Configured resource paths, then the environment's, then the model roots found without
    configuration (see :func:`model_root_of`), without duplicates, in order."""
    env = os.environ if env is None else env
    out: list[str] = []
    seen: set[str] = set()
    for p in [*resource_paths, *(q for var in ENV_VARS for q in _split_paths(env.get(var))), *model_roots]:
        ap = os.path.abspath(os.path.expanduser(p))
        if ap not in seen:
            seen.add(ap)
            out.append(ap)
    return out


MODEL_ROOT_LEVELS = 4  # how far above a document its model directory is looked for


def model_root_of(path: str) -> str | None:
    """The directory holding the model directory ``path`` lies in: a repository laid out as
    ``models/NAME/model.config`` finds ``model://OTHER`` in ``models/`` as Gazebo does with
    ``GZ_SIM_RESOURCE_PATH=models``. The nearest ancestor with a ``model.config`` is the model directory."""
    d = os.path.dirname(os.path.abspath(path))
    for _ in range(MODEL_ROOT_LEVELS):
        if os.path.isfile(os.path.join(d, "model.config")):
            parent = os.path.dirname(d)
            return parent if parent != d else None
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    return None


_SKIPPED_DIRS = {"node_modules", "__pycache__", "build", "install", "log"}


def find_model_roots(folder: str, max_dirs: int = 20_000) -> list[str]:
    """Every directory under ``folder`` that holds a model directory (one with ``model.config``),
    in sorted order; hidden and build directories are skipped, symbolic links not followed, and the
    walk stops after ``max_dirs`` directories so that a huge workspace costs a bounded time."""
    roots: dict[str, None] = {}
    seen = 0
    for here, dirs, files in os.walk(folder, followlinks=False):
        seen += 1
        if seen > max_dirs:
            break
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
        if "model.config" in files:
            parent = os.path.dirname(os.path.abspath(here))
            if parent != os.path.abspath(here):
                roots.setdefault(parent)
    return sorted(roots)


MAX_CONFIG_BYTES = 1 << 20  # a model.config is a few hundred bytes


def path_problem(text: str) -> str | None:
    """Why ``text`` cannot name a file on this system (None if it can).

    A NUL (``&#0;`` in the XML) or a lone surrogate (``&#xD800;``) makes every
    file-system call raise ValueError instead of answering "not found"; URIs
    are checked here once so that nothing below ever sees one.
    """
    if "\x00" in text:
        return "it contains a NUL character (&#0;), which no file name can hold"
    try:
        os.fsencode(text)
    except UnicodeError:
        return "it contains a character that cannot be part of a file name on this system"
    return None


def _exists(path: str) -> bool:
    return os.path.exists(path)


def _first(candidates: list[str], searched: list[str]) -> str | None:
    for c in candidates:
        searched.append(c)
        if _exists(c):
            return c
    return None


def _place(found: str | None, places: list[str], candidates: list[str]) -> str | None:
    """Which of ``places`` produced the ``found`` candidate (they are listed pairwise)."""
    if found is None:
        return None
    for place, cand in zip(places, candidates):
        if cand == found:
            return place
    return None


def lookup(
    uri: str,
    base_dir: str | None,
    resource_paths: tuple[str, ...] | list[str] = (),
    env: dict[str, str] | os._Environ | None = None,
    home: str | None = None,
    model_roots: tuple[str, ...] | list[str] = (),
    package_paths: tuple[str, ...] | list[str] = (),
) -> Lookup:
    """Find what ``uri`` (as written in a file in ``base_dir``) points to; ``model_roots`` are
    searched after the configured and environment paths; ``package://`` URIs are found by
    :func:`sdformat_lsp.packages.find_package` (``package_paths``: the configuration's), then on the search path."""
    env = os.environ if env is None else env
    uri = uri.strip()
    dirs = search_path(resource_paths, env, model_roots)
    searched: list[str] = []

    m = _FUEL.match(uri)
    if m:
        return _fuel(uri, m, env, home)
    if uri.startswith("model://"):
        rel = urllib.parse.unquote(uri[len("model://") :]).strip("/")
        candidates = [os.path.join(d, rel) for d in dirs]
        found = _first(candidates, searched) if rel else None
        return Lookup(uri, found, "model", tuple(dirs), found_in=_place(found, dirs, candidates))
    if uri.startswith("package://"):
        from ...packages import resolve_package_uri  # here: only a package:// URI needs the package index

        hit = resolve_package_uri(uri, base_dir, package_paths, env)
        assert hit is not None
        places = [place for _, place in hit.package.searched]
        if hit.path is not None:
            return Lookup(
                uri, hit.path, "package", tuple(dict.fromkeys(places)), found_in=hit.package.path, package=hit.package
            )
        # libsdformat strips the scheme and asks its search path for NAME/REST
        rel = urllib.parse.unquote(uri[len("package://") :]).strip("/")
        candidates = [os.path.join(d, rel) for d in dirs] if hit.package.name else []
        found = _first(candidates, searched)
        return Lookup(
            uri,
            found,
            "package",
            tuple(dict.fromkeys(places + dirs)),
            found_in=_place(found, dirs, candidates),
            package=hit.package,
        )
    if uri.startswith("file://"):
        rest = urllib.parse.unquote(uri[len("file://") :])
        return _path_lookup(uri, rest, base_dir, dirs, "file")
    if "://" in uri:  # an unknown scheme: libsdformat strips it and tries the rest as a path
        rest = uri.split("://", 1)[1]
        return _path_lookup(uri, rest, base_dir, dirs, "name")
    return _path_lookup(uri, uri, base_dir, dirs, "path" if ("/" in uri or os.sep in uri) else "name")


def _path_lookup(uri: str, rest: str, base_dir: str | None, dirs: list[str], scheme: str) -> Lookup:
    rest = os.path.expanduser(rest)
    if not rest:
        return Lookup(uri, None, scheme, ())
    if os.path.isabs(rest):
        return Lookup(uri, rest if _exists(rest) else None, scheme, (os.path.dirname(rest) or rest,))
    places = ([base_dir] if base_dir else []) + [d for d in dirs if d != base_dir]
    searched: list[str] = []
    candidates = [os.path.normpath(os.path.join(p, rest)) for p in places]
    found = _first(candidates, searched)
    return Lookup(uri, found, scheme, tuple(places), found_in=_place(found, places, candidates))


def fuel_cache_roots(env: dict[str, str] | os._Environ | None = None, home: str | None = None) -> list[str]:
    """The local Fuel caches, newest layout first."""
    env = os.environ if env is None else env
    home = home or env.get("HOME") or os.path.expanduser("~")
    roots = []
    for var in ("GZ_FUEL_CACHE_PATH", "IGN_FUEL_CACHE_PATH"):
        if env.get(var):
            roots.append(env[var])
    roots += [os.path.join(home, ".gz", "fuel"), os.path.join(home, ".ignition", "fuel")]
    return list(dict.fromkeys(roots))


def _child_ci(parent: str, name: str) -> str | None:
    """``parent/name``, matching ``name`` without regard to case (Fuel lowercases some parts)."""
    exact = os.path.join(parent, name)
    if os.path.isdir(exact):
        return exact
    try:
        for entry in os.listdir(parent):
            if entry.lower() == name.lower() and os.path.isdir(os.path.join(parent, entry)):
                return os.path.join(parent, entry)
    except OSError:
        pass
    return None


def _fuel(uri: str, m: re.Match, env, home: str | None) -> Lookup:
    host = m.group("host").lower()
    owner = urllib.parse.unquote(m.group("owner"))
    name = urllib.parse.unquote(m.group("name"))
    version = m.group("version")
    rest = (m.group("rest") or "").strip("/")
    if version is not None and version.lower() == "tip":
        version = None
    hosts = [host]
    # the two public Fuel servers are the same store
    for a, b in (
        ("fuel.gazebosim.org", "fuel.ignitionrobotics.org"),
        ("fuel.ignitionrobotics.org", "fuel.gazebosim.org"),
    ):
        if host == a:
            hosts.append(b)
    searched: list[str] = []
    for root in fuel_cache_roots(env, home):
        for h in hosts:
            models = os.path.join(root, h, owner, "models")
            searched.append(os.path.join(models, name))
            odir = _child_ci(os.path.join(root, h), owner)
            if odir is None:
                continue
            mdir = (
                _child_ci(os.path.join(odir, "models"), name) if os.path.isdir(os.path.join(odir, "models")) else None
            )
            if mdir is None:
                continue
            if version is not None:
                vdir = os.path.join(mdir, version)
                if not os.path.isdir(vdir):
                    continue
            else:
                versions = [v for v in _listdir(mdir) if v.isdigit() and os.path.isdir(os.path.join(mdir, v))]
                if not versions:
                    continue
                vdir = os.path.join(mdir, max(versions, key=int))
            target = os.path.join(vdir, rest) if rest else vdir
            if _exists(target):
                return Lookup(uri, target, "fuel", tuple(searched), fuel=(host, owner, name, version), found_in=root)
    return Lookup(uri, None, "fuel", tuple(searched), remote=True, fuel=(host, owner, name, version))


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def dotted_version(text: str) -> tuple[int, ...] | None:
    parts = text.strip().split(".")
    try:
        nums = tuple(int(p) for p in parts)
    except ValueError:
        return None
    return nums + (0,) * (3 - len(nums)) if len(nums) <= 3 else nums


def select_entry(versions: list[str | None]) -> tuple[int | None, str | None]:
    """Which ``<sdf>`` entry of a model.config libsdformat loads, given their version attributes.

    As ``getBestSupportedModelVersion``: the highest version not newer than
    the parser wins (the first of equals); entries without a usable version
    count only when none has one, and then the first entry is used.
    Returns (index, chosen version or None when chosen by default).
    """
    index: int | None = 0 if versions else None
    best: tuple[int, ...] = (0, 0, 0)
    best_text: str | None = None
    limit = PARSER_VERSION + (0,)
    for i, v in enumerate(versions):
        vt = dotted_version(v) if v is not None else None
        if vt is not None and best < vt <= limit:
            index, best, best_text = i, vt, v
    return index, best_text


# an '&' that starts no character reference and none of XML's five entities
_BARE_AMPERSAND = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)")


def _parse_config(data: bytes):
    """The root element of a model.config, read as leniently as libsdformat reads it.

    libsdformat parses model.config with TinyXML-2, which keeps an ``&`` that
    starts no known entity as a literal character ("door & car" in a
    description); a strict XML parser refuses the whole file, and with it the
    model. Only that is forgiven: anything else malformed is still an error.
    """
    from xml.etree import ElementTree

    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError:
        fixed = _BARE_AMPERSAND.sub(b"&amp;", data)
        if fixed == data:
            raise
        try:
            return ElementTree.fromstring(fixed)
        except ElementTree.ParseError:
            pass
        raise


def model_file(directory: str) -> ModelFile:
    """The SDFormat file of a model directory, chosen as libsdformat chooses it.

    ``model.config`` (or the deprecated ``manifest.xml``) must exist; among its
    ``<sdf version="X">`` entries the highest version not newer than the parser
    wins; entries without a version count only when no entry has a usable one
    (then the first ``<sdf>`` is used, as libsdformat does).
    """
    from xml.etree import ElementTree

    problems: list[ModelFileProblem] = []
    config = os.path.join(directory, "model.config")
    if not os.path.exists(config):  # one that is not a regular file is refused below, saying so
        manifest = os.path.join(directory, "manifest.xml")
        if os.path.isfile(manifest):
            config = manifest
            problems.append(
                ModelFileProblem("warning", "FILE_READ", f"{manifest} is deprecated: rename it to model.config")
            )
        else:
            hint = ""
            sdfs = sorted(f for f in _listdir(directory) if f.endswith((".sdf", ".world")))
            if sdfs:
                hint = f"; it has {sdfs[0]}: add a model.config naming it, or include {sdfs[0]} by its path"
            problems.append(
                ModelFileProblem(
                    "error",
                    "FILE_READ",
                    f"the model directory {directory} has no model.config (libsdformat requires one){hint}",
                )
            )
            return ModelFile(directory, None, None, None, tuple(problems), (config, manifest))
    deps = (config,)
    try:
        # a FIFO or device named model.config must not block or exhaust memory (files.read_file)
        root = _parse_config(read_file(config, MAX_CONFIG_BYTES))
    except FileRefused as exc:
        problems.append(
            ModelFileProblem(
                "error", "FILE_READ", f"{os.path.basename(config)} of {directory} cannot be read: {exc.reason}"
            )
        )
        return ModelFile(directory, None, config, None, tuple(problems), deps)
    except ElementTree.ParseError as exc:
        problems.append(
            ModelFileProblem("error", "FILE_READ", f"{os.path.basename(config)} of {directory} cannot be read: {exc}")
        )
        return ModelFile(directory, None, config, None, tuple(problems), deps)
    if root.tag != "model":
        problems.append(
            ModelFileProblem("error", "FILE_READ", f"{config} has no <model> root element (found <{root.tag}>)")
        )
        return ModelFile(directory, None, config, None, tuple(problems), deps)
    entries = root.findall("sdf")
    versions = [e.get("version") for e in entries]
    index, best_text = select_entry(versions)
    chosen = entries[index] if index is not None else None
    limit = PARSER_VERSION + (0,)
    for v in versions:
        vt = dotted_version(v) if v is not None else (0,)
        if vt is None:
            problems.append(
                ModelFileProblem(
                    "warning",
                    "FILE_READ",
                    f'{config}: <sdf version="{v}"> is not a version number: the entry is ignored',
                )
            )
        elif vt > limit:
            problems.append(
                ModelFileProblem(
                    "warning",
                    "FILE_READ",
                    f'{config}: <sdf version="{v}"> is newer than SDFormat {PARSER_VERSION[0]}.{PARSER_VERSION[1]}: the entry is ignored',
                )
            )
    if chosen is None or not (chosen.text or "").strip():
        problems.append(
            ModelFileProblem(
                "error",
                "FILE_READ",
                f'{config} has no <sdf> entry naming the model file: add <sdf version="1.12">model.sdf</sdf>',
            )
        )
        return ModelFile(directory, None, config, None, tuple(problems), deps)
    if best_text is None:
        if all(e.get("version") is None for e in entries):
            problems.append(
                ModelFileProblem(
                    "warning",
                    "FILE_READ",
                    f'{config}: <sdf> has no version attribute; the first entry is used: add version="..."',
                )
            )
        else:
            problems.append(
                ModelFileProblem(
                    "warning", "FILE_READ", f"{config}: no <sdf> entry has a usable version; the first entry is used"
                )
            )
    path = os.path.join(directory, chosen.text.strip())
    return ModelFile(directory, path, config, best_text or chosen.get("version"), tuple(problems), deps)


__all__ = [
    "ENV_VARS",
    "Lookup",
    "ModelFile",
    "ModelFileProblem",
    "find_model_roots",
    "fuel_cache_roots",
    "lookup",
    "model_file",
    "model_root_of",
    "search_path",
    "select_entry",
]
