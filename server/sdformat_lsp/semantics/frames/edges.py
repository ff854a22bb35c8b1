"""Resolving written references and drawing the edges of both frame graphs.

One part of :class:`~.frames.FrameGraphs` (a mixin): after the scopes and nodes
exist (:mod:`.building`), every ``attached_to``, ``relative_to``, joint parent
and child is resolved once and recorded, so features look a reference up instead
of resolving it again.
"""

from __future__ import annotations

import weakref
from dataclasses import replace

from ...model import Model, PoseSpec, Ref
from .vertices import WORLD, WORLD_SENTINEL, FrameNode, GraphTables, Resolution, Scope


class EdgeBuilding(GraphTables):
    """Resolves references (down into nested scopes, never up) and sets each node's two outgoing edges."""

    def resolve(self, ref: Ref, scope: Scope, allow_world: bool = False, record: bool = True) -> Resolution:
        """Resolve ``ref`` written in ``scope``: down into nested scopes, never up."""
        text = ref.text
        res: Resolution
        if (
            text
            and "::" not in text
            and text != "__root__"
            and not (text == WORLD and allow_world and scope.kind == "model")
        ):
            # A name without '::' (nearly every reference): the general walk below without its
            # per-segment bookkeeping, one lookup in ``scope``. It gives what the walk gives: the
            # node (a world node only where the world may be named), else 'missing' in ``scope``
            # with the one segment spanning the reference.
            node = scope.frames.get(text)
            if node is not None and (node.kind != "world" or allow_world or scope.kind == "world"):
                res = Resolution(ref, scope, node, None, None, None)
            else:
                span = ref.span
                res = Resolution(ref, scope, None, ((span[0], span[1], None),), "missing", scope)
        elif not text:
            res = Resolution(ref, scope, None, (), "empty", scope)
        elif text == "__root__":
            res = Resolution(ref, scope, None, (), "reserved", scope)
        elif text == WORLD and allow_world and scope.kind == "model":
            # a joint's parent 'world' is the world, whatever the model names so (Joint::ResolveParentLink)
            res = Resolution(ref, scope, WORLD_SENTINEL, ((ref.span.start, ref.span.end, None),), None, None)
        elif "::" in text and self.version < (1, 8) and text in scope.frames:
            # before 1.8 '::' was not a scope separator: flattened models use it in plain names
            node = scope.frames[text]
            res = Resolution(ref, scope, node, None, None, None)
        else:
            parts = text.split("::")
            segments: list[tuple[int, int, object]] = []
            offset = ref.span.start
            cur = scope
            target: FrameNode | None = None
            problem = None
            for i, part in enumerate(parts):
                start, end = offset, offset + len(part)
                offset = end + 2
                last = i == len(parts) - 1
                if not part:
                    problem = "missing"
                    break
                if not last:
                    child = cur.children.get(part)
                    if child is None:
                        segments.append((start, end, None))
                        problem = "missing"
                        break
                    segments.append((start, end, child))
                    cur = child
                    continue
                node = cur.frames.get(part)
                if (
                    node is not None
                    and node.kind == "world"
                    and (cur is not scope or not (allow_world or scope.kind == "world"))
                ):
                    node = None
                if node is None and part == WORLD and allow_world and cur is scope and scope.kind == "model":
                    target = WORLD_SENTINEL
                    segments.append((start, end, None))
                    break
                segments.append((start, end, node))
                if node is None:
                    problem = "missing"
                else:
                    target = node
            literal = scope.frames.get(text) if problem == "missing" and "::" in text else None
            if literal is not None:  # a name that contains '::' (URDF names, which libsdformat keeps as they are)
                res = Resolution(ref, scope, literal, None, None, None)
            elif (
                len(segments) == 1
                and target is not None
                and segments[0][2] is target
                and segments[0][0] == ref.span.start
                and segments[0][1] == ref.span.end
            ):
                res = Resolution(ref, scope, target, None, problem, None)
            else:
                res = Resolution(ref, scope, target, tuple(segments), problem, cur if problem == "missing" else None)
        if record:
            self.resolutions.append(res)
            self.by_ref[id(ref)] = res
        return res

    def resolution(self, ref: Ref | None) -> Resolution | None:
        """The recorded resolution of ``ref``, if it was resolved during building."""
        return self.by_ref.get(id(ref)) if ref is not None else None

    # -- edges ---------------------------------------------------------

    def _edges(self) -> None:
        for ref, inner in self.inner_poses:
            self.resolve(ref, inner)
        for node in self.nodes:
            if node.kind == "world":
                continue
            entity = node.entity
            weak = node._scope  # node.scope and scope.node without the properties' calls (every node)
            scope = weak() if weak is not None else None
            if scope is None:  # the root model: source of relative_to, attached to its canonical link
                self._model_attachment(node)
                continue
            wbase = scope._node
            default_base = wbase() if wbase is not None else None  # __model__ of a model, the world node of a world
            if node.kind == "link":
                self._relative(node, entity.pose, scope, default_base)
            elif node.kind == "model":
                self._model_attachment(node)
                self._relative(node, entity.pose, scope, default_base)
                inc = entity.from_include
                if (
                    inc is not None
                    and inc.placement_frame is not None
                    and inc.placement_frame.text
                    and node.inner is not None
                ):
                    # written in the including file, resolved inside the included model
                    res = self.resolve(inc.placement_frame, node.inner, record=False)
                    res = replace(res, written_in=scope.path)
                    self.resolutions.append(res)
                    self.by_ref[id(inc.placement_frame)] = res
            elif node.kind == "joint":
                if entity.parent is not None:
                    self.resolve(entity.parent, scope, allow_world=True)
                child = self.resolve(entity.child, scope) if entity.child is not None else None
                if child is not None:
                    self._attach(node, child.target, entity.child)
                self._relative(
                    node, entity.pose, scope, child.target if child is not None else None, default_ref=entity.child
                )
            elif node.kind == "frame":
                if entity.attached_to is not None and entity.attached_to.text:
                    at = self.resolve(entity.attached_to, scope, allow_world=scope.kind == "world")
                    self._attach(node, at.target, entity.attached_to)
                    self._relative(node, entity.pose, scope, at.target, default_ref=entity.attached_to)
                else:  # no attached_to, or attached_to="": the default
                    self._attach(node, default_base, None, default=True)
                    self._relative(node, entity.pose, scope, default_base)

    def _attach(self, node: FrameNode, target: FrameNode | None, ref: Ref | None, default: bool = False) -> None:
        node.attached_ref = ref
        node.attached_default = default
        if target is not None and target is not WORLD_SENTINEL:
            node._attached_to = weakref.ref(target)  # the ``attached_to`` setter, without its call (every node)

    def _model_attachment(self, node: FrameNode) -> None:
        """The model frame's edge, as libsdformat's ``buildFrameAttachedToGraph`` makes it.

        A static model is a sink (its ``canonical_link`` is still resolved, for
        the checks). Otherwise the canonical link: the written one, else the
        first link in element order, else the canonical link of the first
        nested model, depth first (static or not); a model whose nested models
        offer no link at all is attached to its first nested model.
        """
        model: Model = node.entity
        scope = node.inner
        assert scope is not None
        cref = model.canonical_link
        res = self.resolve(cref, scope) if cref is not None and cref.text else None  # written
        if node.static:
            return
        if res is not None:
            target = res.target
            nested = node.scope is not None and node.scope.kind == "model"
            if target is not None and target.kind != "link" and not nested:
                target = None  # a top-level model must name a link (checkCanonicalLinkNames): reported, not followed
            self._attach(node, target, cref)  # nested: whatever frame it names, as libsdformat's graph does
            return
        if scope.links_order:
            target = scope.links_order[0]
        else:
            first = next((c for c in scope.models_order if c is not None), None)
            target = self._canonical_target(first)
            if target is None and first is not None:
                target = first.node  # no link anywhere down: the first nested model (static ones are sinks)
        if target is not None:
            self._attach(node, target, None, default=True)

    def _canonical_target(self, scope: Scope | None) -> FrameNode | None:
        """The frame libsdformat's ``CanonicalLinkAndRelativeName`` names for ``scope`` (static or not), memoised."""
        path: list[Scope] = []
        result: FrameNode | None = None
        s = scope
        while s is not None:
            if id(s) in self._canonical_memo:
                result = self._canonical_memo[id(s)]
                break
            path.append(s)
            cref = getattr(s.entity, "canonical_link", None)
            if cref is not None and cref.text:
                result = self.resolve(cref, s, record=False).target
                break
            if s.links_order:
                result = s.links_order[0]
                break
            s = next((c for c in s.models_order if c is not None), None)
        for p in path:
            self._canonical_memo[id(p)] = result
        return result

    def _relative(
        self, node: FrameNode, pose: PoseSpec, scope: Scope, default: FrameNode | None, default_ref: Ref | None = None
    ) -> None:
        node._pose_spec = pose
        if pose is not None and pose.relative_to is not None and pose.relative_to.text:
            res = self.resolve(pose.relative_to, scope)
            node.relative_ref = pose.relative_to
            target = res.target
        else:
            node.relative_ref = default_ref
            target = default
        if target is not None and target is not WORLD_SENTINEL:
            node._relative_to = weakref.ref(target)  # the ``relative_to`` setter, without its call (every node)
