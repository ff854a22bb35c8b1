"""Hover: the resolved pose of the frame under the cursor.

(On includes see :mod:`.include_info`, on other tag and attribute names the
schema's facts :mod:`.schema_hover`; :func:`sdformat_lsp.features.hover` picks.)

What people need when reading an SDFormat file is the answer the frame
graphs compute: where a frame actually is (relative to its model and, in a
world, to the world), which chain of ``relative_to`` got it there and which
link carries it. On a ``<pose>`` the hover also says which frame the written
numbers are expressed in.
"""

from __future__ import annotations

import math

from ..model import Model
from ..semantics.analysis import Analysis
from ..semantics.frames import WORLD, WORLD_SENTINEL, FrameNode, Resolution, Scope
from ..semantics.pose import Transform, transform_of
from ..text import Span
from ..xml import XmlElement
from ..queries.poses import element_pose, relative_pose
from ..queries.results import HoverResult, Writer
from ..queries.frames import (
    CursorTarget,
    attached_summary,
    format_numbers,
    name_from,
    node_for_element,
    pose_problem,
    target_at,
)


def frame_hover(analysis: Analysis, offset: int, markdown: bool) -> HoverResult | None:
    """Hover text for a frame name, a frame reference or a ``<pose>`` at ``offset``."""
    target = target_at(analysis, offset)
    if target is not None:
        w = Writer(markdown)
        if target.node is None:
            _unresolved(w, target)
        else:
            _frame(w, analysis, target.node, target.scope)
        return HoverResult(w.text(), target.span)
    pose_el, span = _pose_at(analysis, offset)
    if pose_el is None or span is None:
        return None
    w = Writer(markdown)
    owner = pose_el.parent
    node = node_for_element(analysis, owner) if owner is not None else None
    if node is not None and node.scope is not None:
        _written_pose(w, analysis, node)
        _frame(w, analysis, node, node.scope)
    elif node is not None:
        w.para(f"{w.bold('pose')} of the top-level {node.kind} {w.code(node.name)}")
        w.para(
            "It places this model where the file is included or loaded; inside this file every pose "
            f"resolves to the model frame {w.code('__model__')}."
        )
    else:
        _element_pose(w, analysis, pose_el)
    return HoverResult(w.text(), span)


def _pose_at(analysis: Analysis, offset: int) -> tuple[XmlElement | None, Span | None]:
    """A ``<pose>`` whose tag or text is at ``offset`` (not its attribute values)."""
    el = analysis.xml.element_at(offset)
    if el is None or el.tag != "pose":
        return None, None
    if el.tag_span.contains(offset):
        return el, el.tag_span
    if el.end_tag_span is not None and el.end_tag_span.contains(offset):
        return el, el.end_tag_span
    body_end = el.end_tag_span.start if el.end_tag_span is not None else el.span.end
    if not el.self_closing and el.start_tag_span.end <= offset <= body_end:
        return el, el.text_span or Span(el.start_tag_span.end, body_end)
    return None, None


_PROBLEMS = {
    "empty": "the reference is empty",
    "reserved": "'__root__' is reserved and cannot be referenced",
}


def _unresolved(w: Writer, target: CursorTarget) -> None:
    res = target.resolution
    role = res.ref.role if res is not None else "reference"
    shown = w.code(target.text) if target.text else "(empty)"
    w.para(f"{w.bold(role)} {shown}")
    w.para(f"Does not resolve: {_why_unresolved(res, target)}.")


def _why_unresolved(res: Resolution | None, target: CursorTarget) -> str:
    if res is None:
        return "unknown name"
    if res.problem in _PROBLEMS:
        return _PROBLEMS[res.problem]
    if not target.text:
        return "a name is missing around '::'"
    if target.segment is not None and target.segment >= len(res.segments):
        return "an earlier '::' segment does not resolve"
    if target.text == WORLD and res.scope.kind == "model":
        return "'world' can only be a joint's parent inside a model"
    where = res.missing_in or res.scope
    what = f"{where.kind} '{where.name}'" if where.name else f"this {where.kind}"
    last = target.segment == len(res.ref.text.split("::")) - 1
    thing = "frame" if last else "nested model"
    return f"there is no {thing} '{target.text}' in {what} (references only reach the current scope and models nested in it)"


def _scope_frame(w: Writer, scope: Scope) -> str:
    if scope.kind == "world":
        return w.code("world")
    root = _urdf_root_link(scope)
    if root is not None:  # a URDF: its model frame is the frame of its root link
        return f"the root link {w.code(root)}"
    label = f"model {w.code(scope.name)}" if scope.name else "this model"
    return f"{w.code('__model__')} of {label}"


def _urdf_root_link(scope: Scope) -> str | None:
    """The root link of the URDF ``scope`` was converted from (None for SDFormat)."""
    model = scope.entity
    element = getattr(model, "element", None)
    if scope.parent is not None or element is None or element.tag != "robot" or not isinstance(model, Model):
        return None
    for joint in element.children_named("joint"):
        parent = joint.child("parent")
        if parent is not None and parent.get("link") == "world":
            return "world"  # URDF's fixed base: the model frame is the world link's
    return next((link.name for link in model.links if link.pose.relative_to is None), None)


def _transform_rows(w: Writer, t: Transform) -> list[str]:
    rpy = t.rpy
    deg = tuple(math.degrees(a) for a in rpy)
    return [
        f"xyz: {w.code(format_numbers(t.p))}",
        f"rpy: {w.code(format_numbers(rpy))} rad ({w.code(format_numbers(deg))} deg)",
        f"quaternion (x y z w): {w.code(format_numbers(t.quat_xyzw))}",
    ]


