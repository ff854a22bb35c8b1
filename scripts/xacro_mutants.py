#!/usr/bin/env python3
"""Mutated corpus files get ROS's xacro's verdict: random small edits (1 or 2 of a brace, a quote,
a prefix, a name...) of .xacro files of the corpus, each expanded by ROS's xacro (PyPI 2.1.1) and by
ours; prints how many agree (same document, or both fail) and the first disagreements.

    python scripts/xacro_mutants.py [--seed N] [--count N] [ROOT ...]

The mutant is written next to its original (so that its relative includes resolve) as
``.mut_<name>`` and removed after; ROOT defaults to /work/corpus-xacro/src.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from xacro_compare import xacro_files  # noqa: E402
from xacro_oracle import RosXacro, packages_index  # noqa: E402

from sdformat_lsp.formats.xacro import expand  # noqa: E402
from sdformat_lsp.formats.xacro.equivalence import first_difference  # noqa: E402

SNIPPETS = [
    "${",
    "}",
    "$(",
    ")",
    "<",
    "/",
    "xacro:",
    "${a.b}",
    "${1/0}",
    "**",
    "*",
    ":=",
    "^|",
    "name",
    " ",
    "",
    "x",
    "1",
    ".",
    "'",
    "${x}",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="*", default=["/work/corpus-xacro/src"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=300)
    args = parser.parse_args(argv)
    packages = packages_index(args.roots)
    files = xacro_files(args.roots)
    rnd = random.Random(args.seed)
    ros = RosXacro(packages)
    stats: dict[str, int] = {}
    shown = 0
    for f in rnd.sample(files, min(args.count, len(files))):
        text = Path(f).read_text(encoding="utf-8", errors="replace")
        for _ in range(rnd.randint(1, 2)):
            i = rnd.randrange(len(text) + 1)
            text = text[:i] + rnd.choice(SNIPPETS) + text[min(len(text), i + rnd.randint(0, 4)) :]
        mutant = os.path.join(os.path.dirname(f), ".mut_" + os.path.basename(f))
        Path(mutant).write_text(text, encoding="utf-8")
        try:
            theirs = ros.expand(mutant)
            ours = expand(mutant, find_package=packages.get)
        finally:
            os.remove(mutant)
        if theirs["ok"] and ours.ok:
            verdict = "same" if first_difference(theirs["text"], ours.text) is None else "different"
        elif theirs["ok"]:
            verdict = "ours fails"
        elif ours.ok:
            verdict = "only ROS fails"
        else:
            verdict = (
                "both fail" if all(d.path for d in ours.errors if d.severity == 1) else "both fail, ours unlocated"
            )
        stats[verdict] = stats.get(verdict, 0) + 1
        if verdict not in ("same", "both fail") and shown < 10:
            shown += 1
            print(
                f"  {verdict}: {f}: ROS: {(theirs.get('error') or '')[:120]!r}; ours: "
                f"{[d.message[:100] for d in ours.errors if d.severity == 1][:2]}"
            )
    ros.close()
    total = sum(stats.values())
    agree = stats.get("same", 0) + stats.get("both fail", 0)
    print(
        f"mutants: {total}; same verdict and document: {agree} ({100.0 * agree / max(total, 1):.1f}%); "
        + ", ".join(f"{k} {v}" for k, v in sorted(stats.items()))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
