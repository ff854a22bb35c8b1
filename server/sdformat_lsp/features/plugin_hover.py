"""Hover inside a ``<plugin>``: on a parameter's tag, what the parameter is (our words: its type,
default, whether it is required or repeats, what its value names), the plugin it belongs to and
a link to that plugin's source at the catalogued commit; on the ``<plugin>`` tag or its
``filename``/``name``, the plugin and its parameters.

A joint, link or model named in a parameter's text is a frame reference: the frame hover answers
there (asked first), as it does for any reference.
"""

from __future__ import annotations

from ..queries.plugins import TYPE_WORDS, describe_param, describe_plugin_source, plugin_of
from ..queries.results import HoverResult, Writer
from ..semantics.analysis import Analysis


def plugin_hover(analysis: Analysis, offset: int, markdown: bool) -> HoverResult | None:
    """Hover text for a known plugin's parameter tag or the plugin's own tag at ``offset``."""
    if "<plugin" not in analysis.text or analysis.xml.root is None or analysis.xml.root.tag not in ("sdf", "robot"):
        return None
    el = analysis.xml.element_at(offset)
    if el is None:
        return None
    on_tag = el.tag_span.contains(offset) or (el.end_tag_span is not None and el.end_tag_span.contains(offset))
    if el.tag == "plugin":
        plugin = plugin_of(el)
        if plugin is None:
            return None
        span = None
        for attr in ("filename", "name"):
            a = el.attr(attr)
            if a is not None and (a.value_span.start <= offset <= a.value_span.end or a.name_span.contains(offset)):
                span = a.value_span
        if span is None and not on_tag:
            return None
        w = Writer(markdown)
        w.para(f"{w.bold(plugin.title)}: a {'GUI plugin' if plugin.gui else 'plugin'} whose parameters are known")
        rows = []
        for name, param in sorted(plugin.params.items()):
            if param.documented_only:
                continue
            note = TYPE_WORDS.get(param.type, param.type)
            if param.default not in (None, ""):
                note += f", default {param.default}"
            if param.required:
                note += ", required"
            rows.append(f"{w.code('<' + name + '>')}: {note}")
        if rows:
            w.items("Parameters:", rows[:40] + ([f"and {len(rows) - 40} more"] if len(rows) > 40 else []))
        describe_plugin_source(w, plugin)
        return HoverResult(w.text(), span or el.tag_span)
    parent = el.parent
    if not on_tag or parent is None or parent.tag != "plugin":
        return None
    plugin = plugin_of(parent)
    param = plugin.params.get(el.tag) if plugin is not None else None
    if plugin is None or param is None:
        return None
    w = Writer(markdown)
    describe_param(w, plugin, param)
    span = el.tag_span if el.tag_span.contains(offset) else el.end_tag_span
    return HoverResult(w.text(), span or el.tag_span)


__all__ = ["plugin_hover"]
