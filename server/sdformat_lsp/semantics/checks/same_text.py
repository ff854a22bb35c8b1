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

from ...xml import XmlDocument, XmlElement


# Keys cost their length to read and hash: an element longer than this is not remembered (one that
# long seldom repeats), and the keys of one document read at most this many times its length in
# all, so that deeply nested elements, each inside the next one's key, stay linear.
MAX_LENGTH = 8192
BUDGET = 6
# A walk stops making keys at a place (a tag, a spec) where HOPELESS keys were made and none was
# found again: the models of a world, named apart, never repeat, and their keys would be most of the
# cost. FOUND marks a place where one was found: it is never given up.
HOPELESS = 32
FOUND = -(1 << 62)


def well_formed(xml: XmlDocument) -> bool:
    """No XML problem: every element parses the same wherever its text stands."""
    return not xml.problems and not xml.half_typed


class SameText:
    """The keys of one document's elements (None for every element when remembering is off)."""

    __slots__ = ("text", "budget")

    def __init__(self, xml: XmlDocument) -> None:
        self.text = xml.text
        # characters keys may still read (none in a document with a problem)
        self.budget = BUDGET * len(xml.text) if well_formed(xml) else 0

    @property
    def enabled(self) -> bool:
        return self.budget > 0

    def key(self, el: XmlElement) -> str | None:
        """``el``'s source text, or None when it must not be (or is not worth being) used as a key."""
        start = el.ts - 1  # el.span, without building it
        end = el.ts + el._end  # el.end without the property's call (an XmlElement keeps ends relative to ts)
        length = end - start
        if length > MAX_LENGTH or length > self.budget:
            return None
        self.budget -= length
        return self.text[start:end]
