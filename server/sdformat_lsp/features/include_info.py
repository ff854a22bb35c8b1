"""What an ``<include>`` brings in: for the hover on its tag, its ``<uri>`` and its ``<name>``.

* the file analysed and how it was found (which search directory, next to
  this file, the package, the local Fuel cache, an absolute path) and, for a
  model directory, the ``model.config`` entry that chose the file;
* the model's name as included (``<name>``, or the name in its file), and
  whether it was merged;
* where the model frame lands and the frames the model offers, named as they
  are written from the including scope (``hand::tip``; merged names
  directly), the first few with their resolved poses;
* when it did not resolve: why, and every place searched.
"""

from __future__ import annotations

import os

from ..semantics.analysis import Analysis
from ..semantics.frames import MODEL_FRAME, FrameNode
from ..semantics.includes.resolver import IncludeRecord
from ..queries.frames import attached_summary, format_numbers
from ..queries.poses import relative_pose
from ..queries.includes import include_at, include_scope, including_frame, offered_frames
from ..queries.results import HoverResult, Writer


POSED_FRAMES = 8  # frames listed with their poses
NAMED_FRAMES = 24  # frames listed (names only) after those
SEARCHED_SHOWN = 12  # places listed for an include that was not found

_SCHEMES = {"model": "model://", "package": "package://", "fuel": "Fuel", "file": "file://"}


def _base_label(w: Writer, base: FrameNode | None) -> str:
    if base is None:
        return "its parent"
    if base.kind == "world":
        return w.code("world")
    name = base.name if base.scope is None else base.scoped_name()
    return f"{w.code(MODEL_FRAME)} of model {w.code(name)}"


def how_found(w: Writer, analysis: Analysis, rec: IncludeRecord) -> str:
    """One sentence: where the URI was found."""
    lk = rec.lookup
    uri = w.code(rec.include.uri.text) if rec.include.uri is not None else "the include"
    if lk is None:
        return f"{uri} resolved"
    here = os.path.dirname(os.path.abspath(analysis.path)) if analysis.path else None
    where = lk.found_in
    if lk.scheme == "fuel":
        return f"{uri}: found in the local Fuel cache {w.code(where or '?')}"
    if lk.scheme == "package":
        return f"{uri}: found in the package directory {w.code(where or '?')}"
    if where is None:
        return f"{uri} is an absolute path"
    if where == here:
        return f"{uri}: found next to this file (relative to {w.code(where)})"
    return f"{uri}: found in the search directory {w.code(where)}"


