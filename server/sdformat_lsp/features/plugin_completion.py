"""Completion inside a ``<plugin>``: its parameters, the names they take, and the plugins themselves.

Asked by :func:`~sdformat_lsp.features.complete` after the frame names and before the schema
(which has nothing to say inside a plugin, whose content libsdformat copies as it is):

* on an empty line (or a word, or after ``<``) in a known plugin: the parameters its sources read
  that are not written yet (repeatable ones always), with their types and defaults;
* in the text of a parameter naming a joint, link or model: the ones of the enclosing model
  (or world), nested ones by their scoped names;
* in the ``filename`` or ``name`` value of a ``<plugin>`` start tag: the known plugins; when the
  other attribute is not written yet the item writes it too, so that the pair matches.
"""

from __future__ import annotations

import re

from ..plugins.catalogue import Param, Plugin, lookup, plugins
from ..queries.plugins import TYPE_WORDS, describe_param, has_plugins, names_in_scope, plugin_of
from ..queries.results import CompletionItem, CompletionList, Writer
from ..queries.schema import cursor_context, element_starting_at
from ..semantics.analysis import Analysis
from ..text import Span
from ..xml import XmlElement

_WORD = re.compile(r"[\w.:-]*")
_ATTR_VALUE_TAIL = re.compile(r"""\s(filename|name)\s*=\s*(["'])([^"'<>]*)$""")
_ATTRS = re.compile(r"""([\w:-]+)\s*=\s*(["'])([^"'<]*)\2""")


def plugin_complete(analysis: Analysis, offset: int, snippets: bool = True) -> CompletionList | None:
    """Items for the cursor at ``offset`` inside or on a ``<plugin>``; None when it is not there."""
    text = analysis.text
    if "<plugin" not in text or analysis.xml.root is None or analysis.xml.root.tag != "sdf":
        return None
    ctx = cursor_context(analysis, offset)
    if ctx is None:
        return None
    if ctx.where == "start_tag":
        if ctx.tag == "plugin":
            return _attribute_value(analysis, ctx.tag, ctx.lt, offset)
        if ctx.stack and ctx.stack[-1].tag == "plugin" and text[ctx.lt + 1 : offset] == ctx.tag:
            # "<wh|": a parameter's name being typed
            el = element_starting_at(analysis, ctx.stack[-1].lt, "plugin")
            plugin = plugin_of(el)
            if el is not None and plugin is not None:
                return _parameters(analysis, el, plugin, offset, ctx.lt, snippets)
        return None
    if not ctx.stack:
        return None
    inner = ctx.stack[-1]
    if inner.tag == "plugin":
        el = element_starting_at(analysis, inner.lt, "plugin")
        plugin = plugin_of(el)
        if el is None or plugin is None:
            return None
        return _parameters(analysis, el, plugin, offset, ctx.lt, snippets)
    if len(ctx.stack) >= 2 and ctx.stack[-2].tag == "plugin" and has_plugins(analysis):
        el = element_starting_at(analysis, ctx.stack[-2].lt, "plugin")
        plugin = plugin_of(el)
        param = plugin.params.get(inner.tag) if plugin is not None else None
        if el is None or plugin is None or param is None or param.names not in ("joint", "link", "model"):
            return None
        start = offset
        while start > ctx.lt and _WORD.fullmatch(text[start - 1]):
            start -= 1
        end = _word_end(text, offset)
        items = [
            CompletionItem(name, param.names, f"{param.names} named by <{param.name}> of {plugin.title}", f"{i:04d}")
            for i, (name, _el) in enumerate(names_in_scope(el, param.names))
        ]
        return CompletionList(items, Span(start, end))
    return None


def _word_end(text: str, offset: int) -> int:
    m = _WORD.match(text, offset)
    return m.end() if m is not None else offset


def _parameters(
    analysis: Analysis, el: XmlElement, plugin: Plugin, offset: int, run_start: int, snippets: bool
) -> CompletionList | None:
    text = analysis.text
    start = offset
    while start > run_start and _WORD.fullmatch(text[start - 1]):
        start -= 1
    with_lt = start > 0 and text[start - 1] == "<"
    if with_lt:
        start -= 1
    elif start > run_start and not text[start - 1].isspace() and text[start - 1] != ">":
        return None  # in the middle of some other text
    end = _word_end(text, offset)
    given = {c.tag for c in el.children if not (c.ts - 1 <= offset <= c.stag_end)}  # not the one being typed
    items = []
    for i, (name, param) in enumerate(
        sorted(plugin.params.items(), key=lambda kv: (not kv[1].required, kv[1].documented_only, kv[0]))
    ):
        if name in given and not param.repeats:
            continue
        items.append(_param_item(plugin, param, i, snippets))
    return CompletionList(items, Span(start, end))


def _param_item(plugin: Plugin, param: Param, i: int, snippets: bool) -> CompletionItem:
    value = param.default or ""
    if param.type == "other" or param.children:
        insert = f"<{param.name}>$0</{param.name}>" if snippets else f"<{param.name}></{param.name}>"
    elif snippets:
        insert = f"<{param.name}>${{1:{_escape(value)}}}</{param.name}>"
    else:
        insert = f"<{param.name}>{value}</{param.name}>"
    detail = f"{param.type} ({TYPE_WORDS.get(param.type, param.type)})"
    if param.default not in (None, ""):
        detail += f", default {param.default}"
    if param.required:
        detail += ", required"
    w = Writer(False)
    describe_param(w, plugin, param)
    return CompletionItem(
        param.name,
        "element",
        detail,
        f"{i:04d}",
        insert,
        snippets,
        w.text(),
        filter_text=param.name,
    )


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def _attribute_value(analysis: Analysis, tag: str, lt: int, offset: int) -> CompletionList | None:
    text = analysis.text
    m = _ATTR_VALUE_TAIL.search(text[lt + 1 + len(tag) : offset])
    if m is None:
        return None
    attr, quote = m.group(1), m.group(2)
    value_start = offset - len(m.group(3))
    end = offset
    while end < len(text) and text[end] not in "\"'<>\n":
        end += 1
    tag_end = text.find(">", end)
    rest = text[lt : tag_end if tag_end != -1 else len(text)]
    written = {a: v for a, _q, v in _ATTRS.findall(rest)}
    other = "name" if attr == "filename" else "filename"
    closes = end < len(text) and text[end] == quote
    candidates = sorted(plugins().values(), key=lambda p: p.filenames[0])
    if attr == "name" and "filename" in written:
        chosen = lookup(written["filename"])
        if chosen is not None and chosen.names:
            candidates = [chosen]  # the classes the library written registers (aliases too)
    items = []
    for i, plugin in enumerate(candidates):
        values = (
            list(plugin.filenames[:1])
            if attr == "filename"
            else list(plugin.names if len(candidates) == 1 else plugin.names[:1])
        )
        if not values:
            continue  # a plugin found by its file name only: its name is free
        pair = (
            plugin.names[0]
            if attr == "filename" and plugin.names
            else (plugin.filenames[0] if attr == "name" else None)
        )
        for value in values:
            insert = value
            if pair is not None and other not in written and closes:
                insert = f"{value}{quote} {other}={quote}{pair}"  # the existing closing quote ends the pair
            kind = "gui plugin" if plugin.gui else "plugin"
            detail = f"{kind}: {pair}" if pair else kind
            items.append(
                CompletionItem(
                    value, "value", detail, f"{i:04d}", insert, False, ", ".join(plugin.sources), filter_text=value
                )
            )
    return CompletionList(items, Span(value_start, end))


__all__ = ["plugin_complete"]
