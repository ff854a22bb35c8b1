"""Phase 2 of the validation: names (unique among siblings, not reserved)."""

from __future__ import annotations

from ...diagnostics import Diagnostic, error
from ...xml import XmlElement
from .base import DUNDER_NAME, CheckerBase
from ..frames import WORLD, FrameNode
from .same_text import FOUND, HOPELESS, MAX_LENGTH, SameText
from .sibling_names import NO_NAME_CHECK as _NO_NAME_CHECK
from .sibling_names import unique_children


class NameChecks(CheckerBase):
    """Duplicate and reserved names; skipped where the names are checked elsewhere (``check(names=False)``).

    The duplicates are usually found during the schema check's walk (``checks.sibling_names``, handed
    over as ``names(duplicates)``); :meth:`_duplicates` walks the tree for them when that walk did
    not run (no schema check, a document with an XML problem, a URDF conversion...)."""

    def names(self, duplicates: list[Diagnostic] | None = None) -> None:
        """``duplicates``: the repeated names, when another walk found them (``checks.sibling_names``)."""
        if duplicates is None:
            self._duplicates()
        else:
            self.out.extend(duplicates)
        for node in self.nodes:
            name = node.name
            if name and not name.startswith("__") and name != WORLD and "::" not in name:
                continue  # none of the cases of ``_reserved`` (the common case: no span to build)
            if node.kind == "world" or node.entity is None:
                continue
            self._reserved(node)

    def _duplicates(self) -> None:
        """Sibling names that repeat, anywhere in the document but in free-form content.

        A subtree that reported nothing is remembered by its source text (``checks.same_text``), and an
        identical one later is skipped: whether names repeat in a subtree depends on its text
        alone (which names, which tags), never on where it stands. Its end is a marker on the
        stack: (its key, the number of diagnostics before it). Keys are not made any more for a
        tag that missed ``HOPELESS`` times and never hit (the models of a world, named apart).
        """
        root = self.xml.root
        if root is None:
            return
        out, text = self.out, self.xml.text
        budget = SameText(self.xml).budget  # its key(), inlined: every element with children asks
        clean: set[str] = set()
        misses: dict[str, int] = {}
        stack: list = [root]
        pop, push = stack.pop, stack.append
        no_check = _NO_NAME_CHECK
        while stack:  # plugin contents and namespaced elements are free-form: not ours to judge
            el = pop()
            if type(el) is tuple:
                if el[1] == len(out):
                    clean.add(el[0])
                continue
            if budget > 0 and misses.get(el.tag, 0) < HOPELESS:
                start = el.ts - 1  # el.span, without building it nor calling the end property
                end = el.ts + el._end  # (an XmlElement keeps its ends relative to ts)
                if end - start <= MAX_LENGTH:
                    budget -= end - start
                    key = text[start:end]
                    if key in clean:
                        misses[el.tag] = FOUND
                        continue
                    misses[el.tag] = misses.get(el.tag, 0) + 1
                    push((key, len(out)))
            # One pass over the children queues those with children of their own and gathers the
            # names ``_unique_children`` compares; only a parent whose names repeat goes through
            # it (for the diagnostics). The queue gets what two separate passes gave it, in the
            # same order, so diagnostics come out in the same order. Leaves without attributes,
            # most of a document, cost one test.
            names = None
            for c in el.children:
                if c.children or c.attributes:
                    tag = c.tag
                    if tag in no_check or ":" in tag:  # ':' in a tag is a namespace prefix
                        continue
                    if c.children:
                        push(c)
                    if c.attributes:
                        a = c.attributes.get("name")
                        if a is not None and a.value:
                            if names is None:
                                names = [a.value]
                            else:
                                names.append(a.value)
            if names is not None and len(names) > 1 and len(set(names)) < len(names):
                self._unique_children(el)

    def _unique_children(self, el: XmlElement) -> None:
        unique_children(el, self.version, self.out)

    def _reserved(self, node: FrameNode) -> None:
        name = node.name
        span = node.name_span
        if span is None:
            return  # the missing attribute was reported by the model builder
        kind = node.kind
        if not name:
            self.out.append(error("RESERVED_NAME", f"the {kind} has an empty name: give it a name", span))
        elif name == WORLD and (node.scope is not None):
            self.out.append(
                error(
                    "RESERVED_NAME",
                    f"'world' is reserved for the world frame and cannot name a {kind}: rename it",
                    span,
                )
            )
        elif DUNDER_NAME.match(name):
            self.out.append(
                error(
                    "RESERVED_NAME",
                    f"names of the form __name__ are reserved for implicit frames: rename this {kind}",
                    span,
                )
            )
        elif "::" in name and self.version >= (1, 8):
            self.out.append(
                error(
                    "RESERVED_NAME", f"'::' separates scopes and cannot appear in a {kind} name: rename '{name}'", span
                )
            )
        else:
            return
        self._mark(node)
