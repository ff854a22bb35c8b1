#!/usr/bin/env python3
"""`format` (and the other jobs of issue 16) against `check` on the same large world.

    python benchmarks/bench_format.py [--3k-shapes PATH] [--models N] [--repeat N]

In one process, alternately (so a drift of this shared machine's speed hits all alike), each
job's own work on the same text: `check` is the analysis `sdformat-lsp check` runs (decode,
parse, schema, frame graphs, checks); `format` is the formatter on a copy whose indentation has
been scrambled (so that it has work to do); `inertial-stats` the analysis plus the statistics;
`graph` the analysis plus the kinematic tree as DOT; `print` the analysis plus the printed
document with every pose resolved. Printed: the median of each and its ratio
to `check`'s median (the issue's bound: format and print within 2x). The input is a world laid out
as gz-sim's 3k_shapes.sdf (3,000 one-link models, SDFormat 1.6, so print converts it), or
`generate.py`'s world with `--input generated` (joints, frames, relative_to), or 3k_shapes.sdf
itself with `--3k-shapes` (not shipped with the project).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))
sys.path.insert(0, str(HERE))

from generate import large_world  # noqa: E402

from sdformat_lsp.features.graph_export import frame_graph, to_dot  # noqa: E402
from sdformat_lsp.printing import printed  # noqa: E402
from sdformat_lsp.formatting import format_text  # noqa: E402
from sdformat_lsp.model.builder import version_tuple  # noqa: E402
from sdformat_lsp.semantics import Options, analyze  # noqa: E402
from sdformat_lsp.semantics.checks.mass_properties import model_statistics  # noqa: E402
from sdformat_lsp.xml import decode_source  # noqa: E402


_SHAPES = (  # name, y offset, geometry, mass, rgba
    ("box", 0.0, "<box><size>1 1 1</size></box>", 1, "1 0 0 1"),
    ("cylinder", -1.5, "<cylinder><radius>0.5</radius><length>1.0</length></cylinder>", 2, "0 1 0 1"),
    ("sphere", 1.5, "<sphere><radius>0.5</radius></sphere>", 3, "0 0 1 1"),
)


def shapes_world(rows: int = 1000) -> str:
    """A world laid out as gz-sim's examples/worlds/3k_shapes.sdf is (SDFormat 1.6, a box, a cylinder
    and a sphere per row, each a model with one link: inertial, collision, visual with material)."""
    out = ['<?xml version="1.0" ?>', '<sdf version="1.6">', '  <world name="shapes">']
    out += ['    <physics name="1ms" type="ignored">', "      <max_step_size>0.001</max_step_size>", "    </physics>"]
    out += [
        '    <plugin filename="gz-sim-scene-broadcaster-system" name="gz::sim::systems::SceneBroadcaster">',
        "    </plugin>",
    ]
    for i in range(rows):
        x = -750.0 + 1.5 * i
        for kind, y, geometry, mass, rgba in _SHAPES:
            out += [
                f'    <model name="{kind}_{i}">',
                f"      <pose>{x} {y} 0.5 0 0 0</pose>",
                f'      <link name="{kind}_link">',
                "        <inertial>",
                "          <inertia>",
                f"            <ixx>{mass}</ixx>",
                "            <ixy>0</ixy>",
                "            <ixz>0</ixz>",
                f"            <iyy>{mass}</iyy>",
                "            <iyz>0</iyz>",
                f"            <izz>{mass}</izz>",
                "          </inertia>",
                f"          <mass>{mass}.0</mass>",
                "        </inertial>",
                f'        <collision name="{kind}_collision">',
                f"          <geometry>{geometry}</geometry>",
                "        </collision>",
                f'        <visual name="{kind}_visual">',
                f"          <geometry>{geometry}</geometry>",
                f"          <material><ambient>{rgba}</ambient><diffuse>{rgba}</diffuse><specular>{rgba}</specular></material>",
                "        </visual>",
                "      </link>",
                "    </model>",
            ]
    out += ["  </world>", "</sdf>", ""]
    return "\n".join(out)


def scrambled(text: str) -> str:
    """The same document with every line's indentation changed (and trailing spaces added)."""
    lines = text.split("\n")
    return "\n".join(
        (" " * (i % 7)) + line.lstrip() + ("  " if i % 5 == 0 and line.strip() else "") for i, line in enumerate(lines)
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--3k-shapes", dest="shapes", metavar="PATH", help="gz-sim's examples/worlds/3k_shapes.sdf itself")
    ap.add_argument(
        "--input",
        choices=("shapes", "generated"),
        default="shapes",
        help="shapes: laid out as 3k_shapes.sdf (default); generated: generate.py's world (joints, frames, relative_to)",
    )
    ap.add_argument("--models", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--commands",
        action="store_true",
        help="also time the whole commands (a process each, start-up included) on the same file, by CPU of the child processes",
    )
    args = ap.parse_args()
    if args.shapes:
        data = Path(args.shapes).read_bytes()
        name, path = Path(args.shapes).name, str(Path(args.shapes).resolve())
    elif args.input == "shapes":
        data = shapes_world(args.models // 3).encode()
        name, path = (
            f"3k_shapes-like world ({args.models // 3 * 3} models, SDFormat 1.6)",
            str(HERE / "generated" / "shapes.sdf"),
        )
    else:
        data = large_world(args.models).encode()
        name, path = f"generated world ({args.models} models)", str(HERE / "generated" / "world.sdf")
    text, _ = decode_source(data)
    messy = scrambled(text)
    options = Options()

    def check() -> None:
        t, _ = decode_source(data)
        analyze(t, path, options)

    def fmt() -> None:
        format_text(messy)

    def print_() -> None:
        t, _ = decode_source(data)
        printed(analyze(t, path, options), resolve_poses=True)

    def stats() -> None:
        t, _ = decode_source(data)
        a = analyze(t, path, options)
        model_statistics(a.graphs, version_tuple(a.version))

    def graph() -> None:
        t, _ = decode_source(data)
        a = analyze(t, path, options)
        to_dot(frame_graph(a.graphs, "kinematic"))

    jobs = {"check": check, "format": fmt, "print": print_, "inertial-stats": stats, "graph": graph}
    # CPU time of this process (user + sys) is the figure: on a machine shared with other work
    # the wall clock measures the neighbours too. Wall time is shown beside it.
    cpu: dict[str, list[float]] = {k: [] for k in jobs}
    wall: dict[str, list[float]] = {k: [] for k in jobs}
    for job in jobs.values():
        job()  # warm-up: imports, compiled patterns, caches
    for _ in range(args.repeat):
        for k, job in jobs.items():
            c0, t0 = time.process_time(), time.perf_counter()
            job()
            cpu[k].append(time.process_time() - c0)
            wall[k].append(time.perf_counter() - t0)
    lines = text.count("\n") + 1
    print(f"{name}: {lines} lines, {len(data) / 1e6:.1f} MB; median of {args.repeat} runs each, alternating")
    base = statistics.median(cpu["check"])
    for k in jobs:
        med = statistics.median(cpu[k])
        print(
            f"  {k:15} {med * 1000:9.1f} ms CPU   {med / base:5.2f}x check   ({statistics.median(wall[k]) * 1000:.1f} ms wall)"
        )
    changed = sum(1 for a, b in zip(messy.split("\n"), format_text(messy).split("\n")) if a != b)
    print(f"  (format rewrote {changed} of {lines} lines)")
    if args.commands:
        commands(path, data, args.repeat)
    return 0


def commands(path: str, data: bytes, repeat: int) -> None:
    """The subcommands as a user runs them: one process each, CPU (user + sys) of the children."""
    import os
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bench-format-") as tmp:
        doc = os.path.join(tmp, os.path.basename(path))
        with open(doc, "wb") as f:
            f.write(data)  # print and check read it; format reads standard input (the file stays as it is)
        jobs = {
            "check": ["check", doc],
            "format -": ["format", "-"],
            "format --check": ["format", "--check", doc],
            "print": ["print", doc],
            "print --resolve-poses": ["print", "--resolve-poses", doc],
        }
        cpu: dict[str, list[float]] = {k: [] for k in jobs}
        for _ in range(repeat):
            for k, argv in jobs.items():
                before = os.times()
                with open(doc, "rb") as stdin:
                    subprocess.run(
                        [sys.executable, "-m", "sdformat_lsp", *argv],
                        stdin=stdin if argv[-1] == "-" else subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        check=False,
                    )
                after = os.times()
                cpu[k].append(
                    after.children_user - before.children_user + after.children_system - before.children_system
                )
    base = statistics.median(cpu["check"])
    print(f"whole commands (a process each, start-up included), CPU of the child process, median of {repeat}:")
    for k, ts in cpu.items():
        med = statistics.median(ts)
        print(f"  sdformat-lsp {k:22} {med * 1000:7.0f} ms CPU   {med / base:5.2f}x check")


if __name__ == "__main__":
    sys.exit(main())
