"""The MJCF reader on a corpus of MuJoCo models, compared with MuJoCo itself.

    python scripts/mjcf_corpus.py ROOT... [--tolerance 1e-9] [--show N]

For every ``.xml`` file under the roots whose root element is ``<mujoco>``:
our analysis of it (errors of the MJCF reader, crashes) and, when the
``mujoco`` package is installed and MuJoCo loads the file, every body, site
and camera pose and every joint anchor of MuJoCo's model at its initial
configuration (``mj_forward`` at ``qpos0``) compared with ours. Prints the
counts; exits 1 when a file MuJoCo loads gets an error from us, a pose
differs by more than the tolerance, or the analysis crashed.

The corpus lives outside the repository (the developers' guide: e.g.
``/work/corpus-mjcf``, extracted from public repositories of MuJoCo models).
"""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from sdformat_lsp.files import FileRefused, read_file  # noqa: E402
from sdformat_lsp.interface.pose import quat_from_matrix  # noqa: E402
from sdformat_lsp.model.transform import Transform, quat_from_rpy  # noqa: E402
from sdformat_lsp.semantics import Options, analyze  # noqa: E402
from sdformat_lsp.semantics.includes.cache import IncludeCache  # noqa: E402
from sdformat_lsp.xml import decode_source  # noqa: E402

NOT_FOLLOWED = ("<replicate", "<attach", "<composite", "<flexcomp")
ALIGNED = ('align="true"', 'alignfree="true"')  # MuJoCo moves such a body's frame to its inertia (not followed)


def _ours(path: str):
    data = read_file(path)
    text, problems = decode_source(data)
    if "<mujoco" not in text:
        return None, None
    a = analyze(text, path, Options(include_cache=IncludeCache()), extra=problems)
    if a.xml.root is None or a.xml.root.tag != "mujoco":
        return None, None
    return a, text


def _error(pose: list[float], p, q) -> float:
    got = Transform((pose[0], pose[1], pose[2]), quat_from_rpy(*pose[3:]))
    want = Transform(tuple(float(v) for v in p), tuple(float(v) for v in q))
    d = want.inverse() * got
    return max(max(abs(c) for c in d.p), abs(abs(d.q[0]) - 1.0))


