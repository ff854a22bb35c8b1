#!/usr/bin/env python3
"""Linear time on every input (issue 11): each hostile construct at n, 2n, 4n and 8n.

    python benchmarks/bench_scaling.py [--quick] [--only NAME]

For every construct the analysis (``semantics.analyze``, includes resolved
from a temporary directory with a fresh include cache) is timed at four
sizes, best of three runs, in CPU time of this process (steady when other
processes load the machine; the analysis runs in this thread), and the exponent k of ``time ~ size^k`` is fitted
by least squares on the logarithms. Linear is 1.0; the target is every
exponent <= 1.2. Prints one line per construct and exits 1 if any is above.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from sdformat_lsp.semantics import Options, analyze  # noqa: E402
from sdformat_lsp.semantics.includes.resolver import IncludeCache  # noqa: E402

TARGET = 1.2
HEAD = '<?xml version="1.0"?>\n<sdf version="1.9">\n<model name="m">\n<link name="L"/>\n'
TAIL = "</model>\n</sdf>\n"


def model(body: str) -> str:
    return HEAD + body + TAIL


# Each construct: (base n, make(n, directory) -> (text, path or None)).
def cut_short_tags(n: int, d: Path):
    return model("".join(f'<link name="a{i}" <frame name="f{i}"/>\n' for i in range(n))), None


def cut_short_attribute_values(n: int, d: Path):
    return model("".join(f'<frame name="f{i}" attached_to="L\n' for i in range(n))), None


def unclosed_elements(n: int, d: Path):
    return model("".join(f'<model name="u{i}">\n<link name="l"/>\n' for i in range(n))), None


def mismatched_end_tags(n: int, d: Path):
    return model("".join(f'<link name="a{i}"><visual name="v"></link></visual>\n' for i in range(n))), None


def long_names(n: int, d: Path):
    name = "n" * n
    return model(f'<frame name="{name}" attached_to="L"/>\n<frame name="g" attached_to="{name}"/>\n'), None


def long_values(n: int, d: Path):
    return model(f'<link name="v"><pose>{" 0" * n}</pose></link>\n<frame name="x" attached_to="{"L" * n}"/>\n'), None


def long_text_in_pieces(n: int, d: Path):
    return model(
        '<link name="t"><sensor name="s" type="camera"><topic>' + "a<!--c-->" * n + "</topic></sensor></link>\n"
    ), None


def bare_less_than_in_text(n: int, d: Path):
    return model(
        '<link name="t"><sensor name="s" type="camera"><topic>' + "a < b " * n + "</topic></sensor></link>\n"
    ), None


def deep_nesting(n: int, d: Path):
    return '<sdf version="1.9">' + "".join(
        f'<model name="m{i}">' for i in range(n)
    ) + '<link name="L"/>' + "</model>" * n + "</sdf>", None


def long_attached_to_cycle(n: int, d: Path):
    return model("".join(f'<frame name="f{i}" attached_to="f{(i + 1) % n}"/>\n' for i in range(n))), None


def long_relative_to_chain(n: int, d: Path):
    return model(
        "".join(
            f'<frame name="f{i}" attached_to="L"><pose relative_to="{"L" if i == 0 else f"f{i - 1}"}">0 0 1 0 0 0</pose></frame>\n'
            for i in range(n)
        )
    ), None


def long_lines(n: int, d: Path):
    return model("".join(f'<frame name="f{i}" attached_to="L"/>' for i in range(n)) + "\n"), None


def many_attributes(n: int, d: Path):
    attrs = " ".join(f'a{i}="{i}"' for i in range(n))
    return model(f'<link name="x" {attrs}/>\n'), None


def same_tag_unclosed(n: int, d: Path):
    """Models nested ``n`` deep, start tags indented 1 to 40 columns, every end tag at column 0, and
    one model typed unclosed inside: the scanner's second pass, matching end tags by indentation."""
    opens = "".join(f'{" " * (i % 40 + 1)}<model name="m{i}">\n<link name="l"/>\n' for i in range(n))
    typed = " " * 42 + '<model name="new">\n'
    return model(opens + typed + "</model>\n" * n), None


def duplicate_names(n: int, d: Path):
    return model("".join('<frame name="same" attached_to="L"/>\n' for _ in range(n))), None


def wide_fan_out(n: int, d: Path):
    """One model file included ``n`` times (every instance placed)."""
    part = d / "part.sdf"
    if not part.exists():
        part.write_text(
            '<sdf version="1.9"><model name="p"><link name="pl"/><frame name="pf" attached_to="pl"/></model></sdf>'
        )
    body = "".join(f"<include><uri>part.sdf</uri><name>p{i}</name></include>\n" for i in range(n))
    return '<sdf version="1.9"><world name="w">' + body + "</world></sdf>", str(d / f"fan{n}.sdf")


