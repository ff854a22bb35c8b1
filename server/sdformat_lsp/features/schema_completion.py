"""Completion from the schema: child elements, attribute names, enumerated values.

Used by :func:`~sdformat_lsp.features.complete` when the cursor is
not in a frame reference (frame names keep priority there). The schema is the
declared version's (the newest one when the version is missing or unknown).

Contexts, all read from the raw text before the cursor (see
:func:`~sdformat_lsp.queries.schema.cursor_context`):

* ``<`` or ``<li`` in an element's content: the children that element may
  have, required ones first, once-only children already present left out;
  an element name typed without ``<`` in a container's content (or an empty
  line there) gets the same items, inserting the ``<`` too;
* white space inside a start tag (``<joint name="j" |``): the attributes the
  element may still have, required ones first;
* inside an attribute value, or the text of an element: the enumerated
  values of :data:`~sdformat_lsp.queries.schema.ENUMS` or true/false
  for a value of type bool.

An element item inserts a snippet (when the client takes snippets) with its
required attributes and the required children the user has to fill in, plus
a few children we add because an element is rarely written without them (a
model's link, a link's inertial, a collision's or visual's geometry); a
client without snippet support gets the same text without placeholders.
"""

from __future__ import annotations

import re

from ..semantics.analysis import Analysis
from ..spec import AttributeSpec, ElementSpec, Schema, version_key
from ..spec.schema import MANDATORY
from ..text import Span
from ..queries.results import CompletionItem, CompletionList
from ..queries.schema import (
    LEGACY,
    ROOT_TAGS,
    CursorContext,
    attribute_need,
    bounds,
    cursor_context,
    element_starting_at,
    enum_values,
    line_indent,
    meaningful,
    multiplicity,
    schema_of,
    spec_at,
)

_NAME_CHARS = re.compile(r"[^\s<>/!?\"'=]*")
_WORD_CHARS = re.compile(r"[\w.:-]*")


def _run_end(chars: re.Pattern[str], text: str, pos: int) -> int:
    """Where the run of ``chars`` (a pattern that also matches nothing) from ``pos`` ends."""
    m = chars.match(text, pos)
    return m.end() if m is not None else pos


_ATTR_FULL = re.compile(r"""\s+([^\s=<>/"']+)\s*=\s*(?:"[^"<]*"|'[^'<]*')""")
_ATTR_VALUE_TAIL = re.compile(r"""\s+([^\s=<>/"']+)\s*=\s*(["'])([^"'<]*)$""")
_ATTR_NAME_TAIL = re.compile(r"""\s+([^\s=<>/"']*)$""")
_ATTR_NAMES = re.compile(r"""([^\s=<>/"']+)\s*=""")

# Children we put into a snippet although the spec does not require them: an
# element is rarely written without them. Our choice, not the spec's.
TEMPLATE_EXTRAS: dict[str, tuple[str, ...]] = {
    "model": ("link",),
    "link": ("inertial",),
    "inertial": ("mass",),
    "collision": ("geometry",),
    "visual": ("geometry",),
}
_FIRST = frozenset({"parent"})  # written before its siblings (a joint's parent, then its child)
_SNIPPET_DEPTH = 4  # how deep required children are followed into a snippet


def schema_complete(analysis: Analysis, offset: int, snippets: bool = True) -> CompletionList | None:
    """Schema items at ``offset``; None when the schema has nothing to offer there."""
    text = analysis.text
    ctx = cursor_context(analysis, offset)
    if ctx is None:
        return None
    schema = schema_of(analysis)
    if ctx.where == "start_tag":
        typed = text[ctx.lt + 1 : offset]
        if _NAME_CHARS.fullmatch(typed):
            return _element_names(analysis, schema, ctx, offset, snippets)
        return _in_start_tag(analysis, schema, ctx, offset, snippets)
    return _in_content(analysis, schema, ctx, offset, snippets)


# -- element names ----------------------------------------------------------------------


def _element_names(
    analysis: Analysis, schema: Schema, ctx: CursorContext, offset: int, snippets: bool
) -> CompletionList | None:
    """``<`` or ``<li`` typed: the children allowed in the enclosing element."""
    text = analysis.text
    end = _run_end(_NAME_CHARS, text, offset)
    line_end = _line_end(text, end)
    after = text[end:line_end]
    nxt = after.find("<")
    if (after if nxt < 0 else after[:nxt]).strip():
        return None  # the tag is already written: a new name would leave its end tag behind
    span = Span(ctx.lt + 1, end)
    items = _child_items(analysis, schema, ctx, offset, snippets, with_lt=False, exclude_lt=ctx.lt)
    if items is None:
        return None
    return CompletionList(items, span)


