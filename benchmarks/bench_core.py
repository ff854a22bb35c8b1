#!/usr/bin/env python3
"""Time and peak memory of the full analysis (issue: analysis core).

    python benchmarks/bench_core.py [--repeat N]

Each case runs in a fresh process so that its peak RSS is its own. Targets on
a 2-core machine: 5,000-line model < 100 ms; 100,000-line world < 1 s and
< 300 MB.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))
sys.path.insert(0, str(HERE))

CASES = {"model-100-lines": "small_model", "model-5000-lines": "large_model", "world-3000-models": "large_world"}


def _child(case: str, repeat: int, schema: bool) -> None:
    import resource
    import time

    import generate
    from sdformat_lsp.semantics import Options, analyze

    text = getattr(generate, CASES[case])()
    times = []
    diags = 0
    a = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = analyze(text, None, Options(schema=schema))
        times.append(time.perf_counter() - t0)
        # The previous analysis stays alive during the run (as an editor's would) and is freed
        # here, outside the timed analysis: analyses have no reference cycles, so that is at once.
        a = result
        diags = len([d for d in a.diagnostics if d.severity == 1])
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"case": case, "lines": text.count("\n"), "errors": diags, "times": times, "peak_mb": peak_mb}))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-schema", action="store_true", help="skip schema validation (to measure its cost)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(args.child, args.repeat, not args.no_schema)
        return 0
    print(f"{'case':22} {'lines':>7} {'median ms':>10} {'min ms':>8} {'peak MB':>8} errors")
    for case in CASES:
        cmd = [sys.executable, __file__, "--child", case, "--repeat", str(args.repeat)] + (
            ["--no-schema"] if args.no_schema else []
        )
        out = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        t = out["times"]
        print(
            f"{case:22} {out['lines']:>7} {1000 * statistics.median(t):>10.1f} {1000 * min(t):>8.1f} {out['peak_mb']:>8.1f} {out['errors']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
