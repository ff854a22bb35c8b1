"""ROS packages found without ROS installed: the one lookup behind ``package://`` and ``$(find)``.

A URDF names its meshes ``package://NAME/meshes/x.dae``, a xacro file includes
``$(find NAME)/urdf/arm.xacro``, and ROS answers both from its package index.
Users of this project often have no ROS installed (CI, a laptop with Gazebo
only), so the same answer is found here from what is on disk, in this order:

1. the configuration's ``package-paths`` (each entry crawled as below);
2. ``ROS_PACKAGE_PATH``: each entry crawled for ``package.xml`` as rospack
   crawls it (a directory holding a ``package.xml`` is a package and is not
   entered; a directory holding ``CATKIN_IGNORE`` or ``rospack_nosubdirs``
   is not entered; hidden directories are skipped); the package's name is
   the ``<name>`` of its ``package.xml``, and the first one found wins;
3. ``AMENT_PREFIX_PATH``: ``PREFIX/share/NAME`` of each prefix, as
   ``ament_index_python.get_package_share_directory`` answers for an installed package;
4. the packages of the document's own repository or workspace: the nearest
   ancestor holding ``.git`` (else the parent of the package the document
   lies in) crawled the same way, plus the folders the caller names
   (the editor's workspace folders).

Crawls are bounded (:data:`MAX_CRAWL_DIRS` directories per root) and their
results kept per root for :data:`CRAWL_TTL` seconds, so a burst of lookups
crawls once and a package added on disk is found seconds later. A package
that is not found comes with every place searched (:meth:`PackageLookup.message`).

This module is in the base layer: the xacro processor (``$(find)``), the
include resolver and the converters all use it.
"""

from __future__ import annotations

import os
import time
import urllib.parse
from typing import Mapping

from .files import FileRefused, read_file
from .records import record

MAX_CRAWL_DIRS = 20_000  # directories visited per crawled root before the crawl stops
MAX_DEPTH = 64  # deepest directory entered below a crawled root
CRAWL_TTL = 3.0  # seconds a crawl's index is trusted for a package it does not have
MAX_MANIFEST_BYTES = 1 << 20
_SKIPPED = {"node_modules", "__pycache__"}
REPOSITORY_LEVELS = 12  # how far above a document its repository's root (.git) is looked for


@record
class PackageLookup:
    """Where package ``name`` is, or everywhere it was looked for."""

    name: str
    path: str | None  # the package's directory; None: not found
    source: str | None = None  # "package-paths", "ROS_PACKAGE_PATH", "AMENT_PREFIX_PATH" or "workspace"
    # every place searched, in order, as (source, directory) pairs
    searched: tuple[tuple[str, str], ...] = ()
    truncated: tuple[str, ...] = ()  # crawled roots whose crawl stopped at MAX_CRAWL_DIRS

    @property
    def found(self) -> bool:
        return self.path is not None

    def message(self) -> str:
        """Why the package was not found, naming every place searched, for a diagnostic."""
        if self.path is not None:
            return f"package '{self.name}' is {self.path} (from {self.source})"
        by_source: dict[str, list[str]] = {}
        for source, place in self.searched:
            by_source.setdefault(source, []).append(place)
        parts = []
        for source in ("package-paths", "ROS_PACKAGE_PATH", "AMENT_PREFIX_PATH"):
            places = by_source.get(source)
            parts.append(f"{source} ({', '.join(places)})" if places else f"{source} (not set)")
        places = by_source.get("workspace")
        parts.append(f"the packages under {', '.join(places)}" if places else "no repository around the document")
        note = ""
        if self.truncated:
            note = f"; the search of {', '.join(self.truncated)} stopped after {MAX_CRAWL_DIRS:,} directories"
        return (
            f"package '{self.name}' was not found: searched {'; '.join(parts)}{note}. "
            "Set ROS_PACKAGE_PATH or AMENT_PREFIX_PATH, or add the directory holding it to package-paths in the configuration"
        )


def _split(value: str | None) -> list[str]:
    return [p for p in (value or "").split(os.pathsep) if p]


def manifest_name(package_xml: str) -> str | None:
    """The ``<name>`` of a ``package.xml`` (the first child of the root named so, as rospack reads it)."""
    from xml.etree import ElementTree

    try:
        root = ElementTree.fromstring(read_file(package_xml, MAX_MANIFEST_BYTES))
    except (FileRefused, ElementTree.ParseError, ValueError):
        return None
    el = root.find("name")
    text = (el.text or "").strip() if el is not None else ""
    return text or None


@record
class _Crawl:
    when: float
    packages: dict  # name -> directory, first found
    truncated: bool


_crawls: dict[str, _Crawl] = {}
_MAX_CRAWLS = 64


def _crawl(root: str) -> _Crawl:
    """Every package under ``root`` (rospack's rules), by name, first found wins."""
    packages: dict[str, str] = {}
    visited = 0
    stack = [(root, 0)]
    truncated = False
    while stack:
        here, depth = stack.pop()
        visited += 1
        if visited > MAX_CRAWL_DIRS:
            truncated = True
            break
        try:
            with os.scandir(here) as it:
                entries = list(it)
        except (OSError, ValueError):
            continue
        names = {e.name for e in entries}
        if "CATKIN_IGNORE" in names:
            continue
        if "manifest.xml" in names:  # a rosbuild package, named by its directory (rospack reads it first)
            packages.setdefault(os.path.basename(here), here)
            continue
        if "package.xml" in names:
            name = manifest_name(os.path.join(here, "package.xml")) or os.path.basename(here)
            packages.setdefault(name, here)
            continue
        if "rospack_nosubdirs" in names or depth >= MAX_DEPTH:
            continue
        subdirs = []
        for e in entries:
            if e.name.startswith(".") or e.name in _SKIPPED:
                continue
            try:
                if e.is_dir():  # follows links, as rospack's is_directory does; the visit cap bounds a loop
                    subdirs.append(e.path)
            except OSError:
                continue
        # sorted, pushed in reverse: visited in name order, so that "first found" does not depend on the disk
        for d in sorted(subdirs, reverse=True):
            stack.append((d, depth + 1))
    return _Crawl(time.monotonic(), packages, truncated)


