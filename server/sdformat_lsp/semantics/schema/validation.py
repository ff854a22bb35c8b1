"""Schema validation: the XML tree against the spec of its declared version.

What libsdformat's reader checks while it copies XML into its element tree
(unknown elements and attributes, missing required attributes, values that
do not parse, out-of-range values, deprecated elements), plus what an editor
can add: a "did you mean" fix for misspelt names, a note when an element is
newer than the declared version, a warning for a once-only element given
twice.

Left to the semantic core, so nothing is reported twice: the root element
and its version, several top-level models, missing ``name`` attributes,
missing or empty joint ``<parent>``/``<child>``, and every ``<pose>`` value
and attribute value.

The checker's questions to other versions of the spec are in schema/versions.py,
its reports of unknown names in schema/unknown.py.
"""

from __future__ import annotations

from functools import lru_cache

from ...diagnostics import Diagnostic, Fix, Related, Severity
from ...spec import ElementSpec, Schema, check_value, schema_for
from ...text import Span
from ...model import version_tuple
from ...model.builder import Builder
from ...xml import XmlDocument, XmlElement
from ..checks.domain import CHECKED as DOMAIN_CHECKED
from ..checks.domain import DomainChecks
from .read_once import read_once
from .repeated_mistakes import collapse_repeats
from ..checks.same_text import FOUND, HOPELESS, MAX_LENGTH, SameText
from .keys import PLACED, any_text, placed_key
from .unknown import UNKNOWN_ATTRIBUTE, UNKNOWN_ELEMENT, UnknownNames
from .versions import Visit, bound_problem
from ..checks.sibling_names import SiblingNames

__all__ = ["check_schema"]

ROOT_TAGS = ("sdf", "gazebo")  # 1.0 and 1.2 called the root <gazebo>
MISSING_ATTRIBUTE = "ATTRIBUTE_MISSING"
BAD_ATTRIBUTE = "ATTRIBUTE_INVALID"
BAD_VALUE = "PARAMETER_ERROR"
DEPRECATED = "ELEMENT_DEPRECATED"
REPEATED = "ELEMENT_INVALID"
# the same unknown element or attribute written again and again is one diagnostic (schema/repeated_mistakes.py)
_COLLAPSED = frozenset({UNKNOWN_ELEMENT, UNKNOWN_ATTRIBUTE})

# Checked by the semantic core (model builder, frame checks).
_CORE_ATTRIBUTES = frozenset({"name"})
_CORE_VALUES = frozenset({("joint", "parent"), ("joint", "child")})
_POSE = "pose"
# Owners whose <pose> the model builder reads (and checks); every other <pose> is checked here.
_BUILT_POSES = frozenset({"model", "link", "joint", "frame", "include"})
# Declared once-only, yet read as a list by libsdformat.
_REPEATABLE = frozenset({("geometry", "polyline")})


def check_schema(
    doc: XmlDocument, version: str, domain: DomainChecks | None = None, names: SiblingNames | None = None
) -> list[Diagnostic]:
    """Schema diagnostics for ``doc`` read as SDFormat ``version``; none when
    the version has no table or the root is not an SDFormat root.

    ``domain``: checks/domain.py's checks, run in the same walk (every element gets them, as in
    check_domain, whether or not the schema has it); their diagnostics are ``domain.result()``.
    ``names``: the name phase's comparison of sibling names, in the same walk (every element the
    name phase compares gets it); its diagnostics are ``names.result()``.
    """
    schema = schema_for(version.strip()) if version else None
    root = doc.root
    if schema is None or root is None or root.tag not in ROOT_TAGS:
        if domain is not None and root is not None:
            domain.walk(root)
        if names is not None and root is not None:
            names.walk(root)
        return []
    return _Checker(doc, schema, domain, names).run()


_UNSEEN = object()


