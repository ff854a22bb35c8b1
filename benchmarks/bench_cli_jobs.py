"""`check --jobs`: a directory of generated documents checked on every core against one.

Generates N documents (default 1,000: small models of 5 to 40 links, worlds
of a few models, some with errors) in a temporary directory, then runs
`sdformat-lsp check DIR` as users do (a new process each time, output to a
file) with `--jobs 1` and with `--jobs` set to the number of cores, each
--repeat times, and prints both wall times (median) and their ratio. Both
runs must print the same report, byte for byte.

    python benchmarks/bench_cli_jobs.py [--docs 1000] [--repeat 3] [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import _model_body  # noqa: E402


def document(i: int) -> str:
    rng = random.Random(i)
    lines = ['<?xml version="1.0"?>', '<sdf version="1.9">']
    if i % 4 == 0:
        lines.append(f'  <world name="w{i}">')
        for m in range(rng.randint(2, 5)):
            lines.append(f'    <model name="m{m}">')
            _model_body(rng, "", rng.randint(2, 8), 0, lines, "      ")
            lines.append("    </model>")
        lines.append("  </world>")
    else:
        lines.append(f'  <model name="robot{i}">')
        _model_body(rng, "", rng.randint(5, 40), 0, lines, "    ")
        if i % 10 == 3:  # some documents with errors, as a real repository has
            lines.append('    <frame name="broken" attached_to="nowhere"/>')
        lines.append("  </model>")
    lines.append("</sdf>")
    return "\n".join(lines) + "\n"


def generate(root: Path, n: int) -> int:
    total = 0
    for i in range(n):
        d = root / f"group{i % 20:02d}"
        d.mkdir(exist_ok=True)
        text = document(i)
        total += len(text)
        (d / f"doc{i:04d}.sdf").write_text(text)
    return total


def run(root: Path, jobs: int) -> tuple[float, bytes, int]:
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "server"), os.environ.get("PYTHONPATH", "")]), NO_COLOR="1"
    )
    started = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "check", "--jobs", str(jobs), "--no-config", str(root)],
        capture_output=True,
        env=env,
    )
    return time.perf_counter() - started, r.stdout, r.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    ap.add_argument("--jobs", type=int, default=cores, help="the parallel run's --jobs (default: the number of cores)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-cli-jobs-") as tmp:
        root = Path(tmp)
        size = generate(root, args.docs)
        print(f"{args.docs} documents, {size / 1e6:.1f} MB, {cores} cores")
        serial, parallel = [], []
        reports = set()
        for _ in range(args.repeat):
            t, out, code = run(root, 1)
            serial.append(t)
            reports.add((out, code))
            t, out, code = run(root, args.jobs)
            parallel.append(t)
            reports.add((out, code))
        if len(reports) != 1:
            print("ERROR: --jobs 1 and --jobs N printed different reports")
            return 1
        s, p = statistics.median(serial), statistics.median(parallel)
        print(f"--jobs 1:  median {s:7.2f} s   min {min(serial):7.2f} s   ({1000 * s / args.docs:.1f} ms per document)")
        print(
            f"--jobs {args.jobs}:  median {p:7.2f} s   min {min(parallel):7.2f} s   ({1000 * p / args.docs:.1f} ms per document)"
        )
        print(
            f"speed-up (jobs 1 / jobs {args.jobs}): {s / p:.2f}x   (ideal {min(args.jobs, cores)}x; the same report both ways)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
