"""Mesh files that cannot be found: a warning on the ``<uri>`` (or URDF ``filename``) that names them.

Gazebo loads such a document and draws nothing where the mesh should be (gz-sim
logs that it cannot find the file, and the collision has no shape), so the
warning says what was searched and how to make it found. One warning per cause: the
meshes of one package or model that is not found, or under one directory that does
not exist, are one warning on the first, the others its related locations (a robot
whose meshes directory was never installed has one mistake, not forty). The lookup is the one
the 3D view uses (``resources.lookup``: ``model://`` on the resource paths, the
environment's paths and the model directories around the file; ``package://``
through ``packages.find_package``; ``file://`` and relative paths from the
file's directory). A Fuel URL is not looked up (the include checks speak of
Fuel); a document without a path (not saved) is not checked, since relative URIs
cannot be resolved. Each URI is looked up once per analysis.
"""

from __future__ import annotations

import os
import stat
from dataclasses import replace

from ...diagnostics import Diagnostic, Related, warning
from ...text import Span
from ...xml import XmlElement
from .resources import Lookup, lookup, model_root_of

MAX_LISTED = 4  # places named in the message before "and N more"
CODE = "MESH_LOOKUP"


def _places(searched: tuple[str, ...]) -> str:
    shown = ", ".join(searched[:MAX_LISTED])
    return shown + (f" and {len(searched) - MAX_LISTED} more" if len(searched) > MAX_LISTED else "")


def mesh_diagnostics(
    root: XmlElement | None,
    path: str | None,
    resource_paths: tuple[str, ...] = (),
    model_roots: tuple[str, ...] = (),
    package_paths: tuple[str, ...] = (),
) -> list[Diagnostic]:
    """A warning per ``<mesh>`` whose file is not found (SDFormat ``<uri>``, URDF ``filename``)."""
    if root is None or path is None:
        return []
    base = os.path.dirname(os.path.abspath(path))
    roots = model_roots_of(path, model_roots)
    urdf = root.tag == "robot"
    memo: dict[str, tuple[str | None, tuple]] = {}
    span: Span | None
    groups: dict[tuple, list[tuple[str, Span, str]]] = {}  # cause -> (uri, span, message), in document order
    stack = [root]
    while stack:
        el = stack.pop()
        if el.tag != "mesh":
            stack.extend(reversed(el.children))
            continue
        if urdf:
            attr = el.attr("filename")
            if attr is None or not (attr.value or "").strip():
                continue
            uri, span = attr.value.strip(), attr.value_span
        else:
            uri_el = el.child("uri")
            text = (uri_el.text or "").strip() if uri_el is not None else ""
            if uri_el is None or not text:
                continue
            uri, span = text, _text_span(uri_el, text)
        if uri not in memo:
            memo[uri] = _problem_and_cause(uri, base, resource_paths, roots, package_paths)
        problem, cause = memo[uri]
        if problem is not None and span is not None:
            groups.setdefault(cause, []).append((uri, span, problem))
    return [_one_per_cause(cause, found) for cause, found in groups.items()]


def _one_per_cause(cause: tuple, found: list[tuple[str, Span, str]]) -> Diagnostic:
    """The first mesh's warning, naming how many others are missing for the same reason (related)."""
    (uri, span, problem), rest = found[0], found[1:]
    d = warning(CODE, problem, span)
    if not rest:
        return d
    others = len({u for u, _, _ in rest} - {uri})
    kind, what = cause[0], cause[1]
    if kind == "uri":
        why = f"(named here and in {len(rest)} more place{'s' if len(rest) != 1 else ''}, listed as related)"
    else:
        reason = {
            "package": f"of package '{what}'",
            "model": f"of model '{what}'",
            "directory": f"under the missing directory {what}",
        }[kind]
        count = f"{others} more mesh{'es' if others != 1 else ''} {reason}" if others else "the same mesh"
        why = f"({count} not found for the same reason, listed as related)"
    related = tuple(Related(sp, f"'{u}' is not found for the same reason") for u, sp, _ in rest)
    return replace(d, message=f"{problem} {why}", related=related)


def _text_span(el: XmlElement, text: str) -> Span | None:
    return el.text_span if el.text_span is not None else el.tag_span


