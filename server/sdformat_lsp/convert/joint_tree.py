"""The joints of a flattened model as the tree URDF needs: one parent per link, one root, no loop.

A model that is not a tree is refused with the joints named (``lossy`` does
not change that: there is no nearest tree). Several roots (links joined to
nothing) are refused too, unless ``lossy`` joins them to the first root with
fixed joints, keeping where they are.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..model.transform import Transform
from .flatten import WORLD, Body, Connection, Flat
from .parts import Notes


@dataclass
class Tree:
    order: list[Body]  # parents before children
    parent: dict[str, Connection]  # body name -> the joint above it
    world: bool  # some joint hangs from the world: URDF's root link 'world'
    extra: dict[str, tuple[str, Transform]] = field(default_factory=dict)  # --lossy joints: name -> (parent, X_B_child)
    extra_child: dict[str, str] = field(default_factory=dict)


def build_tree(flat: Flat, notes: Notes) -> Tree | None:
    bodies = {b.name: b for b in flat.bodies}
    parent: dict[str, Connection] = {}
    children: dict[str, list[str]] = {}
    ok = True
    for c in flat.connections:
        if c.child is None or c.parent is None:
            end = "child" if c.child is None else "parent"
            notes.errors.append(f"the {end} of joint '{c.name}' is no link of the model")
            ok = False
            continue
        if c.child == WORLD:
            notes.errors.append(f"joint '{c.name}' has the world as its child")
            ok = False
            continue
        if c.child == c.parent:
            notes.errors.append(f"joint '{c.name}' joins link '{c.child}' to itself")
            ok = False
            continue
        other = parent.get(c.child)
        if other is not None:
            notes.errors.append(
                f"link '{c.child}' is the child of two joints, '{other.name}' and '{c.name}': a URDF is a tree, "
                "where every link has one parent joint"
            )
            ok = False
            continue
        parent[c.child] = c
        children.setdefault(c.parent, []).append(c.child)
    if not ok:
        return None
    if not bodies:
        notes.errors.append(f"model '{flat.name}' has no link")
        return None
    world = WORLD in children
    roots = [b for b in flat.bodies if b.name not in parent]
    tree = Tree([], parent, world)
    if world:
        starts = [WORLD]
        loose = roots
    else:
        starts = [roots[0].name] if roots else []
        loose = roots[1:]
    if loose:
        names = ", ".join(f"'{b.name}'" for b in loose)
        if not notes.lossy:
            first = "the world" if world else f"'{roots[0].name}'"
            notes.errors.append(
                f"the model has more than one root: link{'s' if len(loose) > 1 else ''} {names} "
                f"{'are' if len(loose) > 1 else 'is'} joined to {first} by no joint, and a URDF has one root "
                "(--lossy joins them with fixed joints)"
            )
            return None
        base = WORLD if world else roots[0].name
        for b in loose:
            name = f"{b.name}_fixed_to_{base}"
            tree.extra[name] = (base, b.pose)
            tree.extra_child[name] = b.name
            children.setdefault(base, []).append(b.name)
            notes.warnings.append(f"link '{b.name}' is joined to '{base}' by no joint: fixed to it by joint '{name}'")
    seen: set[str] = set()
    queue = deque(starts)
    while queue:
        name = queue.popleft()
        if name in seen:
            continue
        seen.add(name)
        if name != WORLD:
            tree.order.append(bodies[name])
        queue.extend(children.get(name, ()))
    lost = [b.name for b in flat.bodies if b.name not in seen]
    if lost:
        loop = sorted({parent[n].name for n in lost if n in parent})
        notes.errors.append(
            f"joints {', '.join(repr(n) for n in loop)} form a loop through link{'s' if len(lost) > 1 else ''} "
            f"{', '.join(repr(n) for n in lost)}: a URDF is a tree"
        )
        return None
    return tree
