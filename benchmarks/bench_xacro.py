#!/usr/bin/env python3
"""The whole xacro corpus expanded by ROS's xacro (PyPI `xacro` 2.1.1) and by ours, in the same run
(issue 22: ours at least 3x faster in total).

    python benchmarks/bench_xacro.py [ROOT ...] [--rounds N]

ROOT defaults to /work/corpus-xacro/src (laid out by scripts/xacro_corpus.py). Every .xacro file
below the roots is expanded by both, alternately file by file (a drift of this shared machine's
speed hits both alike), ROS's xacro in a child process of its own (as the `xacro` command runs it:
``process_file`` and ``toprettyxml``), ours in this one (``formats.xacro.expand``: reading, the
expansion and the text). Both measure CPU time of the expansion only (process start-up and
imports aside: a launch file pays those once per robot), summed over the files; each round
repeats the whole corpus and the median round is printed. `$(find)` is answered for both from
the packages below the roots, found once.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from xacro_compare import xacro_files  # noqa: E402
from xacro_oracle import RosXacro, packages_index  # noqa: E402

from sdformat_lsp.formats.xacro import expand  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="*", default=["/work/corpus-xacro/src"])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    files = xacro_files(args.roots)
    if not files:
        print("no .xacro files below", " ".join(args.roots), "(run scripts/xacro_corpus.py)")
        return 1
    packages = packages_index(args.roots)
    try:
        ros = RosXacro(packages)
        ros.expand(files[0])
    except Exception as exc:  # the oracle is a test extra
        print(f"ROS's xacro is not available ({exc}); install the test extras")
        return 1
    rounds = []
    for _ in range(args.rounds):
        t_ros = t_ours = 0.0
        for path in files:
            t_ros += ros.expand(path)["seconds"]
            start = time.process_time()
            expand(path, find_package=packages.get)
            t_ours += time.process_time() - start
        rounds.append((t_ros, t_ours))
    ros.close()
    t_ros = statistics.median(r for r, _ in rounds)
    t_ours = statistics.median(o for _, o in rounds)
    print(f"files: {len(files)} xacro files, {args.rounds} rounds (median round, CPU seconds)")
    print(f"ROS's xacro 2.1.1: {t_ros:8.2f} s")
    print(f"sdformat-lsp:      {t_ours:8.2f} s")
    print(f"ratio: ours is {t_ros / t_ours:.1f}x faster (target >= 3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