def many_includes(n: int, d: Path):
    """``n`` different files, each included once."""
    for i in range(n):
        f = d / f"inc{i}.sdf"
        if not f.exists():
            f.write_text(f'<sdf version="1.9"><model name="i{i}"><link name="l"/></model></sdf>')
    body = "".join(f"<include><uri>inc{i}.sdf</uri></include>\n" for i in range(n))
    return '<sdf version="1.9"><world name="w">' + body + "</world></sdf>", str(d / f"many{n}.sdf")


TREE_FILES = 11


def include_tree(n: int, d: Path):
    """11 files, each including the next 4 times (4^10 models fully expanded), under a budget of
    ``n`` expanded model instances: the time must follow the budget, however many instances the
    tree would have, each file being analysed once (memoised by path and content)."""
    tree = d / "tree"
    tree.mkdir(exist_ok=True)
    for i in range(TREE_FILES):
        f = tree / f"t{i}.sdf"
        if not f.exists():
            inc = (
                ""
                if i == TREE_FILES - 1
                else "".join(f"<include><uri>t{i + 1}.sdf</uri><name>c{k}</name></include>" for k in range(4))
            )
            f.write_text(f'<sdf version="1.9"><model name="m{i}"><link name="l"/>{inc}</model></sdf>')
    return (tree / "t0.sdf").read_text(), str(tree / "t0.sdf"), n


CONSTRUCTS: dict[str, tuple[int, Callable]] = {
    "cut-short tags": (1000, cut_short_tags),
    "cut-short attribute values": (1000, cut_short_attribute_values),
    "unclosed elements": (500, unclosed_elements),
    "mismatched end tags": (500, mismatched_end_tags),
    "long names": (400_000, long_names),
    "long values": (50_000, long_values),
    "text in many pieces": (20_000, long_text_in_pieces),
    "bare '<' in text": (5_000, bare_less_than_in_text),
    "deep nesting": (500, deep_nesting),
    "unclosed in same-tag nesting": (500, same_tag_unclosed),
    "long attached_to cycle": (1000, long_attached_to_cycle),
    "long relative_to chain": (1000, long_relative_to_chain),
    "long lines": (1000, long_lines),
    "many attributes": (2000, many_attributes),
    "duplicate names": (1000, duplicate_names),
    "wide include fan-out": (500, wide_fan_out),
    "many included files": (250, many_includes),
    "include tree 11x4, budget n": (2000, include_tree),
}


def timed(text: str, path: str | None, repeats: int, budget: int | None = None) -> float:
    best = math.inf
    for _ in range(repeats):
        options = Options(include_cache=IncludeCache())
        if budget is not None:
            options.max_included_instances = budget
        t0 = time.process_time()
        analyze(text, path, options)
        best = min(best, time.process_time() - t0)
    return best


def exponent(sizes: list[int], times: list[float]) -> float:
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(t, 1e-6)) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a quarter of the sizes, one run each (a smoke test)")
    ap.add_argument("--only", help="only the constructs whose name contains this")
    args = ap.parse_args()
    repeats = 1 if args.quick else 3
    worst = 0.0
    print(f"{'construct':28} {'n':>7} {'t(n) ms':>9} {'t(2n)':>8} {'t(4n)':>8} {'t(8n)':>8} {'exponent':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for name, (base, make) in CONSTRUCTS.items():
            if args.only and args.only not in name:
                continue
            if args.quick:
                base = max(1, base // 4)
            sizes, times = [], []
            for k in (1, 2, 4, 8):
                text, path, *budget = make(base * k, d)
                sizes.append(len(text) if path is None else base * k)
                times.append(timed(text, path, repeats, *budget))
            e = exponent(sizes, times)
            worst = max(worst, e)
            flag = "" if e <= TARGET else "  <-- above 1.2"
            print(
                f"{name:28} {base:>7} {1000 * times[0]:>9.1f} {1000 * times[1]:>8.1f} {1000 * times[2]:>8.1f} {1000 * times[3]:>8.1f} {e:>9.2f}{flag}"
            )
        if not args.only or args.only in "include tree":
            text, path, _ = include_tree(0, d)
            t = timed(text, path, repeats)
            print(
                f"include tree 11x4 at the default budget ({Options().max_included_instances:,} instances): {1000 * t:.1f} ms"
            )
    print(f"largest exponent: {worst:.2f} (target <= {TARGET})")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
