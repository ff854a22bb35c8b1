"""One graph for every feature: hover says what ``check --frames`` says, for every frame.

For every frame of libsdformat's conformance files and of generated composed
documents (includes, merges, placement frames, static models), the pose and
the attached link that hover shows (on a reference to the frame, or on its
name) agree with the frame list of ``check --frames``: the same resolved
frames, never a second computation.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from sdformat_lsp.cli import load_file
from sdformat_lsp.features.hover import frame_hover_text
from sdformat_lsp.semantics import Options
from sdformat_lsp.semantics.includes.resolver import IncludeCache
from sdformat_lsp.semantics.pose import Transform, rotation_matrix

ROOT = Path(__file__).resolve().parents[2]
_ROW = re.compile(
    r"^(Relative to .*):\n  xyz: (\S+) (\S+) (\S+)\n  rpy: .*\n  quaternion \(x y z w\): (\S+) (\S+) (\S+) (\S+)", re.M
)
_ATTACHED = re.compile(r"^Attached to: (.*)$", re.M)


def _hover_facts(text: str) -> tuple[dict[str, Transform], str | None]:
    poses = {}
    for m in _ROW.finditer(text):
        x, y, z, qx, qy, qz, qw = (float(v) for v in m.groups()[1:])
        poses[m.group(1)] = Transform((x, y, z), (qw, qx, qy, qz))
    at = _ATTACHED.search(text)
    return poses, at.group(1) if at else None


def _close(a: Transform, b: Transform) -> bool:
    if any(abs(p - q) > 2e-6 * max(1.0, abs(q)) for p, q in zip(a.p, b.p)):
        return False
    ma, mb = rotation_matrix(a.q), rotation_matrix(b.q)
    return all(abs(ma[i][j] - mb[i][j]) <= 2e-5 for i in range(3) for j in range(3))


def _as_frames_name(hover_attached: str | None) -> str | None:
    """Hover's ``static model a::b`` is ``check --frames``' ``a::b::__model__``."""
    if hover_attached is None:
        return None
    if hover_attached.startswith("static model "):
        return hover_attached[len("static model ") :] + "::__model__"
    return hover_attached


def check_document(a) -> list[str]:
    """Disagreements between hover and ``check --frames`` over every frame of ``a``."""
    g = a.graphs
    if g is None:
        return []
    listed: dict[str, list[dict]] = {}
    for f in json.loads(json.dumps(a.frames())):  # what the CLI prints
        listed.setdefault(f["name"], []).append(f)
    frames = {name: entries[0] for name, entries in listed.items()}
    problems = []
    for node in g.nodes:
        if node.scope is None or node.kind == "world":
            continue
        name = node.scoped_name()
        if name not in listed:
            problems.append(f"{name}: not listed by check --frames")
            continue
        found = [_disagreements(a, node, entry, frames) for entry in listed[name]]  # duplicate names: any of them
        if all(found):
            problems += found[0]
    return problems


def _disagreements(a, node, entry: dict, frames: dict) -> list[str]:
    g = a.graphs
    root = g.root
    name = node.scoped_name()
    problems: list[str] = []
    text = frame_hover_text(a, node, markdown=False)
    poses, attached = _hover_facts(text)
    expected_at = entry["attached_to"]
    if root.kind == "model" and entry["attached_to"] == "__model__":
        expected_at = f"{root.name}::__model__"
    if _as_frames_name(attached) != expected_at:
        problems.append(f"{name}: hover attached to {attached!r}, check --frames {entry['attached_to']!r}")
    if entry["pose"] is None:
        if poses:
            problems.append(f"{name}: hover shows a pose, check --frames none")
        return problems
    expected = Transform.from_xyzrpy(*entry["pose"])
    if root.kind == "world":
        shown = poses.get("Relative to world") or next(
            (p for k, p in poses.items() if k.startswith("Relative to world")), None
        )
    else:
        in_scope = next((p for k, p in poses.items() if "__model__" in k), None)
        facts = a.frame_facts(node)
        base = (
            frames.get(facts.scope.node.scoped_name())
            if facts.scope is not None and facts.scope.node is not None
            else None
        )
        shown = None
        if in_scope is not None and base is not None and base["pose"] is not None:
            shown = Transform.from_xyzrpy(*base["pose"]) * in_scope
    if shown is None or not _close(shown, expected):
        problems.append(f"{name}: hover pose {shown.as_list() if shown else None} != check --frames {entry['pose']}")
    return problems


def test_hover_and_check_frames_agree_on_conformance_files(shared):
    files = sorted((shared / "conformance" / "files").rglob("*.sdf"))
    assert files
    problems = []
    checked = 0
    for path in files:
        a = load_file(str(path), Options(resource_paths=(str(path.parent),), include_cache=IncludeCache()))
        if a.graphs is None:
            continue
        checked += 1
        problems += [f"{path.name}: {p}" for p in check_document(a)]
    assert checked > 100
    assert not problems, problems[:10]


def _generator():
    spec = importlib.util.spec_from_file_location("sdformat_oracle_composed", ROOT / "scripts" / "oracle_composed.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["sdformat_oracle_composed"] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("seed", range(30))
def test_hover_and_check_frames_agree_on_composed_documents(tmp_path, seed):
    main = _generator().generate(seed, tmp_path)
    a = load_file(str(main), Options(resource_paths=(str(tmp_path / "models"),), include_cache=IncludeCache()))
    assert a.graphs is not None
    assert not check_document(a)


def test_a_merged_link_hovers_with_the_pose_check_frames_gives(tmp_path):
    """PX4-style: a vehicle merges its base model; the merged link is 0.24 up, not at the model frame."""
    models = tmp_path / "models"
    for name, body in {
        "base": '<link name="base_link"><pose>0 0 0.24 0 0 0</pose></link><link name="camera_link"/>',
        "vehicle": '<include merge="true"><uri>model://base</uri></include><frame name="cam" attached_to="base_link"/>',
    }.items():
        (models / name).mkdir(parents=True)
        (models / name / "model.config").write_text(
            f'<?xml version="1.0"?><model><name>{name}</name><sdf version="1.9">model.sdf</sdf></model>'
        )
        (models / name / "model.sdf").write_text(
            f'<?xml version="1.0"?><sdf version="1.9"><model name="{name}">{body}</model></sdf>'
        )
    a = load_file(
        str(models / "vehicle" / "model.sdf"), Options(resource_paths=(str(models),), include_cache=IncludeCache())
    )
    node = a.root_scope.frames["base_link"]
    poses, attached = _hover_facts(frame_hover_text(a, node, markdown=False))
    (pose,) = [p for k, p in poses.items() if "__model__" in k]
    assert pose.p == pytest.approx((0, 0, 0.24))
    assert attached == "base_link"
    assert {f["name"]: f["attached_to"] for f in a.frames()}["__model__"] == "base_link"
    assert not check_document(a)
