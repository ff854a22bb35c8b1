"""Phases 4 to 8 of the validation: canonical links, placement frames, attached_to and relative_to.

The graph phases report each cycle once and mark its nodes, so the pose
phases after them stay quiet about what the cycle already explains.
"""

from __future__ import annotations

from ...diagnostics import Diagnostic, Related, Severity, error
from ...model import Frame, Model
from ...text import Span
from .base import CheckerBase, ROOT_NOT_STATIC, node_span, scope_words, top_level_scope
from ..frames import FrameNode


class FrameChecks(CheckerBase):
    """Models' canonical links and placement frames; attached_to and relative_to targets, sinks and cycles; inner poses."""

    def models(self) -> None:
        for node in self.nodes:
            if node.kind != "model":
                continue
            model: Model = node.entity
            scope = node.inner
            assert scope is not None
            if scope.path is not None:
                if not node.static and not scope.links_order and not any(scope.models_order):
                    self._mark(
                        node
                    )  # a model without link: reported on its include (by its file, or for <static>false)
                continue  # an included model: its canonical link and placement frame belong to its file
            cref = model.canonical_link
            if cref is not None and cref.text:
                res = self.g.resolution(cref) or self.g.resolve(cref, scope)
                links = [n for n, x in scope.nested_frames() if x.kind == "link"]
                top = top_level_scope(scope)  # the model's own scope: the root, or a model directly in a world
                if res.target is None:
                    d = self._bad_ref(
                        "MODEL_CANONICAL_LINK_INVALID", res, f"canonical_link of model '{model.name}'", links
                    )
                    if node.static:  # the frame graph ignores it; only the top-level name check sees it
                        d = self._top_only(d, scope, "canonical link")
                    self.out.append(d)
                    if d.is_error:
                        self._mark(node)
                elif res.target.kind != "link":
                    d = error(
                        "MODEL_CANONICAL_LINK_INVALID",
                        f"canonical_link of model '{model.name}' must name a link, but '{cref.text}' is a {res.target.kind}",
                        cref.span,
                    )
                    self.out.append(
                        self._top_only(d, scope, "canonical link", "libsdformat attaches the model to that frame")
                    )
                    if top:
                        self._mark(node)
            elif not node.static and not scope.links_order and not any(scope.models_order) and not model.includes:
                span = model.name_span or model.element.tag_span
                self.out.append(
                    error(
                        "MODEL_WITHOUT_LINK",
                        f"model '{model.name}' has no link, so nothing can carry its frames: add a <link>, a nested model with a link, or <static>true</static>",
                        span,
                        data={ROOT_NOT_STATIC: True} if node.scope is None else {},
                    )
                )
                self._mark(node)
            pf = model.placement_frame
            if pf is not None and pf.text:
                res = self.g.resolve(pf, scope)
                if res.target is None:
                    self.out.append(
                        self._bad_ref("POSE_RELATIVE_TO_INVALID", res, f"placement_frame of model '{model.name}'")
                    )

    # -- phases 5-6: attached_to ---------------------------------------

    def attached_to(self) -> None:
        reported_cycles: set[int] = set()
        for node in self.nodes:
            if node.kind != "frame":
                continue
            frame: Frame = node.entity
            ref = frame.attached_to
            if ref is None or not ref.text:
                continue
            res = self.g.resolution(ref)
            if res is None:
                continue
            if ref.text == node.name and node.scope is res.scope:
                self.out.append(
                    error(
                        "FRAME_ATTACHED_TO_CYCLE",
                        f"frame '{node.name}' is attached to itself: name a link, joint, frame or model it moves with",
                        ref.span,
                    )
                )
                self._mark(node)
                reported_cycles.add(id(node))
            elif res.target is None:
                self.out.append(
                    self._bad_ref(
                        "FRAME_ATTACHED_TO_INVALID",
                        res,
                        f"attached_to of frame '{node.name}'",
                        self._targets(res.scope, node, "attached_to"),
                    )
                )
                self._mark(node)
        quiet_nodes: set[int] = set()
        unattached = self.g.unattached()
        for cycle in self.g.attached_cycles(unattached):
            ids = {id(n) for n in cycle}
            if ids & reported_cycles:
                continue
            reported_cycles |= ids
            if ids <= self.broken:
                continue  # e.g. a joint naming itself as its child: already reported
            self._cycle("FRAME_ATTACHED_TO_CYCLE", "attached_to", cycle, lambda n: n.attached_ref)
        # Only nodes without an attached link have something to report: those, in node order (the
        # order of ``self.nodes``, whose other nodes, written in included files, are all in ``broken``).
        for node in unattached:
            if node.kind == "world" or id(node) in self.broken or id(node) in reported_cycles:
                continue
            # find the end of the chain; stay quiet if it runs into a reported problem
            cur, seen, quiet = node, set(), False
            path: list[FrameNode] = []
            while cur is not None and id(cur) not in seen:
                if id(cur) in self.broken or id(cur) in reported_cycles or id(cur) in quiet_nodes:
                    quiet = True
                    break
                seen.add(id(cur))
                path.append(cur)
                if cur.attached_to is None:
                    break
                cur = cur.attached_to
            if quiet:
                quiet_nodes.update(id(n) for n in path)  # later walks stop here: linear overall
                continue
            if cur is None or id(cur) in seen and cur.attached_to is not None:
                continue
            if cur is node and node.kind == "joint":
                continue  # its child problem was reported (or it has none)
            if self._hole_model(cur):
                quiet_nodes.update(id(n) for n in path)
                continue  # its canonical link may be in the include that could not be loaded
            span = node_span(node)
            self.out.append(
                error(
                    "FRAME_ATTACHED_TO_GRAPH_ERROR",
                    f"{node.kind} '{node.name}' is not attached to any link: its attached_to chain ends at {cur.kind} '{cur.name}', "
                    "which is neither a link nor a static model",
                    span,
                )
            )
            self._mark(node)

    def _cycle(self, code: str, attr: str, cycle: list[FrameNode], ref_of) -> None:
        members = sorted(cycle, key=lambda n: ref_of(n).span.start if ref_of(n) is not None else 1 << 60)
        first = members[0]
        ref = ref_of(first)
        if len(cycle) <= 8:
            names = " -> ".join(n.name for n in [*cycle, cycle[0]])
        else:
            names = (
                " -> ".join(n.name for n in cycle[:4])
                + f" -> ... -> {cycle[-1].name} -> {cycle[0].name} ({len(cycle)} frames)"
            )
        span = ref.span if ref is not None else (first.name_span or Span(0, 0))
        related = tuple(
            Related(ref_of(n).span, f"{n.kind} '{n.name}' {attr} '{ref_of(n).text}'")
            for n in members
            if ref_of(n) is not None
        )
        self.out.append(
            error(
                code,
                f"{attr} cycle: {names}; break the cycle by pointing one of these at a link or __model__",
                span,
                related=related,
            )
        )
        for n in cycle:
            self._mark(n)

    # -- phases 7-8: relative_to ---------------------------------------

    def relative_to(self) -> None:
        reported: set[int] = set()
        for node in self.nodes:
            entity = node.entity
            pose = getattr(entity, "pose", None)
            if node.kind == "world" or pose is None or pose.relative_to is None or not pose.relative_to.text:
                continue
            ref = pose.relative_to
            if node.scope is None:
                self.out.append(
                    error(
                        "ATTRIBUTE_INVALID",
                        f"the pose of the top-level model '{node.name}' cannot have relative_to: there is no enclosing frame; remove the attribute",
                        ref.span,
                    )
                )
                continue
            res = self.g.resolution(ref)
            if res is None:
                continue
            if res.target is node or (ref.text == node.name and res.scope is node.scope and node.kind != "model"):
                self.out.append(
                    error(
                        "POSE_RELATIVE_TO_CYCLE",
                        f"the pose of {node.kind} '{node.name}' is relative to itself: name another frame",
                        ref.span,
                    )
                )
                self._mark(node)
                reported.add(id(node))
            elif res.target is None:
                self.out.append(
                    self._bad_ref(
                        "POSE_RELATIVE_TO_INVALID",
                        res,
                        f"relative_to of {node.kind} '{node.name}'",
                        self._targets(res.scope, node, "relative_to"),
                    )
                )
                self._mark(node)
        quiet_nodes: set[int] = set()
        resolves: dict[int, bool] = {}
        unposed = self.g.unposed(resolves)
        for cycle in self.g.relative_cycles(resolves, unposed):
            ids = {id(n) for n in cycle}
            if ids & reported:
                continue
            reported |= ids
            if ids & self.broken and len(ids & self.broken) == len(ids):
                continue  # an attached_to cycle already explains it
            self._cycle("POSE_RELATIVE_TO_CYCLE", "relative_to", cycle, lambda n: n.relative_ref)
        for node in unposed:  # the others resolve (in node order, as in ``attached_to``)
            if id(node) in self.broken or id(node) in reported or node.kind == "world":
                continue
            cur: FrameNode | None = node
            seen: set[int] = set()
            quiet = False
            path: list[FrameNode] = []
            while cur is not None and id(cur) not in seen:
                if id(cur) in self.broken or id(cur) in reported or id(cur) in quiet_nodes:
                    quiet = True
                    break
                seen.add(id(cur))
                path.append(cur)
                cur = cur.relative_to
            if quiet:
                quiet_nodes.update(id(n) for n in path)
                continue
            span = node_span(node)
            self.out.append(
                error(
                    "POSE_RELATIVE_TO_GRAPH_ERROR",
                    f"the pose of {node.kind} '{node.name}' cannot be resolved to {scope_words(self.g.root)}",
                    span,
                )
            )
            self._mark(node)

    def inner_poses(self) -> None:
        """libsdformat loads these without checking them; the simulator then cannot place the element."""
        for ref, scope in self.g.inner_poses:
            if scope.path is not None:
                continue
            res = self.g.resolution(ref)
            if res is not None and res.target is None:
                d = self._bad_ref(
                    "POSE_RELATIVE_TO_INVALID",
                    res,
                    f"relative_to of this <{ref.element.parent.tag if ref.element.parent else 'pose'}> pose",
                )
                self.out.append(
                    Diagnostic(
                        d.code,
                        Severity.WARNING,
                        d.message + " (libsdformat loads the file, but cannot resolve this pose)",
                        d.span,
                        d.related,
                        d.fixes,
                        d.path,
                        d.data,
                    )
                )