def describe_include(w: Writer, analysis: Analysis, rec: IncludeRecord) -> None:
    """The paragraphs of the include hover."""
    inc = rec.include
    uri = inc.uri.text if inc.uri is not None else ""
    merged = ' merge="true"' if inc.merge else ""
    w.para(f"{w.bold('include')}{merged} {w.code(uri) if uri else '(no <uri>)'}")
    if rec.analysis is None:
        _unresolved(w, analysis, rec)
        return
    w.para(f"File: {w.code(rec.path or '?')}")
    rows = [how_found(w, analysis, rec)]
    if rec.config is not None and rec.config.config is not None and rec.path is not None:
        version = f' version="{rec.config.version}"' if rec.config.version else ""
        entry = f"<sdf{version}>{os.path.relpath(rec.path, rec.config.directory)}</sdf>"
        rows.append(
            f"{w.code(os.path.basename(rec.config.config))} of {w.code(rec.config.directory)} chose it: {w.code(entry)}"
        )
    w.items("Found:", rows)
    errors = sum(1 for d in rec.analysis.diagnostics if d.is_error)
    if errors:
        w.para(
            f"The included file has {errors} error{'s' if errors > 1 else ''}: see the diagnostic on the {w.code('<uri>')}."
        )
    model = rec.model
    if model is None:
        _no_model(w, rec)
        return
    doc = rec.analysis.document
    own = doc.models[0].name if doc is not None and doc.models else None
    scope = include_scope(analysis, rec)
    if inc.merge:
        where = ""
        if scope is not None and scope.node is not None and scope.node.scope is not None:
            owner = scope.node.scope
            where = f" into {owner.kind} {w.code(owner.name)}" if owner.name else f" into this {owner.kind}"
        w.para(f"Model {w.code(own or model.name)}, merged{where}: its frames are named here without a prefix.")
    elif own is not None and own != model.name:
        w.para(f"Model {w.code(model.name)} (named {w.code(own)} in its file; renamed by {w.code('<name>')}).")
    else:
        w.para(f"Model {w.code(model.name)}.")
    if scope is None:
        return
    base = including_frame(scope)
    frame = scope.node
    if frame is not None:
        pose = relative_pose(analysis, frame, base)
        if pose is not None:
            w.para(
                f"The model frame relative to {_base_label(w, base)}: xyz {w.code(format_numbers(pose.p))}, rpy {w.code(format_numbers(pose.rpy))}"
            )
        what, why = attached_summary(analysis, frame)
        w.para(f"Attached to: {w.code(what)}" if what is not None else f"Not attached to a link: {why}.")
    frames = offered_frames(analysis, rec)
    if not frames:
        w.para("It offers no frames.")
        return
    rows = []
    for name, node in frames[:POSED_FRAMES]:
        pose = relative_pose(analysis, node, base)
        where = (
            f"xyz {w.code(format_numbers(pose.p))} rpy {w.code(format_numbers(pose.rpy))}"
            if pose is not None
            else "pose unresolved"
        )
        rows.append(f"{w.code(name)} ({node.kind}): {where}")
    rest = frames[POSED_FRAMES:]
    if rest:
        named = ", ".join(w.code(n) for n, _ in rest[:NAMED_FRAMES])
        more = len(rest) - NAMED_FRAMES
        rows.append(f"also {named}" + (f" and {more} more" if more > 0 else ""))
    w.items(f"Frames it offers ({len(frames)}; poses relative to {_base_label(w, base)}):", rows)


def _no_model(w: Writer, rec: IncludeRecord) -> None:
    doc = rec.analysis.document if rec.analysis is not None else None
    if doc is not None and doc.others:
        w.para(f"It brings in an {w.code('<' + doc.others[0].tag + '>')}, which has no frames.")
    else:
        w.para("It brings in no model (see the diagnostic on the <uri>).")


def _unresolved(w: Writer, analysis: Analysis, rec: IncludeRecord) -> None:
    inc = rec.include
    lk = rec.lookup
    span = inc.uri.span if inc.uri is not None else inc.element.tag_span
    reason = next(
        (
            d
            for d in analysis.diagnostics
            if d.span == span and d.path is None and d.code.startswith(("URI_", "FILE_", "INCLUDE_"))
        ),
        None,
    )
    places = list(lk.searched) if lk is not None and rec.target is None else []
    if places and lk is not None and not lk.remote:  # places: lk was read
        w.para("Not found.")
    elif reason is not None:
        w.para(f"Not resolved: {reason.message}")
    elif rec.path is not None:
        w.para(f"Not resolved: {w.code(rec.path)} could not be analysed.")
    else:
        w.para("Not resolved.")
    if not places:
        return
    shown = [w.code(p) for p in places[:SEARCHED_SHOWN]]
    if len(places) > SEARCHED_SHOWN:
        shown.append(f"and {len(places) - SEARCHED_SHOWN} more")
    w.items("Searched:", shown)
    if lk is not None and not lk.remote and lk.scheme in ("model", "name"):
        w.para(
            f"Add the directory that holds it to the {w.code('resourcePaths')} setting or to {w.code('GZ_SIM_RESOURCE_PATH')}."
        )


def include_hover(analysis: Analysis, offset: int, markdown: bool = True) -> HoverResult | None:
    """The hover on an ``<include>`` (its tags, ``<uri>`` or ``<name>``); None elsewhere."""

    found = include_at(analysis, offset)
    if found is None:
        return None
    rec, span = found
    w = Writer(markdown)
    describe_include(w, analysis, rec)
    return HoverResult(w.text(), span)


__all__ = ["describe_include", "include_hover"]
