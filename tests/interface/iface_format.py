"""The ".iface" line format of oracle/iface_oracle.cc, read into an interface model (the same reading
as the C++ custom parser registered in libsdformat there), and random models written in it."""

from __future__ import annotations

import random

from sdformat_lsp.interface import IncludedFile, InterfaceFrame, InterfaceJoint, InterfaceLink, InterfaceModel


def parse(file: IncludedFile) -> InterfaceModel | None:
    stack: list[dict] = []
    top: dict | None = None
    for number, line in enumerate(file.text.splitlines(), 1):
        words = line.split()
        if not words:
            continue
        kind, rest = words[0], words[1:]
        if kind == "model":
            name = file.name if not stack and file.name else rest[0]
            m = dict(
                name=name,
                canonical=rest[1],
                pose=tuple(float(v) for v in rest[2:8]),
                static="static" in rest[8:],
                links=[],
                frames=[],
                joints=[],
                models=[],
                line=number,
            )
            if stack:
                stack[-1]["models"].append(m)
            else:
                top = m
            stack.append(m)
        elif kind == "end":
            stack.pop()
        elif kind == "link":
            stack[-1]["links"].append(InterfaceLink(rest[0], tuple(float(v) for v in rest[1:7]), line=number))
        elif kind == "frame":
            stack[-1]["frames"].append(
                InterfaceFrame(rest[0], rest[1], tuple(float(v) for v in rest[2:8]), line=number)
            )
        elif kind == "joint":
            stack[-1]["joints"].append(
                InterfaceJoint(rest[0], rest[1], tuple(float(v) for v in rest[2:8]), line=number)
            )

    def build(m: dict) -> InterfaceModel:
        return InterfaceModel(
            m["name"],
            m["canonical"],
            m["pose"],
            links=m["links"],
            frames=m["frames"],
            joints=m["joints"],
            models=[build(n) for n in m["models"]],
            static=m["static"],
            line=m["line"],
        )

    return build(top) if top is not None else None


def _pose(rng: random.Random) -> str:
    return (
        " ".join(f"{rng.uniform(-2, 2):.3f}" for _ in range(3))
        + " "
        + " ".join(f"{rng.uniform(-3, 3):.3f}" for _ in range(3))
    )


def random_model(rng: random.Random, name: str, depth: int = 0) -> tuple[list[str], list[str]]:
    """The lines of a random model and the names (scoped from it) of every frame it offers."""
    lines: list[str] = []
    names: list[str] = []
    links = [f"L{i}" for i in range(rng.randint(1, 3))]
    nested: list[tuple[str, list[str], list[str]]] = []
    if depth < 2:
        for i in range(rng.randint(0, 2)):
            sub_lines, sub_names = random_model(rng, f"M{i}", depth + 1)
            nested.append((f"M{i}", sub_lines, sub_names))
    canonical_choices = links + [
        f"{n}::{s}" for n, _, subs in nested for s in subs if s.count("::") == 0 and s.startswith("L")
    ]
    canonical = rng.choice(canonical_choices)
    lines.append(f"model {name} {canonical} {_pose(rng)}")
    for lk in links:
        lines.append(f"link {lk} {_pose(rng)}")
        names.append(lk)
    targets = list(links) + ["__model__"] + [f"{n}::{s}" for n, _, subs in nested for s in subs]
    for i in range(rng.randint(0, 3)):
        target = rng.choice(targets)
        lines.append(f"frame F{i} {target} {_pose(rng)}")
        names.append(f"F{i}")
        targets.append(f"F{i}")
    for i in range(rng.randint(0, 2)):
        child = rng.choice([t for t in targets if t != "__model__"])
        lines.append(f"joint J{i} {child} {_pose(rng)}")
        names.append(f"J{i}")
    for n, sub_lines, sub_names in nested:
        lines.extend(sub_lines)
        names.append(n)
        names.extend(f"{n}::{s}" for s in sub_names)
    lines.append("end")
    return lines, names