def model_roots_of(path: str | None, model_roots: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The model roots searched for a mesh named in ``path``: the one holding its own model directory first."""
    own = model_root_of(path) if path else None
    return tuple(dict.fromkeys(([own] if own else []) + list(model_roots)))


def _problem_and_cause(
    uri: str,
    base: str | None,
    resource_paths: tuple[str, ...],
    model_roots: tuple[str, ...],
    package_paths: tuple[str, ...],
) -> tuple[str | None, tuple]:
    """Why the mesh ``uri`` is not drawn (None: it is found) and the cause, as a key that meshes missing
    for the same reason share: the package or model that is not found, the first directory on the way
    to the file that does not exist, else the URI itself."""
    found = _lookup(uri, base, resource_paths, model_roots, package_paths)
    if found is None:
        return None, ("uri", uri)
    if found.path is not None and not os.path.isdir(found.path):
        return _unreadable(uri, found.path), ("uri", uri)
    problem = _problem(uri, found)
    if found.path is not None:
        return problem, ("uri", uri)
    package = found.package
    if found.scheme == "package" and package is not None and not package.found:
        return problem, ("package", package.name)
    expected = _expected_file(uri, found, base)
    if found.scheme == "model" and expected is None:
        return problem, ("model", uri[len("model://") :].strip("/").partition("/")[0])
    missing = _first_missing(expected) if expected else None
    if missing is not None and missing != expected:
        return problem, ("directory", missing)
    return problem, ("uri", uri)


def _expected_file(uri: str, found: Lookup, base: str | None) -> str | None:
    """Where the file would be, when one place is where it belongs: in the model or package directory
    that was found, at an absolute path, or beside the file naming it (a relative path)."""
    if found.scheme == "model":
        home, rest = _model_home(uri, found)
        return os.path.join(home, rest) if home and rest else None
    if found.scheme == "package":
        package = found.package
        if package is None or not package.path:
            return None
        return os.path.join(package.path, uri[len("package://") :].strip("/").partition("/")[2])
    rest = os.path.expanduser(uri[len("file://") :] if found.scheme == "file" else uri)
    if os.path.isabs(rest):
        return os.path.normpath(rest)
    return os.path.normpath(os.path.join(base, rest)) if base and found.scheme == "path" else None


def _model_home(uri: str, found: Lookup) -> tuple[str | None, str]:
    """The model directory a ``model://NAME/REST`` URI names, in the first searched place that has it
    (None: no place has it), and REST."""
    name, _, rest = uri[len("model://") :].strip("/").partition("/")
    home = next((os.path.join(d, name) for d in found.searched if os.path.isdir(os.path.join(d, name))), None)
    return home, rest


def _first_missing(path: str) -> str | None:
    """The outermost directory (or the file) on the way to ``path`` that does not exist."""
    missing = None
    here = path
    while here and not os.path.exists(here):
        missing = here
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    return missing


def _lookup(
    uri: str,
    base: str | None,
    resource_paths: tuple[str, ...],
    model_roots: tuple[str, ...],
    package_paths: tuple[str, ...],
) -> Lookup | None:
    """The lookup of ``uri``; None for a Fuel URL or a remote model, which are never fetched."""
    if uri.lower().startswith(("http://", "https://")):
        return None  # a Fuel URL: the network is never used, and the include checks speak of the cache
    found = lookup(uri, base, resource_paths, model_roots=model_roots, package_paths=package_paths)
    return None if found.remote else found


def _problem(uri: str, found: Lookup) -> str:
    if found.path is not None:
        return f"the mesh '{uri}' is the directory {found.path}, not a file: Gazebo draws nothing for this geometry"
    return _not_found(uri, found)


def find_mesh(
    uri: str,
    base: str | None,
    resource_paths: tuple[str, ...] = (),
    model_roots: tuple[str, ...] = (),
    package_paths: tuple[str, ...] = (),
) -> tuple[str | None, str | None]:
    """(the mesh file, None) or (None, why it is not drawn: the warning's message) for ``uri`` written in a
    file in ``base``; (None, None) for a Fuel URL, which is never fetched."""
    found = _lookup(uri, base, resource_paths, model_roots, package_paths)
    if found is None:
        return None, None
    if found.path is not None and not os.path.isdir(found.path):
        why = _unreadable(uri, found.path)
        return (found.path, None) if why is None else (None, why)
    return None, _problem(uri, found)


def _unreadable(uri: str, path: str) -> str | None:
    """Why the mesh file found at ``path`` cannot be drawn (None: it can be read): an empty file, a FIFO or a
    device, a file this user may not read. gz-common's loaders read nothing from such a file, and Gazebo draws
    nothing for the geometry."""
    try:
        st = os.stat(path)
    except OSError as exc:
        why = f"cannot be read ({exc.strerror or exc})"
    else:
        if not stat.S_ISREG(st.st_mode):
            why = "is not a regular file"
        elif st.st_size == 0:
            why = "is an empty file"
        elif not os.access(path, os.R_OK):
            why = "cannot be read (permission denied)"
        else:
            return None
    return f"the mesh '{uri}' was found at {path}, but it {why}: Gazebo draws nothing for this geometry"


def _not_found(uri: str, found: Lookup) -> str:
    where = f" (searched {_places(found.searched)})" if found.searched else ""
    if found.scheme == "model":
        home, rest = _model_home(uri, found)
        if home is not None and rest:
            return f"the mesh '{uri}' is not found: the model directory {home} has no {rest}; Gazebo draws nothing for this geometry"
    package = found.package
    if found.scheme == "package" and package is not None and package.path:
        rest = uri[len("package://") :].strip("/").partition("/")[2]
        return f"the mesh '{uri}' is not found: the package directory {package.path} has no {rest}; Gazebo draws nothing for this geometry"
    if found.scheme == "model":
        fix = "add the directory holding the model to GZ_SIM_RESOURCE_PATH or the resource-paths setting"
    elif found.scheme == "package":
        fix = "add the package's directory to ROS_PACKAGE_PATH or the package-paths setting"
    else:
        fix = "check the path (relative paths start at this file's directory)"
    return f"the mesh '{uri}' is not found{where}: Gazebo draws nothing for this geometry; {fix}"


__all__ = ["CODE", "find_mesh", "mesh_diagnostics", "model_roots_of"]
