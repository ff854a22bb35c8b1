"""Phase 3 of the validation and the joint axes: parents, children and the frames of axes and mimics.

libsdformat checks most of these only at the top level (see ``ROOT_ONLY``): in
nested models they become warnings through ``CheckerBase._top_only``.
"""

from __future__ import annotations

from ...diagnostics import Diagnostic, Related, error
from ...model import Joint
from .base import CheckerBase, top_level_scope
from ..frames import WORLD, WORLD_SENTINEL, FrameNode, Scope


class JointChecks(CheckerBase):
    """A joint's parent and child, the links they resolve to, and its axes' frames and mimic joints."""

    def joints(self) -> None:
        for node in self.nodes:
            if node.kind != "joint":
                continue
            joint: Joint = node.entity
            scope = node.scope
            assert scope is not None
            p = self.g.resolution(joint.parent)
            c = self.g.resolution(joint.child)
            bad = False
            if c is not None:
                if c.ref.text == WORLD:  # (c.ref is joint.child)
                    self.out.append(
                        error(
                            "JOINT_CHILD_LINK_INVALID",
                            f"joint '{joint.name}' cannot have 'world' as its child: the world is fixed; swap <parent> and <child>",
                            c.ref.span,
                        )
                    )
                    bad = True
                elif c.target is node:
                    self.out.append(
                        error(
                            "JOINT_CHILD_LINK_INVALID",
                            f"joint '{joint.name}' names itself as its child: name the link or frame it moves",
                            c.ref.span,
                        )
                    )
                    bad = True
                elif c.target is None:
                    self.out.append(
                        self._bad_ref(
                            "JOINT_CHILD_LINK_INVALID",
                            c,
                            f"child of joint '{joint.name}'",
                            self._link_names(scope, node),
                        )
                    )
                    bad = True
                elif self.version < (1, 8) and c.target.kind != "link":
                    self.out.append(
                        error(
                            "JOINT_CHILD_LINK_INVALID",
                            f"the child of joint '{joint.name}' must be a link before SDFormat 1.8, but '{c.ref.text}' is a {c.target.kind}",
                            c.ref.span,
                        )
                    )
                    bad = True
            if p is not None:
                top = top_level_scope(scope)
                if p.target is node or p.ref.text == joint.name:
                    msg = (
                        f"joint '{joint.name}' names itself as its parent: name a link, a frame or 'world'"
                        if p.target is node
                        else f"joint '{joint.name}' has the name of its parent '{p.ref.text}': rename the joint"
                    )
                    d = error("JOINT_PARENT_LINK_INVALID", msg, p.ref.span)
                    self.out.append(self._top_only(d, scope, "joint's parent"))
                    bad = bad or top
                elif p.target is None:
                    d = self._bad_ref(
                        "JOINT_PARENT_LINK_INVALID",
                        p,
                        f"parent of joint '{joint.name}'",
                        [*self._link_names(scope, node), WORLD],
                    )
                    self.out.append(self._top_only(d, scope, "joint's parent"))
                    bad = bad or top
                elif (
                    self.version < (1, 8) and p.target is not WORLD_SENTINEL and p.target.kind not in ("link", "world")
                ):
                    self.out.append(
                        error(
                            "JOINT_PARENT_LINK_INVALID",
                            f"the parent of joint '{joint.name}' must be a link before SDFormat 1.8, but '{p.ref.text}' is a {p.target.kind}",
                            p.ref.span,
                        )
                    )
                    bad = True
            if bad:
                self._mark(node)
                continue
            if p is None or c is None or c.target is None:  # (a child that does not resolve is ``bad``)
                self._mark(node)
                continue
            if p.ref.text == c.ref.text:
                self.out.append(
                    error(
                        "JOINT_PARENT_SAME_AS_CHILD",
                        f"joint '{joint.name}' has '{c.ref.text}' as both parent and child: a joint connects two different links",
                        c.ref.span,
                        related=(Related(p.ref.span, "the parent"),),
                    )
                )
                self._mark(node)
                continue
            if p.target is None or p.target is WORLD_SENTINEL or p.target.kind == "world":
                continue
            pl, cl = self.g.attached_link(p.target), self.g.attached_link(c.target)
            if pl is not None and pl is cl:
                d = error(
                    "JOINT_PARENT_SAME_AS_CHILD",
                    f"the parent '{p.ref.text}' and child '{c.ref.text}' of joint '{joint.name}' are both attached to link "
                    f"'{pl.scoped_name()}': a joint must connect two different links",
                    c.ref.span,
                    related=(Related(p.ref.span, "the parent"),),
                )
                self.out.append(self._top_only(d, scope, "joint", "the joint cannot move anything"))
                if top_level_scope(scope):
                    self._mark(node)

    def _link_names(self, scope: Scope, joint: FrameNode | None = None) -> list[str]:
        """What a joint's parent or child may name: links only before 1.8; any frame after (a link, a frame,
        a model, another joint), never the joint itself."""
        kinds = ("link",) if self.version < (1, 8) else ("link", "frame", "model", "joint")
        return [n for n, node in scope.nested_frames() if node.kind in kinds and node is not joint]

    def axes(self) -> None:
        for node in self.nodes:
            if node.kind != "joint":
                continue
            joint: Joint = node.entity
            scope = node.scope
            assert scope is not None  # a joint is in a model or world
            for ref in joint.expressed_in:
                if not ref.text:
                    continue
                res = self.g.resolve(ref, scope)
                if res.target is None:
                    bad = self._bad_ref(
                        "JOINT_AXIS_EXPRESSED_IN_INVALID", res, f"expressed_in of the axis of joint '{joint.name}'"
                    )
                    self.out.append(self._top_only(bad, scope, "axis"))
            for ref in joint.mimics:
                res = self.g.resolve(ref, scope)
                d: Diagnostic | None = None
                if res.target is None or res.target.kind != "joint":
                    joints = [n for n, x in scope.nested_frames() if x.kind == "joint" and x is not node]
                    if res.target is not None:
                        d = error(
                            "JOINT_AXIS_MIMIC_INVALID",
                            f"mimic joint '{ref.text}' of joint '{joint.name}' is a {res.target.kind}, not a joint",
                            ref.span,
                        )
                    else:
                        d = self._bad_ref(
                            "JOINT_AXIS_MIMIC_INVALID", res, f"mimic joint of joint '{joint.name}'", joints
                        )
                elif res.target is node:
                    d = error(
                        "JOINT_AXIS_MIMIC_INVALID",
                        f"joint '{joint.name}' cannot mimic itself: name another joint",
                        ref.span,
                    )
                if d is not None:
                    self.out.append(self._top_only(d, scope, "mimic joint"))
