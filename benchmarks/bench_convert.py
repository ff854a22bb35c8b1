#!/usr/bin/env python3
"""Time of `convert --to urdf` and `--to sdf` on a generated 1,000-link tree (issue #14: < 0.5 s).

    python benchmarks/bench_convert.py [--links N] [--repeat N]

The tree has nested models, poses relative to other frames, joint poses of
their own and axes expressed in other frames, so every part of the conversion
works. Printed: the median time of the analysis alone (the baseline, what
`check` does), of the conversion after it, of both (what `convert` does from
the text), and of the URDF back to SDFormat (its analysis included), with the
ratios to the baseline; wall-clock and CPU time (the CPU time is what a busy
machine does not inflate).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))


def tree(n: int, seed: int = 1) -> str:
    """A model of ``n`` links, 10% of them in nested models, every joint moving or fixed."""
    rng = random.Random(seed)

    def pose(ref: str | None = None) -> str:
        rel = f' relative_to="{ref}"' if ref else ""
        vals = [rng.uniform(-1, 1) for _ in range(3)] + [rng.uniform(-math.pi, math.pi) for _ in range(3)]
        return f"<pose{rel}>{' '.join(f'{v:.6f}' for v in vals)}</pose>"

    top, nested = [], {f"sub{k}": [] for k in range(n // 100)}
    where = ["" if i == 0 or rng.random() < 0.9 else rng.choice(list(nested) or [""]) for i in range(n)]
    for i in range(n):
        body = (
            f'<link name="L{i}">{pose(f"L{i - 1}" if i and where[i] == where[i - 1] and rng.random() < 0.5 else None)}'
            f'<inertial><mass>1</mass></inertial><visual name="v"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></visual></link>'
        )
        (nested[where[i]] if where[i] else top).append(body)
    for i in range(1, n):
        p = rng.randrange(max(0, i - 20), i)
        name = lambda k: f"{where[k]}::L{k}" if where[k] else f"L{k}"  # noqa: E731
        kind = rng.choice(("revolute", "prismatic", "continuous", "fixed"))
        top.append(
            f'<joint name="J{i}" type="{kind}">{pose() if rng.random() < 0.3 else ""}<parent>{name(p)}</parent>'
            f'<child>{name(i)}</child><axis><xyz expressed_in="__model__">0 0 1</xyz></axis></joint>'
        )
    models = "".join(f'<model name="{m}">{pose()}{"".join(links)}</model>' for m, links in nested.items() if links)
    return f'<?xml version="1.0"?>\n<sdf version="1.9"><model name="big">{"".join(top)}{models}</model></sdf>\n'


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--links", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    from sdformat_lsp.convert import sdf_to_urdf, urdf_to_sdf
    from sdformat_lsp.semantics import Options, analyze

    text = tree(args.links)
    names = ("analysis (baseline)", "conversion", "convert --to urdf", "convert --to sdf")
    wall: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    clocks = ((wall, time.perf_counter), (cpu, time.process_time))
    for _ in range(args.repeat):
        marks = []
        for _, clock in clocks:
            marks.append([clock()])
        a = analyze(text, "/tmp/bench.sdf", Options())
        for m, (_, clock) in zip(marks, clocks):
            m.append(clock())
        result = sdf_to_urdf(a)
        for m, (_, clock) in zip(marks, clocks):
            m.append(clock())
        assert result.text is not None, result.errors
        back = urdf_to_sdf(analyze(result.text, "/tmp/bench.urdf", Options()))
        for m, (_, clock) in zip(marks, clocks):
            m.append(clock())
        assert back.text is not None, back.errors
        for (table, _), (t0, t1, t2, t3) in zip(clocks, marks):
            table[names[0]].append(t1 - t0)
            table[names[1]].append(t2 - t1)
            table[names[2]].append(t2 - t0)
            table[names[3]].append(t3 - t2)
    links = result.text.count("<link ")
    print(f"{args.links}-link tree ({len(text) // 1024} KiB SDFormat, {links} URDF links), median of {args.repeat}:")
    print(f"  {'':22} {'wall ms':>9} {'cpu ms':>9}  ratio to baseline (wall)")
    base = statistics.median(wall[names[0]])
    for name in names:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        print(f"  {name:22} {w * 1000:9.1f} {c * 1000:9.1f}  {w / base:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
