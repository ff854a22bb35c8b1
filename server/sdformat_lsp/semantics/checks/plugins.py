"""What the parameters of a known ``<plugin>`` say, checked against the plugin's sources.

libsdformat keeps everything inside a ``<plugin>`` as free text and Gazebo
ignores a parameter its plugin does not read, so a misspelt ``<wheel_radus>``
or a ``<left_joint>`` naming a renamed joint runs silently with a default or
leaves the robot still. For a plugin the catalogue knows (``plugins.lookup``)
this reports a parameter its sources never read (unless they read names
decided at run time: ``Plugin.open``), a value its type cannot read, a joint,
link or model the enclosing model lacks, and a parameter the plugin gives up
without. Unknown plugins, namespaced elements (``<gz:x>``, ``<xacro:x>``),
the children of a parameter and text holding a substitution (``$(arg x)``,
``${x}``, ``@x@``) are never judged.

``plugin_references`` is the same reading for navigation: every parameter
value naming a joint, link or model, with the elements it names.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from ...diagnostics import Diagnostic, Fix, warning
from ...plugins.catalogue import Param, Plugin, lookup
from ...records import record
from ...spec.types import KNOWN_TYPES, check_value
from ...text import Span
from ...xml import XmlDocument, XmlElement
from ..schema.repeated_mistakes import collapse_repeats

ENTITY_TAGS = {"joint": ("joint",), "link": ("link",), "model": ("model",)}
SUBSTITUTION = ("$", "@", "{{")  # templated text: its value is known only after expansion


@record
class PluginUse:
    """A ``<plugin>`` element and the catalogued plugin it loads."""

    element: XmlElement
    plugin: Plugin


@record
class PluginRef:
    """A parameter value naming a joint, link or model of the enclosing model (or world)."""

    element: XmlElement  # the parameter element (<left_joint>)
    plugin: Plugin
    role: str  # "joint", "link" or "model"
    text: str
    span: Span  # the value as written
    scope: XmlElement  # the model (or world) the name is looked up in
    targets: tuple[XmlElement, ...]  # the elements it names (empty: none found)
    complete: bool  # the scope's contents are all in this document (no <include>), so "none found" is a fact
    parts: tuple[tuple[Span, XmlElement | None], ...] = ()  # each ``::`` segment and the element it names


_PLUGIN_TAG = re.compile(r"<plugin[\s/>]")


def plugin_uses(xml: XmlDocument) -> Iterator[PluginUse]:
    """Every ``<plugin>`` of the document whose plugin the catalogue knows, in document order.

    Found from the text (a world has a few plugins among a hundred thousand elements: a walk
    of the tree would cost more than the checks), each start tag's element looked up.
    """
    if xml.root is None or xml.root.tag not in ("sdf", "robot"):
        return
    for m in _PLUGIN_TAG.finditer(xml.text):
        el = xml.element_at(m.start() + 1)
        if el is None or el.ts != m.start() + 1:
            continue  # in a comment, CDATA or an attribute value
        use = plugin_use(xml, el)
        if use is not None:
            yield use


def plugin_use_of(xml: XmlDocument, offset: int) -> PluginUse | None:
    """The catalogued ``<plugin>`` around ``offset``, if any: what a request at one place needs, without
    the search of the whole text :func:`plugin_uses` makes."""
    if xml.root is None or xml.root.tag not in ("sdf", "robot"):
        return None
    el = xml.element_at(offset)
    while el is not None and el.tag != "plugin":
        el = el.parent
    return plugin_use(xml, el) if el is not None else None


def plugin_use(xml: XmlDocument, el: XmlElement) -> PluginUse | None:
    """``el`` as a use of a catalogued plugin: None if it is no ``<plugin>``, is being typed, or loads a
    plugin the catalogue does not know."""
    if el.tag != "plugin" or el in xml.half_typed:
        return None
    plugin = lookup(el.get("filename"), el.get("name"))
    return PluginUse(el, plugin) if plugin is not None else None


def enclosing_scope(el: XmlElement) -> XmlElement | None:
    """The model or world (a URDF's robot) whose entities a plugin's parameters name; None inside an
    <include> (its model is elsewhere)."""
    for anc in el.ancestors():
        if anc.tag == "include":
            return None
        if anc.tag in ("model", "world"):
            return anc
        if anc.tag == "robot" and anc.parent is None:
            return anc  # a URDF's <gazebo> block: the robot's joints and links
    return None


def scope_entities(scope: XmlElement, role: str) -> tuple[dict[str, list[XmlElement]], bool]:
    """The ``role`` elements (joints, links, models) of a model or world by every name that reaches them
    (``j``, ``nested::j``), and whether the scope holds them all (no <include> anywhere in it)."""
    found: dict[str, list[XmlElement]] = {}
    complete = True
    stack: list[tuple[XmlElement, str]] = [(scope, "")]
    while stack:
        el, prefix = stack.pop()
        for child in el.children:
            tag = child.tag
            if tag == "include":
                complete = False
                continue
            name = child.get("name")
            if tag in ENTITY_TAGS[role] and name:
                found.setdefault(prefix + name, []).append(child)
                if prefix:
                    found.setdefault(name, []).append(child)  # gz-sim also finds some by their last name
            if tag == "model" and name and (role != "model" or scope.tag == "model"):
                stack.append((child, prefix + name + "::"))
            elif tag == "model" and name and role == "model":
                pass  # a world's models: their nested models are not its models
    return found, complete


def _named_value(el: XmlElement) -> tuple[str, Span] | None:
    if el.children or el.text_span is None:
        return None
    text = el.text.strip()
    if not text or any(s in text for s in SUBSTITUTION):
        return None
    return text, el.text_span


def plugin_references(xml: XmlDocument, uses: list[PluginUse] | None = None) -> list[PluginRef]:
    """Every parameter of a known plugin naming a joint, link or model, with what it names."""
    refs: list[PluginRef] = []
    cache: dict[tuple[int, str], tuple[dict[str, list[XmlElement]], bool]] = {}
    for use in plugin_uses(xml) if uses is None else uses:
        scope = enclosing_scope(use.element)
        if scope is None:
            continue
        for child in use.element.children:
            param = use.plugin.params.get(child.tag)
            if param is None or param.names not in ENTITY_TAGS:
                continue
            if scope.tag == "world" and param.names != "model":
                continue  # a world plugin naming a joint or link: of which model is not ours to say
            value = _named_value(child)
            if value is None:
                continue
            k = (id(scope), param.names)
            if k not in cache:
                cache[k] = scope_entities(scope, param.names)
            names, complete = cache[k]
            targets = tuple(names.get(value[0], ()))
            parts = _parts(scope, param.names, value[0], value[1], targets)
            refs.append(PluginRef(child, use.plugin, param.names, value[0], value[1], scope, targets, complete, parts))
    return refs


def _parts(
    scope: XmlElement, role: str, text: str, span: Span, targets: tuple[XmlElement, ...]
) -> tuple[tuple[Span, XmlElement | None], ...]:
    """The ``::`` segments of a written name, each with the element it names: the nested models
    on the way, then the joint (link, model) itself."""
    if "::" not in text:
        return ((span, targets[0] if len(targets) == 1 else None),)
    out: list[tuple[Span, XmlElement | None]] = []
    cur: XmlElement | None = scope
    pos = span.start
    pieces = text.split("::")
    for i, piece in enumerate(pieces):
        last = i == len(pieces) - 1
        found = None
        if cur is not None:
            tags = ENTITY_TAGS[role] if last else ("model",)
            found = next((c for c in cur.children if c.tag in tags and c.get("name") == piece), None)
        out.append((Span(pos, pos + len(piece)), found))
        pos += len(piece) + 2
        cur = found
    return tuple(out)


REPEATED = frozenset({"PLUGIN_PARAMETER_UNKNOWN", "PLUGIN_REFERENCE_INVALID"})  # folded when said again word for word


def check_plugins(xml: XmlDocument) -> list[Diagnostic]:
    """The warnings about the parameters of the document's known plugins."""
    found: list[Diagnostic] = []
    uses = list(plugin_uses(xml))
    for use in uses:
        found.extend(_check_use(use))
    for ref in plugin_references(xml, uses) if uses else ():
        if ref.targets or not ref.complete or (ref.scope.tag == "world"):
            continue  # a world's models may be spawned later: only a model's own are known
        names, _ = scope_entities(ref.scope, ref.role)
        found.append(_unresolved(ref, sorted(names)))
    # the same unknown parameter in each of a quadcopter's four motor plugins is one mistake, written
    # four times: one warning at the first, the others related (schema/repeated_mistakes.py)
    return collapse_repeats(found, REPEATED)


def _check_use(use: PluginUse) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    plugin, el = use.plugin, use.element
    given: set[str] = set()
    for child in el.children:
        tag = child.tag
        if ":" in tag:
            continue  # a namespaced element is someone else's (gz:, xacro:, ignition:)
        param = plugin.params.get(tag)
        if param is None:
            if not plugin.open:
                found.append(_unknown(plugin, child, el))
            continue
        given.add(tag)
        if param.type in KNOWN_TYPES and param.type != "string" and not child.children:
            text = child.text
            if text.strip() and not any(s in text for s in SUBSTITUTION):
                problem = check_value(param.type, text)
                if problem is not None:
                    found.append(
                        warning(
                            "PLUGIN_PARAMETER_INVALID",
                            f"{plugin.title} reads <{tag}> as {_type_words(param)} and cannot read '{text.strip()}' ({problem}): "
                            f"the plugin does not get the value written. Write {_type_words(param)}{_default_words(param)}.",
                            child.text_span or child.tag_span,
                        )
                    )
    for name, param in plugin.params.items():
        if param.required and name not in given and not el.self_closing:
            found.append(
                warning(
                    "PLUGIN_PARAMETER_MISSING",
                    f"{plugin.title} does nothing without <{name}>: add <{name}>{_example(param)}</{name}>.",
                    el.start_tag_span,
                )
            )
        elif param.required and name not in given:
            found.append(
                warning(
                    "PLUGIN_PARAMETER_MISSING",
                    f"{plugin.title} does nothing without <{name}>.",
                    el.start_tag_span,
                )
            )
    return found


def _unknown(plugin: Plugin, child: XmlElement, plugin_el: XmlElement) -> Diagnostic:
    best = nearest(child.tag, plugin.params)
    fixes: tuple[Fix, ...] = ()
    if best is not None:
        fixes = tuple(Fix(f"Rename <{child.tag}> to <{best}>", span, best) for span in _tag_spans(child))
        hint = f" Did you mean <{best}>?"
    else:
        hint = " Remove it, or check the plugin's documentation for the name."
    return warning(
        "PLUGIN_PARAMETER_UNKNOWN",
        f"{plugin.title} does not read <{child.tag}>: Gazebo ignores it.{hint}",
        child.tag_span,
        fixes=fixes,
    )


def _tag_spans(el: XmlElement) -> list[Span]:
    spans = [el.tag_span]
    end = el.end_tag_span
    if end is not None and end.end - end.start > 3:
        spans.append(Span(end.start + 2, end.start + 2 + len(el.tag)))
    return spans


def _unresolved(ref: PluginRef, names: list[str]) -> Diagnostic:
    best = nearest(ref.text, names)
    where = f"{ref.scope.tag} '{ref.scope.get('name')}'" if ref.scope.tag in ("model", "robot") else "the world"
    fixes = (Fix(f"Change to '{best}'", ref.span, best),) if best else ()
    hint = f" Did you mean '{best}'?" if best else f" Name one of the {ref.role}s of {where}."
    return warning(
        "PLUGIN_REFERENCE_INVALID",
        f"<{ref.element.tag}> names {ref.role} '{ref.text}', which {where} does not have: {ref.plugin.title} finds nothing to act on.{hint}",
        ref.span,
        fixes=fixes,
    )


def _type_words(param: Param) -> str:
    return {
        "bool": "a boolean (true, false, 1 or 0)",
        "vector3": "three numbers",
        "pose": "six numbers",
        "color": "a colour (3 or 4 numbers in [0, 1])",
    }.get(param.type, f"a {param.type}")


def _default_words(param: Param) -> str:
    return f" (its default is {param.default})" if param.default not in (None, "") else ""


def nearest(text: str, candidates: Iterable[str]) -> str | None:
    """The candidate closest to ``text`` (difflib's ratio of at least 0.6), for a quick fix."""
    pool = [c for c in candidates if c and c != text]
    import difflib  # only when a name is wrong: not a cost of every start-up

    best = difflib.get_close_matches(text, pool, n=1, cutoff=0.6)
    return best[0] if best else None


def _example(param: Param) -> str:
    return param.default or ""


__all__ = [
    "PluginRef",
    "PluginUse",
    "check_plugins",
    "enclosing_scope",
    "nearest",
    "plugin_references",
    "plugin_uses",
    "scope_entities",
]
