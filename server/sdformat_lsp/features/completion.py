"""Completion of frame references: exactly the names legal at the cursor.

(Elsewhere completion comes from the schema: see :mod:`.schema_completion`.)

Completion runs while the user is typing, so the document is usually not
well formed: a ``relative_to="`` without its closing quote, a ``<parent>``
without its end tag. The context (which attribute or element the cursor is
in) is therefore read from the raw text before the cursor, and only the
owner of that attribute or element is taken from the tolerant XML tree.

The names offered follow the scope rules of the composition proposal: the
frames of the current scope and paths down into nested models, never
anything from an enclosing scope; never the element itself or a frame that
would close an ``attached_to``/``relative_to`` cycle; only links for
``canonical_link``, only joints for ``mimic``; ``world`` only where it is
legal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ..model import version_tuple
from ..semantics.analysis import Analysis
from ..semantics.frames import MODEL_FRAME, WORLD, WORLD_SENTINEL, FrameNode, Scope
from ..text import Span
from ..xml import XmlElement
from ..queries.results import CompletionItem, CompletionList
from ..queries.frames import attached_summary, enclosing_scope, format_numbers, node_for_element, scope_of_element
from ..queries.scope_frames import prepare_reaching, reaching, scope_frames

_WINDOW = 8000  # how far back to look for the start of the tag the cursor is in
_ATTR_BEFORE_QUOTE = re.compile(r"([A-Za-z_][\w.:-]*)\s*=\s*$")  # searched in a short stretch only
_NAME_LIMIT = 200  # attribute name, '=' and spaces before the opening quote
_TEXT_VALUE = re.compile(r"<(parent|child|placement_frame)\s*>(\s*)([^<>\s\"']*)$")
_TAG_START = re.compile(r"<([^\s<>/!?\"'=]+)")
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
_WORD_STOP = set(" \t\r\n\"'<>")
_INTERNAL = re.compile(r"(^|::)_merged__.*__model__$")  # proxy frames of merge="true" includes

# (element tag, attribute) -> reference role
_ATTR_ROLES = {
    ("pose", "relative_to"): "relative_to",
    ("frame", "attached_to"): "attached_to",
    ("model", "canonical_link"): "canonical_link",
    ("model", "placement_frame"): "placement_frame",
    ("xyz", "expressed_in"): "expressed_in",
    ("mimic", "joint"): "mimic",
}


@dataclass(frozen=True, slots=True)
class _Context:
    role: str
    element: XmlElement  # the element carrying the attribute, or whose text is the reference
    value_start: int  # where the reference text starts


def frame_complete(analysis: Analysis, offset: int, details: bool = True) -> CompletionList | None:
    """Frame names legal at ``offset`` in a frame reference; None elsewhere (where
    :mod:`.schema_completion` offers what the schema allows).

    With ``details=False`` frame items carry no detail (resolved pose and link):
    a client that resolves items asks for it per item (:func:`frame_detail`),
    which keeps a list of thousands of frames cheap to build and to send.
    """
    offset = max(0, min(offset, len(analysis.text)))
    ctx = _context(analysis, offset)
    if ctx is None:
        return None  # not in a frame reference: the schema's completion answers
    span = _word(analysis.text, offset, ctx.value_start)
    if analysis.graphs is None:
        return CompletionList([], span)
    return CompletionList(_items(analysis, ctx, details), span)


def frame_detail(analysis: Analysis, offset: int, label: str) -> str | None:
    """The detail of the frame item ``label`` offered at ``offset`` (for lazily resolved items)."""
    if analysis.graphs is None:
        return None
    ctx = _context(analysis, max(0, min(offset, len(analysis.text))))
    if ctx is None:
        return None
    rules = _rules(analysis, ctx)
    if rules is None or rules.scope is None:
        return None
    if label == WORLD and rules.world and rules.scope.kind == "model":
        return _detail(analysis, rules.scope, WORLD_SENTINEL)
    for name, node in rules.scope.nested_frames():
        if name == label:
            return _detail(analysis, rules.scope, node)
    return None


# -- where is the cursor ---------------------------------------------------


def _context(analysis: Analysis, offset: int) -> _Context | None:
    text = analysis.text
    base = max(0, offset - _WINDOW)
    before = text[base:offset]
    version = version_tuple(analysis.version)
    quote = max(before.rfind('"'), before.rfind("'"))
    value = before[quote + 1 :]
    m = _ATTR_BEFORE_QUOTE.search(before, max(0, quote - _NAME_LIMIT), quote) if quote >= 0 else None
    if m is not None and not any(c in value for c in "<>\r\n"):
        lt = before.rfind("<", 0, m.start())
        if lt >= 0 and _inside_start_tag(before[lt : m.start()]):
            t = _TAG_START.match(before, lt)
            if t is not None:
                tag, attr = t.group(1), m.group(1)
                role = _ATTR_ROLES.get((tag, attr))
                if role is None and tag == "pose" and attr == "frame" and version < (1, 7):
                    role = "relative_to"
                el = _element_starting_at(analysis, base + lt, tag)
                if role is not None and el is not None:
                    return _Context(role, el, base + quote + 1)
        return None
    m = _TEXT_VALUE.search(before)
    if m is not None:
        tag = m.group(1)
        el = _element_starting_at(analysis, base + m.start(), tag)
        if el is None or el.parent is None:
            return None
        owner = el.parent.tag
        if (tag in ("parent", "child") and owner == "joint") or (tag == "placement_frame" and owner == "include"):
            return _Context(tag, el, base + m.start(3))
    return None


def _inside_start_tag(segment: str) -> bool:
    """``segment`` runs from a ``<`` to an attribute: no ``>`` and no open quote in between."""
    rest = _QUOTED.sub("", segment)
    return ">" not in rest and '"' not in rest and "'" not in rest


def _element_starting_at(analysis: Analysis, lt: int, tag: str) -> XmlElement | None:
    """The element whose start tag begins at ``lt`` (None inside a comment or CDATA)."""
    el = analysis.xml.element_at(lt + 1)
    while el is not None and el.start_tag_span.start > lt:
        el = el.parent
    if el is not None and el.start_tag_span.start == lt and el.tag == tag:
        return el
    return None


def _word(text: str, offset: int, start_limit: int) -> Span:
    """The reference around the cursor (``::`` included): what a chosen item replaces."""
    start = offset
    while start > start_limit and text[start - 1] not in _WORD_STOP:
        start -= 1
    end = offset
    while end < len(text) and text[end] not in _WORD_STOP:
        end += 1
    return Span(start, end)


# -- what is legal there -----------------------------------------------------


@dataclass
class _Rules:
    scope: Scope | None
    kinds: frozenset[str] = frozenset({"link", "joint", "frame", "model", "world"})
    world: bool = False  # may 'world' be named
    model_frame: bool = True  # may '__model__' (and 'n::__model__') be named
    excluded: set[int] = field(default_factory=set)  # ids of nodes that are illegal here


_ALL = frozenset({"link", "joint", "frame", "model", "world"})


def _rules(analysis: Analysis, ctx: _Context) -> _Rules | None:
    g = analysis.graphs
    assert g is not None
    el = ctx.element
    role = ctx.role
    scope: Scope | None
    old = version_tuple(analysis.version) < (1, 8)

    if role == "relative_to":
        owner = el.parent
        if owner is None:
            return None
        if owner.tag in ("model", "include"):
            scope = enclosing_scope(analysis, owner)
        else:
            scope = enclosing_scope(analysis, el)
        node = (
            node_for_element(analysis, owner) if owner.tag in ("link", "joint", "frame", "model", "include") else None
        )
        if scope is None:
            return None
        return _Rules(scope, _ALL, scope.kind == "world", excluded=_excluded(g, node, scope, _relative_step))
    if role == "attached_to":
        scope = enclosing_scope(analysis, el)
        return _Rules(
            scope,
            _ALL,
            scope is not None and scope.kind == "world",
            excluded=_excluded(g, node_for_element(analysis, el), scope, _attached_step),
        )
    if role == "canonical_link":
        return _Rules(scope_of_element(analysis, el), frozenset({"link"}), False, model_frame=False)
    if role == "placement_frame":
        if el.tag == "model":
            return _Rules(scope_of_element(analysis, el), _ALL - {"world"}, False)
        include = el.parent
        for inc, scope in g.included:
            if inc.element is include:
                return _Rules(scope, _ALL - {"world"}, False)
        return None
    joint_el = next((a for a in el.ancestors() if a.tag == "joint"), None)
    if joint_el is None:
        return None
    joint = node_for_element(analysis, joint_el)
    scope = enclosing_scope(analysis, joint_el)
    if scope is None:
        return None
    if role == "expressed_in":
        return _Rules(scope, _ALL, scope.kind == "world")
    if role == "mimic":
        return _Rules(
            scope, frozenset({"joint"}), False, model_frame=False, excluded={id(joint)} if joint is not None else set()
        )
    kinds = frozenset({"link"}) if old else _ALL - {"world"}
    if role == "parent":
        return _Rules(
            scope, kinds | {"world"}, True, model_frame=not old, excluded=_excluded(g, joint, scope, _attached_step)
        )
    if role == "child":
        return _Rules(scope, kinds, False, model_frame=not old, excluded=_excluded(g, joint, scope, _attached_step))
    return None


def _excluded(
    graphs, node: FrameNode | None, scope: Scope | None, step: Callable[[FrameNode], FrameNode | None]
) -> set[int]:
    """``node`` itself and the candidates of ``scope`` whose ``step`` chain reaches it (they would close a cycle)."""
    if node is None or scope is None:
        return set()
    return {id(node)} | reaching(graphs, scope, node, step)


def _attached_step(n: FrameNode) -> FrameNode | None:
    return n.attached_to


def _relative_step(n: FrameNode) -> FrameNode | None:
    return n.relative_to


# the chain a reference's candidates are checked along for cycles (see _rules: _excluded's step)
_ROLE_STEPS = {
    "relative_to": _relative_step,
    "attached_to": _attached_step,
    "parent": _attached_step,
    "child": _attached_step,
}


def _items(analysis: Analysis, ctx: _Context, details: bool = True) -> list[CompletionItem]:
    rules = _rules(analysis, ctx)
    if rules is None or rules.scope is None:
        return []
    listing = _listing(analysis, rules, details)
    if len(listing.items) >= _LARGE_SCOPE:
        _remember(
            analysis.path, (_address(rules.scope), rules.kinds, rules.world, rules.model_frame, details, ctx.role)
        )
    excluded = rules.excluded
    out = [item for node_id, item in listing.items if node_id not in excluded]
    if listing.world is not None and not any(node_id not in excluded for node_id in listing.named_world):
        out.append(listing.world)
    return out


@dataclass(frozen=True, slots=True)
class _Listing:
    """The items a scope offers under one set of rules, before the element's own exclusions."""

    items: list[tuple[int, CompletionItem]]  # (id of the frame, its item), in the order offered
    named_world: tuple[int, ...]  # ids of the listed frames named 'world'
    world: CompletionItem | None  # the item for 'world', offered when no listed frame of that name is


