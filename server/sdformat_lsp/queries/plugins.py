"""Plugin facts the editor features share: which ``<plugin>`` an element is, the joints, links and
models its parameters name (as frame nodes, so that references, rename, highlight and definition
treat them like any other reference), and the words hover and completion use for a parameter.

Everything here answers "no plugin" at once for a text without ``<plugin``, so that the frame
features do not pay for it on documents that have none.
"""

from __future__ import annotations

from ..plugins.catalogue import Param, Plugin, lookup
from ..semantics.analysis import Analysis
from ..semantics.frames import FrameNode
from ..semantics.checks.plugins import enclosing_scope, plugin_references, plugin_use_of, scope_entities
from ..text import Span
from ..xml import XmlElement
from .scope_frames import node_for_element
from .results import Writer

ROLE_WORDS = {
    "joint": "the name of a joint of the enclosing model",
    "link": "the name of a link of the enclosing model",
    "model": "the name of a model (nested in the enclosing model, or in the world)",
    "entity": "the (scoped) name of an entity the plugin looks up",
    "topic": "a Gazebo Transport topic",
    "uri": "a file path or URI",
}
TYPE_WORDS = {
    "double": "a number",
    "float": "a number",
    "int": "an integer",
    "unsigned int": "a non-negative integer",
    "uint64_t": "a non-negative integer",
    "bool": "true or false",
    "string": "text",
    "vector3": "three numbers (x y z)",
    "vector2d": "two numbers",
    "pose": "a pose (x y z roll pitch yaw)",
    "color": "a colour (r g b [a], each in [0, 1])",
    "quaternion": "three angles (roll pitch yaw)",
    "other": "structured content",
}


def has_plugins(analysis: Analysis) -> bool:
    return "<plugin" in analysis.text and analysis.xml.root is not None and analysis.xml.root.tag in ("sdf", "robot")


def plugin_of(el: XmlElement | None) -> Plugin | None:
    """The catalogued plugin a ``<plugin>`` element loads."""
    if el is None or el.tag != "plugin":
        return None
    return lookup(el.get("filename"), el.get("name"))


def plugin_segments(analysis: Analysis) -> list[tuple[Span, FrameNode, str]]:
    """Every segment of a plugin parameter value that names a frame of this document, with its node
    and what names it (``<left_joint> of DiffDrive``)."""
    if not has_plugins(analysis) or analysis.graphs is None:
        return []
    out: list[tuple[Span, FrameNode, str]] = []
    refs = plugin_references(analysis.xml)
    if not refs:
        return out
    nodes = _nodes_by_element(analysis)  # one pass over the nodes, not one per reference
    for ref in refs:
        for span, el in ref.parts:
            node = nodes.get(id(el)) if el is not None else None
            if node is not None:
                out.append((span, node, f"<{ref.element.tag}> of {ref.plugin.title}"))
    return out


def _nodes_by_element(analysis: Analysis) -> dict[int, FrameNode]:
    g = analysis.graphs
    out: dict[int, FrameNode] = {}
    for n in g.nodes if g is not None else ():
        el = getattr(n.entity, "element", None)
        if el is not None and getattr(n.entity, "from_include", None) is None:
            out.setdefault(id(el), n)
    return out


def plugin_reference_at(analysis: Analysis, offset: int) -> tuple[Span, str, FrameNode | None] | None:
    """The plugin parameter segment at ``offset``: its span, text and the frame it names (None: none)."""
    if not has_plugins(analysis) or analysis.graphs is None:
        return None
    use = plugin_use_of(analysis.xml, offset)  # only the plugin around the place: hover and definition ask
    if use is None:
        return None
    for ref in plugin_references(analysis.xml, [use]):
        if not (ref.span.start <= offset <= ref.span.end):
            continue
        for span, el in ref.parts:
            if span.start <= offset <= span.end:
                node = node_for_element(analysis, el) if el is not None else None
                return span, analysis.text[span.start : span.end], node
    return None


def names_in_scope(plugin_el: XmlElement, role: str) -> list[tuple[str, XmlElement]]:
    """The joints (links, models) a parameter of the plugin at ``plugin_el`` may name, as it may write them."""
    scope = enclosing_scope(plugin_el)
    if scope is None:
        return []
    names, _complete = scope_entities(scope, role)
    # a nested one by its scoped name only (its last name alone is accepted, not offered)
    offered = ((n, els[0]) for n, els in names.items() if "::" in n or els[0].parent is scope)
    return sorted(offered, key=lambda x: (x[0].count("::"), x[0]))


def describe_param(w: Writer, plugin: Plugin, param: Param) -> None:
    """Hover and completion text for a parameter: what it is, its type, default and plugin (our words)."""
    title = f"{w.code('<' + param.name + '>')} of {w.bold(plugin.title)}"
    w.para(title)
    facts = [f"type: {param.type} ({TYPE_WORDS.get(param.type, param.type)})"]
    if param.names in ROLE_WORDS:
        facts.append(f"value: {ROLE_WORDS[param.names]}")
    if param.default not in (None, ""):
        facts.append(f"default: {w.code(str(param.default))}")
    facts.append("required: without it the plugin does nothing" if param.required else "optional")
    if param.repeats:
        facts.append("may be given more than once")
    if param.children:
        facts.append("reads inside it: " + ", ".join(w.code("<" + c + ">") for c in param.children))
    if param.documented_only:
        facts.append("listed in the plugin's documentation; not found read by its code")
    w.items("Facts read from its sources:", facts)
    links = [(f"what {plugin.title}'s documentation says of it", param.doc_url), ("the line that reads it", param.url)]
    for words, url in links:
        if url:
            w.para(
                f"[{words[:1].upper() + words[1:]}]({url})" if w.markdown else f"{words[:1].upper() + words[1:]}: {url}"
            )
    describe_plugin_source(w, plugin)


def describe_plugin_source(w: Writer, plugin: Plugin) -> None:
    names = ", ".join(w.code(n) for n in plugin.names[:2])
    files = ", ".join(w.code(f) for f in plugin.filenames[:2])
    w.para(
        f"Plugin {files}"
        + (f" ({names})" if names else "")
        + f", read from {', '.join(plugin.sources[:3])}"
        + ("..." if len(plugin.sources) > 3 else "")
        + "."
    )
    if plugin.open:
        w.para(
            "Its sources also read parameters whose names are decided at run time: unknown parameters are not reported."
        )
    if plugin.url:
        w.para(f"[Source and documentation]({plugin.url})" if w.markdown else f"Source and documentation: {plugin.url}")


__all__ = [
    "ROLE_WORDS",
    "TYPE_WORDS",
    "describe_param",
    "describe_plugin_source",
    "has_plugins",
    "names_in_scope",
    "plugin_of",
    "plugin_reference_at",
    "plugin_segments",
]
