#!/usr/bin/env python3
"""Expand every xacro file of a corpus with ROS's xacro (PyPI `xacro` 2.1.1) and with ours, and
print how often the documents agree (comments, white space between elements and attribute
order aside) and whether ours fails, with a located error, wherever ROS's fails.

    python scripts/xacro_compare.py [ROOT ...] [--show N] [--top-level]

ROOT defaults to /work/corpus-xacro/src (laid out by scripts/xacro_corpus.py). `$(find pkg)` is
answered, for both, from the packages (directories with a package.xml) below the roots.
"--top-level" counts only the files no other file of the corpus includes.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time

from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from xacro_oracle import RosXacro, packages_index  # noqa: E402

from sdformat_lsp.formats.xacro import expand  # noqa: E402
from sdformat_lsp.formats.xacro.equivalence import first_difference  # noqa: E402


def xacro_files(roots: list[str]) -> list[str]:
    out = []
    for root in roots:
        for d, dirs, files in os.walk(root):
            dirs.sort()
            out.extend(os.path.join(d, f) for f in sorted(files) if f.endswith(".xacro"))
    return out


def included_names(files: list[str]) -> set[str]:
    """Base names of files some file of the corpus includes (libraries, not documents)."""
    names: set[str] = set()
    pattern = re.compile(r"<xacro:include\s[^>]*filename\s*=\s*[\"']([^\"']+)[\"']")
    for f in files:
        try:
            text = Path(f).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for spec in pattern.findall(text):
            names.add(os.path.basename(spec.strip()))
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="*", default=["/work/corpus-xacro/src"])
    parser.add_argument("--show", type=int, default=10, help="list the first N disagreements")
    parser.add_argument("--top-level", action="store_true", help="only files no other file includes")
    args = parser.parse_args(argv)
    files = xacro_files(args.roots)
    if args.top_level:
        libs = included_names(files)
        files = [f for f in files if os.path.basename(f) not in libs]
    packages = packages_index(args.roots)
    ros = RosXacro(packages)

    def find(name: str) -> str | None:
        return packages.get(name)

    verdicts: Counter = Counter()
    per_repo: dict[str, Counter] = {}
    shown: list[str] = []
    t_ros = t_ours = 0.0
    identical = 0  # the same text, character for character
    for path in files:
        theirs = ros.expand(path)
        t_ros += theirs["seconds"]
        start = time.process_time()
        ours = expand(path, find_package=find)
        t_ours += time.process_time() - start
        repo = os.path.relpath(path, args.roots[0]).split(os.sep)[0]
        if theirs["ok"] and ours.ok:
            diff = first_difference(theirs["text"], ours.text)
            verdict = "same" if diff is None else "different"
            detail = diff
            identical += theirs["text"] == ours.text
        elif theirs["ok"]:
            verdict = "ours fails"
            detail = "; ".join(d.message for d in ours.errors if d.severity == 1)[:300]
        elif ours.ok:
            verdict = "only ROS fails"
            detail = theirs["error"].splitlines()[0][:300] if theirs["error"] else ""
        else:
            located = all(d.path for d in ours.errors if d.severity == 1)
            verdict = "both fail" if located else "both fail, ours unlocated"
            detail = None
        verdicts[verdict] += 1
        per_repo.setdefault(repo, Counter())[verdict] += 1
        if detail is not None and verdict != "same" and len(shown) < args.show:
            shown.append(f"  {verdict}: {os.path.relpath(path, args.roots[0])}: {detail}")
    ros.close()
    ros_ok = verdicts["same"] + verdicts["different"] + verdicts["ours fails"]
    ros_fail = verdicts["only ROS fails"] + verdicts["both fail"] + verdicts["both fail, ours unlocated"]
    for repo, c in sorted(per_repo.items()):
        print(f"{repo:40} " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    if shown:
        print("disagreements:")
        print("\n".join(shown))
    print(f"files: {len(files)}; packages found: {len(packages)}")
    if ros_ok:
        print(
            f"agreement: {verdicts['same']}/{ros_ok} = {100.0 * verdicts['same'] / ros_ok:.1f}% of the files ROS's xacro expands"
            f" (different {verdicts['different']}, ours fails {verdicts['ours fails']}); "
            f"the same text character for character: {identical}"
        )
    print(
        f"ROS's xacro fails on {ros_fail}: ours fails with a located error on {verdicts['both fail']}, "
        f"unlocated {verdicts['both fail, ours unlocated']}, expands {verdicts['only ROS fails']}"
    )
    print(f"CPU time: ROS's xacro {t_ros:.2f} s, ours {t_ours:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
