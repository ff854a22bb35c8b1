"""Random kinematic trees in SDFormat 1.9 for the conversion to URDF.

Each model is a tree of links spread over nested models, with random poses
in every format (Euler, degrees, quaternions, gimbal lock), ``relative_to``
chains through links, joints and frames of the same scope, joints declared
inside nested models or above them with scoped names, joint poses of their
own, axes ``expressed_in`` other frames, placement frames, explicit frames,
every joint type URDF has, and sometimes a joint to the world.
"""

from __future__ import annotations

import math
import random


def _pose(rng: random.Random, ref: str | None) -> str:
    xyz = " ".join(f"{rng.uniform(-2, 2):.6f}" for _ in range(3))
    attrs = f' relative_to="{ref}"' if ref else ""
    kind = rng.random()
    if kind < 0.2:
        q = [rng.gauss(0, 1) for _ in range(4)]
        norm = math.sqrt(sum(v * v for v in q))
        q = [v / norm for v in q]  # libsdformat 12 resolves axes with the quaternion as written: unit ones only
        return f'<pose{attrs} rotation_format="quat_xyzw">{xyz} {" ".join(repr(v) for v in q)}</pose>'
    if kind < 0.35:
        rpy = " ".join(f"{rng.uniform(-180, 180):.4f}" for _ in range(3))
        return f'<pose{attrs} degrees="true">{xyz} {rpy}</pose>'
    rpy = [rng.uniform(-math.pi, math.pi) for _ in range(3)]
    if rng.random() < 0.1:
        rpy[1] = math.copysign(math.pi / 2, rpy[1])  # gimbal lock
    return f"<pose{attrs}>{xyz} {' '.join(f'{v:.9f}' for v in rpy)}</pose>"


def random_tree(seed: int, links: tuple[int, int] = (2, 9)) -> str:
    rng = random.Random(seed)
    n = rng.randint(*links)
    scopes = ["", "A", "A::B", "C"][: rng.randint(1, 4)]
    scopes = scopes[: max(1, n)]
    where = [rng.choice(scopes) if i else "" for i in range(n)]  # the root link stays in the top model
    for k, sc in enumerate(scopes[1:], start=1):  # every nested model gets a link of its own
        if k < n:
            where[k] = sc
    scopes = [sc for sc in scopes if sc in where or sc == ""]
    parent = [None] + [rng.randrange(i) for i in range(1, n)]
    types = [rng.choice(("revolute", "revolute", "prismatic", "continuous", "fixed")) for _ in range(n)]
    world = rng.random() < 0.3
    members: dict[str, list[str]] = {s: [] for s in scopes}
    frames: dict[str, list[str]] = {s: [] for s in scopes}  # names usable in relative_to, in order

    def local(i: int) -> str:
        return f"L{i}"

    def path(i: int, scope: str) -> str:
        """Link i named from ``scope`` (which encloses it)."""
        full = f"{where[i]}::{local(i)}" if where[i] else local(i)
        return full[len(scope) + 2 :] if scope else full

    for i in range(n):
        s = where[i]
        ref = rng.choice(frames[s]) if frames[s] and rng.random() < 0.6 else None
        mass = rng.uniform(0.5, 3)
        members[s].append(
            f'<link name="{local(i)}">{_pose(rng, ref)}<inertial><mass>{mass:.4f}</mass>'
            f"<inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>"
        )
        frames[s].append(local(i))
    for i in range(1, n):
        p = parent[i]
        # declared in the innermost model enclosing both links, or in the top model with scoped names
        a, b = where[i].split("::") if where[i] else [], where[p].split("::") if where[p] else []
        k = 0
        while k < min(len(a), len(b)) and a[k] == b[k]:
            k += 1
        common = "::".join(a[:k]) if rng.random() < 0.7 else ""
        ref = rng.choice(frames[common]) if frames[common] and rng.random() < 0.4 else None
        axis = [rng.gauss(0, 1) for _ in range(3)]
        exp = ""
        if rng.random() < 0.4 and frames[common]:
            exp = f' expressed_in="{rng.choice(frames[common] + ["__model__"])}"'
        limit = ""
        if types[i] in ("revolute", "prismatic"):
            lo = rng.uniform(-2, 0)
            limit = f"<limit><lower>{lo:.4f}</lower><upper>{lo + rng.uniform(0.1, 3):.4f}</upper><effort>{rng.uniform(1, 50):.3f}</effort><velocity>{rng.uniform(0.5, 5):.3f}</velocity></limit>"
        members[common].append(
            f'<joint name="J{i}" type="{types[i]}">{_pose(rng, ref) if rng.random() < 0.7 else ""}'
            f"<parent>{path(p, common)}</parent><child>{path(i, common)}</child>"
            f"<axis><xyz{exp}>{' '.join(f'{v:.6f}' for v in axis)}</xyz>{limit}"
            f"<dynamics><damping>{rng.uniform(0, 1):.3f}</damping><friction>{rng.uniform(0, 1):.3f}</friction></dynamics></axis></joint>"
        )
        frames[common].append(f"J{i}")
    for s in scopes:
        for k in range(rng.randint(0, 2)):
            links_here = [local(i) for i in range(n) if where[i] == s]
            if not links_here:
                continue
            at = rng.choice(links_here)
            ref = rng.choice(frames[s]) if rng.random() < 0.5 else None
            name = f"F{k}"
            members[s].append(f'<frame name="{name}" attached_to="{at}">{_pose(rng, ref)}</frame>')
            frames[s].append(name)
    if world:
        members[""].append(
            f'<joint name="to_world" type="{rng.choice(("fixed", "revolute"))}"><parent>world</parent>'
            f"<child>{local(0)}</child><axis><xyz>1 0 0</xyz></axis></joint>"
        )

    def model(scope: str, name: str) -> str:
        inner = [
            c
            for c in scopes
            if c.startswith(scope + "::" if scope else "")
            and c
            and c != scope
            and "::" not in c[len(scope) + 2 if scope else 0 :]
        ]
        own = list(members[scope])
        placement = ""
        local_links = [local(i) for i in range(n) if where[i] == scope]
        if scope and local_links and rng.random() < 0.3:
            placement = f' placement_frame="{rng.choice(local_links)}"'
        pose = _pose(rng, None) if rng.random() < 0.8 else ""
        body = "".join(own) + "".join(model(c, c.split("::")[-1]) for c in inner)
        return f'<model name="{name}"{placement}>{pose}{body}</model>'

    return f'<?xml version="1.0"?>\n<sdf version="1.9">{model("", "m")}</sdf>\n'