class _Checker(UnknownNames):
    def __init__(
        self, doc: XmlDocument, schema: Schema, domain: DomainChecks | None = None, names: SiblingNames | None = None
    ) -> None:
        self.doc = doc
        self.domain = domain
        self.names = names
        self.text = doc.text
        self.schema = schema
        self.declared = schema.version
        self.version_tuple = version_tuple(schema.version) if schema.version else (1, 12)
        self.out: list[Diagnostic] = []
        self._child_tags: tuple[XmlElement | None, frozenset[str]] = (
            None,
            frozenset(),
        )  # the tags under the last parent asked about
        self._builder: Builder | None = None  # reads the <pose>s the model builder does not
        self.newer: list[tuple[str, str, Span]] = []  # (what, version introducing it, where) of each newer feature used
        self._visits = 0  # paths worked out (_visit): each is a verdict that may depend on where the element is

    def run(self) -> list[Diagnostic]:
        """Walk the tree iteratively (documents can nest deeply).

        Nearly every element is visited, so the walk does only what a valid
        element needs: cached child-spec lookups, no path tuples, value verdicts
        remembered by text; paths and versions are worked out for problems. A
        subtree with the text and spec of one found clean before is skipped.
        """
        root = self.doc.root
        assert root is not None
        root_spec = self.schema.root()
        self.root_name = root_spec.name
        out, newer, text = self.out, self.newer, self.text
        domain = self.domain
        found_too = domain.out if domain is not None else []  # what checks/domain.py finds counts as a report
        names = self.names
        repeated = names.out if names is not None else []  # and so do repeated sibling names
        # A subtree is remembered when checking it (checks/domain.py's checks too) reported nothing, noted
        # nothing newer and worked out no path: its verdict then depends on its text and its spec
        # alone (checks/same_text.py), and a spec object stands for one place in the tree. Its end is a
        # marker on the stack: (None, (key, spec), the events before it). The spec is kept as the
        # value, so that its id, in the key, stays its own for the whole walk.
        clean: dict[tuple[str, int], ElementSpec] = {}
        # The texts kept in ``clean`` are at most as long as the document in all: nested subtrees are
        # each a key, and keeping them all could hold the text several times over (checks/same_text.py).
        room = len(text)
        # Keys are not looked up at a place (a spec) where HOPELESS were and none was found: the
        # models of a world, named apart, never repeat, and their keys would be most of the cost.
        misses: dict[int, int] = {}
        budget = SameText(self.doc).budget  # its key(), inlined: every element with children asks
        stack: list[tuple] = [(root, root_spec, self.declared)]
        pop, push = stack.pop, stack.append
        while stack:
            el, spec, version = pop()
            if el is None:
                if version == len(out) + len(newer) + self._visits + len(found_too) + len(repeated) and room > 0:
                    key, spec = spec
                    clean[key] = spec
                    room -= len(key[0])
                continue
            kids = el.children
            if budget > 0 and kids and misses.get(id(spec), 0) < HOPELESS:
                start = el.ts - 1  # el.span, without building it
                end = el.ts + el._end  # el.end without the property's call (ends are kept relative to ts)
                if end - start <= MAX_LENGTH:
                    budget -= end - start
                    key = (
                        placed_key(text, el, kids, start, end, spec)
                        if el.tag in PLACED
                        else (text[start:end], id(spec))
                    )
                    if key in clean:
                        misses[id(spec)] = FOUND
                        continue
                    misses[id(spec)] = misses.get(id(spec), 0) + 1
                    push((None, (key, spec), len(out) + len(newer) + self._visits + len(found_too) + len(repeated)))
            if domain is not None and el.tag in DOMAIN_CHECKED:
                domain.check(el, el.tag)
            if spec.deprecated:
                out.append(
                    Diagnostic(
                        DEPRECATED,
                        Severity.WARNING,
                        f"<{el.tag}> is deprecated in SDFormat {version}: libsdformat warns whenever it is used; "
                        "remove it or move to the element that replaces it",
                        el.tag_span,
                    )
                )
            if el.attributes or spec.required_attributes:
                self._attributes(el, spec, version)
            vtype = spec.type
            if el.tag == _POSE:
                parent = el.parent
                if parent is not None and parent.tag not in _BUILT_POSES:
                    self._pose(el, parent)
            elif vtype is not None:
                value = el.text
                if not value or value.isspace() or _verdict(vtype, value, spec.min, spec.max) is not _GOOD:
                    self._value(el, spec, version)  # a problem, or a value that is missing
            if not kids or spec.copy_data:
                if kids and el.tag != "plugin":  # free-form for the schema, not for checks/domain.py and the
                    if domain is not None:  # name phase (a plugin is for all)
                        for child in kids:
                            domain.walk(child)
                    if names is not None:
                        names.walk(el)
                continue  # copy_data: plugin bodies and the like are free-form
            cached = spec.child_cache
            if len(kids) == 1:  # a common shape, with no repeats to look for
                child = kids[0]
                tag = child.tag
                if ":" not in tag:
                    child_spec = cached.get(tag, _UNSEEN)
                    if child_spec is _UNSEEN:
                        child_spec = spec.child(tag)
                    if child_spec is not None:
                        push((child, child_spec, version))
                    else:
                        found = self._off_spec(el, spec, version, child)
                        if found is not None:
                            push(found)
                        else:
                            _walk_apart(child, domain, names)
                continue
            first: dict[str, XmlElement] = {}
            visits = []
            named: list[str] | None = [] if names is not None else None  # the names the name phase compares
            for child in kids:
                tag = child.tag
                if ":" in tag:
                    continue  # namespaced: free-form by design
                if named is not None and child.attributes and tag != "plugin":
                    a = child.attributes.get("name")
                    if a is not None and a.value:
                        named.append(a.value)
                child_spec = cached.get(tag, _UNSEEN)
                if child_spec is _UNSEEN:
                    child_spec = spec.child(tag)
                if child_spec is None:
                    found = self._off_spec(el, spec, version, child)
                    if found is not None:
                        visits.append(found)
                    else:
                        _walk_apart(child, domain, names)
                    continue
                if not child_spec.allows_many:
                    earlier = first.get(tag)
                    if earlier is None:
                        first[tag] = child
                    elif read_once(el.tag, tag, el.get("type")) and self._content(earlier) != self._content(child):
                        out.append(_repeated(el, earlier, child))
                visits.append((child, child_spec, version))
            if named is not None and len(named) > 1 and len(set(named)) < len(named) and names is not None:
                names.compare(el)  # (named is a list only with names)
            visits.reverse()
            stack.extend(visits)
        if self.newer:
            out.append(self._newer_summary())
        out = collapse_repeats(out, _COLLAPSED)
        out.sort(key=lambda d: (d.span.start, d.span.end, d.code))
        return out

    def _content(self, el: XmlElement) -> str:
        """What an element says, white space aside: repeats that say the same lose nothing."""
        return " ".join(self.text[el.span.start : el.span.end].split()[1:]) if el.children else el.text.strip()

    def _pose(self, el: XmlElement, owner: XmlElement) -> None:
        """A <pose> the model builder does not read (of a visual, an inertial, a sensor...): libsdformat
        refuses the file when its value does not parse, wherever it is."""
        b = self._builder
        if b is None:
            b = self._builder = Builder(self.doc)  # one per document: it remembers the poses it has read
            b.version = self.version_tuple
        b.pose(owner, el)
        if b.diagnostics:
            self.out.extend(b.diagnostics)
            b.diagnostics.clear()

    def _visit(self, el: XmlElement, spec: ElementSpec, version: str) -> Visit:
        """``el`` with its path of tag names from the root (the root's spec name first)."""
        self._visits += 1
        tags = []
        node: XmlElement | None = el
        while node is not None:
            tags.append(node.tag)
            node = node.parent
        tags[-1] = self.root_name
        return Visit(el, spec, tuple(reversed(tags)), version)

    # -- one element -------------------------------------------------------

    def _attributes(self, el: XmlElement, spec: ElementSpec, version: str) -> None:
        is_root = el is self.doc.root
        known = spec.attributes
        for attr in el.attributes.values():
            if ":" in attr.name:
                continue  # namespaced: free-form by design
            aspec = known.get(attr.name)
            if aspec is None:
                self._unknown_attribute(self._visit(el, spec, version), attr)
                continue
            if el.tag == _POSE:
                continue
            value = attr.value
            if any_text(aspec):
                problem = lax = bound = None  # any text will do
            else:
                problem, lax, bound = _verdict(aspec.type, value, aspec.min, aspec.max)
            if (
                problem is None
                and (not value or value.isspace())
                and aspec.is_required
                and attr.name not in _CORE_ATTRIBUTES
            ):
                problem = "it needs a value"
            if problem is not None:
                severity, note = self._severity_in_latest(self._visit(el, spec, version), attr.name, attr.value)
                if severity is None:
                    continue
                self.out.append(
                    Diagnostic(
                        BAD_ATTRIBUTE,
                        severity,
                        f'invalid {attr.name}="{_short(attr.value)}" on <{el.tag}> ({aspec.type}): {problem}{note}',
                        attr.value_span,
                    )
                )
                continue
            if lax is not None:
                self.out.append(
                    Diagnostic(BAD_ATTRIBUTE, Severity.WARNING, f"{attr.name} on <{el.tag}>: {lax}", attr.value_span)
                )
            if bound is not None and self._in_latest(self._visit(el, spec, version)) is None:
                # libsdformat does not enforce attribute bounds; the spec states them (the newest spec's only:
                # libsdformat reads every file converted to its newest version).
                self.out.append(
                    Diagnostic(BAD_ATTRIBUTE, Severity.WARNING, f"{attr.name} on <{el.tag}> {bound}", attr.value_span)
                )
        for aspec in spec.required_attributes:
            name = aspec.name
            if name in el.attributes or name in _CORE_ATTRIBUTES:
                continue
            if is_root and name == "version":
                continue  # the version check belongs to the semantic core
            placeholder = aspec.default if aspec.default not in (None, "__default__") else ""
            insert = Span(el.tag_span.end, el.tag_span.end)
            self.out.append(
                Diagnostic(
                    MISSING_ATTRIBUTE,
                    Severity.ERROR,
                    f'<{el.tag}> needs a {name} attribute: add {name}="..."',
                    el.tag_span,
                    fixes=(Fix(f'Add {name}="{placeholder}"', insert, f' {name}="{placeholder}"'),),
                )
            )

    def _value(self, el: XmlElement, spec: ElementSpec, version: str) -> None:
        vtype = spec.type
        assert vtype is not None
        parent = el.parent
        if parent is not None and (parent.tag, el.tag) in _CORE_VALUES:
            return
        text = el.text
        problem, lax, bound = _verdict(vtype, text, spec.min, spec.max)
        if problem is None and lax is None and bound is None and text.strip():
            return  # the common case: a good value
        span = el.text_span or el.tag_span
        if not text.strip():
            # libsdformat refuses an empty value for a required element of any type.
            if spec.required == "1":
                severity, note = self._severity_in_latest(self._visit(el, spec, version), None, "")
                if severity is None:
                    return
                self.out.append(
                    Diagnostic(BAD_VALUE, severity, f"<{el.tag}> needs a value ({_type_hint(spec)}){note}", el.tag_span)
                )
            return
        if problem is not None:
            severity, note = self._severity_in_latest(self._visit(el, spec, version), None, text)
            if severity is None:
                return
            self.out.append(
                Diagnostic(
                    BAD_VALUE,
                    severity,
                    f"invalid value for <{el.tag}> ({vtype}): {problem}{note}",
                    span,
                    data={"type": vtype},
                )
            )
            return
        if lax is not None:
            self.out.append(Diagnostic(BAD_VALUE, Severity.WARNING, f"<{el.tag}>: {lax}", span, data={"type": vtype}))
        if bound is not None:
            severity, note = self._severity_in_latest(self._visit(el, spec, version), None, text)
            if severity is not None:
                self.out.append(Diagnostic(BAD_VALUE, severity, f"<{el.tag}> {bound}{note}", span))


