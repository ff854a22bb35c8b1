"""The checks on an ``<include>`` itself, as opposed to those inside the included file.

What the include does to the model it brings in (``<experimental:params>``,
``merge="true"``, ``<static>``, ``<pose>``, ``<name>``) can be wrong even when
the included file is fine on its own: :func:`place_model` places the model for
the including scope and reports what the include asks of it that cannot be
done; :func:`after_graphs` makes the checks that need the built frame graphs
(placement frames, names the include brings into a scope that has them).
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from ...diagnostics import Diagnostic, Fix, Related, error, info
from ...model import Include, Model
from ...text import Span
from .params import apply_params, params_element

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis import Analysis
    from ..frames import FrameGraphs, FrameNode, Scope
    from .resolver import IncludeResolver

RELATED_LIMIT = 3  # how many problems of an included file are listed as related information


def _included_models(sub: "Analysis") -> Callable[[Model, object], Model | None]:
    """Model of any include written in ``sub`` or in the files it includes, by the Include object."""
    table: dict[int, Model | None] = {}
    stack, seen = [sub], set()
    while stack:
        a = stack.pop()
        if id(a) in seen:
            continue
        seen.add(id(a))
        for rec in getattr(a, "includes", ()) or ():
            table[id(rec.include)] = rec.model
            if rec.analysis is not None:
                stack.append(rec.analysis)
    return lambda _model, inc: table.get(id(inc))


def place_model(resolver: "IncludeResolver", sub: "Analysis", inc: Include, span: Span, scope: "Scope") -> Model | None:
    """The model the included file contributes, placed for the including scope."""
    parsed = sub.interface_parser is not None  # a registered model parser read it
    if parsed:
        from .foreign import include_problems

        problems = include_problems(sub, inc, span)
        for d in problems:
            resolver.report(d)
        if problems:
            return None
    doc = sub.document
    model: Model | None = doc.models[0] if doc is not None and doc.models else None
    root = sub.xml.root
    if model is None and root is not None and root.tag == "robot":
        model = _urdf_model(sub)
        if model is None:
            return None
    if model is None:
        if doc is not None and doc.others:
            if inc.merge:
                resolver.report(
                    error(
                        "MERGE_INCLUDE_UNSUPPORTED",
                        f'merge="true" only works for models; this file has an <{doc.others[0].tag}>: remove merge="true"',
                        span,
                    )
                )
            return None  # an actor or a light: no frames
        if root is None or root.tag != "sdf":
            if not sub.has_errors:
                what = f"<{root.tag}>" if root is not None else "no XML element"
                resolver.report(
                    error(
                        "FILE_READ", f"{os.path.basename(sub.path or '')} is not an SDFormat file (it has {what})", span
                    )
                )
            return None
        if doc is not None and doc.worlds:
            msg = "the included file holds a <world>: <include> brings in a <model>, <actor> or <light> only"
        else:
            msg = "the included file has no top-level <model>, <actor> or <light> for <include> to bring in"
        resolver.report(
            error("ELEMENT_MISSING", msg, span, related=(Related(root.tag_span, "its <sdf> element", path=sub.path),))
        )
        return None
    params = params_element(inc.element)
    if params is not None:
        model, problems = apply_params(params, model, resolver.analysis.xml, resolver.version, _included_models(sub))
        for d in problems:
            resolver.report(d)
    if inc.merge:
        check_merge(resolver, model, inc, span, scope, sub)
    if inc.static is False and sub.root_static_written and not model.links and not model.models and not model.includes:
        st = inc.element.child("static")
        resolver.report(
            error(
                "MODEL_WITHOUT_LINK",
                f"<static>false</static> makes the included model '{model.name}' movable, but it has no link to carry its frames: "
                "remove this <static>, or include a model with a link",
                st.tag_span if st is not None else span,
            )
        )
    if inc.pose is not None:
        pose = inc.pose
    elif model.pose.relative_to is not None:
        # relative_to on a top-level model is an error of the included file; keep the numbers only
        pose = replace(model.pose, relative_to=None)
    else:
        pose = model.pose
    # a registered parser's model keeps its own name and static (libsdformat's InterfaceModel::Name and
    # Static); it was given the include's <name> and <static> to honour
    return replace(
        model,
        name=inc.name if inc.name and not parsed else model.name,
        name_at=inc.name_span if not parsed or inc.name == model.name else model.name_at,
        pose=pose,
        static=inc.static if inc.static is not None and not parsed else model.static,
        from_include=inc,
        source=sub,
    )


def _urdf_model(sub: "Analysis") -> Model | None:
    try:
        from ...formats.urdf import urdf_to_model
    except ImportError:  # pragma: no cover - the URDF converter ships with the package
        return None
    try:
        model, diags = urdf_to_model(sub.xml, sub.path)
    except Exception:  # a converter bug must not hide the includer's own diagnostics
        return None
    if sub.urdf_diagnostics is None:
        sub.urdf_diagnostics = diags
    return model


def check_merge(
    resolver: "IncludeResolver", model: Model, inc: Include, span: Span, scope: "Scope", sub: "Analysis"
) -> None:
    attr = inc.element.attr("merge")
    where = attr.span if attr is not None else span
    if scope.kind not in ("model", "world"):
        resolver.report(
            error(
                "MERGE_INCLUDE_UNSUPPORTED",
                'merge="true" needs a <model> or <world> to merge into: remove it here',
                where,
            )
        )
        return
    # Below 1.9 nothing is lost: libsdformat converts the file to its newest
    # version and merges. The version information (schema_check) already
    # names merge= among the newer features, once for the whole file.
    if scope.kind == "world":
        if resolver.version < (1, 10):
            # Portability only (libsdformat main merges it): an information.
            resolver.report(
                info(
                    "MERGE_INCLUDE_UNSUPPORTED",
                    "merging a model into a <world> is SDFormat 1.10 (libsdformat 13) or later; libsdformat 12 and older refuse it",
                    where,
                )
            )
        for link in model.links:
            resolver.report(
                error(
                    "MERGE_INCLUDE_UNSUPPORTED",
                    f"a <world> cannot take links: the merged model's link '{link.name}' has nowhere to go; "
                    'include the model without merge="true", or move its links into nested models',
                    span,
                    related=(Related(link.name_span or link.element.tag_span, f"link '{link.name}'", path=sub.path),),
                )
            )


def merged_duplicates(resolver: "IncludeResolver", graphs: "FrameGraphs") -> list[Diagnostic]:
    """Names that a ``merge="true"`` include brings into a scope that already has them.

    libsdformat copies the merged elements into the including model, so a
    merged link, joint, frame or nested model named like another entity of
    that model (written here, or merged by another include) is a duplicate
    name there. Reported once per name, on the include written in this
    document that brought it.
    """

    def origin(node: "FrameNode") -> tuple["Scope | None", Include | None]:
        """(the real scope ``node`` is a name of, the include of this document that brought it or None)."""
        scope = node.scope
        brought: Include | None = None
        if id(node) in graphs.merged_into:  # a proxy frame: brought by its include
            inc, scope = graphs.merged_into[id(node)]
            if scope.path is None or id(scope) in graphs.merged_into:
                brought = inc
        while scope is not None and id(scope) in graphs.merged_into:
            inc, into = graphs.merged_into[id(scope)]
            if into.path is None:
                brought = inc
            scope = into
        return scope, brought

    groups: dict[tuple[int, str], list[tuple["FrameNode", Include | None]]] = {}
    for node in graphs.nodes:
        if not node.name or node.kind == "world" or node.scope is None:
            continue
        scope, brought = origin(node)
        if scope is None or scope.path is not None:
            continue  # a scope of an included file: its own analysis reports it
        groups.setdefault((id(scope), node.name), []).append((node, brought))
    found: dict[int, tuple[Include, list[tuple[str, "FrameNode", "FrameNode", Related | None]]]] = {}
    for (_, name), members in groups.items():
        if len(members) < 2 or all(b is None for _, b in members):
            continue  # written here only: the name phase reports it
        merged = [(n, b) for n, b in members if b is not None]
        local = [
            n for n, b in members if b is None and n.name_span is not None and (n.scope is None or n.scope.path is None)
        ]
        node, inc = merged[-1] if local or len(merged) == 1 else merged[1]
        other = local[0] if local else merged[0][0]
        rel = None
        if local:
            rel = Related(local[0].name_span, f"the '{name}' written here")
        elif merged[0][1] is not inc:
            rel = Related(resolver.include_span(merged[0][1]), f"the include that also brings '{name}'")
        found.setdefault(id(inc), (inc, []))[1].append((name, node, other, rel))
    out: list[Diagnostic] = []
    for inc, dups in found.values():
        where = dups[0][1].scope.name if dups[0][1].scope is not None else ""
        proxies = [n for n, *_ in dups if n.startswith("_merged__") and n.endswith("__model__")]
        if proxies:
            merged_name = proxies[0][len("_merged__") : -len("__model__")]
            msg = f"model '{merged_name}' is merged into model '{where}' more than once (directly or through another merged model)"
        else:
            listed = ", ".join(f"'{n}' ({node.kind}; {other.kind} there already)" for n, node, other, _ in dups[:6])
            more = f" and {len(dups) - 6} more" if len(dups) > 6 else ""
            msg = f"this merged include brings names that model '{where}' already has: {listed}{more}"
        out.append(
            error(
                "DUPLICATE_NAME",
                msg + "; names must be unique once merged: rename one of them",
                resolver.include_span(inc),
                related=tuple(r for *_, r in dups[:RELATED_LIMIT] if r is not None),
                data={"duplicate": dups[0][0]},
            )
        )
    return out


def after_graphs(resolver: "IncludeResolver", graphs: "FrameGraphs") -> list[Diagnostic]:
    """Checks that need the built scopes: placement frames and names of included models."""
    out: list[Diagnostic] = merged_duplicates(resolver, graphs)
    for inc, child in graphs.included:
        parent = child.parent
        if parent is None or parent.path is not None or child.path is None and not inc.merge:
            continue
        pf = inc.placement_frame
        if pf is not None and pf.text and inc.pose is not None and not inc.merge:
            res = graphs.resolve(pf, child, record=True)
            if res.target is None:
                names = [n for n, _ in child.nested_frames()]
                import difflib

                hint = difflib.get_close_matches(pf.text, names, n=1, cutoff=0.6)
                msg = f"placement_frame '{pf.text}' does not name a frame of the included model '{child.name}'"
                fixes: tuple[Fix, ...] = ()
                if hint:
                    msg += f"; did you mean '{hint[0]}'?"
                    fixes = (Fix(f"Change to '{hint[0]}'", pf.span, hint[0]),)
                out.append(error("POSE_RELATIVE_TO_INVALID", msg, pf.span, fixes=fixes))
        if not inc.merge and child.name:
            node = parent.frames.get(child.name)
            if node is child.node:
                # a nested <model> written later under the same name lost its place to the include
                later = next((m for m in getattr(parent.entity, "models", ()) if m.name == child.name), None)
                if later is not None:
                    node = next((n for n in graphs.nodes if n.entity is later), None)
            if node is not child.node and node is not None:
                span = inc.name_span or resolver.include_span(inc)
                other = node.entity if node is not None else None
                what = f"a {node.kind}" if node is not None else "another entity"
                rel: tuple[Related, ...] = ()
                other_inc = getattr(other, "from_include", None)
                if other_inc is not None:
                    rel = (
                        Related(other_inc.name_span or resolver.include_span(other_inc), f"the other '{child.name}'"),
                    )
                    what = "another included model"
                elif (
                    node is not None and node.name_span is not None and (node.scope is None or node.scope.path is None)
                ):
                    rel = (Related(node.name_span, f"the other '{child.name}'"),)
                out.append(
                    error(
                        "DUPLICATE_NAME",
                        f"the included model is named '{child.name}', like {what} in {parent.kind} '{parent.name}': "
                        "names must be unique; give the include its own <name>",
                        span,
                        related=rel,
                    )
                )
    return out
