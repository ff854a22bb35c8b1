"""libsdformat's top-level joint check on joints that a merge brought into a top-level model.

``<include merge="true">`` moves the included model's joints into the
including model, and libsdformat checks them there with the including
model's other joints (``checkJointParentChildNames`` on the root model and
the models directly in a world). The included file's own analysis (loaded
alone, as libsdformat also loads it first) has already judged them, with one
difference: there, a *static* model's frames hang on its model frame, a body
of its own; merged, the model frame is a proxy frame attached to the model's
canonical link. A joint between that link and a frame on the model frame
joins two bodies alone and one link merged. Whether the model is static is
the include's ``<static>`` when it has one, the file's otherwise.

Only that case is reported here (the others were reported by the file's own
analysis, on the include): one error on the include per joint.
"""

from __future__ import annotations

import os

from ...diagnostics import Diagnostic, Related, error
from ...model import Include
from .phases import ROOT_ONLY, top_level_scope
from ..frames import WORLD_SENTINEL, FrameGraphs, FrameNode, Scope


def _merge_here(g: FrameGraphs, scope: Scope | None) -> tuple[Scope, Scope, Include] | None:
    """For a scope inside merges: (the view of the merge written in the analysed document, the scope it
    joined, its include); None when ``scope`` is no merged view or the merge is not written here."""
    view = scope
    while view is not None and id(view) in g.merged_into:
        inc, into = g.merged_into[id(view)]
        if id(into) not in g.merged_into:
            return (view, into, inc) if into.path is None else None
        view = into
    return None


def _alone_body(g: FrameGraphs, node: FrameNode, proxy: FrameNode | None) -> FrameNode | None:
    """The body carrying ``node`` in the merged model loaded alone and static: its model frame
    (the proxy here) when the attached_to chain reaches it before a link, else the link."""
    cur: FrameNode | None = node
    seen: set[int] = set()
    while cur is not None and id(cur) not in seen:
        if cur is proxy:
            return proxy
        if cur.is_sink:
            return cur
        seen.add(id(cur))
        cur = cur.attached_to
    return None


def merged_joint_checks(g: FrameGraphs) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for node in g.nodes:
        if node.kind != "joint" or node.scope is None or id(node.scope) not in g.merged_into:
            continue
        found = _merge_here(g, node.scope)
        if found is None:
            continue
        view, into, inc = found
        model = view.entity
        if not getattr(model, "static", False) or not top_level_scope(into):
            continue
        joint = node.entity
        if joint.parent is None or joint.child is None:
            continue
        p = g.resolve(joint.parent, node.scope, allow_world=True, record=False).target
        c = g.resolve(joint.child, node.scope, allow_world=True, record=False).target
        if p is None or c is None or p is WORLD_SENTINEL or p.kind == "world" or p is c:
            continue
        link = g.attached_link(p)
        if link is None or link is not g.attached_link(c):
            continue
        proxy = view.node
        if _alone_body(g, p, proxy) is _alone_body(g, c, proxy):
            continue  # the same alone: reported by the included file's own analysis
        path = getattr(getattr(model, "source", None), "path", None) or view.path
        name = os.path.basename(path or "")
        span = inc.uri.span if inc.uri is not None else inc.element.tag_span
        joint_path = getattr(node.scope, "path", None)
        out.append(
            error(
                "JOINT_PARENT_SAME_AS_CHILD",
                f"merged here, joint '{joint.name}' of {name} connects '{joint.parent.text}' and '{joint.child.text}', which are "
                f"both on link '{link.name}': the model '{model.name}' is static, so in {name} alone its model frame is a "
                f"body of its own, but merged into '{into.name}' its model frame is attached to its canonical link "
                f"'{link.name}'; include it without merge=\"true\", or change the joint",
                span,
                related=(Related(joint.name_span or joint.element.tag_span, f"joint '{joint.name}'", path=joint_path),),
                data={ROOT_ONLY: True},
            )
        )
    return out


__all__ = ["merged_joint_checks"]