def _in_content(
    analysis: Analysis, schema: Schema, ctx: CursorContext, offset: int, snippets: bool
) -> CompletionList | None:
    text = analysis.text
    spec = spec_at(schema, tuple(o.tag for o in ctx.stack)) if ctx.stack else None
    if ctx.stack and (spec is None or spec.copy_data):
        return None
    path = tuple(o.tag for o in ctx.stack)
    if spec is not None and spec.type is not None:
        # the element's text: its enumerated values
        values = enum_values(path[-1], None, spec.type, schema.version)
        if not values:
            return None
        segment = text[ctx.lt : offset]
        value_start = ctx.lt + len(segment) - len(segment.lstrip())
        span = _word_span(text, offset, value_start)
        return CompletionList(_value_items(values, spec.default, f"<{path[-1]}>", path[-1], None, schema.version), span)
    # a container: element names written without '<' (or nothing at all yet)
    start = offset
    while start > ctx.lt and _WORD_CHARS.fullmatch(text[start - 1]):
        start -= 1
    if start > ctx.lt and not text[start - 1].isspace() and text[start - 1] != ">":
        return None  # in the middle of some other text
    end = _run_end(_WORD_CHARS, text, offset)
    if end < len(text) and text[end] not in " \t\r\n<":
        return None
    items = _child_items(analysis, schema, ctx, offset, snippets, with_lt=True, exclude_lt=-1)
    if items is None:
        return None
    return CompletionList(items, Span(start, end))


def _child_items(
    analysis: Analysis,
    schema: Schema,
    ctx: CursorContext,
    offset: int,
    snippets: bool,
    *,
    with_lt: bool,
    exclude_lt: int,
) -> list[CompletionItem] | None:
    text = analysis.text
    if not ctx.stack:
        # the document level: the root element, when there is none yet
        root = analysis.xml.root
        if root is not None and root.ts - 1 != exclude_lt and root.tag in ROOT_TAGS:
            return None
        spec = schema.root()
        return [_element_item(spec, spec.name, schema, snippets, "", "  ", with_lt, "0")]
    path = tuple(o.tag for o in ctx.stack)
    parent_spec = spec_at(schema, path)
    if parent_spec is None or parent_spec.copy_data or not parent_spec.children:
        return None
    parent = ctx.stack[-1]
    parent_el = element_starting_at(analysis, parent.lt, parent.tag)
    present: dict[str, int] = {}
    if parent_el is not None:
        for c in parent_el.children:
            if c.ts - 1 != exclude_lt:
                present[c.tag] = present.get(c.tag, 0) + 1
    base = line_indent(text, offset)
    parent_indent = line_indent(text, parent.lt)
    if base.startswith(parent_indent) and len(base) > len(parent_indent):
        unit = base[len(parent_indent) :]
    else:
        unit = "\t" if "\t" in base else "  "
    items: list[CompletionItem] = []
    for name in parent_spec.children:
        slot = parent_spec.children[name]
        child = parent_spec.child(name)
        if child is None:
            continue
        if name in present and not slot.allows_many:
            continue
        if slot.deprecated:
            group = "2"
        elif slot.required in MANDATORY and name not in present:
            group = "0"
        else:
            group = "1"
        items.append(_element_item(child, name, schema, snippets, base if not snippets else "", unit, with_lt, group))
    return items


def _element_item(
    spec: ElementSpec, name: str, schema: Schema, snippets: bool, base: str, unit: str, with_lt: bool, group: str
) -> CompletionItem:
    body = _Snippet(snippets, unit).element(spec, name, schema.version, top=True)
    body = body.replace("\n", "\n" + base) if base else body
    if not with_lt:
        body = body[1:]  # the '<' is already typed
    detail = multiplicity(spec.required)
    if spec.type is not None:
        detail += f" · {spec.type}"
    return CompletionItem(
        label=name,
        kind="element",
        detail=detail,
        sort_text=f"{group}{name}",
        insert_text=body,
        snippet=snippets,
        documentation=_element_doc(spec, name),
        deprecated=spec.deprecated,
    )


def _element_doc(spec: ElementSpec, name: str) -> str:
    rows = [f"<{name}>: {multiplicity(spec.required)}"]
    if spec.type is not None:
        rows.append(f"type: {spec.type}")
    if meaningful(spec.default):
        rows.append(f"default: {spec.default}")
    b = bounds(spec.min, spec.max)
    if b:
        rows.append(f"value: {b}")
    if spec.since_version:
        rows.append(f"since SDFormat {spec.since_version}")
    needed = [a.name for a in spec.required_attributes]
    if needed:
        rows.append("required attributes: " + ", ".join(needed))
    return "\n".join(rows)


