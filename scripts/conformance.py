#!/usr/bin/env python3
"""Compare sdformat-lsp with libsdformat on libsdformat's own test files.

Reads ``../shared/conformance/expected.json`` (what libsdformat reports for
each file), analyses every file with the project, and prints agreement on
the verdict, the error codes and the resolved poses.

    python scripts/conformance.py [--all] [--verbose] [--shared DIR]

Without ``--all`` only files without ``<include>`` are counted.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from sdformat_lsp.cli import load_file  # noqa: E402
from sdformat_lsp.diagnostics import Severity  # noqa: E402
from sdformat_lsp.semantics import Options  # noqa: E402
from sdformat_lsp.semantics.pose import Transform, rotation_matrix  # noqa: E402

TOLERANCE = 1e-9


def default_shared() -> Path:
    return ROOT.parent / "shared"


@dataclass
class FileResult:
    name: str
    expected_valid: bool
    our_valid: bool
    expected_codes: set[str]
    our_codes: set[str]
    pose_failures: list[str] = field(default_factory=list)
    frames_compared: int = 0

    @property
    def verdict_ok(self) -> bool:
        return self.expected_valid == self.our_valid

    @property
    def codes_ok(self) -> bool:
        return bool(self.expected_codes & self.our_codes)


@dataclass
class Report:
    results: list[FileResult]

    def both_invalid(self) -> list[FileResult]:
        return [r for r in self.results if not r.expected_valid and not r.our_valid]

    def both_valid(self) -> list[FileResult]:
        return [r for r in self.results if r.expected_valid and r.our_valid]

    @property
    def verdict_rate(self) -> float:
        return sum(r.verdict_ok for r in self.results) / max(1, len(self.results))

    @property
    def code_rate(self) -> float:
        bi = self.both_invalid()
        return sum(r.codes_ok for r in bi) / max(1, len(bi))

    @property
    def frames_compared(self) -> int:
        return sum(r.frames_compared for r in self.results)

    @property
    def pose_failures(self) -> list[str]:
        return [f"{r.name}: {m}" for r in self.results for m in r.pose_failures]

    def summary(self) -> str:
        bi = self.both_invalid()
        return "\n".join(
            [
                f"files: {len(self.results)}",
                f"verdict agreement: {sum(r.verdict_ok for r in self.results)}/{len(self.results)} = {100 * self.verdict_rate:.1f}%",
                f"error codes (files both call invalid): {sum(r.codes_ok for r in bi)}/{len(bi)} = {100 * self.code_rate:.1f}%",
                f"frames within {TOLERANCE:g} (files both call valid): {self.frames_compared - len(self.pose_failures)}/{self.frames_compared}",
            ]
        )


def _matrix_close(a: Transform, b: Transform) -> bool:
    ma, mb = rotation_matrix(a.q), rotation_matrix(b.q)
    return all(abs(ma[i][j] - mb[i][j]) <= TOLERANCE for i in range(3) for j in range(3))


def compare_frames(expected: list[dict], ours: list[dict]) -> tuple[int, list[str]]:
    by_name = {f["name"]: f for f in ours}
    failures = []
    for e in expected:
        o = by_name.get(e["name"])
        if o is None:
            failures.append(f"frame {e['name']} missing")
            continue
        if o["pose"] is None:
            failures.append(f"frame {e['name']} unresolved")
            continue
        te, to = Transform.from_xyzrpy(*e["pose"]), Transform.from_xyzrpy(*o["pose"])
        if any(abs(x - y) > TOLERANCE for x, y in zip(te.p, to.p)) or not _matrix_close(te, to):
            failures.append(f"frame {e['name']} pose {o['pose']} != {e['pose']}")
        if e.get("attached_to") != o.get("attached_to"):
            failures.append(f"frame {e['name']} attached_to {o.get('attached_to')} != {e.get('attached_to')}")
    return len(expected), failures


def has_include(path: Path) -> bool:
    try:
        return "<include" in path.read_text(errors="replace")
    except OSError:
        return False


def run(shared: Path, include_all: bool = False) -> Report:
    conf = shared / "conformance"
    expected = json.loads((conf / "expected.json").read_text())
    base = conf / "files"
    search = [str((conf / p).resolve()) for p in expected.get("search_path", [])]
    results = []
    for name, exp in sorted(expected["files"].items()):
        path = base / name
        if not include_all and has_include(path):
            continue
        paths = list(search)
        if "nested_include" in name:
            paths.append(str((base / "test/integration/model/nested_include").resolve()))
        analysis = load_file(str(path), Options(resource_paths=tuple(paths)))
        our_codes = {d.code for d in analysis.diagnostics if d.severity == Severity.ERROR}
        exp_codes = {e["code"] for e in exp.get("load_errors", []) + exp.get("check_errors", [])}
        r = FileResult(name, bool(exp["valid"]), not our_codes, exp_codes, our_codes)
        if r.expected_valid and r.our_valid:
            r.frames_compared, r.pose_failures = compare_frames(exp.get("frames", []), analysis.frames())
        results.append(r)
    return Report(results)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=default_shared())
    ap.add_argument("--all", action="store_true", help="also count files with <include>")
    ap.add_argument("--verbose", "-v", action="store_true", help="list every disagreement")
    args = ap.parse_args()
    if not (args.shared / "conformance" / "expected.json").exists():
        print(f"no conformance data at {args.shared}", file=sys.stderr)
        return 2
    report = run(args.shared, args.all)
    if args.verbose:
        for r in report.results:
            if not r.verdict_ok:
                print(
                    f"VERDICT {r.name}: libsdformat {'valid' if r.expected_valid else 'invalid'} {sorted(r.expected_codes)}, ours {sorted(r.our_codes)}"
                )
            elif not r.expected_valid and not r.codes_ok:
                print(f"CODES   {r.name}: libsdformat {sorted(r.expected_codes)}, ours {sorted(r.our_codes)}")
        for f in report.pose_failures:
            print(f"POSE    {f}")
    print(report.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
