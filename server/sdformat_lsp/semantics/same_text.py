"""Verdicts remembered by an element's source text.

Large documents repeat themselves: the 3,000 models of gz-sim's ``3k_shapes.sdf`` hold a
handful of distinct ``<inertial>`` elements, the links of a generated world the same
``<collision>`` and ``<visual>``. A check whose verdict on an element depends on nothing but
the element's subtree can read it once per distinct text and remember it.

Why that is safe: the key is the element's whole source text, start tag to end tag. In a
document with no XML problem every element is well-formed, and a well-formed element's text
parses to the same subtree (tags, attributes, decoded texts) wherever it stands: the
scanner's decisions that depend on the enclosing elements are all recoveries from mistakes
(an unclosed element, a stray end tag), each of which is an XML problem. Any problem at all
turns remembering off for the whole document. Spans differ between two copies, so what is
remembered must never be a span: checks remember a verdict (for example "reports nothing")
and work out a diagnostic, with its spans, from the element in hand.
"""

from __future__ import annotations

from ..xml import XmlDocument, XmlElement


class SameText:
    """The keys of one document's elements (None for every element when remembering is off)."""

    __slots__ = ("text", "enabled")

    def __init__(self, xml: XmlDocument) -> None:
        self.text = xml.text
        self.enabled = not xml.problems and not xml.half_typed

    def key(self, el: XmlElement) -> str | None:
        """``el``'s source text, or None when it must not be used as a key."""
        if not self.enabled:
            return None
        return self.text[el.ts - 1 : el.end]  # el.span, without building it