def _repeated(parent: XmlElement, earlier: XmlElement, child: XmlElement) -> Diagnostic:
    """A once-only element given twice, differently: the warning on the second, naming the one read."""
    tag = child.tag
    if not child.children and not earlier.children:
        what = f"the first <{tag}> ({_short(earlier.text.strip())}), not this one ({_short(child.text.strip())})"
    else:
        what = f"the first <{tag}>, not this one"
    return Diagnostic(
        REPEATED,
        Severity.WARNING,
        f"<{tag}> is given twice in <{parent.tag}>, differently: libsdformat keeps both, but when it loads the "
        f"<{parent.tag}> it reads {what}; remove one",
        child.tag_span,
        related=(Related(earlier.tag_span, f"the first <{tag}>, the one read"),),
    )


_GOOD = (None, None, None)


def _walk_apart(el: XmlElement, domain: DomainChecks | None, names: SiblingNames | None) -> None:
    """An element the schema walk does not enter (unknown, or newer than any table): checks/domain.py's
    checks and the name phase (but in a plugin, free-form for it) walk it by themselves."""
    if domain is not None:
        domain.walk(el)
    if names is not None and el.tag != "plugin":
        names.walk(el)


@lru_cache(maxsize=50_000)  # bounded: the values of every document the process checks
def _verdict(type_name: str, text: str, low: str | None, high: str | None) -> tuple[str | None, str | None, str | None]:
    """(problem, lax reading, bound problem) of a value; remembered, because
    a document repeats the same few values (``1``, ``0 0 1``) thousands of times."""
    problem = check_value(type_name, text)
    lax = bound = None
    if problem is None:
        lax = check_value(type_name, text, strict=True)
        bound = bound_problem(type_name, text, low, high)
    return _GOOD if problem is None and lax is None and bound is None else (problem, lax, bound)


def _type_hint(spec: ElementSpec) -> str:
    if spec.default not in (None, "", "__default__"):
        return f"a {spec.type}, for example the default {spec.default}"
    return f"a {spec.type}"


def _short(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
