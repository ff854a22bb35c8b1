"""``<include merge="true">`` printed as libsdformat merges it (``parser.cc``, the merge in
``insertIncludedElement``).

The included model's start and end tags go; in their place comes a proxy frame
``_merged__NAME__model__``, attached to the model's canonical link and posed where the model
frame would have been (the include's pose, after a ``placement_frame``), written relative to
the including model's frame (the world's; in a merged model, its proxy frame, as libsdformat
writes it). Of the model's children only links, models,
joints, frames, grippers, plugins and namespaced elements stay, each where it was; the rest
(``<static>``, ``<self_collide>``, ``<pose>``...) is dropped, as libsdformat drops it. What
those children wrote as ``__model__`` meant the included model, so it becomes the proxy:

- a link's or model's pose ``relative_to`` when empty or ``__model__`` (a pose is added to one
  written without: it sat at the model frame);
- a frame's ``attached_to`` when empty or ``__model__``, its pose ``relative_to`` when ``__model__``;
- a joint's pose ``relative_to``, ``<parent>``, ``<child>`` and its axes' ``expressed_in``
  when ``__model__``.

Deeper references (a visual's ``relative_to``) are copied as libsdformat copies them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

from .splice import escape_attr, escape_text, line_start

if TYPE_CHECKING:
    from ..xml.tree import XmlAttribute

KEPT = frozenset(("link", "model", "joint", "frame", "gripper", "plugin", "include"))
MODEL_FRAME = "__model__"


def proxy_header(writer, view, nl: str) -> str:
    """The proxy frame's element, posed relative to the frame of the model (world) it joins."""
    proxy = view.node
    real = view.real
    base = real.node
    rel = "world" if real.kind == "world" else MODEL_FRAME
    holder = writer.graphs.merged_into.get(id(view), (None, real))[1]
    if (
        holder is not real and not writer.resolve
    ):  # merged into a merged model: relative to its proxy, as libsdformat writes it
        base, rel = holder.node, holder.node.name
    a, b = writer.graphs.pose(base), writer.graphs.pose(proxy)
    attrs = f' name="{escape_attr(proxy.name)}"'
    attached = getattr(proxy.entity, "attached_to", None)
    if attached is not None and attached.text:
        attrs += f' attached_to="{escape_attr(attached.text)}"'
    pose = ""
    if a is not None and b is not None:
        pose = nl + "  " + writer._pose_element({"relative_to": rel}, a.inverse() * b) + nl
    return f"<frame{attrs}>{pose}</frame>"


def open_merged(writer, el, text: str, view, repl: list) -> None:
    """The included model's tags become the proxy frame; what libsdformat does not merge goes."""
    nl = writer._newline(text)
    header = proxy_header(writer, view, nl)
    if el.self_closing:
        repl.append((el.span.start, el.span.end, header))
        return
    repl.append((el.span.start, el.stag_end, header))
    if el.etag_start >= 0:
        repl.append((line_start(text, el.etag_start), el.span.end, ""))
    for child in el.children:
        if child.tag not in KEPT and ":" not in child.tag:
            repl.append((line_start(text, child.span.start), child.span.end, ""))


def child_rules(writer, d, text: str, proxy: str, repl: list) -> None:
    """A merged child's references to ``__model__`` (and the defaults that meant it) become ``proxy``."""
    tag = d.tag
    pose = d.child("pose")
    if tag in ("link", "model"):
        if pose is not None:
            rel = pose.attr("relative_to")
            if rel is None or rel.value in ("", MODEL_FRAME):
                writer.merge_rel[id(pose)] = proxy
        elif id(d) not in writer.poses:  # --resolve-poses adds its own
            added = writer._pose_element({"relative_to": proxy}, None)
            _add_child(d, text, added, writer._newline(text), repl)
    elif tag == "frame":
        att = d.attr("attached_to")
        if att is None:
            at = d.ts + 1 + len(d.tag)
            repl.append((at, at, f' attached_to="{escape_attr(proxy)}"'))
        elif att.value in ("", MODEL_FRAME):
            repl.append((att.value_span.start, att.value_span.end, escape_attr(proxy)))
        if pose is not None and _is_model(pose.attr("relative_to")):
            writer.merge_rel[id(pose)] = proxy
    elif tag == "joint":
        if pose is not None and _is_model(pose.attr("relative_to")):
            writer.merge_rel[id(pose)] = proxy
        for name in ("parent", "child"):
            link = d.child(name)
            if link is not None and link.text.strip() == MODEL_FRAME and link.text_span is not None:
                repl.append((link.text_span.start, link.text_span.end, escape_text(proxy)))
        for name in ("axis", "axis2"):
            axis = d.child(name)
            xyz = axis.child("xyz") if axis is not None else None
            expressed = xyz.attr("expressed_in") if xyz is not None else None
            if _is_model(expressed):
                repl.append((expressed.value_span.start, expressed.value_span.end, escape_attr(proxy)))


def _is_model(attr: XmlAttribute | None) -> TypeGuard[XmlAttribute]:
    return attr is not None and attr.value == MODEL_FRAME


def _add_child(d, text: str, xml: str, nl: str, repl: list) -> None:
    if d.self_closing:
        repl.append((d.stag_end - 2, d.stag_end, ">" + xml + f"</{d.tag}>"))
    else:
        repl.append((d.stag_end, d.stag_end, xml))


__all__ = ["KEPT", "child_rules", "open_merged"]