class _Snippet:
    """An element as snippet text (placeholders numbered in order) or as plain text."""

    def __init__(self, snippets: bool, unit: str) -> None:
        self.snippets = snippets
        self.unit = unit
        self.n = 0

    def lit(self, s: str) -> str:
        return _escape(s) if self.snippets else s

    def tab(self, default: str = "") -> str:
        if not self.snippets:
            return default
        self.n += 1
        return f"${{{self.n}:{_escape(default)}}}" if default else f"${self.n}"

    def choice(self, values: tuple[str, ...], default: str | None) -> str:
        if not self.snippets:
            return default if default in values else ""
        ordered = list(values)
        if default in ordered:
            ordered.remove(default)
            ordered.insert(0, default)
        self.n += 1
        return f"${{{self.n}|{','.join(_escape_choice(v) for v in ordered)}|}}"

    def value(self, tag: str, attr: str | None, type_: str | None, default: str | None, version: str) -> str:
        values = enum_values(tag, attr, type_, version)
        if values:
            return self.choice(values, default if meaningful(default) else None)
        return self.tab(default if meaningful(default) else "")

    def element(self, spec: ElementSpec, name: str, version: str, *, top: bool = False, depth: int = 0) -> str:
        attrs = "".join(
            f' {a.name}="{self.value(name, a.name, a.type, a.default, version)}"'
            for a in _ordered(spec.required_attributes)
        )
        kids = [] if depth >= _SNIPPET_DEPTH else _snippet_children(spec, name)
        lit = self.lit
        if kids:
            inner = []
            for kid_name, kid in kids:
                text = self.element(kid, kid_name, version, depth=depth + 1)
                inner.append(self.unit + text.replace("\n", "\n" + self.unit))
            return f"<{lit(name)}{attrs}>\n" + "\n".join(inner) + f"\n</{lit(name)}>"
        if spec.type is not None:
            return f"<{lit(name)}{attrs}>{self.value(name, None, spec.type, spec.default, version)}</{lit(name)}>"
        if spec.children or spec.copy_data:
            if not self.snippets:
                return f"<{name}{attrs}></{name}>"
            inside = f"\n{self.unit}$0\n" if top else self.tab()
            return f"<{lit(name)}{attrs}>{inside}</{lit(name)}>"
        return f"<{lit(name)}{attrs}/>"


def _ordered(attrs: tuple[AttributeSpec, ...]) -> list[AttributeSpec]:
    """``name`` first, then the others in name order."""
    return sorted(attrs, key=lambda a: (a.name != "name", a.name))


def _needs_input(spec: ElementSpec, depth: int = 0) -> bool:
    """A required element the user has to fill in: no usable default for its value or a required attribute."""
    if any(not meaningful(a.default) for a in spec.required_attributes):
        return True
    if spec.type is not None:
        return not meaningful(spec.default)
    if depth >= _SNIPPET_DEPTH or spec.copy_data:
        return False
    for name, slot in spec.children.items():
        if slot.required in MANDATORY:
            kid = spec.child(name)
            if kid is not None and _needs_input(kid, depth + 1):
                return True
    return False


def _snippet_children(spec: ElementSpec, name: str) -> list[tuple[str, ElementSpec]]:
    if spec.copy_data:
        return []
    out: list[tuple[str, ElementSpec]] = []
    for kid_name, slot in sorted(spec.children.items(), key=lambda kv: kv[0] not in _FIRST):
        if slot.required not in MANDATORY:
            continue
        kid = spec.child(kid_name)
        if kid is not None and _needs_input(kid):
            out.append((kid_name, kid))
    for extra in TEMPLATE_EXTRAS.get(name, ()):
        if extra in (n for n, _ in out):
            continue
        extra_slot = spec.children.get(extra)
        kid = spec.child(extra) if extra_slot is not None and not extra_slot.deprecated else None
        if kid is not None:
            out.append((extra, kid))
    return out


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def _escape_choice(s: str) -> str:
    return s.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}").replace(",", "\\,").replace("|", "\\|")


# -- inside a start tag -----------------------------------------------------------------------


