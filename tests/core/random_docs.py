"""Random but valid SDFormat documents for comparing poses with libsdformat."""

from __future__ import annotations

import math
import random


def _pose(rng: random.Random, ref: str | None, version: tuple[int, int]) -> str:
    xyz = " ".join(f"{rng.uniform(-2, 2):.6f}" for _ in range(3))
    attrs = f' relative_to="{ref}"' if ref else ""
    kind = rng.random()
    if version >= (1, 9) and kind < 0.25:
        q = [rng.gauss(0, 1) for _ in range(4)]
        return f'<pose{attrs} rotation_format="quat_xyzw">{xyz} {" ".join(f"{v:.6f}" for v in q)}</pose>'
    if version >= (1, 9) and kind < 0.5:
        rpy = " ".join(f"{rng.uniform(-180, 180):.4f}" for _ in range(3))
        return f'<pose{attrs} degrees="true">{xyz} {rpy}</pose>'
    rpy = [rng.uniform(-math.pi, math.pi) for _ in range(3)]
    if rng.random() < 0.15:
        rpy[1] = math.copysign(math.pi / 2, rpy[1])  # gimbal lock
    return f"<pose{attrs}>{xyz} {' '.join(f'{v:.9f}' for v in rpy)}</pose>"


def _model(rng: random.Random, name: str, depth: int, version: tuple[int, int], lines: list[str]) -> list[str]:
    """Write a model; returns the names legal for references from its parent (paths down)."""
    lines.append(f'<model name="{name}">' if depth else f'<model name="{name}">')
    frames: list[str] = ["__model__"]
    links: list[str] = []
    nlinks = rng.randint(1, 4)
    for i in range(nlinks):
        ref = rng.choice(frames) if rng.random() < 0.6 else None
        lines.append(f'<link name="L{i}">{_pose(rng, ref, version)}</link>')
        links.append(f"L{i}")
        frames.append(f"L{i}")
    for i in range(1, nlinks):
        ref = rng.choice(frames) if rng.random() < 0.5 else None
        lines.append(
            f'<joint name="J{i}" type="revolute">{_pose(rng, ref, version)}<parent>L{i - 1}</parent><child>L{i}</child>'
            f"<axis><xyz>0 0 1</xyz></axis></joint>"
        )
        frames.append(f"J{i}")
    nested: list[str] = []
    if depth < 2 and version >= (1, 8):
        for k in range(rng.randint(0, 2)):
            sub: list[str] = []
            inner = _model(rng, f"M{k}", depth + 1, version, sub)
            ref = rng.choice(frames) if rng.random() < 0.5 else None
            # the nested model's pose goes right after its opening tag
            sub.insert(1, _pose(rng, ref, version))
            lines.extend(sub)
            nested.extend(f"M{k}::{n}" for n in inner)
            frames.append(f"M{k}")
    for i in range(rng.randint(0, 4)):
        at = rng.choice(frames + nested) if rng.random() < 0.7 else None
        ref = rng.choice(frames + nested) if rng.random() < 0.5 else None
        attr = f' attached_to="{at}"' if at else ""
        lines.append(f'<frame name="F{i}"{attr}>{_pose(rng, ref, version)}</frame>')
        frames.append(f"F{i}")
    lines.append("</model>")
    return [f for f in frames if f != "__model__"] + nested


def random_model(seed: int, version: tuple[int, int] = (1, 9)) -> str:
    rng = random.Random(seed)
    lines: list[str] = []
    _model(rng, "root", 0, version, lines)
    return f'<?xml version="1.0"?>\n<sdf version="{version[0]}.{version[1]}">\n' + "\n".join(lines) + "\n</sdf>\n"
