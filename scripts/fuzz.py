#!/usr/bin/env python3
"""Run the project's fuzzer (tests/fuzz) with the long profile, by hand, for a while.

    python scripts/fuzz.py [--minutes 30] [--jobs 2] [--stats fuzz-stats.json]

Runs ``pytest tests/fuzz --hypothesis-profile=long`` (300 documents of 80
steps each) again and again with new seeds, and starts no new run when less
than ``--run-minutes`` remain, so it stops by itself. Prints the seeds and
the summed counts (edits, by profile too; requests, checkpoints, documents,
failed runs). ``--jobs N`` keeps N runs going side by side (one per core).
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
    ap.add_argument("--jobs", "-j", type=int, default=1, help="runs side by side (each its own servers), e.g. 2 cores")
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
        "edits_by_profile": {},
        "hypothesis_seeds": [],
    }
    seeds: set[str] = set()
    code = 0
    running: list[tuple[subprocess.Popen, Path, int]] = []
    started = 0
    while True:
        while len(running) < max(1, args.jobs) and time.time() + args.run_minutes * 60 < end:
            seed = int.from_bytes(os.urandom(4), "little")
            part = Path(args.stats).with_suffix(f".run{started}.json").resolve()
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
            print(f"run {started}: hypothesis seed {seed}", flush=True)
            running.append((subprocess.Popen(cmd, env=env, cwd=ROOT), part, seed))
            started += 1
        if not running:
            break
        time.sleep(1.0)
        for proc, part, seed in list(running):
            if proc.poll() is None:
                if time.time() > end + args.run_minutes * 60:
                    proc.kill()  # a run far past its bound: counted as failed below
                    proc.wait()
                else:
                    continue
            running.remove((proc, part, seed))
            total["runs"] += 1
            total["hypothesis_seeds"].append(seed)
            if proc.returncode != 0:
                total["failed_runs"] += 1
                code = 1
            if part.exists():
                stats = json.loads(part.read_text())
                for k in ("edits", "changes_messages", "requests", "checkpoints", "publications", "documents"):
                    total[k] += stats.get(k, 0)
                for k, n in stats.get("edits_by_profile", {}).items():
                    total["edits_by_profile"][k] = total["edits_by_profile"].get(k, 0) + n
                seeds.update(stats["seeds"])
                part.unlink()
            Path(args.stats).write_text(json.dumps({**total, "seed_documents": sorted(seeds)}, indent=1))
            print(json.dumps({k: v for k, v in total.items() if k != "hypothesis_seeds"}), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
