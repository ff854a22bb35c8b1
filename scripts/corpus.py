#!/usr/bin/env python3
"""Lay out the real-world corpora outside the repository, from bare mirrors of public repositories.

Blobs the mirror lacks (files of 4 MiB and more, Git LFS content) are written as empty files and
listed in ``<corpus>/src/owner+name.absent.txt``.

The project is measured on third-party documents it never sees; to develop against real files
we keep our own corpora outside the checkout. Each repository is brought onto the machine as a
bare git mirror (``owner+name/repo`` under the mirror directory, as the tool library's ``fetch``
lays it out) and this script writes the tree of its newest commit to
``<corpus>/src/owner+name/``, recording the commit in ``<corpus>/COMMITS.tsv`` so that a figure
measured on the corpus can say what it was measured on.

    python scripts/corpus.py [--mirrors /work/.mirror] [--corpus /work/corpus] [--set sdformat|all] [REPO ...]

A repository that is not mirrored is named with what to fetch; the rest are laid out anyway.
Re-running replaces a repository's tree only when its commit changed.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

# SDFormat and URDF documents of Gazebo users: worlds, models, robots (scripts/realworld.py,
# realworld_frames.py, urdf_compare.py read them).
SDFORMAT = (
    "gazebosim/gz-sim",
    "osrf/gazebo_models",
    "PX4/PX4-gazebo-models",
    "ArduPilot/ardupilot_gazebo",
    "ArduPilot/SITL_Models",
    "aws-robotics/aws-robomaker-small-warehouse-world",
    "aws-robotics/aws-robomaker-hospital-world",
    "aws-robotics/aws-robomaker-small-house-world",
    "osrf/vrx",
    "osrf/mbzirc",
    "osrf/subt",
    "ROBOTIS-GIT/turtlebot3_simulations",
    "gazebosim/ros_gz",
    "ros-simulation/gazebo_ros_pkgs",
    "ros/urdf_tutorial",
    "Daniella1/urdf_files_dataset",
)
SETS = {"sdformat": SDFORMAT}


def head(mirror: Path) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(mirror), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()


def refused(name: str) -> str | None:
    """Why a path written in a public repository is not laid out, or None when it is safe.

    A repository names its files as it likes: the stored index of MuJoCo Menagerie holds one
    called ``$(echo ... >&2).xml``. No path is ever handed to a shell here, but one that climbs out
    of the target, is absolute, or carries shell or control characters is refused all the same,
    so that no later tool that does (a CI step, a user's loop) is handed it from our corpus.
    """
    if not name or name.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", name):
        return "absolute"
    if any(part in ("", ".", "..") for part in re.split(r"[/\\]", name)):
        return "'..', '.' or an empty component"
    if "$" in name or "`" in name:
        return "shell characters ($ or `)"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return "control characters"
    return None


def extract(mirror: Path, commit: str, target: Path, keep=None) -> int:
    """Write the regular files of ``commit`` below ``target``; return how many were written.

    A mirror lacks its largest blobs (and Git LFS content), so ``git archive`` would fail on
    the first one: blobs are read one by one and the absent ones left out. ``keep`` (a predicate
    on the path) selects the files; paths ``refused`` names are never written, and are listed in
    ``<target>.refused.txt``.
    """
    listing = subprocess.run(
        ["git", "--git-dir", str(mirror), "ls-tree", "-r", "-z", commit], check=True, capture_output=True
    ).stdout.split(b"\0")
    entries = []
    refusals: list[str] = []
    for row in listing:
        if not row:
            continue
        meta, _, name = row.partition(b"\t")
        mode, kind, sha = meta.split()
        text = name.decode("utf-8", "surrogateescape")
        why = refused(text)
        if why is not None:
            refusals.append(f"{text!r}: {why}\n")
            continue
        path = Path(text)
        if kind == b"blob" and mode in (b"100644", b"100755") and (keep is None or keep(path)):
            entries.append((sha, path))
    if refusals:
        print(f"{mirror}: {len(refusals)} unsafe paths refused", file=sys.stderr)
    (target.parent / (target.name + ".refused.txt")).write_text("".join(refusals))
    batch = subprocess.Popen(
        ["git", "--git-dir", str(mirror), "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert batch.stdin and batch.stdout
    written = 0
    absent: list[str] = []
    for sha, path in entries:
        batch.stdin.write(sha + b"\n")
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        out = target / path
        out.parent.mkdir(parents=True, exist_ok=True)
        if len(header) != 3:  # "<sha> missing": a blob the mirror does not carry (4 MiB and more, LFS)
            # An empty file in its place: the documents naming it (a mesh, mostly) find it as they would
            # in a full clone, so a lookup warning measured on the corpus is never caused by the mirror.
            out.write_bytes(b"")
            absent.append(str(path))
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)
        out.write_bytes(data)
        written += 1
    batch.stdin.close()
    batch.wait()
    # Listed beside the tree, so that a reader of a placeholder (the 3D view, a mesh check) can tell.
    (target.parent / (target.name + ".absent.txt")).write_text("".join(f"{a}\n" for a in absent))
    return written


def lay_out(repo: str, mirrors: Path, corpus: Path, recorded: dict[str, str]) -> str:
    key = repo.replace("/", "+")
    mirror = mirrors / key / "repo"
    if not mirror.is_dir():
        return f"{repo}: not mirrored; fetch github:{repo} first"
    commit = head(mirror)
    target = corpus / "src" / key
    if recorded.get(repo) == commit and target.is_dir():
        return f"{repo}: {commit[:12]} (unchanged)"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    written = extract(mirror, commit, target)
    recorded[repo] = commit
    return f"{repo}: {commit[:12]}, {written} files"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", nargs="*", help="owner/name of mirrored repositories (default: the set)")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--corpus", type=Path, default=Path("/work/corpus"))
    parser.add_argument("--set", choices=sorted(SETS), default="sdformat")
    args = parser.parse_args(argv)
    args.corpus.mkdir(parents=True, exist_ok=True)
    ledger = args.corpus / "COMMITS.tsv"
    recorded = (
        dict(line.split("\t", 1) for line in ledger.read_text().splitlines() if "\t" in line) if ledger.exists() else {}
    )
    missing = 0
    for repo in args.repos or SETS[args.set]:
        line = lay_out(repo, args.mirrors, args.corpus, recorded)
        missing += "not mirrored" in line
        print(line)
    ledger.write_text("".join(f"{r}\t{c}\n" for r, c in sorted(recorded.items())))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
