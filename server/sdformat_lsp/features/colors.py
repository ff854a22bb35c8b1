"""Document colours: every colour-typed value (``<ambient>``, ``<diffuse>``, ``<specular>``,
``<emissive>``, ``<background>``, a light's or fog's colour...) as a colour the editor can show.

Which elements hold a colour is the schema's answer (type ``color``), so every
such element of every version is covered, not a list of tag names. The editor's
picker writes the value back as SDFormat wants it: ``r g b a``, each in 0..1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..queries.schema import element_path, schema_of, spec_at
from ..semantics.analysis import Analysis
from ..text import Span
from ..xml import XmlElement


@dataclass(frozen=True, slots=True)
class Color:
    span: Span  # the value text
    rgba: tuple[float, float, float, float]


def _parse(text: str) -> tuple[float, float, float, float] | None:
    parts = text.split()
    if len(parts) not in (3, 4):
        return None
    try:
        values = [float(p) for p in parts]
    except ValueError:
        return None
    if not all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in values):
        return None  # the diagnostics report it; a picker would silently clamp
    if len(values) == 3:
        values.append(1.0)
    return (values[0], values[1], values[2], values[3])


def _value_span(analysis: Analysis, el: XmlElement) -> Span | None:
    text = el.text_span
    if text is None or text.end <= text.start:
        return None
    raw = analysis.text[text.start : text.end]
    stripped = raw.strip()
    if not stripped:
        return None
    start = text.start + (len(raw) - len(raw.lstrip()))
    return Span(start, start + len(stripped))


def document_colors(analysis: Analysis) -> list[Color]:
    """The colour values of the document, in document order."""
    root = analysis.xml.root
    if root is None:
        return []
    schema = schema_of(analysis)
    out: list[Color] = []
    kinds: dict[tuple[str, ...], bool] = {}  # spec lookups memoised per element path
    for el in root.iter():
        if el.children:
            continue
        path = element_path(el)
        is_color = kinds.get(path)
        if is_color is None:
            spec = spec_at(schema, path)
            is_color = kinds[path] = spec is not None and spec.type == "color"
        if not is_color:
            continue
        span = _value_span(analysis, el)
        if span is None:
            continue
        rgba = _parse(analysis.text[span.start : span.end])
        if rgba is not None:
            out.append(Color(span, rgba))
    return out


def _number(v: float) -> str:
    s = f"{min(1.0, max(0.0, v)):.3f}".rstrip("0").rstrip(".")
    return s if s not in ("", "-0") else "0"


def color_text(rgba: tuple[float, float, float, float]) -> str:
    """How a picked colour is written back: four numbers in 0..1 (alpha always written)."""
    return " ".join(_number(v) for v in rgba)


__all__ = ["Color", "color_text", "document_colors"]
