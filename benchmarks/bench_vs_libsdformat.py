#!/usr/bin/env python3
"""`sdformat-lsp check` side by side with libsdformat's `gz sdf --check` (issue: speed).

    python benchmarks/bench_vs_libsdformat.py [--sdf-check PATH] [--build PREFIX]
        [--3k-shapes PATH] [--input PATH ...] [--runs N] [--warmup N]

Both tools run as whole processes, cold (a fresh process each run, no cache
carried from one run to the next; the operating system's file cache is warmed
by the warm-up runs), alternately A B A B so that a drift of this shared
machine's speed hits both alike. Printed per input: the median wall time of
each, the ratio libsdformat / ours of the medians (above 1: we are faster),
the median of the run-by-run ratios and the ratio of the median CPU times (user
plus system: steadier than wall time when others load the machine), and the
peak resident memory of each
process (from the kernel's accounting of the finished child, `wait4`).

The reference is `sdf_check` from `../shared/perf` (libsdformat's main branch
running exactly what `gz sdf --check` runs). It is found from `--sdf-check`,
then `$SDF_CHECK`, then `PATH`; with `--build PREFIX` (and `MIRRORS` set as
`../shared/perf/README.md` says) it is built when missing. Without it the
reference columns are left empty and only our figures are printed.

Inputs: a 6-line model (start-up), the generated 100,000-line world and
5,000-line nested model of `generate.py`, a world of 554 `<include>`s of 50
model directories (each including a shared part: `bench_includes.py`'s tree,
found by both tools through `SDF_PATH`), gz-sim's
`examples/worlds/3k_shapes.sdf` when given with `--3k-shapes` (not shipped
with the project) and any file given with `--input` (its includes found
through the `SDF_PATH` of the environment). A last line gives the start-up
floor, Python importing lxml and nothing else.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import bench_includes  # noqa: E402
import generate  # noqa: E402

SMALL = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <link name="l"/>
  </model>
</sdf>
"""


# The processes are started by this small helper, not by the benchmark itself: Linux counts in a
# child's peak resident memory the pages it held before its exec, which for a child forked from
# this process (tens of MB of generated documents and imports) are this process's. Forked from
# the helper (Python without site, about 9 MB), the figure is the tool's own as soon as it
# exceeds that; a 6-line model's check was read as the benchmark's 33 MB.
RUNNER = r"""
import json, os, sys, time
for line in sys.stdin:
    cmd, env = json.loads(line)
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execve(cmd[0], cmd, env)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    print(json.dumps([wall, usage.ru_maxrss / 1024, code, usage.ru_utime + usage.ru_stime]), flush=True)
"""


