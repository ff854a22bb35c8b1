"""The problems of an included file, as one diagnostic on the ``<include>`` that brought it.

The user edits the including document; the included file's own errors are
its analysis's, and listing each of them again on every include would bury the
includer's own. :func:`summarise` reports them once, on the include, with the
first ones as related locations, and tells which of them libsdformat does not
check where the model lands.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ...diagnostics import Diagnostic, Related, Severity, info
from ...model import Include
from ...text import Span
from ..checks.dropped_links import EMPTIES_MODEL
from ..checks.phases import ROOT_NOT_STATIC, ROOT_ONLY
from .placement import RELATED_LIMIT

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis import Analysis
    from ..frames import Scope
    from .resolver import IncludeResolver


def summarise(resolver: "IncludeResolver", sub: "Analysis", inc: Include, span: Span, scope: "Scope") -> bool:
    """One diagnostic on the include for the errors of the included file that libsdformat sees here;
    whether there was one (then references into the model it brings are not judged: ``FrameGraphs.flawed``).

    The included file was checked as a root model. libsdformat makes some
    checks only at the top level (``checks.ROOT_ONLY``): they apply where
    the model lands at the top of a world or of the file, and when it is
    merged (libsdformat loads a merged model on its own first); nested
    deeper, they become one information. The file was analysed with the
    include's ``<static>`` in place of its own (``Options.root_static``), as
    libsdformat writes it there before loading: the checks that depend on
    it (frames on the canonical link or on the static model, joints whose
    parent and child land on one link, a model without link) are those of
    the model as included.
    """
    diags = [d for d in sub.diagnostics if d.severity == Severity.ERROR and d.code != "URDF_UNSUPPORTED"]
    diags += [d for d in (sub.urdf_diagnostics or ()) if d.severity == Severity.ERROR]
    top_level = inc.merge or scope.kind in ("world", "sdf")
    unchecked = [d for d in diags if d.data.get(ROOT_ONLY) and not top_level]
    # (a root model without link made movable by <static>false</static> is reported on that <static>, by _model_of)
    diags = [
        d
        for d in diags
        if not (d.data.get(ROOT_ONLY) and not top_level)
        and not (d.data.get(ROOT_NOT_STATIC) and sub.root_static_written)
    ]
    if unchecked:
        earliest = min(unchecked, key=lambda d: d.span.start)
        more = f" (and {len(unchecked) - 1} more)" if len(unchecked) > 1 else ""
        resolver.report(
            info(
                earliest.code,
                f"not checked here: {earliest.message}{more}, in {os.path.basename(sub.path or '')}; libsdformat checks this only "
                "in top-level models and this one is nested, so it loads the file (it refuses the file on its own)",
                span,
                related=tuple(Related(d.span, d.message, path=d.path or sub.path) for d in unchecked[:RELATED_LIMIT]),
                data={"included_path": sub.path},
            )
        )
    if not diags:
        return False
    diags.sort(key=lambda d: d.span.start)
    name = os.path.basename(sub.path or "")
    related: list[Related] = []
    # (the diagnostic, the problem in the file it was first found in: code, message, path and span)
    roots: list[tuple[Diagnostic, dict[str, Any]]] = []
    for d in diags:
        root = d.data.get("include_root") if d.data else None
        if root is None:
            root = {"code": d.code, "message": d.message, "path": d.path or sub.path, "span": tuple(d.span)}
        roots.append((d, root))
    first_d, first = roots[0]
    for d, root in roots[:RELATED_LIMIT]:
        if root["path"] != (d.path or sub.path):
            related.append(Related(Span(*root["span"]), root["message"], path=root["path"]))
            related.append(Related(d.span, "included from here", path=d.path or sub.path))
        else:
            related.append(Related(d.span, d.message, path=root["path"]))
    count = len(diags)
    root_el = sub.xml.root
    if root_el is None or root_el.tag not in ("sdf", "robot", "mujoco") or any(p.is_error for p in sub.xml.problems):
        # libsdformat cannot read it at all (FILE_READ); a custom parser (interface API) may, but not here
        ext = os.path.splitext(name)[1]
        hint = (
            ""
            if ext in (".sdf", ".world", ".urdf", "")
            else (
                f" ({ext} files need a model parser: register one under [model-parsers] in the configuration file, see docs/includes.md)"
            )
        )
        resolver.report(
            Diagnostic(
                "FILE_READ",
                Severity.ERROR,
                f"cannot read the included file {name} as SDFormat: {first['message']}{hint}",
                span,
                related=tuple(related[:1]),
                data={
                    "include_root": {**first, "code": "FILE_READ"},
                    "included_errors": count,
                    "included_path": sub.path,
                },
            )
        )
        return True
    where = name if first["path"] == sub.path else f"{os.path.basename(first['path'] or '')} (included by {name})"
    if sub.root_static_written is not None:  # true of the model as this include makes it, not of the file alone
        where += f" with this include's <static>{'true' if inc.static else 'false'}</static>"
    if count == 1:
        message = f"error in the included file {where}: {first['message']}"
    else:
        message = f"{count} errors in the included file {name}; the first, in {where}: {first['message']}"
    code = first["code"]
    left_out = [d for d in sub.diagnostics if d.data.get("urdf") == "massless"]
    if left_out and (code == "MODEL_WITHOUT_LINK" or first_d.data.get(EMPTIES_MODEL)):
        code = "MODEL_WITHOUT_LINK"  # what the include makes: a model without links (the cause is in the file)
        # the URDF's links are all there as written: libsdformat's conversion left them out
        names = ", ".join(f"'{sub.text[d.span.start : d.span.end]}'" for d in left_out[:4]) + (
            ", ..." if len(left_out) > 4 else ""
        )
        message = (
            f"the included file {name} gives a model without links: libsdformat leaves out URDF links without a positive mass "
            f"when it converts the file ({names}, with the links below them), so nothing can carry the model's frames and "
            "nothing here can name them; give those links an <inertial> with a positive mass"
        )
        related = [Related(d.span, d.message, path=sub.path) for d in left_out[:RELATED_LIMIT]]
    resolver.report(
        Diagnostic(
            code,
            Severity.ERROR,
            message,
            span,
            related=tuple(related),
            data={"include_root": first, "included_errors": count, "included_path": sub.path},
        )
    )
    return True