# FrameGraphs.memo[_LISTINGS]: {(id(scope), kinds, world, model_frame, paths, details): (scope, listing)}
_LISTINGS = "features.completion.listings"

# The listings of large scopes that requests made, per document (its path), as (the scope's names from the
# top, kinds, world, model_frame, details, the reference's role): :func:`prepare_listings` makes them again
# on the document's next analysis, before a request asks. The few most recent documents and listings are
# remembered.
_LARGE_SCOPE = 1000  # items; a smaller listing is made within a request's time
_ASKED: dict[str | None, dict[tuple, None]] = {}
_ASKED_DOCUMENTS = 8
_ASKED_PER_DOCUMENT = 8


def _listing(analysis: Analysis, rules: _Rules, details: bool) -> _Listing:
    """The scope's items under ``rules`` (its exclusions left out), kept per analysis.

    Completion asks again at every keystroke, and in a scope of a thousand frames
    making the items (a resolved pose in each detail) was most of a request's
    time. They depend only on the scope, the kinds and aliases the rules allow,
    the version and ``details``, all fixed for one analysis (whose frame graphs
    never change once built), so they are made once per analysis and such a key;
    what differs from element to element, the frames that would close a cycle,
    is filtered per request (:func:`_items`), which gives exactly what one walk
    over the scope's frames with every rule would.
    """
    scope = rules.scope
    assert scope is not None
    paths = version_tuple(analysis.version) >= (1, 8)
    key = (id(scope), rules.kinds, rules.world, rules.model_frame, paths, details)
    graphs = analysis.graphs
    assert graphs is not None  # a scope is one of theirs
    per = graphs.memo.setdefault(_LISTINGS, {})
    got = per.get(key)
    if got is not None and got[0] is scope:
        return got[1]
    items: list[tuple[int, CompletionItem]] = []
    named_world: list[int] = []
    kinds, model_frames, suffix = rules.kinds, rules.model_frame, "::" + MODEL_FRAME
    for name, node in scope_frames(graphs, scope):  # (11,000 frames in a world of includes: kept lean)
        depth = name.count("::")
        if (depth and not paths) or ("_merged__" in name and _INTERNAL.search(name)):
            continue
        kind = node.kind
        if kind == "world":
            if not rules.world or depth:
                continue
        elif kind not in kinds:
            continue
        is_model_frame = name == MODEL_FRAME or name.endswith(suffix)
        if is_model_frame and not model_frames:
            continue
        if name == WORLD:
            named_world.append(id(node))
        if details:
            item = _item(analysis, scope, name, node)
        else:  # _item without details, with what the loop has found already
            item = CompletionItem(name, kind, "", _ordered(name, depth, is_model_frame or name == WORLD))
        items.append((id(node), item))
    world = _item(analysis, scope, WORLD, WORLD_SENTINEL, details) if rules.world and scope.kind == "model" else None
    listing = _Listing(items, tuple(named_world), world)
    per[key] = (scope, listing)
    return listing


