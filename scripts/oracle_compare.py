#!/usr/bin/env python3
"""Compare sdformat-lsp's resolved poses and verdict with libsdformat 12 (the oracle).

    python scripts/oracle_compare.py [--oracle BIN] FILE...

The oracle is ``../shared/oracle`` built with its ``build.sh`` (it needs
``libsdformat-dev``). For every model, link, joint and frame the oracle
resolves, our pose relative to the same scope frame must agree within 1e-9
(translation and rotation matrix). Prints one line per disagreement and a
closing ``N passed, N failed`` line; exit 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from sdformat_lsp.cli import load_file  # noqa: E402
from sdformat_lsp.semantics import Analysis, Options  # noqa: E402
from sdformat_lsp.semantics.pose import Transform, rotation_matrix, transform_of  # noqa: E402

TOL = 1e-9


# Near pitch = ±90° the oracle's roll-pitch-yaw output is itself only good to
# about sqrt(machine epsilon) (asin of a value next to 1), so its rotation can
# only be compared to that precision there; everywhere else to 1e-9.
GIMBAL_TOL = 1e-7


def _close(a: Transform, b: Transform, rot_tol: float = TOL) -> bool:
    if any(abs(x - y) > TOL for x, y in zip(a.p, b.p)):
        return False
    ma, mb = rotation_matrix(a.q), rotation_matrix(b.q)
    return all(abs(ma[i][j] - mb[i][j]) <= rot_tol for i in range(3) for j in range(3))


def _node(analysis: Analysis, scope_path: list[str], name: str, kind: str):
    """Our node for an oracle entry: walk the scopes named in ``scope_path`` from the root."""
    root = analysis.root_scope
    if root is None:
        return None
    scope = root
    for part in scope_path[1:]:
        scope = scope.children.get(part)
        if scope is None:
            return None
    if kind == "model" and not scope_path:
        return root.node
    node = scope.frames.get(name)
    return node if node is not None and node.kind == kind else None


def compare(path: str, oracle: str) -> list[str]:
    out = json.loads(subprocess.run([oracle, path], capture_output=True, text=True, timeout=180).stdout)
    ours = load_file(path, Options())
    problems = []
    theirs_invalid = bool(out.get("errors"))
    if theirs_invalid != ours.has_errors:
        codes = sorted({e["code"] for e in out.get("errors", [])})
        mine = sorted({d.code for d in ours.diagnostics if d.is_error})
        problems.append(f"{path}: verdict differs: libsdformat {codes or 'valid'}, ours {mine or 'valid'}")
    if theirs_invalid:
        return problems
    for entry in out.get("poses", []):
        if entry.get("resolve_errors") or entry.get("relative_to_scope") is None:
            continue
        scope_path = [p for p in entry["scope"].split("::") if p] if entry["scope"] else []
        node = _node(ours, scope_path, entry["name"], entry["kind"])
        label = f"{entry['scope']}::{entry['name']}" if entry["scope"] else entry["name"]
        if node is None:
            problems.append(f"{path}: {entry['kind']} {label}: not found by sdformat-lsp")
            continue
        mine = ours.pose_in_scope(node) if scope_path else transform_of(node.entity.pose)
        if mine is None:
            problems.append(f"{path}: {label}: unresolved by sdformat-lsp")
            continue
        theirs = entry["relative_to_scope"]
        rot_tol = GIMBAL_TOL if abs(abs(theirs[4]) - math.pi / 2) < 1e-6 else TOL
        if not _close(mine, Transform.from_xyzrpy(*theirs), rot_tol):
            problems.append(f"{path}: {label}: ours {mine.as_list()} != libsdformat {entry['relative_to_scope']}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oracle", default=str(ROOT.parent / "shared" / "oracle" / "bin" / "sdf_oracle"))
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    passed = failed = 0
    for f in args.files:
        problems = compare(f, args.oracle)
        for p in problems:
            print(p)
        failed += bool(problems)
        passed += not problems
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
