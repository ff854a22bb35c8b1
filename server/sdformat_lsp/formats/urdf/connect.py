"""Links and joints connected as urdfdom connects them: one parent per link, one root, no loops."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from ...diagnostics import Related, error
from .model import UJoint, ULink
from .values import JOINT_PARENT_SAME_AS_CHILD, PARSING_ERROR

if TYPE_CHECKING:
    from .reader import Reader


def connect(rd: "Reader") -> list[ULink]:
    """Connect links and joints as urdfdom does; the roots (one when the URDF is valid)."""
    # urdfdom walks its joints by name: that order is the order of child links
    for jname in sorted(rd.joints):
        j = rd.joints[jname]
        parent = rd.links.get(j.parent)
        child = rd.links.get(j.child)
        if child is None:
            _unknown_link(rd, j, "child")
        if parent is None:
            _unknown_link(rd, j, "parent")
            rd.claimed.add(j.child)
        if child is None or parent is None:
            continue
        if child is parent:
            rd.claimed.add(j.child)
            rd.error(
                f"joint '{j.name}' has '{j.child}' as both parent and child: a joint connects two different links",
                j.child_attr.value_span,
                "joint_same",
                JOINT_PARENT_SAME_AS_CHILD,
            )
            continue
        if child.parent_joint is not None:
            other = child.parent_joint
            rd.error(
                f"link '{child.name}' is already the child of joint '{other.name}': in a URDF every link has at most one parent joint",
                j.child_attr.value_span,
                "two_parents",
                related=(Related(other.child_attr.value_span, f"joint '{other.name}'"),),
            )
            continue
        child.parent_joint = j
        parent.child_joints.append(j)
    roots = [rd.links[n] for n in sorted(rd.links) if rd.links[n].parent_joint is None]
    free = [root for root in roots if root.name not in rd.claimed]
    if len(free) > 1 and not rd.unconnected:
        names = ", ".join(f"'{root.name}'" for root in free)
        for root in free[1:]:
            rd.error(
                f"the URDF has more than one root link ({names}): connect link '{root.name}' to the others with a joint",
                root.name_span,
                "roots",
                related=(Related(free[0].name_span, f"root link '{free[0].name}'"),),
            )
    # links on a loop of joints are reached from no root: urdfdom finds no root, or never sees them
    reached: set[str] = set()
    stack = list(roots)
    while stack:
        link = stack.pop()
        reached.add(link.name)
        stack.extend(rd.links[j.child] for j in link.child_joints)
    lost = sorted(set(rd.links) - reached)
    if lost:
        closing = rd.links[lost[0]].parent_joint
        assert closing is not None
        names = ", ".join(f"'{n}'" for n in lost)
        rd.error(
            f"the joints form a loop through link{'s' if len(lost) > 1 else ''} {names}: a URDF must be a tree; "
            f"joint '{closing.name}' is one that closes it",
            closing.child_attr.value_span,
            "cycle",
        )
    return roots


def _unknown_link(rd: "Reader", j: UJoint, end: str) -> None:
    name = j.parent if end == "parent" else j.child
    attr = j.parent_attr if end == "parent" else j.child_attr
    msg = f"the {end} link '{name}' of joint '{j.name}' is not defined: add <link name=\"{name}\"/> or name an existing link"
    best = difflib.get_close_matches(name, list(rd.links), n=1, cutoff=0.6)
    data = {}
    if best:
        msg += f"; did you mean '{best[0]}'?"
        data["suggestion"] = best[0]
    rd.diagnostics.append(error(PARSING_ERROR, msg, attr.value_span, data={"urdf": "unknown_link", **data}))
