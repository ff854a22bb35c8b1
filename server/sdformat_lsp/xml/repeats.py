"""Subtrees repeated word for word, built by copying the first one instead of scanning again.

Large documents repeat themselves: the links of a generated world hold the same
``<collision>``, ``<visual>`` and ``<inertial>``, the 3,000 models of gz-sim's
``3k_shapes.sdf`` a handful of distinct links. The scanner (``_scan``) remembers, for each
start tag as written, the first element it opened with that tag and closed cleanly; when the
same start tag opens again and the text from there on repeats that element's source text, it
gives the new element copies of the first one's children, their offsets shifted, instead of
matching their tokens one by one: 99,000 of the 147,000 elements of the generated
100,000-line world are copies, and its scan takes 135 ms instead of 199.

Why the copy is the tree a scan would build: "closed cleanly" means that every token of the
element, from its start tag to its end tag, was read by the scanner's one-match fast path, with
no text outside leaves and no mismatched end tag. The fast path's decisions inside such an
element depend on nothing but its text: the enclosing elements are not looked at (the end tags
inside close elements opened inside), the white space before the element and the text after
its end tag are not part of it (the scanner reads the latter again after a copy), and the
memos it consults (tag names, attribute texts, leaf texts) are pure. So the same text, wherever
it stands, scans to the same subtree, every offset moved by the same amount. Anything else (the
careful path, text in a non-leaf, a mismatched end tag) forgets every element still open, and
the second scan of an unbalanced document (by indentation) remembers nothing.
"""

from __future__ import annotations

from weakref import ref

from .tree import LEAF, NEW_ATTRIBUTES, NO_ATTRIBUTES, Attributes, XmlAttribute, XmlElement

# A template's text is compared at every open element with its start tag, and copied once
# (when first compared): only elements up to this long are remembered, so that the comparisons
# stay within a constant of the scan, and a few thousand distinct templates take little memory.
MAX_LENGTH = 2048


def copy_into(el: XmlElement, template: XmlElement) -> int:
    """Give ``el`` (just opened, with the same start tag as ``template`` at another offset) the
    end, text and copies of the children of ``template``; its height: the most elements open
    at once, ``el`` included, while the scanner would have read it (leaves are never open).

    Every slot of every element is copied as the scanner sets it: offsets are relative to the
    tag start ``ts`` but for ``ts`` itself and each attribute's name start ``ns``, which move by
    the distance between the two elements. Parents are weak references to the new elements;
    texts, tag names and attribute names and values are the same (immutable) strings.
    """
    new = XmlElement.__new__
    new_attr = XmlAttribute.__new__
    new_attrs = NEW_ATTRIBUTES
    shift = el.ts - template.ts
    el._end = template._end
    el._etag = template._etag
    el._tss = template._tss
    el._tsx = template._tsx
    el.text = template.text
    height = 1
    # without recursion: a template may nest hundreds of elements
    work = [(el, template.children, 1)] if template.children is not LEAF else []
    while work:
        parent, kids, level = work.pop()
        parent_ref = ref(parent)
        out = []
        for c in kids:
            k = new(XmlElement)
            k.tag = c.tag
            k.ts = c.ts + shift
            k._stag = c._stag
            k._end = c._end
            attrs = c.attributes
            if attrs is not NO_ATTRIBUTES:
                items = []
                a: XmlAttribute
                for a in tuple.__iter__(attrs):  # type: ignore[arg-type]  # the scanner's Attributes: a tuple
                    b = new_attr(XmlAttribute)
                    b.name = a.name
                    b.value = a.value
                    b.ns = a.ns + shift
                    b._ne = a._ne
                    b._vs = a._vs
                    b._ve = a._ve
                    items.append(b)
                attrs = new_attrs(Attributes, items)
            k.attributes = attrs
            k._parent = parent_ref
            k.text = c.text
            k._tss = c._tss
            k._tsx = c._tsx
            k._etag = c._etag
            if c.children is LEAF:
                k.children = LEAF
            else:  # an element the scanner held open: one level more
                work.append((k, c.children, level + 1))
                if level >= height:
                    height = level + 1
            out.append(k)
        parent.children = tuple(out)  # as the scanner leaves a closed element's children
    return height


class Templates:
    """The scanner's memory of clean elements, one per scan (see the module).

    The scanner tells it of every element it leaves open (:meth:`opened`), of every one it closes
    that is the innermost still ``pending`` (:meth:`closed`), and clears ``pending`` itself, inline,
    wherever something is not clean: everything still open then holds it.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        # by tag name, then attribute text as written: [the first element with that start tag
        # closed cleanly, its source text once compared]
        self.by_tag: dict[str, dict[str, list]] = {}
        self.pending: list[tuple[XmlElement, dict[str, list], str]] = []  # open, start tag new, clean so far
        self.budget = len(text)  # characters the templates' texts may take in all

    def opened(self, el: XmlElement, name: str, attr_src: str, pos: int) -> tuple[XmlElement, str] | None:
        """``el`` was just opened with this start tag, its content starting at ``pos``: the template
        and its source text when the text from ``pos`` on repeats it, else None (and ``el`` is
        pending when no element had that start tag yet)."""
        by_attrs = self.by_tag.get(name)
        if by_attrs is None:
            self.by_tag[name] = by_attrs = {}
        known = by_attrs.get(attr_src)
        if known is None:
            self.pending.append((el, by_attrs, attr_src))
            return None
        template, source = known
        if source is None:
            if self.budget <= 0:
                return None
            known[1] = source = self.text[template.ts - 1 : template.ts + template._end]  # read when first compared
            self.budget -= len(source)
        return (template, source) if self.text.startswith(source, pos) else None

    def closed(self, el: XmlElement) -> None:
        """``el``, the last of ``pending``, closed cleanly: the template of its start tag, if short enough."""
        by_attrs, attr_src = self.pending.pop()[1:]
        if el._end < MAX_LENGTH and attr_src not in by_attrs:
            by_attrs[attr_src] = [el, None]
