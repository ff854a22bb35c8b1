#!/usr/bin/env python3
"""Differential test against libsdformat 12 (the oracle) on generated composed documents.

    python scripts/oracle_composed.py [--oracle BIN] [--count N] [--seed S] [--keep DIR] [-v]

A long run can be stopped (Ctrl-C, SIGTERM): it prints the closing line for
the documents finished so far.

Each document is a random tree of model directories (each with its
``model.config``) included with ``<name>``, ``<pose>`` (sometimes
``relative_to``), ``<placement_frame>``, ``<static>`` and ``merge="true"``,
nested models, and frames and joints referring across ``::``; the main file
is a world or a model. For each document the verdict (``gz sdf --check``:
the oracle's ``ign_sdf_check_valid``), every resolved pose and every
attached-to link (frames' ``attached_to``, models' canonical links, joints'
parent and child links) must agree. Prints one line per disagreement and a
closing line with the count of documents compared and of those with 0
disagreements; exit 1 on any.

Where libsdformat 12 differs from its main branch we follow main and the
differential accounts for 12: joints never name a nested model as their
parent (12 refuses it); 12 writes the pose of a merged model's proxy frame
with six significant digits (main keeps the number), and the comparison
applies exactly that rounding to our proxy frames
(``libsdformat12_proxy_poses``), so every pose is compared to 1e-9. Poses
mix short decimals with long ones, which that rounding changes. Merges go
into models only (into a world is SDFormat 1.10). A third difference is
found by running the oracle: 12 drops the errors of reading an included
file, main reports them (``reading_differs``);
such documents are counted and not compared.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from sdformat_lsp.cli import load_file  # noqa: E402
from sdformat_lsp.semantics import Analysis, Options  # noqa: E402
from sdformat_lsp.semantics.includes.resolver import IncludeCache  # noqa: E402
from sdformat_lsp.semantics.frames import WORLD_SENTINEL, FrameGraphs, FrameNode, Scope  # noqa: E402
from sdformat_lsp.semantics.pose import Transform, rotation_matrix, transform_of  # noqa: E402

TOL = 1e-9
VERSION = "1.9"

# -- generating ------------------------------------------------------------------

_XYZ = (-1.0, -0.5, 0.0, 0.0, 0.25, 0.5, 1.0, 2.0, 1.2345678901)
_RPY = (0.0, 0.0, 0.0, 0.5, -0.3, 1.2, 0.1, 0.7654321987)


class _Dir:
    """A generated model directory: its model name, the names it offers an includer, what it merges."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.exports: list[tuple[str, str]] = []  # (name as written from inside the model, kind)
        self.merges: set[str] = set()  # directories merged at its top level, transitively
        # (directory, the merging include's <static> or ""): merged anywhere inside it or the files it includes
        self.within: set[tuple[str, str]] = set()


class Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.n = 0
        self.dirs: list[_Dir] = []

    def uid(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def pose(self, refs: list[tuple[str, str]], p_rel: float = 0.3) -> str:
        r = self.rng
        vals = [r.choice(_XYZ) for _ in range(3)] + [r.choice(_RPY) for _ in range(3)]
        if all(v == 0 for v in vals) and r.random() < 0.5:
            return ""
        rel = ""
        if refs and r.random() < p_rel:
            rel = f' relative_to="{r.choice(refs)[0]}"'
        return f"<pose{rel}>{' '.join(f'{v:.12g}' for v in vals)}</pose>"

    def body(self, depth: int, allowed: list[_Dir], lines: list[str], merges: set[str]) -> list[tuple[str, str]]:
        """The inside of a model; returns the names it offers (local and down through '::').

        Adds to ``self.own`` the directories this file merges and to
        ``self.inner`` those merged inside the files it includes.
        """
        r = self.rng
        names: list[tuple[str, str]] = []
        links: list[str] = []
        actions = ["link"] * r.choice((0, 1, 1, 2, 3))
        if depth < 3:
            actions += ["model"] * r.choice((0, 0, 1, 1, 2))
        if allowed:
            actions += ["include"] * r.choice((0, 1, 1, 2))
        if not actions and r.random() < 0.8:
            actions.append("link")  # mostly valid documents: a model without anything is MODEL_WITHOUT_LINK
        r.shuffle(actions)
        actions += ["frame"] * r.choice((0, 1, 2, 3)) + ["joint"] * r.choice((0, 0, 1, 2))
        used_dirs: set[str] = set()
        for act in actions:
            if act == "link":
                name = self.uid("L")
                lines.append(f'<link name="{name}">{self.pose(names)}</link>')
                names.append((name, "link"))
                links.append(name)
            elif act == "model":
                name = self.uid("n")
                inner: list[str] = []
                static = "<static>true</static>" if r.random() < 0.15 else ""
                sub = self.body(depth + 1, allowed, inner, set())
                canon = self.canonical(sub)
                lines.append(f'<model name="{name}"{canon}>{static}{self.pose(names)}')
                lines.extend(inner)
                lines.append("</model>")
                names.append((name, "model"))
                names.extend((f"{name}::{n}", k) for n, k in sub)
            elif act == "include":
                d = r.choice(allowed)
                merge = (
                    r.random() < 0.3 and d.name not in merges and not (d.merges & merges) and d.name not in used_dirs
                )
                parts = [f"<uri>model://{d.name}</uri>"]
                inc_name = d.name
                if not merge and (r.random() < 0.8 or d.name in used_dirs):
                    inc_name = self.uid("i")
                    parts.append(f"<name>{inc_name}</name>")
                pose = self.pose(names, 0.4)
                if r.random() < 0.3:
                    pose = pose or "<pose>0 0 0.5 0 0 0</pose>"
                    frames = [n for n, k in d.exports if k in ("link", "frame")]
                    if frames:
                        parts.append(f"<placement_frame>{r.choice(frames)}</placement_frame>")
                if pose:
                    parts.append(pose)
                static = ""
                if r.random() < 0.15:
                    static = r.choice(("true", "false"))
                    parts.append(f"<static>{static}</static>")
                attr = ' merge="true"' if merge else ""
                lines.append(f"<include{attr}>{''.join(parts)}</include>")
                used_dirs.add(d.name)
                self.inner |= d.within
                if merge:
                    self.own.add((d.name, static))
                    merges.add(d.name)
                    merges.update(d.merges)
                    names.extend(d.exports)
                    links.extend(n for n, k in d.exports if k == "link" and "::" not in n)
                else:
                    names.append((inc_name, "model"))
                    names.extend((f"{inc_name}::{n}", k) for n, k in d.exports)
            elif act == "frame":
                name = self.uid("F")
                at = ""
                if names and r.random() < 0.7:
                    at = f' attached_to="{r.choice([n for n in names if n[1] != "joint"] or names)[0]}"'
                lines.append(f'<frame name="{name}"{at}>{self.pose(names)}</frame>')
                names.append((name, "frame"))
            elif act == "joint":
                links_here = [n for n, k in names if k == "link"]
                parents = (
                    links_here if links_here and r.random() < 0.7 else [n for n, k in names if k in ("link", "frame")]
                )
                children = [n for n, k in names if k in ("link", "frame", "model")]
                if not parents or not children:
                    continue
                name = self.uid("J")
                parent = "world" if r.random() < 0.1 else r.choice(parents)
                child = r.choice([c for c in children if c != parent] or children)
                lines.append(
                    f'<joint name="{name}" type="fixed"><parent>{parent}</parent><child>{child}</child>{self.pose(names, 0.2)}</joint>'
                )
                names.append((name, "joint"))
        return names

    def canonical(self, names: list[tuple[str, str]]) -> str:
        links = [n for n, k in names if k == "link"]
        if links and self.rng.random() < 0.2:
            return f' canonical_link="{self.rng.choice(links)}"'
        return ""

    def model_dir(self, root: Path) -> _Dir:
        d = _Dir(f"d{len(self.dirs)}")
        self.own, self.inner = set(), set()
        lines: list[str] = []
        merges: set[str] = set()
        exports = self.body(1, list(self.dirs), lines, merges)
        static = "<static>true</static>" if self.rng.random() < 0.15 else ""
        text = [
            f'<?xml version="1.0"?>\n<sdf version="{VERSION}">',
            f'<model name="{d.name}"{self.canonical(exports)}>{static}',
            *lines,
            "</model>",
            "</sdf>\n",
        ]
        path = root / d.name
        path.mkdir(parents=True, exist_ok=True)
        (path / "model.sdf").write_text("\n".join(text))
        (path / "model.config").write_text(
            f'<?xml version="1.0"?>\n<model><name>{d.name}</name><sdf version="{VERSION}">model.sdf</sdf></model>\n'
        )
        d.exports = exports
        d.merges = merges
        d.within = self.own | self.inner
        self.dirs.append(d)
        return d

    def document(self, dest: Path) -> Path:
        """Write the model directories and the main file under ``dest``; returns the main file."""
        models = dest / "models"
        for _ in range(self.rng.randint(2, 5)):
            self.model_dir(models)
        self.own, self.inner = set(), set()
        lines: list[str] = []
        if self.rng.random() < 0.6:
            names: list[tuple[str, str]] = []
            for _ in range(self.rng.randint(1, 3)):
                if self.rng.random() < 0.7:
                    d = self.rng.choice(self.dirs)
                    name = self.uid("i")
                    lines.append(f"<include><uri>model://{d.name}</uri><name>{name}</name>{self.pose(names)}</include>")
                    self.inner |= d.within
                    names.extend([(name, "model"), *((f"{name}::{n}", k) for n, k in d.exports)])
                else:
                    name = self.uid("w")
                    inner: list[str] = []
                    sub = self.body(1, self.dirs, inner, set())
                    lines.append(f'<model name="{name}">{self.pose(names)}')
                    lines.extend(inner)
                    lines.append("</model>")
                    names.extend([(name, "model"), *((f"{name}::{n}", k) for n, k in sub)])
            for _ in range(self.rng.randint(0, 2)):
                if names:
                    lines.append(
                        f'<frame name="{self.uid("WF")}" attached_to="{self.rng.choice(names)[0]}">{self.pose(names)}</frame>'
                    )
            text = [
                f'<?xml version="1.0"?>\n<sdf version="{VERSION}">',
                '<world name="w">',
                *lines,
                "</world>",
                "</sdf>\n",
            ]
        else:
            sub = self.body(0, self.dirs, lines, set())
            text = [
                f'<?xml version="1.0"?>\n<sdf version="{VERSION}">',
                f'<model name="top"{self.canonical(sub)}>',
                *lines,
                "</model>",
                "</sdf>\n",
            ]
        main = dest / "main.sdf"
        main.write_text("\n".join(text))
        (dest / "merged_in_included_files.txt").write_text("".join(f"{n} {st}\n" for n, st in sorted(self.inner)))
        return main


def generate(seed: int, dest: Path) -> Path:
    """A composed document and its model directories (``dest/models``); returns the main file.

    ``dest/merged_in_included_files.txt`` lists the model directories merged
    inside files the main file includes (see ``reading_differs``).
    """
    return Generator(seed).document(dest)


def reading_differs(oracle: str, main_file: Path) -> bool:
    """Whether libsdformat 12 drops errors here that its main branch reports.

    libsdformat 12 reads an included file without collecting the errors of
    reading it (``readFile(filename, includeSDF)``); main collects them
    (``readFile(filename, _config, includeSDF, _errors)``). Among them are the
    errors of loading a merged model on its own, so a model that is invalid
    alone, merged inside an included file, is refused by main and accepted
    by 12. True when such a merged model is invalid alone, as its include
    makes it: with the include's ``<static>``, which libsdformat writes into
    the model before loading it.
    """
    listed = main_file.parent / "merged_in_included_files.txt"
    models = main_file.parent / "models"
    for line in listed.read_text().splitlines() if listed.exists() else ():
        name, _, static = line.partition(" ")
        path = models / name / "model.sdf"
        if static:
            text = re.sub(
                r'(<model name="[^"]*"[^>]*>)(<static>true</static>)?',
                rf"\1<static>{static}</static>",
                path.read_text(),
                count=1,
            )
            path = models / name / f"alone_static_{static}.sdf"
            path.write_text(text)
        alone = run_oracle(oracle, str(path), str(models))
        if alone.get("errors"):
            return True
    return False


# -- comparing -------------------------------------------------------------------


def run_oracle(oracle: str, path: str, resource_dir: str | None) -> dict:
    env = dict(os.environ)
    for var in ("SDF_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH"):
        env.pop(var, None)
    if resource_dir:
        env["SDF_PATH"] = resource_dir
    r = subprocess.run([oracle, "--check", path], capture_output=True, text=True, timeout=180, env=env)
    return json.loads(r.stdout)


def _prec6(v: float) -> float:
    """gz-math 6's ``precision(v, 6)``: ``std::round(v * 10^6) / 10^6`` (halves away from zero)."""
    x = v * 1e6
    return math.copysign(math.floor(abs(x) + 0.5), x) / 1e6


def pose_as_libsdformat12_writes_it(t: Transform) -> Transform:
    """``t`` after libsdformat 12 stored it in an element and read it back.

    libsdformat 12 gives the proxy frame of a merged model its pose with
    ``Element::Set(Pose3d)``, which streams the pose into text and parses it
    (``Param::Set``: ``ss << _value``). ignition-math 6 streams a pose as x y z
    and the quaternion's roll pitch yaw, each rounded to 6 decimal places
    (``precision(v, 6)``), through a stream with the default precision of 6
    significant digits. libsdformat main streams with 17 digits
    (``ParamStreamer``, ``max_digits10``), so the number survives; we follow
    main, and the differential applies 12's rounding to our proxy frames only
    when comparing with 12 (``libsdformat12_proxy_poses``).
    """
    return Transform.from_xyzrpy(*(float(f"{_prec6(v):.6g}") for v in (*t.p, *t.rpy)))


@contextlib.contextmanager
def libsdformat12_proxy_poses():
    """Within it, the pose of every merged model's proxy frame is rounded as libsdformat 12 writes it.

    Nothing else changes: the comparison with 12 stays exact (1e-9) for every
    pose, through proxy frames too.
    """
    original = FrameGraphs.edge_transform

    def edge_transform(self, node: FrameNode) -> Transform:
        t = original(self, node)
        if node.kind == "frame" and id(node) in self.merged_into:
            return pose_as_libsdformat12_writes_it(t)
        return t

    FrameGraphs.edge_transform = edge_transform
    try:
        yield
    finally:
        FrameGraphs.edge_transform = original


def _close(a: Transform, b: Transform, tol: float = TOL) -> bool:
    if any(abs(x - y) > tol for x, y in zip(a.p, b.p)):
        return False
    ma, mb = rotation_matrix(a.q), rotation_matrix(b.q)
    rtol = max(tol, 1e-7) if abs(abs(b.rpy[1]) - math.pi / 2) < 1e-6 else tol
    return all(abs(ma[i][j] - mb[i][j]) <= rtol for i in range(3) for j in range(3))


def _real(g, scope: Scope | None) -> Scope | None:
    """The scope a merged view belongs to."""
    while scope is not None and id(scope) in g.merged_into:
        scope = g.merged_into[id(scope)][1]
    return scope


def relative_name(g, node: FrameNode | None, base: Scope) -> str | None:
    """``node`` named as a reference written in ``base`` would name it (``inner::L``, ``__model__``, ``world``)."""
    if node is None:
        return None
    if node is WORLD_SENTINEL or node.kind == "world":
        return "world"
    if node.kind == "model" and node.inner is not None and _real(g, node.inner) is base:
        return "__model__"
    parts = [node.name]
    s = _real(g, node.scope)
    while s is not None and s is not base:
        parts.append(s.name)
        s = _real(g, s.parent)
    if s is None:
        return None
    name = "::".join(reversed(parts))
    return name + "::__model__" if node.kind == "model" else name


def _scope_of(a: Analysis, path: list[str]) -> Scope | None:
    s = a.root_scope
    if s is not None and s.kind == "world" and path and path[0] != s.name and a.graphs is not None:
        s = next((r for r in a.graphs.other_roots if r.name == path[0]), None)  # a second world of the file
    for part in path[1:]:
        s = s.children.get(part) if s is not None else None
    return s


def _same_name(ours: str | None, theirs: str) -> bool:
    if ours == theirs:
        return True
    # a static model as the body: libsdformat may name it by the model or its __model__ frame
    return ours is not None and ours.endswith("::__model__") and ours[: -len("::__model__")] == theirs


def compare(path: str, oracle: str, resource_dir: str | None = None, out: dict | None = None) -> list[str]:
    """Disagreements of sdformat-lsp with the oracle on ``path``: verdict, poses, attached-to links."""
    if out is None:
        out = run_oracle(oracle, path, resource_dir)
    with libsdformat12_proxy_poses():
        ours = load_file(
            path, Options(resource_paths=(resource_dir,) if resource_dir else (), include_cache=IncludeCache())
        )
        check = out.get("check") or {}
        theirs_valid = bool(check.get("ign_sdf_check_valid"))
        if theirs_valid == ours.has_errors:
            codes = sorted({e["code"] for e in out.get("errors", [])})
            mine = sorted({f"{d.code}: {d.message}" for d in ours.diagnostics if d.is_error})
            return [
                f"{path}: verdict: libsdformat {codes or 'valid'}, ours {mine or 'valid'}"
                + (" (oracle valid)" if theirs_valid else "")
            ]
        if not theirs_valid:
            return []
        return frame_problems(ours, out, path)


def frame_problems(ours: Analysis, out: dict, path: str, tally: dict | None = None) -> list[str]:
    """Every pose and attached-to link the oracle printed in ``out`` that ``ours`` does not give alike.

    Poses within 1e-9 (call it inside ``libsdformat12_proxy_poses`` when
    ``out`` is libsdformat 12's); entries the oracle could not resolve are
    skipped. ``tally`` (if given) counts the entries compared and those that
    disagree: ``pose``/``pose_differs``, ``attached``/``attached_differs``
    (frames' attached_to, canonical links, joints' parent and child links),
    ``missing`` (entities we do not have).
    """
    problems: list[str] = []
    g = ours.graphs
    count = tally if tally is not None else {}

    def bump(key: str) -> None:
        count[key] = count.get(key, 0) + 1

    for e in out.get("poses", []):
        spath = [p for p in e["scope"].split("::") if p] if e["scope"] else []
        label = f"{e['scope']}::{e['name']}" if e["scope"] else e["name"]
        scope = _scope_of(ours, spath) if spath else None
        if spath and scope is None:
            problems.append(f"{path}: {label}: scope not found by sdformat-lsp")
            bump("missing")
            continue
        node = scope.frames.get(e["name"]) if scope is not None else (ours.root_scope.node if ours.root_scope else None)
        if node is None or node.kind != e["kind"]:
            problems.append(f"{path}: {e['kind']} {label}: not found by sdformat-lsp")
            bump("missing")
            continue
        if e.get("relative_to_scope") is not None and not e.get("resolve_errors"):
            mine = (
                ours.pose_in_scope(node) if spath else transform_of(node.entity.pose)
            )  # the root: its pose as written
            theirs = Transform.from_xyzrpy(*e["relative_to_scope"])
            bump("pose")
            if mine is None or not _close(mine, theirs):
                bump("pose_differs")
                problems.append(
                    f"{path}: {label}: pose ours {mine.as_list() if mine else None} != libsdformat {e['relative_to_scope']}"
                )
        base = scope
        if e["kind"] == "frame" and e.get("attached_to") is not None:
            mine_at = relative_name(g, g.attached_link(node), base)
            bump("attached")
            if not _same_name(mine_at, e["attached_to"]):
                bump("attached_differs")
                problems.append(f"{path}: frame {label}: attached to ours {mine_at} != libsdformat {e['attached_to']}")
        elif e["kind"] == "model" and e.get("canonical_link") and not node.static:
            mine_at = relative_name(g, g.attached_link(node), node.inner)
            bump("attached")
            if mine_at != e["canonical_link"]:
                bump("attached_differs")
                problems.append(
                    f"{path}: model {label}: attached to ours {mine_at} != libsdformat canonical {e['canonical_link']}"
                )
        elif e["kind"] == "joint":
            joint = node.entity
            for key, ref in (("parent_link", joint.parent), ("child_link", joint.child)):
                if e.get(key) is None or ref is None:
                    continue
                # resolved afresh: a model included twice shares its Ref objects, so the recorded resolution is ambiguous
                target = g.resolve(ref, node.scope, allow_world=True, record=False).target
                link = target if target is WORLD_SENTINEL else (g.attached_link(target) if target is not None else None)
                mine_at = relative_name(g, link, base)
                bump("attached")
                if not _same_name(mine_at, e[key]):
                    bump("attached_differs")
                    problems.append(f"{path}: joint {label}: {key} ours {mine_at} != libsdformat {e[key]}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oracle", default=str(ROOT.parent / "shared" / "oracle" / "bin" / "sdf_oracle"))
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--keep", metavar="DIR", help="write the documents here and keep them")
    ap.add_argument(
        "-v", "--verbose", action="store_true", help="print every disagreement, not only the first per document"
    )
    args = ap.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="oracle_composed_"))
    clean = 0
    valid = 0
    differs = 0
    crashed = 0
    done = 0
    # a long run may be stopped (Ctrl-C, kill): the documents finished so far are counted
    signal.signal(signal.SIGTERM, _stop)
    try:
        for seed in range(args.seed, args.seed + args.count):
            dest = base / f"doc_{seed}"
            if dest.exists():
                shutil.rmtree(dest)
            main_file = generate(seed, dest)
            out = run_oracle(args.oracle, str(main_file), str(dest / "models"))
            if any(e.get("code") == "ORACLE_CRASH" for e in out.get("errors", [])):
                crashed += 1  # libsdformat 12 died or hung (its 120 s alarm): no answer to compare with
                done += 1
                print(f"seed {seed}: not compared: the oracle crashed or timed out", flush=True)
                if not args.keep:
                    shutil.rmtree(dest, ignore_errors=True)
                continue
            problems = compare(str(main_file), args.oracle, str(dest / "models"), out)
            skip = bool(problems) and problems[0].endswith("(oracle valid)") and reading_differs(args.oracle, main_file)
            done += 1
            valid += bool((out.get("check") or {}).get("ign_sdf_check_valid"))
            if not args.keep:
                shutil.rmtree(dest, ignore_errors=True)
            if skip:
                differs += 1  # 12 accepts what main refuses: not compared
                continue
            for p in problems if args.verbose else problems[:1]:
                print(f"seed {seed}: {p}", flush=True)
            clean += not problems
    except KeyboardInterrupt:
        print(f"stopped after {done} of {args.count} documents (seeds {args.seed}-{args.seed + done - 1})", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    compared = done - differs - crashed
    print(
        f"{done} documents, {valid} of them valid for libsdformat 12; {differs} not compared (refused by "
        f"libsdformat main for errors of reading included files that 12 drops)"
        + (f", {crashed} not compared (the oracle crashed or timed out)" if crashed else "")
        + f"; {compared} compared, {clean} with 0 disagreements",
        flush=True,
    )
    return 0 if clean == compared else 1


def _stop(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
