"""`sdformat-lsp check`: check files and print their diagnostics (exit 1 on errors), for CI."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..diagnostics import Diagnostic, Severity
from ..files import DEFAULT_MAX_BYTES, MB
from ..semantics import Analysis, Options
from ..text import UTF32
from .lifetime import keep_until_exit
from .loading import load_file

_SEVERITY = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "info", Severity.HINT: "hint"}


def _diag_json(a: Analysis, d: Diagnostic) -> dict:
    (sl, sc), (el, ec) = a.lines.range(d.span, "utf-16")
    out = {
        "code": d.code,
        "severity": _SEVERITY[d.severity],
        "message": d.message,
        "range": {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}},
    }
    if d.path:
        out["path"] = d.path
    if d.related:
        out["related"] = [
            {"message": r.message, "range": _range_json(_source(a, r.path), r.span), **({"path": r.path} if r.path else {})} for r in d.related
        ]
    return out


def _source(a: Analysis, path: str | None) -> Analysis:
    """The analysis whose text a span of ``path`` indexes: ``a`` itself or a file it includes."""
    if path is None or path == a.path:
        return a
    finder = getattr(a, "included_analysis", None)
    sub = finder(path) if finder is not None else None
    return sub if sub is not None else a


def _range_json(a: Analysis, span) -> dict:
    (sl, sc), (el, ec) = a.lines.range(span, "utf-16")
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}


_LEVELS = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFORMATION, "hint": Severity.HINT}


def _sorted(a: Analysis, lowest: Severity = Severity.HINT) -> list[Diagnostic]:
    """The diagnostics at ``lowest`` severity or above, in file order."""
    shown = (d for d in a.diagnostics if d.severity <= lowest)
    return sorted(shown, key=lambda d: (d.path or "", d.span.start, d.severity))


def check_command(args: argparse.Namespace) -> int:
    paths = [os.path.abspath(p) for p in args.resource_path or []]
    max_bytes = None if args.max_size <= 0 else int(args.max_size * MB)
    options = Options(resource_paths=tuple(paths), max_document_bytes=max_bytes)
    results = [load_file(f, options) for f in args.files]
    keep_until_exit(results)  # the program ends without freeing them one by one
    lowest = _LEVELS[args.severity]
    if args.format == "json":
        files = []
        for a in results:
            entry: dict = {
                "path": a.path,
                "sdf_version": a.version,
                "diagnostics": [_diag_json(a, d) for d in _sorted(a, lowest)],
            }
            if args.frames:
                entry["frames"] = a.frames()
            files.append(entry)
        json.dump({"files": files}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for a in results:
            for d in _sorted(a, lowest):
                line, col = a.lines.position(d.span.start, UTF32)
                where = d.path or a.path
                print(f"{where}:{line + 1}:{col + 1}: {_SEVERITY[d.severity]}[{d.code}]: {d.message}")
                for r in d.related:
                    rl, rc = _source(a, r.path).lines.position(r.span.start, UTF32)
                    print(f"    {r.path or where}:{rl + 1}:{rc + 1}: note: {r.message}")
            if args.frames:
                for f in a.frames():
                    pose = " ".join(f"{v:.6g}" for v in f["pose"]) if f["pose"] is not None else "unresolved"
                    print(f"  {f['kind']:5} {f['name']}: [{pose}] attached to {f['attached_to']}")
        errors = sum(1 for a in results for d in a.diagnostics if d.severity == Severity.ERROR)
        warnings = sum(1 for a in results for d in a.diagnostics if d.severity == Severity.WARNING)
        print(f"{len(results)} file(s) checked: {errors} error(s), {warnings} warning(s)", file=sys.stderr)
    return 1 if any(a.has_errors for a in results) else 0


def register(sub) -> None:
    c = sub.add_parser("check", help="check SDFormat files and report problems (exit 1 on errors)")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument(
        "--severity",
        choices=tuple(_LEVELS),
        default="warning",
        help="the lowest severity printed (default: warning; 'info' or 'hint' add portability and style notes)",
    )
    c.add_argument("--frames", action="store_true", help="also list every frame of the root scope with its resolved pose")
    c.add_argument("--resource-path", action="append", metavar="DIR", help="a directory searched for model:// includes (repeatable)")
    c.add_argument(
        "--max-size", type=float, default=DEFAULT_MAX_BYTES / MB, metavar="MB",
        help=f"files (and included files) larger than this are not analysed: one error says so (default {DEFAULT_MAX_BYTES // MB}; 0: no limit)",
    )
    c.set_defaults(run=check_command)
