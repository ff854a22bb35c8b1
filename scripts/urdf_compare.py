#!/usr/bin/env python3
"""Compare sdformat-lsp's verdict on URDF files with libsdformat reading them.

    python scripts/urdf_compare.py [--oracle BIN] [--main-check BIN] [--jobs N] PATH...

PATH is a ``.urdf`` file or a directory searched recursively for them. The verdict
is "the file loads without errors": for libsdformat 12, the oracle of
``../shared/oracle`` (``sdf_oracle FILE`` prints JSON; any entry in ``errors``
means refused); for libsdformat's main branch (optional), a program that prints
"Valid." and exits 0 when ``gz sdf --check`` would accept the file (for example a
build of ``sdf_check``). Ours: any error-severity diagnostic of the analysis.

Prints each disagreement (libsdformat's error codes against ours), then the
disagreements grouped by that pair of code sets, then one agreement line per
reference, for example ``libsdformat 12 verdict agreement: 320/327 = 97.9%``, and
with both references, on how many files they disagree with each other and how
many of those ours agrees with main on (the project follows libsdformat's main branch).
Exit 0 always (this is a measurement, not a test).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from sdformat_lsp.cli import load_file  # noqa: E402
from sdformat_lsp.semantics import Options  # noqa: E402


def urdf_files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix.lower() == ".urdf" and q.is_file()))
        else:
            out.append(p)
    return out


def oracle12(binary: str, path: Path) -> list[str]:
    """libsdformat 12's error codes for ``path`` (empty: it loads)."""
    try:
        proc = subprocess.run([binary, str(path.resolve())], capture_output=True, text=True, timeout=300)
        return [e["code"] for e in json.loads(proc.stdout).get("errors", [])]
    except (subprocess.TimeoutExpired, ValueError) as exc:
        return [f"ORACLE_FAILED({type(exc).__name__})"]


def main_check(binary: str, path: Path) -> list[str]:
    """libsdformat main's verdict: the ``Error Code N`` numbers it printed (empty: valid)."""
    try:
        proc = subprocess.run([binary, str(path.resolve())], capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return ["TIMEOUT"]
    if proc.returncode == 0:
        return []
    codes = sorted(
        {
            w.rstrip(":")
            for w in (proc.stdout + proc.stderr).replace("Error Code ", "Error_Code_").split()
            if w.startswith("Error_Code_")
        }
    )
    return [c.replace("Error_Code_", "E") for c in codes] or [f"exit {proc.returncode}"]


def ours(path: Path) -> list[str]:
    analysis = load_file(str(path), Options())
    return [d.code for d in analysis.diagnostics if d.is_error]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--oracle",
        default=str(ROOT.parent / "shared" / "oracle" / "bin" / "sdf_oracle"),
        help="libsdformat 12 oracle (sdf_oracle)",
    )
    ap.add_argument("--main-check", help="a check program of libsdformat's main branch (prints Valid., exit 0)")
    ap.add_argument("--jobs", type=int, default=1, help="reference programs run in parallel (default 1)")
    ap.add_argument("--quiet", action="store_true", help="only the grouped disagreements and the figures")
    ap.add_argument("--json", metavar="OUT", help="also write every file's codes (ours and each reference's) to OUT")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()

    files = urdf_files(args.paths)
    references = [("libsdformat 12", args.oracle, oracle12)]
    if args.main_check:
        references.append(("libsdformat main", args.main_check, main_check))
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        theirs = {
            name: list(pool.map(lambda f, b=binary, run=run: run(b, f), files)) for name, binary, run in references
        }
    mine = [ours(f) for f in files]
    if args.json:
        rows = [
            {"file": str(f), "ours": m, **{name: theirs[name][i] for name, _, _ in references}}
            for i, (f, m) in enumerate(zip(files, mine))
        ]
        Path(args.json).write_text(json.dumps(rows, indent=1))

    for name, _, _ in references:
        agree = 0
        groups: Counter = Counter()
        for f, t, m in zip(files, theirs[name], mine):
            if bool(t) == bool(m):
                agree += 1
                continue
            key = (" ".join(sorted(set(t))) or "valid", " ".join(sorted(set(m))) or "valid")
            groups[key] += 1
            if not args.quiet:
                print(f"{name}: {f}: libsdformat {key[0]}; ours {key[1]}")
        for (t, m), n in groups.most_common():
            print(f"{name}: {n} file(s): libsdformat {t}; ours {m}")
        pct = 100.0 * agree / len(files) if files else 100.0
        print(f"{name} verdict agreement: {agree}/{len(files)} = {pct:.1f}%")
    if len(references) == 2:
        split = [
            (f, a, b, m)
            for f, a, b, m in zip(files, theirs["libsdformat 12"], theirs["libsdformat main"], mine)
            if bool(a) != bool(b)
        ]
        with_main = sum(bool(b) == bool(m) for _, _, b, m in split)
        print(f"libsdformat 12 and main disagree on {len(split)} file(s); ours sides with main on {with_main}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