def _frame(w: Writer, analysis: Analysis, node: FrameNode, written_in: Scope | None) -> None:
    """Kind, name, resolved poses, relative_to chain and attached link of ``node``."""
    g = analysis.graphs
    assert g is not None
    if node is WORLD_SENTINEL or node.kind == "world":
        root = g.root
        name = f" {w.code(root.name)}" if root.kind == "world" and root.name else ""
        w.para(f"{w.bold('world')}{name}")
        w.para("The fixed world frame: the reference of every pose in a world.")
        return
    if node.scope is None:
        w.para(f"{w.bold('model')} {w.code(node.name)} (top-level)")
        w.para(f"Its frame {w.code('__model__')} is the frame every pose in this file resolves to.")
        _attachment(w, analysis, node)
        return
    w.para(f"{w.bold(node.kind)} {w.code(node.scoped_name())}")
    facts = analysis.frame_facts(node)  # what check --frames and every other feature say
    scope = facts.scope
    assert scope is not None
    in_scope = facts.in_scope
    if in_scope is None:
        w.para(f"Pose cannot be resolved: {pose_problem(analysis, node)}.")
    else:
        w.items(f"Relative to {_scope_frame(w, scope)}:", _transform_rows(w, in_scope))
        root = g.root
        if root.kind == "world" and scope is not root and facts.in_root is not None:
            w.items(f"Relative to {w.code('world')}:", _transform_rows(w, facts.in_root))
    chain: list[FrameNode] = []
    for n in g.chain(node):  # up to the scope's frame: the part the pose above depends on
        chain.append(n)
        if n is scope.node:
            break
    if len(chain) > 1 or in_scope is not None:
        names = " -> ".join(_chain_name(g, scope, n) for n in chain)
        w.para(f"relative_to chain: {w.code(names)}")
    _attachment(w, analysis, node)


def _chain_name(g, scope: Scope, n: FrameNode) -> str:
    """A frame of a relative_to chain; a merged model's proxy frame as the model it stands for."""
    if n.kind == "frame" and id(n) in g.merged_into:
        inc, _into = g.merged_into[id(n)]
        return f"[merged model {inc.name or n.name[len('_merged__') : -len('__model__')]}]"
    return name_from(scope, n)


def frame_hover_text(analysis: Analysis, node: FrameNode, markdown: bool = True) -> str:
    """The hover text of ``node`` (as on its name or on any reference to it)."""
    w = Writer(markdown)
    _frame(w, analysis, node, node.scope)
    return w.text()


def _attachment(w: Writer, analysis: Analysis, node: FrameNode) -> None:
    what, why = attached_summary(analysis, node)
    if what is not None:
        w.para(f"Attached to: {w.code(what)}")
    else:
        w.para(f"Not attached to a link: {why}.")


def _written_pose(w: Writer, analysis: Analysis, node: FrameNode) -> None:
    """The ``<pose>`` as written, and the frame its numbers are expressed in."""
    scope = node.scope
    base = node.relative_to
    ref = node.relative_ref
    if base is not None:
        expressed = w.code(name_from(scope, base))
    elif ref is not None and ref.text:
        expressed = f"{w.code(ref.text)} (does not resolve)"
    else:
        expressed = "nothing that resolves"
    w.para(f"{w.bold('pose')} of {node.kind} {w.code(node.name)}, expressed in {expressed}")
    pf = getattr(node.entity, "placement_frame", None)
    inc = getattr(node.entity, "from_include", None)
    if inc is not None and inc.placement_frame is not None and inc.placement_frame.text:
        pf = inc.placement_frame
    if node.kind == "model" and pf is not None and pf.text:
        w.para(f"The numbers place the model's frame {w.code(pf.text)}, not its {w.code('__model__')} frame.")
    w.items("As written:", _transform_rows(w, node.transform))


def _element_pose(w: Writer, analysis: Analysis, pose_el: XmlElement) -> None:
    """A pose that is not a frame's own (a visual's, a sensor's): written and resolved."""
    g = analysis.graphs
    assert g is not None
    found = element_pose(analysis, pose_el)
    assert found is not None
    spec, carrier, scope, base = found.spec, found.carrier, found.scope, found.base
    owner = pose_el.parent
    written = transform_of(spec)
    expressed: str
    if spec.relative_to is not None and spec.relative_to.text and scope is not None:
        expressed = w.code(spec.relative_to.text) + ("" if base is not None else " (does not resolve)")
    elif carrier is not None:
        expressed = f"{carrier.kind} {w.code(carrier.name)}" if carrier.kind != "world" else w.code("world")
    else:
        expressed = "its parent element"
    what = f"<{owner.tag}>" if owner is not None else "this element"
    owner_name = owner.get("name") if owner is not None else None
    label = f" {w.code(owner_name)}" if owner_name else ""
    w.para(f"{w.bold('pose')} of {w.code(what)}{label}, expressed in {expressed}")
    if not spec.valid:
        w.para("The pose values are not valid.")
        return
    w.items("As written:", _transform_rows(w, written))
    if scope is None or base is None or scope.node is None:
        return
    base_pose = relative_pose(analysis, base, scope.node)
    if base_pose is None:
        return
    w.items(f"Relative to {_scope_frame(w, scope)}:", _transform_rows(w, base_pose * written))
    root = g.root
    if root.kind == "world" and scope is not root:
        b = relative_pose(analysis, base, root.node)
        if b is not None:
            w.items(f"Relative to {w.code('world')}:", _transform_rows(w, b * written))


__all__ = ["HoverResult", "frame_hover", "frame_hover_text"]