class Runner:
    """Runs whole processes from the helper above, one at a time."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-S", "-c", RUNNER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def run(self, cmd: list[str], env: dict[str, str] | None) -> tuple[float, float, int, float]:
        """Wall seconds, peak RSS in MB, exit status and CPU seconds (user + system) of one
        whole-process run (output discarded)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        exe = cmd[0] if os.path.isabs(cmd[0]) else (shutil.which(cmd[0]) or cmd[0])
        self.proc.stdin.write(json.dumps([[exe, *cmd[1:]], dict(env if env is not None else os.environ)]) + "\n")
        self.proc.stdin.flush()
        wall, mb, code, cpu = json.loads(self.proc.stdout.readline())
        return wall, mb, code, cpu

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def find_sdf_check(given: str | None, build: str | None) -> str | None:
    candidates = [given, os.environ.get("SDF_CHECK"), shutil.which("sdf_check")]
    if build:
        candidates.append(str(Path(build) / "bin" / "sdf_check"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    if given:
        print(f"note: --sdf-check {given} is not an executable file", file=sys.stderr)
    script = ROOT.parent / "shared" / "perf" / "build_libsdformat.sh"
    if build and script.is_file():
        print(f"building libsdformat into {build} (a few minutes) ...", file=sys.stderr)
        done = subprocess.run(["bash", str(script), build], stdout=sys.stderr)
        exe = Path(build) / "bin" / "sdf_check"
        if done.returncode == 0 and exe.is_file():
            return str(exe)
        print("note: the build failed; see its output above", file=sys.stderr)
    return None


def measure(
    runner: Runner, ours: list[str], ref: list[str] | None, env: dict[str, str], runs: int, warmup: int
) -> dict:
    a: list[tuple[float, float, int, float]] = []
    b: list[tuple[float, float, int, float]] = []
    for i in range(warmup + runs):
        ra = runner.run(ours, env)
        rb = runner.run(ref, env) if ref else None
        if i >= warmup:
            a.append(ra)
            if rb:
                b.append(rb)
    out = {
        "ours_ms": 1000 * statistics.median(r[0] for r in a),
        "ours_mb": max(r[1] for r in a),
        "ours_exit": sorted({r[2] for r in a}),
        "ours_cpu": statistics.median(r[3] for r in a),
    }
    if b:
        out.update(
            ref_ms=1000 * statistics.median(r[0] for r in b),
            ref_mb=max(r[1] for r in b),
            ref_exit=sorted({r[2] for r in b}),
            pair_ratio=statistics.median(rb[0] / ra[0] for ra, rb in zip(a, b)),
            cpu_ratio=statistics.median(r[3] for r in b) / statistics.median(r[3] for r in a),
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sdf-check", help="libsdformat's sdf_check (from ../shared/perf)")
    ap.add_argument(
        "--build", metavar="PREFIX", help="build sdf_check into PREFIX when it is not found (needs MIRRORS)"
    )
    ap.add_argument("--3k-shapes", dest="shapes", metavar="PATH", help="gz-sim's examples/worlds/3k_shapes.sdf")
    ap.add_argument(
        "--input", action="append", default=[], metavar="PATH", help="another document to time (repeatable)"
    )
    ap.add_argument("--runs", type=int, default=5, help="counted runs per tool and input (default 5)")
    ap.add_argument("--warmup", type=int, default=1, help="runs not counted, first (default 1)")
    args = ap.parse_args()
    runner = Runner()  # first, while this process is small

    ref_exe = find_sdf_check(args.sdf_check, args.build)
    # Byte-compile the package first, as installing it does: a checkout run with
    # PYTHONDONTWRITEBYTECODE would otherwise compile every module on every run.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "server" / "sdformat_lsp")],
        check=False,
        stdout=subprocess.DEVNULL,
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "server") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    ours_cmd = [sys.executable, "-m", "sdformat_lsp", "check"]

    tmp = Path(tempfile.mkdtemp(prefix="bench-vs-"))
    inputs: list[tuple[str, Path]] = []
    for name, text in (
        ("6-line model (start-up)", SMALL),
        ("generated world, 100k lines", generate.large_world()),
        ("generated nested model, 5k lines", generate.large_model()),
    ):
        path = tmp / (name.split(",")[0].split(" (")[0].replace(" ", "_") + ".sdf")
        path.write_text(text)
        inputs.append((name, path))
    includes = bench_includes.make_tree(tmp / "includes", 554, 50)
    inputs.append(("generated world, 554 includes", includes))
    env_includes = {**env, "SDF_PATH": str(tmp / "includes" / "models")}
    for extra in args.input:
        if os.path.isfile(extra):
            inputs.append((Path(extra).name, Path(extra)))
        else:
            print(f"note: {extra} not found; skipped", file=sys.stderr)
    if args.shapes:
        if os.path.isfile(args.shapes):
            inputs.insert(1, ("3k_shapes.sdf", Path(args.shapes)))
        else:
            print(f"note: {args.shapes} not found; 3k_shapes.sdf skipped", file=sys.stderr)

    print(
        f"python {sys.version.split()[0]}; {args.runs} runs after {args.warmup} warm-up, medians; whole process, cold"
    )
    # the interpreter's build weighs on every figure: on the same machine pyenv's 3.11.7 (no PGO,
    # libpython shared) checked the 100k-line world about 12% slower than Debian's 3.11 (session 7)
    print(f"interpreter: {os.path.realpath(sys.executable)}")
    print(f"reference: {ref_exe or 'sdf_check not found (reference columns skipped)'}")
    head = f"{'input':34} {'lines':>7} {'libsdformat ms':>14} {'ours ms':>8} {'ratio':>6} {'pairwise':>8} {'cpu ratio':>9} {'peak MB ref / ours':>19} {'exit ref/ours':>13}"
    print(head)
    print("-" * len(head))
    try:
        for name, path in inputs:
            lines = path.read_bytes().count(b"\n")
            run_env = env_includes if path == includes else env
            r = measure(
                runner,
                ours_cmd + [str(path)],
                [ref_exe, str(path)] if ref_exe else None,
                run_env,
                args.runs,
                args.warmup,
            )
            exits_ours = ",".join(map(str, r["ours_exit"]))
            if "ref_ms" in r:
                exits_ref = ",".join(map(str, r["ref_exit"]))
                print(
                    f"{name:34} {lines:>7} {r['ref_ms']:>14.0f} {r['ours_ms']:>8.0f} {r['ref_ms'] / r['ours_ms']:>5.2f}x {r['pair_ratio']:>7.2f}x {r['cpu_ratio']:>8.2f}x"
                    f" {r['ref_mb']:>9.0f} / {r['ours_mb']:<7.0f} {exits_ref:>6}/{exits_ours:<6}"
                )
            else:
                print(
                    f"{name:34} {lines:>7} {'-':>14} {r['ours_ms']:>8.0f} {'-':>6} {'-':>8} {'-':>9} {'- / ':>12}{r['ours_mb']:<7.0f} {'-/':>7}{exits_ours:<6}"
                )
        floor = measure(runner, [sys.executable, "-c", "import lxml.etree"], None, env, args.runs, args.warmup)
        print(
            f"{'floor: python + import lxml.etree':34} {'':>7} {'':>14} {floor['ours_ms']:>8.0f} {'':>6} {'':>8} {'':>9} {'':>12}{floor['ours_mb']:<7.0f}"
        )
    finally:
        runner.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
