"""Document symbols: the outline of worlds, models and their frames.

Built from the document model rather than the frame graphs, so the outline
is there as soon as the file has an ``<sdf>`` root, even while references
are broken or the graphs could not be built.
"""

from __future__ import annotations

from ..model import Frame, Include, Joint, Link, Model, Named, World
from ..queries.results import Symbol
from ..semantics.analysis import Analysis
from ..text import Span
from ..xml import XmlElement


def document_symbols(analysis: Analysis) -> list[Symbol]:
    """The world(s) or model of the document as a tree, in document order."""
    doc = analysis.document
    if doc is None:
        return []
    out: list[Symbol] = []
    for world in doc.worlds:
        out.append(_world(world))
    for model in doc.models:
        out.append(_model(model))
    out.sort(key=lambda s: s.span.start)
    return out


def _selection(name_span: Span | None, el: XmlElement) -> Span:
    return name_span if name_span is not None else el.tag_span


def _display(name: str, el: XmlElement) -> str:
    return name if name else f"<{el.tag}>"


def _world(world: World) -> Symbol:
    children = [_member(m) for m in world.members]
    children.extend(_include(inc) for inc in world.includes)
    children.sort(key=lambda s: s.span.start)
    return Symbol(
        _display(world.name, world.element),
        "world",
        "world",
        world.element.span,
        _selection(world.name_span, world.element),
        tuple(children),
    )


def _leaf(member: Named) -> Symbol:
    """A link, joint or frame: no children."""
    el = member.element
    if isinstance(member, Joint):
        parts = [member.type or "joint"]
        if member.parent is not None or member.child is not None:
            parent = member.parent.text if member.parent is not None else "?"
            child = member.child.text if member.child is not None else "?"
            parts.append(f"{parent} -> {child}")
        detail = " ".join(parts)
    elif isinstance(member, Frame):
        at = member.attached_to.text if member.attached_to is not None and member.attached_to.text else None
        detail = f"attached to {at}" if at else "frame"
    elif isinstance(member, Link):
        detail = "link"
    else:
        detail = member.kind
    return Symbol(_display(member.name, el), member.kind, detail, el.span, _selection(member.name_span, el))


def _member(member: Named) -> Symbol:
    return _model(member) if isinstance(member, Model) else _leaf(member)


def _model(top: Model) -> Symbol:
    """A model and everything nested in it, built children first without recursion (nesting can be deep)."""
    order: list[Model] = []
    stack = [top]
    while stack:
        m = stack.pop()
        order.append(m)
        stack.extend(m.models)
    built: dict[int, Symbol] = {}
    for model in reversed(order):
        children = [built.pop(id(m)) if isinstance(m, Model) else _leaf(m) for m in model.members]
        children.extend(_include(inc) for inc in model.includes)
        children.sort(key=lambda s: s.span.start)
        detail = "static model" if model.static else "model"
        if model.canonical_link is not None and model.canonical_link.text:
            detail += f", canonical link {model.canonical_link.text}"
        el = model.element
        built[id(model)] = Symbol(
            _display(model.name, el), "model", detail, el.span, _selection(model.name_span, el), tuple(children)
        )
    return built[id(top)]


def _include(inc: Include) -> Symbol:
    uri = inc.uri.text if inc.uri is not None else ""
    name = inc.name or uri or "<include>"
    el = inc.element
    return Symbol(name, "include", uri or "include", el.span, _selection(inc.name_span, el))


__all__ = ["Symbol", "document_symbols"]