def _address(scope: Scope) -> tuple[str, ...]:
    """The names of ``scope`` and of the scopes enclosing it, from the top: the same scope in the next
    analysis of the document has the same address (or the scope it was is gone)."""
    names: list[str] = []
    s: Scope | None = scope
    while s is not None:
        names.append(f"{s.kind}:{s.name}")
        s = s.parent
    return tuple(reversed(names))


def _remember(path: str | None, asked: tuple) -> None:
    per = _ASKED.pop(path, None) or {}
    per.pop(asked, None)
    per[asked] = None  # the most recent last
    while len(per) > _ASKED_PER_DOCUMENT:
        del per[next(iter(per))]
    _ASKED[path] = per
    while len(_ASKED) > _ASKED_DOCUMENTS:
        del _ASKED[next(iter(_ASKED))]


def prepare_listings(analysis: Analysis, stopped: Callable[[], bool] | None = None) -> None:
    """Make the listings of large scopes that requests made on the document's earlier analyses (and the
    cycle checks' indexes of those scopes): a completion after the next edit, answered from this
    analysis, then filters a list instead of making one of thousands of frames (33 ms in a world of
    554 included models, against 1 ms)."""
    asked = _ASKED.get(analysis.path)
    graphs = analysis.graphs
    if not asked or graphs is None:
        return
    if stopped is not None and stopped():
        return
    wanted = {key[0] for key in list(asked)}
    scopes = {a: s for s in graphs.scopes if (a := _address(s)) in wanted}
    for address, kinds, world, model_frame, details, role in list(asked):
        scope = scopes.get(address)
        if stopped is not None and stopped():
            return  # the analysis is no longer wanted: no more work for it
        if scope is not None:
            _listing(analysis, _Rules(scope, kinds, world, model_frame), details)
            step = _ROLE_STEPS.get(role)
            if step is not None:
                prepare_reaching(graphs, scope, step)