def _packages_under(root: str, name: str) -> tuple[str | None, bool]:
    """The directory of package ``name`` under ``root`` (crawled or remembered) and whether the crawl was cut."""
    hit = _crawls.get(root)
    if hit is not None:
        found = hit.packages.get(name)
        if found is not None and os.path.isdir(found):
            return found, hit.truncated
        if found is None and time.monotonic() - hit.when < CRAWL_TTL:
            return None, hit.truncated
    if not os.path.isdir(root):
        return None, False
    hit = _crawl(root)
    if len(_crawls) >= _MAX_CRAWLS:
        _crawls.pop(next(iter(_crawls)))
    _crawls[root] = hit
    return hit.packages.get(name), hit.truncated


def forget_crawls() -> None:
    """Drop every remembered crawl (tests; a server told that files changed)."""
    _crawls.clear()


def repository_root(base_dir: str) -> str | None:
    """The directory the document's repository or workspace starts at: the nearest ancestor holding
    ``.git``; else the parent of the nearest ancestor holding ``package.xml`` (the package the
    document lies in, whose siblings are the workspace's other packages); else None."""
    d = os.path.abspath(base_dir)
    package_dir = None
    for _ in range(REPOSITORY_LEVELS):
        if os.path.exists(os.path.join(d, ".git")):
            return d
        if package_dir is None and os.path.isfile(os.path.join(d, "package.xml")):
            package_dir = d
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    if package_dir is not None:
        parent = os.path.dirname(package_dir)
        return parent if parent != package_dir else package_dir
    return None


def find_package(
    name: str,
    base_dir: str | None = None,
    package_paths: tuple[str, ...] | list[str] = (),
    env: Mapping[str, str] | None = None,
    workspace_roots: tuple[str, ...] | list[str] = (),
) -> PackageLookup:
    """The directory of ROS package ``name`` for a document in ``base_dir`` (see the module's docstring)."""
    env = os.environ if env is None else env
    name = name.strip()
    searched: list[tuple[str, str]] = []
    truncated: list[str] = []
    if not name or "/" in name or "\x00" in name or name in (".", ".."):
        return PackageLookup(name, None)

    def crawl(source: str, roots) -> PackageLookup | None:
        for r in roots:
            try:
                root = os.path.abspath(os.path.expanduser(r))
            except ValueError:
                continue
            searched.append((source, root))
            found, cut = _packages_under(root, name)
            if cut:
                truncated.append(root)
            if found is not None:
                return PackageLookup(name, found, source, tuple(searched), tuple(truncated))
        return None

    hit = crawl("package-paths", package_paths) or crawl("ROS_PACKAGE_PATH", _split(env.get("ROS_PACKAGE_PATH")))
    if hit is not None:
        return hit
    for prefix in _split(env.get("AMENT_PREFIX_PATH")):
        share = os.path.join(os.path.abspath(prefix), "share")
        searched.append(("AMENT_PREFIX_PATH", share))
        candidate = os.path.join(share, name)
        if os.path.isdir(candidate):
            return PackageLookup(name, candidate, "AMENT_PREFIX_PATH", tuple(searched), tuple(truncated))
    roots = list(workspace_roots)
    own = repository_root(base_dir) if base_dir else None
    if own is not None:
        roots.insert(0, own)
    hit = crawl("workspace", dict.fromkeys(os.path.abspath(r) for r in roots))
    if hit is not None:
        return hit
    return PackageLookup(name, None, None, tuple(searched), tuple(truncated))


@record
class PackageUri:
    """A ``package://NAME/REST`` URI resolved: the file it names, and the package's lookup."""

    uri: str
    package: PackageLookup
    path: str | None  # the file or directory named; None: the package or the file in it is missing
    rest: str = ""  # the path inside the package

    def message(self) -> str:
        if not self.package.found:
            return self.package.message()
        if self.path is None:
            return f"{self.uri}: package '{self.package.name}' is {self.package.path}, but it has no {self.rest or 'such file'}"
        return f"{self.uri} is {self.path}"


def resolve_package_uri(
    uri: str,
    base_dir: str | None = None,
    package_paths: tuple[str, ...] | list[str] = (),
    env: Mapping[str, str] | None = None,
    workspace_roots: tuple[str, ...] | list[str] = (),
) -> PackageUri | None:
    """``package://NAME/REST`` to a path (None when ``uri`` is not a package URI)."""
    uri = uri.strip()
    if not uri.startswith("package://"):
        return None
    rel = urllib.parse.unquote(uri[len("package://") :]).strip("/")
    name, _, rest = rel.partition("/")
    pkg = find_package(name, base_dir, package_paths, env, workspace_roots)
    if pkg.path is None:
        return PackageUri(uri, pkg, None, rest)
    target = os.path.join(pkg.path, rest) if rest else pkg.path
    return PackageUri(uri, pkg, target if os.path.exists(target) else None, rest)


__all__ = [
    "CRAWL_TTL",
    "MAX_CRAWL_DIRS",
    "PackageLookup",
    "PackageUri",
    "find_package",
    "forget_crawls",
    "manifest_name",
    "repository_root",
    "resolve_package_uri",
]
