"""An example model parser: models described in TOML, read for ``<include>`` by sdformat-lsp.

The layout follows libsdformat's interface-API test parser (a model's
``name``, ``pose``, ``canonical_link``, ``static``, and tables of ``links``,
``frames``, ``joints`` and nested ``models``), so that its test cases can be
mirrored. Register it in ``sdformat-lsp.toml`` (this directory on the Python
path, e.g. through ``PYTHONPATH``)::

    [model-parsers]
    ".toml" = "toml_models:parse"

or as an entry point of a distribution (``pyproject.toml``)::

    [project.entry-points."sdformat_lsp.model_parsers"]
    ".toml" = "toml_models:parse"
"""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from sdformat_lsp.interface import (
    IncludedFile,
    InterfaceFrame,
    InterfaceJoint,
    InterfaceLink,
    InterfaceModel,
    ParseError,
)


def _pose(table: dict, where: str) -> tuple[float, ...]:
    text = table.get("pose", "0 0 0 0 0 0")
    try:
        values = tuple(float(v) for v in str(text).split())
    except ValueError:
        values = ()
    if len(values) != 6:
        raise ParseError(f"the pose of {where} is not six numbers: {text!r}")
    return values


def _line_of(text: str, header: str) -> int | None:
    """The line of a table header such as ``[links.base]`` (for the editor's locations)."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() == f"[{header}]":
            return number
    return None


def _model(doc: dict, name: str, text: str, path: str) -> InterfaceModel:
    prefix = f"{path}." if path else ""
    links = [
        InterfaceLink(n, _pose(t, f"link {n}"), line=_line_of(text, f"{prefix}links.{n}"))
        for n, t in doc.get("links", {}).items()
    ]
    frames = [
        InterfaceFrame(n, t.get("attached_to", "__model__"), _pose(t, f"frame {n}"), line=_line_of(text, f"{prefix}frames.{n}"))
        for n, t in doc.get("frames", {}).items()
    ]
    joints = [
        InterfaceJoint(n, t["child"], _pose(t, f"joint {n}"), type=t.get("type"), parent=t.get("parent"),
                       line=_line_of(text, f"{prefix}joints.{n}"))
        for n, t in doc.get("joints", {}).items()
    ]
    models = [_model(t, n, text, f"{prefix}models.{n}") for n, t in doc.get("models", {}).items()]
    return InterfaceModel(
        name,
        doc.get("canonical_link", ""),
        pose_in_parent=_pose(doc, f"model {name}"),
        links=links,
        frames=frames,
        joints=joints,
        models=models,
        static=bool(doc.get("static", False)),
        supports_merge=True,
    )


def parse(file: IncludedFile) -> InterfaceModel | None:
    """The model a ``.toml`` file describes; None for a TOML file that is not a model (no name)."""
    try:
        doc = tomllib.loads(file.text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        raise ParseError(f"not valid TOML: {exc}", line=line) from None
    if "name" not in doc and file.name is None:
        return None  # some other TOML file: let the next parser try
    if file.static is not None:  # the include's <static> wins, as in libsdformat's test parser
        doc["static"] = file.static
    return _model(doc, file.name or doc["name"], file.text, "")
