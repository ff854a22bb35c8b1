"""Resolved poses as the editor shows them: the hover, the inlay hints and the frame view.

All of them print where a frame (or a posed element such as a visual) is
relative to the frame of the model that declares it, from the poses the frame
graphs resolved (:meth:`FrameGraphs.pose`), so that the three never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.builder import Builder, version_tuple
from ..model.elements import PoseSpec
from ..model.transform import Transform, transform_of
from ..semantics.analysis import Analysis
from ..semantics.frames import WORLD_SENTINEL, FrameNode, Scope
from ..xml import XmlElement
from .frames import enclosing_scope
from .scope_frames import node_for_element


def relative_pose(analysis: Analysis, node: FrameNode, base: FrameNode | None) -> Transform | None:
    """``X_base_node`` from the resolved poses, or None when either does not resolve."""
    g = analysis.graphs
    if g is None or base is None:
        return None
    a, b = g.pose(node), g.pose(base)
    if a is None or b is None:
        return None
    return b.inverse() * a


def pose_in_scope(analysis: Analysis, node: FrameNode) -> Transform | None:
    """The pose of ``node`` relative to the frame of the scope declaring it (``__model__``, or the world):
    :meth:`Analysis.pose_in_scope`, which knows where merged entities belong."""
    if node.scope is None:
        return None
    return analysis.pose_in_scope(node)


def node_of(analysis: Analysis, el: XmlElement) -> FrameNode | None:
    """:func:`node_for_element` (indexed once per analysis: the inlay hints and the frame view ask for
    every element of a large world)."""
    return node_for_element(analysis, el)


def carrier_of(analysis: Analysis, el: XmlElement) -> FrameNode | None:
    """The nearest frame declared by ``el`` or an ancestor (the link of a visual, say)."""
    for anc in (el, *el.ancestors()):
        node = node_of(analysis, anc)
        if node is not None:
            return node
    return None


@dataclass(frozen=True)
class ElementPose:
    """A ``<pose>`` of an element that is not a frame (visual, collision, sensor, light), as the
    frame graphs place it: one answer for the hover and :func:`element_pose_in_scope`."""

    spec: PoseSpec
    carrier: FrameNode | None  # the nearest frame declared by the element or an ancestor
    scope: Scope | None  # where its relative_to resolves (in a merged link: the model it joined)
    base: FrameNode | None  # the frame the values are written in; None when relative_to does not resolve


def element_pose(analysis: Analysis, pose_el: XmlElement) -> ElementPose | None:
    """The written pose of ``pose_el``'s element, its carrier, scope and base frame."""
    g = analysis.graphs
    if g is None:
        return None
    owner = pose_el.parent
    carrier = carrier_of(analysis, owner) if owner is not None else None
    builder = Builder(analysis.xml)
    builder.version = version_tuple(analysis.version)
    spec = builder.pose(owner if owner is not None else pose_el, pose_el)
    scope: Scope | None
    if carrier is not None and carrier.kind in ("model", "world") and carrier.inner is not None:
        scope = carrier.inner
    elif carrier is not None:
        scope = carrier.scope
    else:
        scope = enclosing_scope(analysis, pose_el)
    if scope is not None:
        scope = g.inner_pose_scope(scope)  # in a merged link, __model__ is the model it joined
    base = carrier
    if spec.relative_to is not None and spec.relative_to.text and scope is not None:
        res = g.resolve(spec.relative_to, scope, allow_world=scope.kind == "world", record=False)
        base = res.target if res.target is not WORLD_SENTINEL else (scope.node if scope.kind == "world" else None)
    return ElementPose(spec, carrier, scope, base)


def element_pose_in_scope(analysis: Analysis, pose_el: XmlElement) -> tuple[Transform, Scope] | None:
    """A ``<pose>`` of an element that is not a frame (visual, collision, sensor, light):
    where it lands relative to the frame of the enclosing model (or world), or None
    when that does not resolve."""
    if pose_el.parent is None:
        return None
    found = element_pose(analysis, pose_el)
    if found is None or not found.spec.valid:
        return None
    scope = found.scope
    if scope is None or scope.node is None or found.base is None:
        return None
    base_pose = relative_pose(analysis, found.base, scope.node)
    if base_pose is None:
        return None
    return base_pose * transform_of(found.spec), scope


__all__ = [
    "ElementPose",
    "carrier_of",
    "element_pose",
    "element_pose_in_scope",
    "node_of",
    "pose_in_scope",
    "relative_pose",
]
