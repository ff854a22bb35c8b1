#!/usr/bin/env python3
"""Run the project's fuzzer (tests/fuzz) with the long profile, by hand, for a while.

    python scripts/fuzz.py [--minutes 30] [--stats fuzz-stats.json]

Runs ``pytest tests/fuzz --hypothesis-profile=long`` (300 documents of 80
steps each) again and again with new seeds, and starts no new run when less
than ``--run-minutes`` remain, so it stops by itself. Prints the seeds and
the summed counts (edits, requests, checkpoints, documents, failed runs).
Exit status 0 when no invariant failed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument(
        "--run-minutes", type=float, default=6.0, help="the longest one run takes; none starts with less time left"
    )
    ap.add_argument("--stats", default="fuzz-stats.json")
    args = ap.parse_args()
    end = time.time() + args.minutes * 60
    total = {
        "runs": 0,
        "failed_runs": 0,
        "edits": 0,
        "changes_messages": 0,
        "requests": 0,
        "checkpoints": 0,
        "publications": 0,
        "documents": 0,
        "hypothesis_seeds": [],
    }
    seeds: set[str] = set()
    code = 0
    while time.time() + args.run_minutes * 60 < end:
        seed = int.from_bytes(os.urandom(4), "little")
        part = Path(args.stats).with_suffix(f".run{total['runs']}.json").resolve()
        env = dict(os.environ, SDFORMAT_FUZZ_STATS=str(part))
        env["PYTHONPATH"] = str(ROOT / "server") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            str(ROOT / "tests" / "fuzz"),
            "--hypothesis-profile=long",
            f"--hypothesis-seed={seed}",
        ]
        print(f"run {total['runs']}: hypothesis seed {seed}", flush=True)
        rc = subprocess.call(cmd, env=env, cwd=ROOT, timeout=max(60.0, end - time.time()))
        total["runs"] += 1
        total["hypothesis_seeds"].append(seed)
        if rc != 0:
            total["failed_runs"] += 1
            code = 1
        if part.exists():
            stats = json.loads(part.read_text())
            for k in ("edits", "changes_messages", "requests", "checkpoints", "publications", "documents"):
                total[k] += stats.get(k, 0)
            seeds.update(stats["seeds"])
            part.unlink()
        Path(args.stats).write_text(json.dumps({**total, "seed_documents": sorted(seeds)}, indent=1))
        print(json.dumps({k: v for k, v in total.items() if k != "hypothesis_seeds"}), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
