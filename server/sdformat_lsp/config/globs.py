"""Exclude patterns, matched as users of .gitignore-style tools expect.

A pattern without ``/`` matches any one component of the path (``build``
excludes every directory called build, ``*.gen.sdf`` every such file); a
pattern with ``/`` matches the path relative to the base directory, and
a directory it matches excludes everything below it. ``*`` crosses ``/``
(as in fnmatch), so ``models/**`` works as expected. Paths outside the
base directory are never excluded.
"""

from __future__ import annotations

import os
from fnmatch import fnmatchcase


def excluded(path: str, base: str, patterns: tuple[str, ...] | list[str]) -> bool:
    """Whether ``path`` (absolute) matches one of ``patterns`` taken relative to ``base``."""
    if not patterns:
        return False
    rel = os.path.relpath(path, base).replace(os.sep, "/")
    if rel == ".." or rel.startswith("../") or os.path.isabs(rel):
        return False  # patterns speak of what lies below their base directory
    parts = rel.split("/")
    for pattern in patterns:
        pat = pattern.strip().rstrip("/")
        if not pat:
            continue
        if "/" not in pat:
            if any(fnmatchcase(part, pat) for part in parts):
                return True
            continue
        pat = pat.lstrip("/")
        if pat.startswith("./"):
            pat = pat[2:]
        if fnmatchcase(rel, pat) or fnmatchcase(rel, pat + "/*"):
            return True
    return False


__all__ = ["excluded"]
