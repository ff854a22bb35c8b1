"""A minimal package lookup for ``$(find)`` from the environment, until the shared lookup
(``package://`` and ``$(find)`` everywhere) is used: ROS_PACKAGE_PATH (each entry searched
for a ``package.xml`` naming the package, as rospack does, not below a package) and
AMENT_PREFIX_PATH (``share/<name>``)."""

from __future__ import annotations

import os
import re

from collections.abc import Mapping

_NAME = re.compile(r"<name>\s*([^<\s]+)\s*</name>")
MAX_DIRS = 20_000  # directories visited per ROS_PACKAGE_PATH search


def package_name(directory: str) -> str | None:
    try:
        with open(os.path.join(directory, "package.xml"), encoding="utf-8", errors="replace") as f:
            m = _NAME.search(f.read(65536))
    except OSError:
        return None
    return m.group(1) if m else None


def find_in_roots(name: str, roots: list[str]) -> str | None:
    """The directory of the package ``name`` under ``roots`` (breadth first, bounded)."""
    visited = 0
    for root in roots:
        queue = [root]
        while queue and visited < MAX_DIRS:
            d = queue.pop(0)
            visited += 1
            if os.path.isfile(os.path.join(d, "package.xml")):
                if package_name(d) == name:
                    return d
                continue  # packages do not nest
            try:
                entries = sorted(os.scandir(d), key=lambda e: e.name)
            except OSError:
                continue
            queue.extend(e.path for e in entries if e.is_dir(follow_symlinks=False) and not e.name.startswith("."))
    return None


def find_package(name: str, environ: Mapping[str, str]) -> str | None:
    for prefix in environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep):
        if prefix and os.path.isdir(os.path.join(prefix, "share", name)):
            return os.path.join(prefix, "share", name)
    roots = [p for p in environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep) if p]
    found = find_in_roots(name, roots)
    if found is None:
        searched = []
        if environ.get("AMENT_PREFIX_PATH"):
            searched.append("AMENT_PREFIX_PATH")
        if roots:
            searched.append("ROS_PACKAGE_PATH")
        raise LookupError(
            f"package '{name}' not found (searched {' and '.join(searched) or 'nothing: ROS_PACKAGE_PATH and AMENT_PREFIX_PATH are unset'})"
        )
    return found
