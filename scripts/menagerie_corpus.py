#!/usr/bin/env python3
"""Lay out MuJoCo Menagerie's models outside the repository, for ``scripts/mjcf_corpus.py``.

    python scripts/menagerie_corpus.py [--mirror GIT_DIR] [--commit SHA] [--corpus /work/corpus-menagerie]
    python scripts/menagerie_corpus.py --from DIR --commit SHA [--corpus /work/corpus-menagerie]

google-deepmind/mujoco_menagerie is too large for the tool library's ``fetch``, but forks of it
are mirrored whole, and a fork's history holds upstream's own commits: the default is upstream's
commit a03e87b (2026-01-11, "Import google-deepmind/mujoco_menagerie from GitHub") read from
``rahil-blip/mujoco_menagerie``'s mirror. ``--from DIR`` reads a directory filled by hand instead
(files read one by one from the stored index), with the commit they were read at. Either way the
commit is recorded in ``<corpus>/COMMITS.tsv``.

Written: every model directory holding an ``.xml`` file, with its XML, meshes and textures, below
``<corpus>/src/google-deepmind+mujoco_menagerie/``. Paths that climb out, are absolute, or carry
``$``, backticks or control characters are refused (``corpus.refused``; the stored index holds a
file named ``$(echo ... >&2).xml``), listed in ``...refused.txt`` and never handed to a shell.

A mesh the mirror lacks (its largest blobs) is replaced by a small tetrahedron of the same name
and format, so that MuJoCo, the oracle of ``mjcf_corpus.py``, loads the model. The frames compared
do not depend on mesh content: MuJoCo places bodies, sites, cameras and joints from the XML alone;
a mesh moves only its own geom's frame (and the inertia, which ``mjcf_corpus.py`` does not compare;
bodies whose frame MuJoCo moves to the inertia, free joints with ``align``, are skipped there).
Models whose geoms are fitted to a mesh (``fitaabb``, a primitive ``type`` with ``mesh=``) and
that received a placeholder are counted apart: only their geom frames would change.
"""

from __future__ import annotations

import argparse
import re
import shutil
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402  (scripts/corpus.py)

REPO = "google-deepmind/mujoco_menagerie"
MIRROR = Path("/work/.mirror/rahil-blip+mujoco_menagerie/repo")
COMMIT = "a03e87bf13502b0b48ebbf2808928fd96ebf9cf3"
ASSETS = {".xml", ".stl", ".obj", ".msh", ".skn", ".png", ".mtl"}
MESHES = {".stl", ".obj", ".msh"}
# A tetrahedron of 1 m sides: MuJoCo refuses a mesh or a moving body of (nearly) no volume, mass or
# inertia, and meshes are often scaled down a thousandfold (millimetres).
CORNERS = ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
FACES = ((0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3))
FITTED = re.compile(
    r"fitaabb\s*=\s*\"true\"|<geom\b[^>]*\btype\s*=\s*\"(?:box|sphere|capsule|cylinder|ellipsoid)\"[^>]*\bmesh\s*="
)


def placeholder(suffix: str) -> bytes:
    """A small closed tetrahedron in the format ``suffix`` names (binary STL, OBJ, MuJoCo's .msh)."""
    if suffix == ".obj":
        lines = [f"v {x} {y} {z}" for x, y, z in CORNERS] + [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in FACES]
        return ("\n".join(lines) + "\n").encode()
    if suffix == ".msh":  # nvertex, nnormal, ntexcoord, nface, then float vertices and int faces
        return (
            struct.pack("4i", 4, 0, 0, 4) + struct.pack("12f", *sum(CORNERS, ())) + struct.pack("12i", *sum(FACES, ()))
        )
    out = bytearray(b"placeholder tetrahedron".ljust(80, b" ") + struct.pack("<I", len(FACES)))
    for face in FACES:
        out += struct.pack("<3f", 0.0, 0.0, 0.0)
        for i in face:
            out += struct.pack("<3f", *CORNERS[i])
        out += b"\0\0"
    return bytes(out)


def from_directory(source: Path, target: Path, keep) -> int:
    """Copy the files of ``source`` that ``keep`` selects, refusing unsafe relative paths."""
    written = 0
    refusals = []
    for path in sorted(source.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        name = path.relative_to(source).as_posix()
        why = corpus.refused(name)
        if why is not None:
            refusals.append(f"{name!r}: {why}\n")
            continue
        if keep(Path(name)):
            out = target / name
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, out)
            written += 1
    (target.parent / (target.name + ".refused.txt")).write_text("".join(refusals))
    (target.parent / (target.name + ".absent.txt")).write_text("")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, default=MIRROR, help="a bare git repository holding --commit")
    parser.add_argument("--commit", default=COMMIT)
    parser.add_argument("--from", dest="source", type=Path, help="a directory of the files instead of a mirror")
    parser.add_argument("--corpus", type=Path, default=Path("/work/corpus-menagerie"))
    args = parser.parse_args(argv)
    target = args.corpus / "src" / REPO.replace("/", "+")
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)

    def keep(path: Path) -> bool:
        return len(path.parts) > 1 and path.suffix.lower() in ASSETS

    if args.source is not None:
        written = from_directory(args.source, target, keep)
    else:
        written = corpus.extract(args.mirror, args.commit, target, keep=keep)
    # Models are the directories holding XML; a directory without any is not laid out.
    models = sorted({p.relative_to(target).parts[0] for p in target.rglob("*.xml")})
    for child in target.iterdir():
        if child.name not in models:
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    absent_list = target.parent / (target.name + ".absent.txt")
    absent = [line for line in absent_list.read_text().splitlines() if line]
    replaced = set()
    for name in absent:
        path = target / name
        if path.suffix.lower() in MESHES and path.exists():
            path.write_bytes(placeholder(path.suffix.lower()))
            replaced.add(Path(name).parts[0])
    fitted = sorted(
        m for m in replaced if any(FITTED.search(x.read_text(errors="replace")) for x in (target / m).rglob("*.xml"))
    )
    ledger = args.corpus / "COMMITS.tsv"
    ledger.write_text(f"{REPO}\t{args.commit}\n")
    refusals = (target.parent / (target.name + ".refused.txt")).read_text().splitlines()
    print(
        f"{REPO} at {args.commit[:12]}: {len(models)} model directories, {written} files, "
        f"{sum(1 for _ in target.rglob('*.xml'))} XML; unsafe paths refused: {len(refusals)}; "
        f"meshes absent from the source, replaced by a placeholder: "
        f"{sum(1 for n in absent if Path(n).suffix.lower() in MESHES)} in {len(replaced)} models "
        f"(of which fitting geoms to meshes: {len(fitted)}{': ' + ', '.join(fitted) if fitted else ''}); "
        f"other files absent: {sum(1 for n in absent if Path(n).suffix.lower() not in MESHES)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
