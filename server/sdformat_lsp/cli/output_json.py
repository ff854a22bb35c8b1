"""JSON output: the schema documented (and versioned) in docs/cli.md.

Version 1. Fields may be added without a new version; removing or
changing one bumps ``version``.
"""

from __future__ import annotations

import json

from .report import Place

VERSION = 1


def _range(p: Place) -> dict:
    return {
        "start": {"line": p.start16[0], "character": p.start16[1]},
        "end": {"line": p.end16[0], "character": p.end16[1]},
    }


def file_entry(r, frames: bool) -> dict:
    diags = []
    for i in r.items:
        d = {"code": i.code, "severity": i.severity_name, "message": i.message, "range": _range(i.place)}
        if i.in_other_file:
            d["path"] = i.place.path
        if i.related:
            d["related"] = [
                {"message": n.message, "range": _range(n.place), **({"path": n.place.path} if n.in_other_file else {})}
                for n in i.related
            ]
        diags.append(d)
    entry: dict = {"path": r.display, "sdf_version": r.sdf_version, "diagnostics": diags}
    if frames:
        entry["frames"] = r.frames or []
    return entry


def write(run, out) -> None:
    data = {
        "version": VERSION,
        "files": [file_entry(r, run.frames) for r in run.results],
        "summary": {"files": len(run.results), **run.counts},
    }
    json.dump(data, out, indent=2)
    out.write("\n")


__all__ = ["VERSION", "file_entry", "write"]