def _mat_quat(xmat) -> tuple[float, ...]:
    return quat_from_matrix([[float(xmat[3 * i + j]) for j in range(3)] for i in range(3)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", nargs="+")
    ap.add_argument("--tolerance", type=float, default=1e-9)
    ap.add_argument("--show", type=int, default=10, help="list this many problems of each kind")
    args = ap.parse_args(argv)
    try:
        import mujoco
    except ImportError:
        mujoco = None
        print("mujoco is not installed: our reading only, no comparison", file=sys.stderr)
    files = sorted(str(p) for r in args.roots for p in Path(r).rglob("*.xml"))
    counts = dict(
        mjcf=0,
        loaded=0,
        clean=0,
        ours_errors_where_loaded=0,
        crashes=0,
        generated=0,
        compared=0,
        mismatched=0,
        missing=0,
    )
    worst = 0.0
    shown: dict[str, list[str]] = {}

    def note(kind: str, text: str) -> None:
        shown.setdefault(kind, []).append(text)

    for path in files:
        try:
            a, text = _ours(path)
        except FileRefused:
            continue
        except Exception:  # noqa: BLE001 - a crash is what this counts
            counts["crashes"] += 1
            note("crash", f"{path}: {traceback.format_exc(limit=3)}")
            continue
        if a is None:
            continue
        counts["mjcf"] += 1
        errors = [d for d in a.diagnostics if d.severity == 1]
        if any(d.code == "INTERNAL_ERROR" for d in errors):
            counts["crashes"] += 1
            note("crash", f"{path}: {errors[0].message}")
        if mujoco is None:
            counts["clean"] += not errors
            continue
        try:
            model = mujoco.MjModel.from_xml_path(path)
            data = mujoco.MjData(model)
            mujoco.mj_forward(model, data)
        except Exception:  # noqa: BLE001 - MuJoCo refusing the file (missing assets, plugins...)
            continue
        counts["loaded"] += 1
        if errors:
            counts["ours_errors_where_loaded"] += 1
            note("error", f"{path}: {errors[0].code} {errors[0].message}")
            continue
        counts["clean"] += 1
        if any(tag in text for tag in NOT_FOLLOWED + ALIGNED):
            counts["generated"] += 1  # bodies made at compile time, or frames moved to the inertia: not comparable
            continue
        frames = {f["name"]: f for f in a.frames()}

        def ours(name: str, kind: str, suffix: str, frames: dict = frames):
            """Our frame of MuJoCo's ``name``: NAME, or NAME.SUFFIX where another kind took NAME (reader._own_names)."""
            renamed = frames.get(f"{name}.{suffix}")  # a site and a camera both named NAME: the later is NAME.camera
            if renamed is not None and renamed["kind"] == kind:
                return renamed
            f = frames.get(name)
            return f if f is not None and f["kind"] == kind else None

        items = []
        for i in range(1, model.nbody):
            items.append(
                (
                    ours(model.body(i).name or f"body{i}", "link", "body"),
                    model.body(i).name,
                    data.xpos[i],
                    data.xquat[i],
                )
            )
        for i in range(model.nsite):
            if model.site(i).name:
                site = model.site(i).name
                items.append((ours(site, "frame", "site"), site, data.site_xpos[i], _mat_quat(data.site_xmat[i])))
        for i in range(model.ncam):
            if model.cam(i).name:
                cam = model.cam(i).name
                items.append((ours(cam, "frame", "camera"), cam, data.cam_xpos[i], _mat_quat(data.cam_xmat[i])))
        aimed = {model.cam(i).name for i in range(model.ncam) if int(model.cam_mode[i]) in (3, 4)}  # targetbody(com)
        for f, name, p, q in items:
            if f is None or f["pose"] is None:
                counts["missing"] += 1
                note("missing", f"{path}: {name}")
                continue
            counts["compared"] += 1
            if name in aimed and f["kind"] == "frame":  # MuJoCo turns it toward its target: the position only
                e = max(abs(g - float(w)) for g, w in zip(f["pose"][:3], p))
            else:
                e = _error(f["pose"], p, q)
            worst = max(worst, e)
            if e > args.tolerance:
                counts["mismatched"] += 1
                note("mismatch", f"{path}: {name} differs by {e:.3g}")
        for i in range(model.njnt):
            name = model.joint(i).name
            f = ours(name, "joint", "joint") if name else None
            if f is None or f["pose"] is None:
                continue
            counts["compared"] += 1
            e = max(abs(g - float(w)) for g, w in zip(f["pose"][:3], data.xanchor[i]))
            worst = max(worst, e)
            if e > args.tolerance:
                counts["mismatched"] += 1
                note("mismatch", f"{path}: joint {name} anchor differs by {e:.3g}")
    for kind, items in shown.items():
        print(f"{kind} ({len(items)}):")
        for line in items[: args.show]:
            print("  " + line.rstrip().replace("\n", "\n  "))
    print(
        f"MJCF files: {counts['mjcf']}; MuJoCo loads {counts['loaded']}; read without errors by us: {counts['clean']}; "
        f"with errors from us where MuJoCo loads them: {counts['ours_errors_where_loaded']}; "
        f"crashes: {counts['crashes']}"
    )
    print(
        f"frames compared with MuJoCo: {counts['compared']} (files with generated bodies or aligned free joints skipped: {counts['generated']}); "
        f"beyond {args.tolerance:g}: {counts['mismatched']}; missing: {counts['missing']}; largest difference: {worst:.3g}"
    )
    bad = counts["ours_errors_where_loaded"] or counts["crashes"] or counts["mismatched"] or counts["missing"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