def _item(analysis: Analysis, scope: Scope, name: str, node: FrameNode, details: bool = True) -> CompletionItem:
    detail = _detail(analysis, scope, node) if details else ""
    return CompletionItem(name, node.kind, detail, _sort_text(name))


def _sort_text(name: str) -> str:
    alias = name == WORLD or name == MODEL_FRAME or name.endswith("::" + MODEL_FRAME)
    return _ordered(name, name.count("::"), alias)


def _ordered(name: str, depth: int, alias: bool) -> str:
    """The sort text of a frame name: the scope's own frames, then its aliases (world, __model__), then the
    nested ones, shallowest first (depth: the name's ``::`` count)."""
    group = 2 if depth else (1 if alias else 0)
    return f"{group}{depth:03d}{name}"


def renamed_listing(found: CompletionList, old: str, new: str) -> CompletionList | None:
    """``found``, a list of a scope's frames without details, as the scope offers them once its child
    ``old`` is renamed ``new`` and nothing else changes (no frame edge: ``incremental.Shift.renamed_alone``):
    the same frames in the same order, those of the renamed child under its new name. None when the list
    already has the new name, or names of the child in another form than a plain frame item."""
    if "_merged__" in old or "_merged__" in new:
        return None  # the list leaves out names of that form (merged includes' proxies)
    items = list(found.items)
    if any(item.insert_text is not None or item.filter_text is not None for item in items):
        return None  # not a list of frame names alone
    labels = [item.label for item in items]
    prefix, taken = old + "::", new + "::"
    for k, label in enumerate(labels):
        if not label.startswith((old, new)):  # (the one test made for every frame of a large scope)
            continue
        item = items[k]
        if label == new or label.startswith(taken):
            return None
        if label == old or label.startswith(prefix):
            if item.detail:
                return None
            label = new + label[len(old) :]
            items[k] = CompletionItem(label, item.kind, "", _sort_text(label))
    return CompletionList(items, found.replace_span)


def _detail(analysis: Analysis, scope: Scope, node: FrameNode) -> str:
    """What the frame is attached to and where it is, relative to the frame of ``scope``."""
    if node is WORLD_SENTINEL or node.kind == "world":
        return "the world frame"
    g = analysis.graphs
    assert g is not None
    what, _why = attached_summary(analysis, node)
    parts = [f"attached to {what}" if what is not None else "not attached to a link"]
    a = g.pose(node)
    b = g.pose(scope.node) if scope.node is not None else None
    if a is None or b is None:
        parts.append("pose unresolved")
    else:
        t = b.inverse() * a
        parts.append(f"xyz {format_numbers(t.p)}")
        parts.append(f"rpy {format_numbers(t.rpy)}")
    return " · ".join(parts)


__all__ = ["CompletionItem", "CompletionList", "frame_detail"]
