"""`sdformat-lsp`: `check` for CI, `serve` (the default) for editors."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import __version__
from .diagnostics import Diagnostic, Severity
from .semantics import Analysis, Options, analyze
from .text import UTF32
from .xml import decode_source

_SEVERITY = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "info", Severity.HINT: "hint"}


def load_file(path: str, options: Options) -> Analysis:
    """Read and analyse one file; unreadable files become a diagnostic."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return _unreadable(path, exc.strerror or str(exc))
    text, problems = decode_source(data)
    return analyze(text, path, options, extra=problems)


def _unreadable(path: str, reason: str) -> Analysis:
    from .diagnostics import error
    from .semantics.analysis import Analysis as A
    from .text import Span
    from .xml import parse

    result = A(text="", path=path, xml=parse(""))
    result.diagnostics = [error("FILE_READ", f"cannot read {path}: {reason}", Span(0, 0))]
    return result


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


def _sorted(a: Analysis) -> list[Diagnostic]:
    return sorted(a.diagnostics, key=lambda d: (d.path or "", d.span.start, d.severity))


def check_command(args: argparse.Namespace) -> int:
    paths = [os.path.abspath(p) for p in args.resource_path or []]
    options = Options(resource_paths=tuple(paths))
    results = [load_file(f, options) for f in args.files]
    if args.format == "json":
        files = []
        for a in results:
            entry: dict = {
                "path": a.path,
                "sdf_version": a.version,
                "diagnostics": [_diag_json(a, d) for d in _sorted(a)],
            }
            if args.frames:
                entry["frames"] = a.frames()
            files.append(entry)
        json.dump({"files": files}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for a in results:
            for d in _sorted(a):
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sdformat-lsp", description="SDFormat language server and checker")
    parser.add_argument("--version", action="version", version=f"sdformat-lsp {__version__}")
    sub = parser.add_subparsers(dest="command")
    c = sub.add_parser("check", help="check SDFormat files and report problems (exit 1 on errors)")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("--frames", action="store_true", help="also list every frame of the root scope with its resolved pose")
    c.add_argument("--resource-path", action="append", metavar="DIR", help="a directory searched for model:// includes (repeatable)")
    s = sub.add_parser("serve", help="run the language server (the default)")
    s.add_argument("--tcp", metavar="HOST:PORT", help="serve one client over TCP instead of stdio")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "check":
        return check_command(args)
    from .server import serve  # pygls is only imported when serving

    return serve(getattr(args, "tcp", None))
