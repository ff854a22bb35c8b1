"""SDFormat 1.0 brought to 1.2 as libsdformat does it, by the rules of its ``1_0.convert``.

1.0 wrote most values as attributes (``<physics update_rate="1000">``, ``<origin pose="...">``,
``<gravity xyz="...">``); 1.2 writes them as elements. libsdformat converts a 1.0 document before
reading it (``Converter::Convert`` with ``sdf/1.2/1_0.convert``): for every element the rules
name, first the rules of its children, then its renames, each taking a value from an attribute of
the element (the attribute is dropped and an element holding the value is appended) or from an
element child or that child's attribute (the child is replaced, in place, by an element holding
the value). The rules are read from the table ``scripts/generate_spec.py`` makes of that file
(``spec.conversion_rules("1_0")``); this module applies them as splices of the source text, so
that everything the rules do not touch is copied as written. The result is a 1.2 document, which
printing then brings up to the version asked for by the later rules (``legacy.py``, the writer).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..spec import conversion_rules
from ..xml import XmlElement
from .splice import escape_text, indent_of, line_start

__all__ = ["CONVERTED_VERSION", "converted_from_1_0"]

CONVERTED_VERSION = "1.2"


def converted_from_1_0(root: XmlElement, text: str) -> str:
    """The text of the 1.0 document ``root`` (parsed from ``text``) as libsdformat converts it to 1.2."""
    rules = conversion_rules("1_0")
    if rules is None:  # pragma: no cover - the table ships with the package
        raise LookupError("the 1.0 to 1.2 conversion table is missing from the package")
    nl = "\r\n" if "\r\n" in text else "\n"
    splices: list[tuple[int, int, str]] = []
    version = root.attr("version")
    if version is not None:
        splices.append((version.value_span.start, version.value_span.end, CONVERTED_VERSION))
    stack: list[tuple[XmlElement, Mapping[str, Any]]] = [(root, rules)]
    while stack:
        el, here = stack.pop()
        replaced = _renames(el, here.get("r", ()), text, nl, splices)
        for name, sub in here.get("c", {}).items():
            for child in el.children:
                if child.tag == name and id(child) not in replaced:  # a replaced child's own rules change nothing
                    stack.append((child, sub))
    out = []
    at = 0
    for start, end, new in sorted(splices, key=lambda s: (s[0], s[1])):
        out.append(text[at:start])
        out.append(new)
        at = max(at, end)
    out.append(text[at:])
    return "".join(out)


def _renames(el: XmlElement, renames, text: str, nl: str, splices: list) -> set[int]:
    """Splice ``el``'s renames in; the ids of the children a rename replaced."""
    replaced: set[int] = set()
    appended: list[str] = []
    dropped: set[str] = set()
    for from_element, from_attribute, to_element in renames:
        if from_element is not None:
            child = next((c for c in el.children if c.tag == from_element and id(c) not in replaced), None)
            if child is None:
                continue
            if from_attribute is not None:
                value = child.get(from_attribute)
            else:
                value = _text_of(child)
            if value is None:
                continue
            replaced.add(id(child))
            splices.append((child.span.start, child.span.end, _element(to_element, value)))
        elif from_attribute is not None and from_attribute not in dropped:
            attr = el.attr(from_attribute)
            if attr is None:
                continue
            dropped.add(from_attribute)
            start = attr.span.start
            while start > 0 and text[start - 1] in " \t\r\n":
                start -= 1
            splices.append((start, attr.span.end, ""))
            appended.append(_element(to_element, attr.value))
    if appended:
        _append(el, appended, text, nl, splices)
    return replaced


def _text_of(el: XmlElement) -> str | None:
    """The element's text, as libsdformat's GetValue takes it (tinyxml2's GetText), stripped; nothing for
    an element holding only white space and elements."""
    value = el.text.strip()
    return value or None


def _element(tag: str, value: str) -> str:
    return f"<{tag}>{escape_text(value)}</{tag}>"


def _append(el: XmlElement, elements: list[str], text: str, nl: str, splices: list) -> None:
    """``elements`` after ``el``'s last child, one per line at its children's indentation."""
    outer = indent_of(text, el.span.start)
    inner = outer + "  "
    lines = "".join(nl + inner + e for e in elements)
    if el.self_closing:
        splices.append((el.stag_end - 2, el.stag_end, ">" + lines + nl + outer + f"</{el.tag}>"))
        return
    end_tag = el.end_tag_span
    if end_tag is None:  # pragma: no cover - print refuses documents with errors first
        return
    at = line_start(text, end_tag.start)
    splices.append((at, at, lines))
