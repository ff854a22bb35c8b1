"""Mesh files that cannot be found: a warning on the ``<uri>`` (or URDF ``filename``) that names them.

Gazebo loads such a document and draws nothing where the mesh should be (gz-sim
logs that it cannot find the file, and the collision has no shape), so the
warning says what was searched and how to make it found. The lookup is the one
the 3D view uses (``resources.lookup``: ``model://`` on the resource paths, the
environment's paths and the model directories around the file; ``package://``
through ``packages.find_package``; ``file://`` and relative paths from the
file's directory). A Fuel URL is not looked up (the include checks speak of
Fuel); a document without a path (not saved) is not checked, since relative URIs
cannot be resolved. Each URI is looked up once per analysis.
"""

from __future__ import annotations

import os

from ...diagnostics import Diagnostic, warning
from ...text import Span
from ...xml import XmlElement
from .resources import lookup, model_root_of

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
    memo: dict[str, str | None] = {}
    out: list[Diagnostic] = []
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
            memo[uri] = find_mesh(uri, base, resource_paths, roots, package_paths)[1]
        problem = memo[uri]
        if problem is not None and span is not None:
            out.append(warning(CODE, problem, span))
    return out


def _text_span(el: XmlElement, text: str) -> Span | None:
    return el.text_span if el.text_span is not None else el.tag_span


def model_roots_of(path: str | None, model_roots: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The model roots searched for a mesh named in ``path``: the one holding its own model directory first."""
    own = model_root_of(path) if path else None
    return tuple(dict.fromkeys(([own] if own else []) + list(model_roots)))


def find_mesh(
    uri: str,
    base: str | None,
    resource_paths: tuple[str, ...] = (),
    model_roots: tuple[str, ...] = (),
    package_paths: tuple[str, ...] = (),
) -> tuple[str | None, str | None]:
    """(the mesh file, None) or (None, why it is not drawn: the warning's message) for ``uri`` written in a
    file in ``base``; (None, None) for a Fuel URL, which is never fetched."""
    if uri.lower().startswith(("http://", "https://")):
        return None, None  # a Fuel URL: the network is never used, and the include checks speak of the cache
    found = lookup(uri, base, resource_paths, model_roots=model_roots, package_paths=package_paths)
    if found.remote:
        return None, None
    if found.path is not None:
        if os.path.isdir(found.path):
            return (
                None,
                f"the mesh '{uri}' is the directory {found.path}, not a file: Gazebo draws nothing for this geometry",
            )
        return found.path, None
    return None, _not_found(uri, found)


def _not_found(uri: str, found) -> str:
    where = f" (searched {_places(found.searched)})" if found.searched else ""
    if found.scheme == "model":
        name, _, rest = uri[len("model://") :].strip("/").partition("/")
        home = next((os.path.join(d, name) for d in found.searched if os.path.isdir(os.path.join(d, name))), None)
        if home is not None and rest:
            return f"the mesh '{uri}' is not found: the model directory {home} has no {rest}; Gazebo draws nothing for this geometry"
    package = getattr(found, "package", None)
    if found.scheme == "package" and package is not None and getattr(package, "path", None):
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
