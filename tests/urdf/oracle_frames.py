"""What libsdformat (the oracle) says about a file: joint frames and axes in one model's frame."""

from __future__ import annotations

import json
import subprocess

from pathlib import Path

from sdformat_lsp.model.transform import Transform, rotate, rotation_matrix

TOL = 1e-7
READ_BACK = {"continuous": "revolute"}  # libsdformat reads a URDF continuous joint as revolute


def run(oracle: str, path: str, env: dict | None = None) -> dict:
    r = subprocess.run([oracle, path], capture_output=True, text=True, timeout=300, env=env)
    return json.loads(r.stdout)


def _t(pose) -> Transform:
    return Transform.from_xyzrpy(*pose)


def kinematics(data: dict, model: str | None = None) -> tuple[Transform, dict[str, dict]]:
    """(X_world_M, {scoped joint name: {pose: X_M_J, axis, type, child_link}}) for model ``model`` (the root model).

    Names are scoped from the model (``A::J1``); nested models' poses are composed.
    """
    poses = data["poses"]
    top = next(p for p in poses if p["kind"] == "model" and (model is None or p["name"] == model))
    prefix = (top["scope"] + "::" if top["scope"] else "") + top["name"]
    scope_pose = {prefix: Transform()}
    world = _t(top["in_world"] or top["relative_to_scope"])
    for p in poses:  # models come before what they hold
        if p["kind"] == "model" and p["scope"].startswith(prefix) and p["relative_to_scope"] is not None:
            scope_pose[p["scope"] + "::" + p["name"]] = scope_pose[p["scope"]] * _t(p["relative_to_scope"])
    out: dict[str, dict] = {}
    links: dict[str, Transform] = {}
    for p in poses:
        if p["scope"] not in scope_pose or p["kind"] not in ("joint", "link") or p["relative_to_scope"] is None:
            continue
        base = scope_pose[p["scope"]]
        name = (p["scope"][len(prefix) + 2 :] + "::" if p["scope"] != prefix else "") + p["name"]
        pose = base * _t(p["relative_to_scope"])
        if p["kind"] == "link":
            links[name] = pose
            continue
        axis = p.get("axis_in_model")
        if axis is not None:
            axis = rotate(base.q, tuple(axis))
        out[name] = {"pose": pose, "axis": axis, "type": p.get("type")}
    return world, {"joints": out, "links": links}


def close(a: Transform, b: Transform, tol: float) -> bool:
    """Same position and rotation (as matrices) to ``tol``."""
    if any(abs(x - y) > tol for x, y in zip(a.p, b.p)):
        return False
    ma, mb = rotation_matrix(a.q), rotation_matrix(b.q)
    return all(abs(ma[i][j] - mb[i][j]) <= tol for i in range(3) for j in range(3))


def vec_close(a, b, tol: float) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def _unit(v):
    n = sum(x * x for x in v) ** 0.5
    return tuple(x / n for x in v)


def compare(
    oracle: str,
    sdf: Path,
    urdf: Path,
    root: str | None,
    model: str | None = None,
    original: dict | None = None,
    env: dict | None = None,
) -> list[str]:
    """Problems (empty when the URDF agrees); ``root`` is the root link, None when the world is the root."""
    world, original = kinematics(original or run(oracle, str(sdf), env), model)
    data = run(oracle, str(urdf), env)
    if data["errors"]:
        return [f"{urdf.name}: libsdformat refuses the URDF: {sorted({e['code'] for e in data['errors']})}"]
    _, converted = kinematics(data)
    base = world.inverse() if root is None else original["links"][root]  # X_M_R
    problems = []
    moving = {n: j for n, j in original["joints"].items() if j["type"] in ("revolute", "prismatic", "continuous")}
    for name, j in moving.items():
        c = converted["joints"].get(name)
        if c is None:
            problems.append(f"{sdf}: joint {name} is missing from the URDF")
            continue
        expected = base.inverse() * j["pose"]
        if not close(expected, c["pose"], TOL):
            problems.append(f"{sdf}: joint {name}: {expected.as_list()} != {c['pose'].as_list()}")
        if j["axis"] is not None:  # libsdformat 12 keeps the length written; main normalises, as URDF readers do
            axis = _unit(rotate(base.inverse().q, j["axis"]))
            if c["axis"] is None or not vec_close(axis, c["axis"], TOL):
                problems.append(f"{sdf}: axis of {name}: {axis} != {c['axis']}")
        if c["type"] != READ_BACK.get(j["type"], j["type"]):
            problems.append(f"{sdf}: joint {name} is {c['type']}, was {j['type']}")
    return problems
