"""Hover from the schema: what the spec says about an element or attribute name.

On a tag name (start or end tag) or an attribute name: the value type, the
default, how often it may appear (or whether it is required), the bounds,
the versions it exists in and a link to the specification page. Frame names,
frame references and poses keep the frame hover (:mod:`.hover`), which runs
first. The words are ours; the spec's descriptions are not repeated.

The facts come from the declared version's schema (the newest one when the
version is missing or unknown). An element or attribute that the declared
version lacks is described from the nearest version that has it, saying so.
"""

from __future__ import annotations

from ..semantics.analysis import Analysis
from ..spec import schema_for
from ..text import Span
from ..xml import XmlElement
from ..queries.results import HoverResult, Writer
from ..queries.schema import (
    ROOT_TAGS,
    attribute_need,
    bounds,
    element_path,
    meaningful,
    multiplicity,
    nearest_version_having,
    schema_of,
    spec_at,
    spec_url,
    version_range,
    versions_text,
)


def schema_hover(analysis: Analysis, offset: int, markdown: bool = True) -> HoverResult | None:
    """Schema facts for the tag or attribute name at ``offset``; None elsewhere."""
    found = _name_at(analysis, offset)
    if found is None:
        return None
    el, attr, span = found
    path = element_path(el)
    if path[0] not in ROOT_TAGS:
        return None
    schema = schema_of(analysis)
    declared = schema.version
    spec = spec_at(schema, path)
    here = spec is not None and (attr is None or attr in spec.attributes)
    version = declared
    if not here:
        other = nearest_version_having(path, attr, declared)
        if other is None:
            return None
        version = other
        other_schema = schema_for(other)
        assert other_schema is not None
        schema = other_schema
        spec = spec_at(schema, path)
    assert spec is not None
    w = Writer(markdown)
    if attr is None:
        w.para(f"{w.bold(w.code(f'<{el.tag}>'))} element · SDFormat {declared}")
    else:
        w.para(f"{w.bold(w.code(attr))} attribute of {w.code(f'<{el.tag}>')} · SDFormat {declared}")
    if not here:
        w.para(f"Not part of SDFormat {declared}; described as in SDFormat {version}.")
    rows: list[str] = []
    if attr is None:
        rows.append(f"Occurs: {multiplicity(spec.required)}")
        if spec.deprecated:
            rows.append("Deprecated: libsdformat warns when it is used")
        if spec.type is not None:
            rows.append(f"Type: {w.code(spec.type)}")
        if meaningful(spec.default):
            rows.append(f"Default: {w.code(spec.default or '')}")
        b = bounds(spec.min, spec.max)
        if b:
            rows.append(f"Value: {b}")
        if spec.copy_data:
            rows.append("Contents: free-form (copied as written)")
    else:
        aspec = spec.attributes[attr]
        rows.append(f"Presence: {attribute_need(aspec)}")
        rows.append(f"Type: {w.code(aspec.type)}")
        if meaningful(aspec.default):
            rows.append(f"Default: {w.code(aspec.default or '')}")
        b = bounds(aspec.min, aspec.max)
        if b:
            rows.append(f"Value: {b}")
    r = version_range(path, attr, version)
    if r is not None:
        rows.append(f"Versions: {versions_text(r)}")
    w.para("\n".join(_rows(w, rows)))
    if attr is None and spec.attributes:
        names = [f"{w.code(a.name)}{' (required)' if a.is_required else ''}" for a in spec.attributes.values()]
        w.para("Attributes: " + ", ".join(names))
    url = spec_url(schema, path)
    page = url.rsplit("=", 1)[1]
    if markdown:
        w.para(f"[Specification: {page} (SDFormat {schema.version})]({url})")
    else:
        w.para(f"Specification: {url}")
    return HoverResult(w.text(), span)


def _rows(w: Writer, rows: list[str]) -> list[str]:
    bullet = "- " if w.markdown else ""
    return [bullet + r for r in rows]


def _name_at(analysis: Analysis, offset: int) -> tuple[XmlElement, str | None, Span] | None:
    """The element whose tag name (start or end tag) or one of whose attribute names is at ``offset``."""
    el = analysis.xml.element_at(offset)
    if el is None:
        return None
    if el.tag_span.contains(offset):
        return el, None, el.tag_span
    for a in el.attributes.values():
        if a.name_span.contains(offset):
            return el, a.name, a.name_span
    if el.etag_start >= 0:
        start = el.etag_start + 2
        span = Span(start, start + len(el.tag))
        if analysis.text[start : span.end] == el.tag and span.contains(offset):
            return el, None, span
    return None


__all__ = ["schema_hover"]
