"""`sdformat-lsp inertial-stats`: per model, total mass, centre of mass and inertia in the model frame.

The numbers are computed by ``semantics.checks.mass_properties.model_statistics``; this module prints them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..semantics import Options
from ..semantics.checks.mass_properties import model_statistics, principal_moments
from .loading import expanded, first_error, load_file, project_options


def _stats(a) -> list[dict]:
    if a.graphs is None:
        return []
    from ..model.builder import version_tuple

    out = []
    for s in model_statistics(a.graphs, version_tuple(a.version)):
        p = s.props
        m = p.inertia
        out.append(
            {
                "model": s.name,
                "static": s.static,
                "links": p.links,
                "mass": p.mass,
                "center_of_mass": list(p.com),
                "inertia": {
                    "ixx": m[0][0],
                    "iyy": m[1][1],
                    "izz": m[2][2],
                    "ixy": m[0][1],
                    "ixz": m[0][2],
                    "iyz": m[1][2],
                },
                "principal_moments": list(principal_moments(m)) if p.mass > 0 else [0.0, 0.0, 0.0],
                "links_left_out": list(p.unknown),
            }
        )
    return out


def _g(v: float) -> str:
    return f"{v + 0.0:.6g}"


def inertial_stats_command(args: argparse.Namespace) -> int:
    options = Options(resource_paths=tuple(os.path.abspath(p) for p in args.resource_path or []))
    status = 0
    report = []
    for path in args.files:
        loaded = load_file(path, project_options(path, options))
        problem = first_error(loaded)
        a = expanded(loaded)  # a xacro document: its expansion
        if problem is not None or a is None:
            print(
                f"{problem or path + ': a xacro library of macros and properties expands to nothing'} (cannot compute inertial statistics)",
                file=sys.stderr,
            )
            status = 1
            continue
        models = _stats(a)
        report.append({"path": a.path, "models": models})
        if args.format == "text":
            for s in models:
                print(f"{path}: model '{s['model']}'{' (static)' if s['static'] else ''}: {s['links']} link(s)")
                print(f"  total mass: {_g(s['mass'])}")
                print(f"  centre of mass (model frame): {' '.join(_g(v) for v in s['center_of_mass'])}")
                i = s["inertia"]
                print("  inertia about the centre of mass (model frame):")
                print(f"    {_g(i['ixx']):>12} {_g(i['ixy']):>12} {_g(i['ixz']):>12}")
                print(f"    {_g(i['ixy']):>12} {_g(i['iyy']):>12} {_g(i['iyz']):>12}")
                print(f"    {_g(i['ixz']):>12} {_g(i['iyz']):>12} {_g(i['izz']):>12}")
                print(f"  principal moments: {' '.join(_g(v) for v in s['principal_moments'])}")
                if s["links_left_out"]:
                    print(
                        f"  left out (inertial computed by the simulator, or pose unresolved): {', '.join(s['links_left_out'])}"
                    )
    if args.format == "json":
        json.dump({"files": report}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return status


def register(sub) -> None:
    c = sub.add_parser(
        "inertial-stats",
        help="per model: total mass, centre of mass and inertia in the model frame",
        description="Sum the inertials of each model's links (nested models included): total mass, centre of mass "
        "and the inertia matrix about it, in the model frame.",
    )
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument(
        "--resource-path",
        action="append",
        metavar="DIR",
        help="a directory searched for model:// includes (repeatable)",
    )
    c.set_defaults(run=inertial_stats_command)
