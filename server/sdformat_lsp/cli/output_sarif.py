"""SARIF 2.1.0 output, for code scanning (GitHub, Azure DevOps, IDE viewers).

One run; a rule per code of the catalogue (id, short and full
description, help URI into docs/diagnostics.md); results with 1-based
regions whose columns count UTF-16 code units (``columnKind``), related
locations for what the text output prints as notes. Artifacts are named
relative to the working directory (``%SRCROOT%``) so that code scanning
can match them to the repository. Validated in the tests against the
official OASIS schema.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from .. import __version__
from ..codes import CODES, describe, help_uri
from .report import Place

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
ROOT = "SRCROOT"


def _rule(code: str) -> dict:
    d = describe(code)
    return {
        "id": code,
        "name": "".join(w.capitalize() for w in code.split("_")),
        "shortDescription": {"text": d.short},
        "fullDescription": {"text": d.full},
        "helpUri": help_uri(code),
        "help": {"text": f"{d.full} See {help_uri(code)}"},
    }


def _artifact(path: str | None, cwd: str) -> dict:
    if path is None:
        return {"uri": "stdin"}
    rel = os.path.relpath(path, cwd)
    if rel == ".." or rel.startswith(".." + os.sep) or os.path.isabs(rel):
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(rel.replace(os.sep, "/")), "uriBaseId": ROOT}


def _region(p: Place) -> dict:
    # SARIF's endColumn is the column after the last character (an exclusive end)
    return {
        "startLine": p.start16[0] + 1,
        "startColumn": p.start16[1] + 1,
        "endLine": p.end16[0] + 1,
        "endColumn": p.end16[1] + 1,
    }


def _location(p: Place, cwd: str, message: str | None = None, ident: int | None = None) -> dict:
    loc: dict = {"physicalLocation": {"artifactLocation": _artifact(p.path, cwd), "region": _region(p)}}
    if ident is not None:
        loc["id"] = ident
    if message is not None:
        loc["message"] = {"text": message}
    return loc


def document(run) -> dict:
    codes = list(CODES)
    extra = sorted({i.code for r in run.results for i in r.items if i.code not in CODES})
    index = {c: n for n, c in enumerate(codes + extra)}
    results = []
    for r in run.results:
        for i in r.items:
            res: dict = {
                "ruleId": i.code,
                "ruleIndex": index[i.code],
                "level": LEVELS[i.severity_name],
                "message": {"text": i.message},
                "locations": [_location(i.place, run.cwd)],
            }
            if i.related:
                res["relatedLocations"] = [_location(n.place, run.cwd, n.message, k) for k, n in enumerate(i.related)]
            results.append(res)
    cwd_uri = Path(run.cwd).as_uri().rstrip("/") + "/"
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "sdformat-lsp",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": "https://github.com/sdformat-lsp/sdformat-lsp",
                        "rules": [_rule(c) for c in codes + extra],
                    }
                },
                "originalUriBaseIds": {ROOT: {"uri": cwd_uri}},
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }


def write(run, out) -> None:
    json.dump(document(run), out, indent=2)
    out.write("\n")


__all__ = ["SCHEMA", "document", "write"]