def _in_start_tag(
    analysis: Analysis, schema: Schema, ctx: CursorContext, offset: int, snippets: bool
) -> CompletionList | None:
    text = analysis.text
    path = tuple(o.tag for o in ctx.stack) + (ctx.tag,)
    spec = spec_at(schema, path)
    if spec is None:
        return None
    seg = text[ctx.lt + 1 + len(ctx.tag) : offset]
    pos = 0
    while True:
        m = _ATTR_FULL.match(seg, pos)
        if m is None:
            break
        pos = m.end()
    tail = seg[pos:]
    m = _ATTR_VALUE_TAIL.fullmatch(tail)
    if m is not None:
        attr = m.group(1)
        aspec = spec.attributes.get(attr)
        if aspec is None:
            return None
        values = enum_values(ctx.tag, attr, aspec.type, schema.version)
        if not values:
            return None
        value_start = offset - len(m.group(3))
        span = _word_span(text, offset, value_start, stop=m.group(2))
        return CompletionList(
            _value_items(values, aspec.default, f"{attr} of <{ctx.tag}>", ctx.tag, attr, schema.version), span
        )
    m = _ATTR_NAME_TAIL.fullmatch(tail)
    if m is None:
        return None
    start = offset - len(m.group(1))
    end = _run_end(_NAME_CHARS, text, offset)
    followed_by_value = text.startswith("=", end) or text[end : end + 2].lstrip().startswith("=")
    # attributes already written, before and after the cursor (up to the end of the tag)
    tag_end = _tag_end(text, end)
    written = {n for n in _ATTR_NAMES.findall(text[ctx.lt : start])} | {
        n for n in _ATTR_NAMES.findall(text[end:tag_end])
    }
    el = element_starting_at(analysis, ctx.lt, ctx.tag)
    if el is not None:
        written |= {n for n, a in el.attributes.items() if not (a.ns == start)}
    items: list[CompletionItem] = []
    for name in spec.attributes:
        if name in written:
            continue
        aspec = spec.attributes[name]
        if followed_by_value:
            insert = name
            is_snippet = False
        else:
            s = _Snippet(snippets, "")
            insert = f'{s.lit(name)}="{s.value(ctx.tag, name, aspec.type, aspec.default, schema.version)}"'
            is_snippet = snippets
        detail = f"{attribute_need(aspec)} · {aspec.type}"
        if meaningful(aspec.default):
            detail += f" · default {aspec.default}"
        items.append(
            CompletionItem(
                label=name,
                kind="attribute",
                detail=detail,
                sort_text=("0" if aspec.is_required else "1") + name,
                insert_text=insert,
                snippet=is_snippet,
                documentation=_attribute_doc(aspec, ctx.tag),
            )
        )
    return CompletionList(items, Span(start, end))


def _attribute_doc(aspec: AttributeSpec, tag: str) -> str:
    rows = [f"{aspec.name} of <{tag}>: {attribute_need(aspec)}", f"type: {aspec.type}"]
    if meaningful(aspec.default):
        rows.append(f"default: {aspec.default}")
    b = bounds(aspec.min, aspec.max)
    if b:
        rows.append(f"value: {b}")
    if aspec.since_version:
        rows.append(f"since SDFormat {aspec.since_version}")
    return "\n".join(rows)


def _tag_end(text: str, start: int) -> int:
    """Where the start tag the cursor is in ends (its '>' or the next '<'), quoted values skipped."""
    quote = None
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if quote is not None:
            if c == quote:
                quote = None
            elif c == "<":
                return i
        elif c in "\"'":
            quote = c
        elif c in "<>":
            return i
        i += 1
    return n


# -- values ------------------------------------------------------------------------------------


def _value_items(
    values: tuple[str, ...], default: str | None, what: str, tag: str, attr: str | None, version: str
) -> list[CompletionItem]:
    items = []
    for i, v in enumerate(values):
        detail = what
        group = "0"
        if v == default:
            detail += " · default"
        legacy = LEGACY.get((tag, attr or "", v))
        if legacy is not None and version_key(version) >= version_key(legacy[1]):
            detail += f" · older name of {legacy[0]}"
            group = "1"  # still accepted; the newer name comes first
        items.append(CompletionItem(label=v, kind="value", detail=detail, sort_text=f"{group}{i:03d}{v}"))
    return items


def _word_span(text: str, offset: int, start_limit: int, stop: str = "") -> Span:
    """The value word around the cursor: what a chosen value replaces."""
    stops = set(" \t\r\n<>\"'") | set(stop)
    start = offset
    while start > start_limit and text[start - 1] not in stops:
        start -= 1
    end = offset
    while end < len(text) and text[end] not in stops:
        end += 1
    return Span(start, end)


def _line_end(text: str, offset: int) -> int:
    ends = [i for i in (text.find("\n", offset), text.find("\r", offset)) if i >= 0]
    return min(ends) if ends else len(text)


__all__ = ["TEMPLATE_EXTRAS", "schema_complete"]
