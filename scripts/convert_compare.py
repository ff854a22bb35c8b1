#!/usr/bin/env python3
"""Convert real SDFormat models to URDF and check the URDF with libsdformat.

    python scripts/convert_compare.py [--oracle BIN] [--lossy] [--jobs N] [--resource-path DIR]... PATH...

PATH is an ``.sdf`` file or a directory searched recursively for them. Worlds
are skipped (``--model`` picks one model of a world; this script measures the
files that are one model). Every model that libsdformat 12 (the oracle of
``../shared/oracle``) loads without error is converted with the project's
command, ``sdformat-lsp convert --to urdf FILE`` (``--lossy`` passed on), the
URDF is loaded by the oracle, and every moving joint's frame and axis, seen
from the URDF's root link (or the world when joints hang from it), is compared
with the original's to 1e-7 (``tests/urdf/oracle_frames.compare``, the check
the tests run on generated trees and libsdformat's own test files).

The resource path for ``model://`` URIs is ``--resource-path`` plus, for every
PATH directory, each directory holding a model directory (one with a
``model.config``); it is given to both programs (``--resource-path``, and
``SDF_PATH``/``GZ_SIM_RESOURCE_PATH``).

Prints the refusals grouped by their first reason, every disagreement, and the
counts. Joints that libsdformat 12 does not see because a link above them is
lighter than 1e-6 kg (libsdformat 12 compares a URDF mass with zero to that
tolerance and drops the link with everything below it; main drops only masses
<= 0) are listed apart, as a limit of the oracle.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "tests" / "urdf"))  # oracle_frames: the comparison the tests make

from oracle_frames import compare, run  # noqa: E402


def sdf_files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(p.rglob("*.sdf")) if p.is_dir() else [p])
    return out


def model_roots(paths: list[str]) -> list[str]:
    """Directories holding model directories, under every PATH directory."""
    found: set[str] = set()
    for p in map(Path, paths):
        if p.is_dir():
            found.update(str(c.parent.parent) for c in p.rglob("model.config"))
    return sorted(found)


def _reason(stderr: str) -> str:
    """The first error of a refused conversion, without the file name, numbers and names that vary."""
    for line in stderr.splitlines():
        if ": error: " in line:
            text = line.split(": error: ", 1)[1]
            words = ["N" if w.strip("()',:;").isdigit() else ("'X'" if w.startswith("'") else w) for w in text.split()]
            return " ".join(w for i, w in enumerate(words) if not (w == "'X'" and i and words[i - 1] == "'X'"))[:120]
    return stderr.strip().splitlines()[0][:120] if stderr.strip() else "(no message)"


def one(path: Path, args, env: dict, out_dir: Path) -> dict:
    original = run(args.oracle, str(path.resolve()), env)
    if original.get("root_kind") != "model":
        return {"kind": "world" if original.get("root_kind") == "world" else "unloadable"}
    if original.get("errors"):
        return {"kind": "refused by libsdformat"}
    cmd = [
        sys.executable,
        "-m",
        "sdformat_lsp",
        "convert",
        "--to",
        "urdf",
        "--name-separator",
        "::",
        str(path),
    ]  # compared by scoped name
    cmd += [a for d in args.resource_path for a in ("--resource-path", d)]
    if args.lossy:
        cmd.append("--lossy")
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    if r.returncode != 0:
        return {"kind": "refused", "reason": _reason(r.stderr), "file": str(path)}

    urdf = out_dir / (str(abs(hash(str(path)))) + ".urdf")
    urdf.write_text(r.stdout, encoding="utf-8")
    from lxml import etree  # recovering: gazebo blocks may carry undeclared prefixes (gz:), as libsdformat allows

    robot = etree.fromstring(r.stdout.encode("utf-8"), etree.XMLParser(recover=True))
    links = [e.get("name") for e in robot.findall("link")]
    joints = [e.get("type") for e in robot.findall("joint")]
    moving = sum(t != "fixed" for t in joints)
    if not moving:
        return {"kind": "converted", "moving": 0, "problems": []}
    root = None if links[0] == "world" else links[0]
    problems = compare(args.oracle, path, urdf, root, original=original, env=env)
    light = _light_joints(robot)
    known = [p for p in problems if any(p.endswith(f"joint {j} is missing from the URDF") for j in light)]
    return {"kind": "converted", "moving": moving, "problems": [p for p in problems if p not in known], "light": known}


LIGHT = 1e-6  # libsdformat 12 takes a URDF mass within this of zero for none (ignition::math::equal); main only <= 0


def _light_joints(robot) -> set[str]:
    """Joints below a link whose mass libsdformat 12 takes for zero (it drops the link and all below it)."""
    mass = {}
    for link in robot.findall("link"):
        m = link.find("inertial/mass")
        try:
            mass[link.get("name")] = float(m.get("value")) if m is not None else 0.0
        except (TypeError, ValueError):
            mass[link.get("name")] = 0.0
    parent = {
        j.find("child").get("link"): (j.get("name"), j.find("parent").get("link"))
        for j in robot.findall("joint")
        if j.find("child") is not None and j.find("parent") is not None
    }
    out = set()
    for joint in robot.findall("joint"):
        link, seen = joint.find("child").get("link") if joint.find("child") is not None else None, set()
        while link is not None and link not in seen:
            seen.add(link)
            if 0 < mass.get(link, 1.0) <= LIGHT:
                out.add(joint.get("name"))
                break
            link = parent.get(link, (None, None))[1]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oracle", default=str(ROOT.parent / "shared" / "oracle" / "bin" / "sdf_oracle"))
    ap.add_argument("--resource-path", action="append", default=[], metavar="DIR")
    ap.add_argument("--lossy", action="store_true", help="pass --lossy to the conversion")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--verbose", action="store_true", help="list the files of every refusal")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    args.resource_path = [os.path.abspath(d) for d in args.resource_path] + model_roots(args.paths)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "server"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    search = os.pathsep.join(args.resource_path)
    env["SDF_PATH"] = env["GZ_SIM_RESOURCE_PATH"] = search
    files = sdf_files(args.paths)
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(lambda f: one(f, args, env, Path(tmp)), files))
    kinds = Counter(r["kind"] for r in results)
    reasons = Counter(r["reason"] for r in results if r["kind"] == "refused")
    for reason, n in reasons.most_common():
        print(f"refused ({n}): {reason}")
        if args.verbose:
            for r in results:
                if r.get("reason") == reason:
                    print(f"    {r['file']}")
    problems = [p for r in results for p in r.get("problems", [])]
    for p in problems:
        print(p)
    models = kinds["converted"] + kinds["refused"]
    moving = sum(r.get("moving", 0) for r in results)
    bad = sum(1 for r in results if r.get("problems"))
    light = [p for r in results for p in r.get("light", [])]
    for p in light:
        print(f"{p} (below a link lighter than {LIGHT:g} kg: libsdformat 12 drops it, main keeps it)")
    print(
        f"{len(files)} files: {kinds['world']} worlds, {kinds['unloadable']} unloadable, "
        f"{kinds['refused by libsdformat']} models libsdformat 12 refuses, {models} models"
    )
    print(
        f"converted {kinds['converted']} of {models} models ({kinds['refused']} refused); "
        f"{moving} moving joints in converted models; {bad} models disagree ({len(problems)} problems); "
        f"{len(light)} joints below links libsdformat 12 takes for massless, in "
        f"{sum(1 for r in results if r.get('light'))} models"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
