#!/usr/bin/env python3
"""10,000 real documents: `check --jobs` on every core against libsdformat's `sdf_check` run by `xargs -P`.

    python benchmarks/bench_corpus_scale.py --corpus ../corpus/src [--docs 10000] [--jobs N]
        [--sdf-check PATH] [--out DIR]

The real-world corpus (``scripts/realworld.py``'s ``--corpus``: repositories of
SDFormat and URDF files) is copied, outside the repository, into ``--out`` (a
temporary directory, removed afterwards, unless given) until the copy holds
``--docs`` documents: the corpus tree again and again (``copy0/``, ``copy1/``,
...), every file hard-linked (copied when linking fails) so that relative
includes, ``model.config`` files and meshes stand where the documents expect
them; the last copy takes only as many documents as are missing. Documents are
the files both tools read: ``.sdf``, ``.world`` and ``.urdf``.

Then, on the same list of documents, each tool once, as a user would run it:

* ours: ``sdformat-lsp check --jobs N FILE...`` (one process, N workers;
  report to a file);
* libsdformat: ``xargs -0 -P N -n 1 sdf_check`` (a process per document, N at a
  time; ``sdf_check`` from ``../shared/perf``, found from ``--sdf-check``,
  ``$SDF_CHECK`` or ``PATH``).

Printed: the documents, the wall time and documents per second of each, the
CPU time each used (its processes' user and system time) with the load average
before and after, and the ratios (libsdformat's time / ours: above 1, we are
faster). ``N`` defaults to the number of cores. ``SDF_PATH`` is the
environment's, for both. The CPU ratio is the one to read when the machine was
not idle: waiting for a loaded machine stretches wall times, not CPU times.
``--out DIR --reuse`` checks a copy kept by an earlier run again (with ``--only``
one side: the sides can then be timed at different moments, each on an idle
machine).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = (".sdf", ".world", ".urdf")


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def corpus_files(corpus: Path) -> list[Path]:
    """Every regular file under ``corpus``, relative, in a stable order (no symbolic links
    followed: a copy must not reach outside the corpus)."""
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(corpus):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        for name in sorted(filenames):
            p = Path(dirpath) / name
            if p.is_file() and not p.is_symlink():
                out.append(p.relative_to(corpus))
    return out


def place(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def build_copy(corpus: Path, out: Path, docs: int) -> list[str]:
    """Copy the corpus into ``out`` until it holds ``docs`` documents; their paths relative to ``out``."""
    files = corpus_files(corpus)
    per_copy = sum(1 for f in files if f.suffix in DOCUMENTS)
    if per_copy == 0:
        raise SystemExit(f"bench_corpus_scale: no .sdf, .world or .urdf file under {corpus}")
    chosen: list[str] = []
    copy = 0
    while len(chosen) < docs:
        base = Path(f"copy{copy}")
        for f in files:
            if f.suffix in DOCUMENTS:
                if len(chosen) >= docs:
                    continue
                chosen.append(str(base / f))
            place(corpus / f, out / base / f)
        copy += 1
    return chosen


def find_sdf_check(given: str | None) -> str | None:
    for c in (given, os.environ.get("SDF_CHECK"), shutil.which("sdf_check")):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def timed(cmd: list[str], cwd: Path, stdin: bytes | None = None) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of the processes it ran (user + system), exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


def load() -> str:
    return "load %.2f" % os.getloadavg()[0]


def listed(out: Path) -> list[str]:
    """The documents of a kept copy, in the order build_copy chose them."""
    docs = []
    for copy in sorted((p for p in out.iterdir() if p.name.startswith("copy")), key=lambda p: int(p.name[4:])):
        docs.extend(str(f.relative_to(out)) for f in sorted(copy.rglob("*")) if f.suffix in DOCUMENTS and f.is_file())
    return docs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True, help="the real-world corpus (a directory of repositories)")
    ap.add_argument("--docs", type=int, default=10_000, help="documents in the copy (default 10,000)")
    ap.add_argument("--jobs", type=int, default=default_jobs(), help="processes at once (default: every core)")
    ap.add_argument("--sdf-check", help="libsdformat's sdf_check (from ../shared/perf)")
    ap.add_argument("--out", help="where to build the copy (kept); default a temporary directory, removed")
    ap.add_argument("--reuse", action="store_true", help="check the copy already in --out again")
    ap.add_argument("--only", choices=("ours", "libsdformat"), help="time one side only")
    args = ap.parse_args()

    corpus = Path(args.corpus).resolve()
    if not corpus.is_dir():
        print(f"bench_corpus_scale: {corpus} is not a directory", file=sys.stderr)
        return 2
    ref = find_sdf_check(args.sdf_check)
    out = Path(args.out).resolve() if args.out else Path(tempfile.mkdtemp(prefix="bench-scale-"))
    if args.reuse and not (args.out and out.is_dir()):
        print("bench_corpus_scale: --reuse needs the --out of an earlier run", file=sys.stderr)
        return 2
    if args.out and not args.reuse and out.exists() and any(out.iterdir()):
        print(f"bench_corpus_scale: {out} is not empty", file=sys.stderr)
        return 2
    try:
        t0 = time.perf_counter()
        docs = listed(out)[: args.docs] if args.reuse else build_copy(corpus, out, args.docs)
        print(
            f"{len(docs)} documents (.sdf, .world, .urdf) {'in the kept copy' if args.reuse else 'copied from ' + str(corpus)}"
            f" in {time.perf_counter() - t0:.1f} s; {args.jobs} jobs; python {sys.version.split()[0]}"
        )
        ours_cmd = [sys.executable, "-m", "sdformat_lsp", "check", "--jobs", str(args.jobs), *docs]
        env_path = str(ROOT / "server")
        os.environ["PYTHONPATH"] = env_path + (
            os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else ""
        )
        if args.only != "libsdformat":
            start = load()
            ours, ours_cpu, ours_exit = timed(ours_cmd, out)
            print(
                f"sdformat-lsp check --jobs {args.jobs}: {ours:8.1f} s  {len(docs) / ours:7.1f} documents/s"
                f"  CPU {ours_cpu:8.1f} s  exit {ours_exit}  ({start} before, {load()} after)"
            )
        if args.only == "ours":
            return 0
        if ref is None:
            print("libsdformat: sdf_check not found (--sdf-check, $SDF_CHECK or PATH); no ratio")
            return 0
        listing = b"".join(d.encode() + b"\0" for d in docs)
        start = load()
        theirs, theirs_cpu, theirs_exit = timed(["xargs", "-0", "-P", str(args.jobs), "-n", "1", ref], out, listing)
        print(
            f"sdf_check via xargs -P {args.jobs}:    {theirs:8.1f} s  {len(docs) / theirs:7.1f} documents/s"
            f"  CPU {theirs_cpu:8.1f} s  exit {theirs_exit}  ({start} before, {load()} after)"
        )
        if args.only is None:
            print(f"ratio (libsdformat time / ours): {theirs / ours:.2f}x wall, {theirs_cpu / ours_cpu:.2f}x CPU")
    finally:
        if not args.out:
            shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
