#!/usr/bin/env python3
"""Compare every resolved frame of real documents with libsdformat 12 (the oracle).

    python scripts/realworld_frames.py [--oracle BIN] [-j N] [-v] [--limit N] [--shared-path] ROOT...

Each ROOT is a directory (or one file); every ``.sdf`` and ``.world`` under
it is loaded by both tools with the same model search path: the directories
under that ROOT (a file's: under its directory) that hold model directories (directories with a
``model.config``), given to the oracle as ``SDF_PATH`` and
``GZ_SIM_RESOURCE_PATH`` and to sdformat-lsp as resource paths (its own
environment set alike); with ``--shared-path`` those of every ROOT, for
every document (models of one repository included by another's worlds). For every document both load (each finds the root
model or world), every pose the oracle resolves must agree within 1e-9 and
every attached-to link must be the same (frames' ``attached_to``, models'
canonical links, joints' parent and child links); see
``oracle_composed.frame_problems``.

Where libsdformat 12 differs from its main branch (whose rules sdformat-lsp
follows) the comparison accounts for it: merged models' proxy frames get
12's six-digit poses (``oracle_composed.libsdformat12_proxy_poses``), and a
document 12 refuses because a joint names a nested model as its parent
(main accepts it) is counted apart and not compared.

Prints one line per document with disagreements (every one with ``-v``)
and closing counts: documents, documents compared, documents with 0
disagreements, poses and attached-to links compared and agreeing. Exit 1 on
any disagreement. Nothing of the documents is copied anywhere.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "scripts"))

from oracle_composed import frame_problems, libsdformat12_proxy_poses  # noqa: E402
from sdformat_lsp.cli import load_file  # noqa: E402
from sdformat_lsp.semantics import Options  # noqa: E402
from sdformat_lsp.semantics.includes.resolver import IncludeCache  # noqa: E402
from sdformat_lsp.semantics.includes.resources import ENV_VARS  # noqa: E402

SUFFIXES = (".sdf", ".world")


def model_dirs(root: Path) -> list[str]:
    """Directories under ``root`` (a file: under its directory) holding a model directory (one with ``model.config``), sorted."""
    if root.is_file():
        root = root.parent
    found = {str(cfg.parent.parent) for cfg in root.rglob("model.config")}
    return sorted(found)


def documents(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*") if p.suffix in SUFFIXES and p.is_file())


def _env(paths: list[str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ENV_VARS}
    joined = os.pathsep.join(paths)
    env["SDF_PATH"] = joined
    env["GZ_SIM_RESOURCE_PATH"] = joined
    return env


_PARENT_NOT_FOUND = re.compile(
    r"parent frame with name\[(.*?)\] specified by joint with name\[.*?\] not found in model"
)


def _nested_model_parent_refused(out: dict) -> bool:
    """Whether libsdformat 12 refused a joint because its parent is a nested model (main takes the model's canonical link).

    12's ``checkJointParentChildNames`` looks the parent up among links,
    joints and frames only; the name it could not find is a model the oracle
    printed.
    """
    models = {e["name"] for e in out.get("poses", []) if e.get("kind") == "model"}
    for e in out.get("errors", []):
        m = _PARENT_NOT_FOUND.search(e.get("message") or "") if e.get("code") == "JOINT_PARENT_LINK_INVALID" else None
        if m and m.group(1).split("::")[-1] in models:
            return True
    return False


def compare_one(job: tuple[str, str, list[str]]) -> dict:
    """Run both tools on one document; the result is plain data (it crosses processes)."""
    path, oracle, paths = job
    env = _env(paths)
    with _search_env(env):
        return _compare_one(path, oracle, paths, env)


@contextlib.contextmanager
def _search_env(env: dict[str, str]):
    """sdformat-lsp reads the model search variables from the environment: the oracle's, for the while."""
    saved = {k: os.environ.get(k) for k in ENV_VARS}
    for k in ENV_VARS:
        if k in env:
            os.environ[k] = env[k]
        else:
            os.environ.pop(k, None)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _compare_one(path: str, oracle: str, paths: list[str], env: dict[str, str]) -> dict:
    res: dict = {"path": path, "tally": {}, "problems": [], "status": "compared"}
    try:
        r = subprocess.run([oracle, path], capture_output=True, text=True, timeout=300, env=env)
        out = json.loads(r.stdout)
    except (subprocess.TimeoutExpired, json.JSONDecodeError) as exc:
        res["status"] = f"oracle failed: {exc}"
        return res
    res["oracle_errors"] = sorted({e.get("code", "?") for e in out.get("errors", [])})
    if not out.get("root_kind"):
        res["status"] = "not loaded by libsdformat 12"
        return res
    if _nested_model_parent_refused(out):
        res["status"] = "12 refuses a nested model as a joint's parent (main accepts)"
        return res
    with libsdformat12_proxy_poses():
        ours = load_file(path, Options(resource_paths=tuple(paths), include_cache=IncludeCache()))
        if ours.root_scope is None:
            res["status"] = "not loaded by sdformat-lsp"
            return res
        res["ours_errors"] = sorted({d.code for d in ours.diagnostics if d.is_error})
        res["problems"] = frame_problems(ours, out, path, res["tally"])
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oracle", default=str(ROOT.parent / "shared" / "oracle" / "bin" / "sdf_oracle"))
    ap.add_argument("-j", "--jobs", type=int, default=1, help="processes (each runs the oracle and sdformat-lsp)")
    ap.add_argument("--limit", type=int, default=0, help="at most this many documents per ROOT")
    ap.add_argument("-v", "--verbose", action="store_true", help="every disagreement, not only the first per document")
    ap.add_argument(
        "--shared-path",
        action="store_true",
        help="one search path for every document: the model directories of all ROOTs (in the order given)",
    )
    ap.add_argument("roots", nargs="+")
    args = ap.parse_args()
    jobs = []
    shared = [d for root in map(Path, args.roots) for d in model_dirs(root)] if args.shared_path else None
    for root in map(Path, args.roots):
        paths = shared if shared is not None else model_dirs(root)
        docs = documents(root)
        if args.limit:
            docs = docs[: args.limit]
        jobs += [(str(d.resolve()), args.oracle, paths) for d in docs]
    totals: dict[str, int] = {}
    status: dict[str, int] = {}
    clean = compared = 0
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for res in pool.map(compare_one, jobs, chunksize=4):
            status[res["status"]] = status.get(res["status"], 0) + 1
            if res["status"] != "compared":
                continue
            compared += 1
            clean += not res["problems"]
            for k, v in res["tally"].items():
                totals[k] = totals.get(k, 0) + v
            for p in res["problems"] if args.verbose else res["problems"][:1]:
                more = f" (+{len(res['problems']) - 1} more)" if not args.verbose and len(res["problems"]) > 1 else ""
                print(p + more, flush=True)
    for s, n in sorted(status.items()):
        if s != "compared":
            print(f"not compared: {n} ({s})")
    poses, attached = totals.get("pose", 0), totals.get("attached", 0)
    print(
        f"{len(jobs)} documents, {compared} compared, {clean} with 0 disagreements; "
        f"poses {poses - totals.get('pose_differs', 0)}/{poses} within 1e-9, "
        f"attached-to links {attached - totals.get('attached_differs', 0)}/{attached} agree, "
        f"{totals.get('missing', 0)} entities missing"
    )
    return 0 if clean == compared else 1


if __name__ == "__main__":
    sys.exit(main())
