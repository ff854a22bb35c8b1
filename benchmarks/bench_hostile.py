#!/usr/bin/env python3
"""Time to diagnostics for hostile and broken input (issue: analysis core).

    python benchmarks/bench_hostile.py

The cases are those of ``tests/core/test_hostile.py`` (an empty file, binary
garbage, invalid UTF-8, truncated XML, 10,000 nested models, a 1,000-frame
attached_to cycle, billion laughs, an external entity...). Target: each gives
its diagnostics within a second.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "tests" / "core"))

from sdformat_lsp.semantics import analyze  # noqa: E402
from sdformat_lsp.xml import decode_source  # noqa: E402
from test_hostile import CASES  # noqa: E402


def main() -> int:
    cases = dict(CASES)
    text, problems = decode_source(bytes(range(256)) * 20)
    cases["invalid-utf8"] = text
    print(f"{'case':18} {'chars':>9} {'ms':>8} diagnostics")
    for name, text in sorted(cases.items()):
        t0 = time.perf_counter()
        a = analyze(text, extra=problems if name == "invalid-utf8" else None)
        ms = 1000 * (time.perf_counter() - t0)
        print(f"{name:18} {len(text):>9} {ms:>8.1f} {len(a.diagnostics)} (first: {a.diagnostics[0].code})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
