"""The schema check's reports of names the declared version does not have.

An element or attribute that a newer version has is noted as newer (one
diagnostic for them all, on the version); any other gets a "did you mean"
fix when a name of the spec is close, else a hint that libsdformat keeps it
for simulators and plugins.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ...diagnostics import Diagnostic, Fix, Related, Severity
from ...spec import ElementSpec, schema_for, version_key
from ...spelling import one_edit
from ...text import Span
from ...xml import XmlAttribute, XmlDocument, XmlElement
from .versions import OtherVersions, Visit, rooted

UNKNOWN_ELEMENT = "ELEMENT_INCORRECT_TYPE"
UNKNOWN_ATTRIBUTE = "ATTRIBUTE_INCORRECT_TYPE"
# Element names simulators read that SDFormat does not define: never "corrected" to an SDFormat name.
_SIMULATOR_PREFIXES = ("gz_", "ign_", "ignition_", "gazebo_", "drake_", "ros_", "px4_")


class UnknownNames(OtherVersions):
    """The schema check's methods about unknown names (a mixin of schema.validation._Checker)."""

    # the checker's state these methods read and add to, declared for the type checker (set in
    # schema.validation._Checker.__init__, which says what each holds)
    doc: XmlDocument
    text: str
    declared: str
    out: list[Diagnostic]
    newer: list[tuple[str, str, Span]]
    _child_tags: tuple[XmlElement | None, frozenset[str]]

    if TYPE_CHECKING:

        def _visit(self, el: XmlElement, spec: ElementSpec, version: str) -> Visit: ...

    def _unknown_attribute(self, v: Visit, attr: XmlAttribute) -> None:
        el, spec = v.element, v.spec
        newer = self._newer(v.path, attr.name, v.version)
        if newer is not None:
            self._too_new(f"{attr.name}= on <{el.tag}>", newer, attr.name_span)
            return
        if attr.name == "value" and spec.type is not None and not el.text.strip() and not el.children:
            self.out.append(self._urdf_value(el, spec, attr))
            return
        message = f"<{el.tag}> has no attribute '{attr.name}' in SDFormat {v.version}"
        older = self._older(v.path, attr.name, v.version)
        if older is not None:
            message += f" (it existed up to SDFormat {older})"
        fixes: tuple[Fix, ...] = ()
        guess = _closest(attr.name, spec.attributes)
        if guess is not None and guess not in el.attributes:
            message += f"; did you mean '{guess}'?"
            fixes = (Fix(f"Rename to '{guess}'", attr.name_span, guess),)
        else:
            message += "; libsdformat ignores it"
        self.out.append(Diagnostic(UNKNOWN_ATTRIBUTE, Severity.WARNING, message, attr.name_span, fixes=fixes))

    def _urdf_value(self, el: XmlElement, spec: ElementSpec, attr: XmlAttribute) -> Diagnostic:
        """``<mass value="500"/>``: URDF's way of writing a value, in SDFormat. libsdformat reads an element's
        value from its text only (parser.cc readXml: no text, the default), so the value written is lost."""
        default = spec.default if spec.default not in (None, "") else "nothing"
        try:
            default = f"{float(default):g}"
        except ValueError:
            pass
        unit = " kg" if el.tag == "mass" else ""
        consequence = (
            "the link gets libsdformat's default mass of"
            if el.tag == "mass"
            else f"<{el.tag}> takes libsdformat's default,"
        )
        written = f"<{el.tag}>{attr.value}</{el.tag}>"
        message = (
            f'<{el.tag} value="{attr.value}"/> is URDF\'s way of writing it: SDFormat reads the value of <{el.tag}> from its text, '
            f"so {consequence} {default}{unit} instead of {attr.value}; write {written}"
        )
        span = el.span
        fixes: tuple[Fix, ...] = ()
        if self.text[span.start : span.end].rstrip(">").rstrip().endswith("/") and '"' not in attr.value:
            fixes = (Fix(f"Write {written}", span, written),)
        return Diagnostic(UNKNOWN_ATTRIBUTE, Severity.WARNING, message, attr.name_span, fixes=fixes)

    def _off_spec(
        self, el: XmlElement, spec: ElementSpec, version: str, child: XmlElement
    ) -> tuple[XmlElement, ElementSpec, str] | None:
        """A child the spec of ``el`` does not have: reported as too new (and then
        checked against the version that has it) or as unknown."""
        v = self._visit(el, spec, version)
        newer = self._newer(v.path, None, version, child.tag)
        if newer is not None:
            self._too_new(f"<{child.tag}> in <{el.tag}>", newer, child.tag_span)
            schema = schema_for(newer)
            found = schema.element_at(rooted(schema, v.path + (child.tag,))) if schema else None
            return (child, found, newer) if found is not None else None
        self._unknown_element(v, child)
        return None

    def _unknown_element(self, v: Visit, child: XmlElement) -> None:
        el, spec = v.element, v.spec
        if child.tag == "include" and el.tag == "sdf" and el.parent is None:
            return  # libsdformat takes a top-level <include> as the file's model, though the spec lists none there
        message = f"<{child.tag}> is not an element of <{el.tag}> in SDFormat {v.version}"
        older = self._older(v.path, None, v.version, child.tag)
        if older is not None:
            message += f" (it existed up to SDFormat {older})"
        fixes: tuple[Fix, ...] = ()
        guess = None
        if not child.tag.startswith(_SIMULATOR_PREFIXES):  # gz_frame_id is Gazebo's, not a misspelt frame_id
            guess = _closest(child.tag, [c for c in spec.children if self._free_for(el, spec, c)])
        homes = _homes(spec, child.tag, v.path, v.version) if guess is None or not one_edit(child.tag, guess) else ()
        if homes:
            # a known element written where libsdformat does not read it: it warns ("not defined in SDF"),
            # keeps it as an unread copy, and what it says (the noise of a pressure) is never applied
            places = " or ".join(homes)
            message = (
                f"<{child.tag}> is not read in <{el.tag}>: libsdformat keeps it here unread, so it has no effect; "
                f"it belongs in {places}"
            )
            fix = self._wrap_fix(el, child, homes[0]) if len(homes) == 1 else None
            fixes = (fix,) if fix is not None else ()
            severity = Severity.WARNING
        elif guess is not None:
            message += f"; did you mean <{guess}>?"
            fix = self._rename_fix(child, guess)
            fixes = (fix,) if fix is not None else ()
            # one edit or transposition away: a typo, and what it says is read by nobody; a farther
            # guess may be a simulator's own element, quiet like the others
            severity = Severity.WARNING if one_edit(child.tag, guess) else Severity.HINT
        else:
            message += "; libsdformat keeps it, unread, for simulators and plugins that know it"
            severity = Severity.HINT
        self.out.append(Diagnostic(UNKNOWN_ELEMENT, severity, message, child.tag_span, fixes=fixes))

    def _wrap_fix(self, el: XmlElement, child: XmlElement, home: str) -> Fix | None:
        """Wrap ``child`` in the one element between ``el`` and its place (``<pressure>``), when ``el`` has none yet."""
        inner = home.rsplit("<", 1)[-1].rstrip(">")
        if home.count("<") != 2 or any(c.tag == inner for c in el.children):
            return None
        span = child.span
        return Fix(f"Wrap in <{inner}>", span, f"<{inner}>{self.text[span.start : span.end]}</{inner}>")

    def _free_for(self, el: XmlElement, spec: ElementSpec, name: str) -> bool:
        """Would renaming a child of ``el`` to ``name`` make it valid? Not when ``name`` may appear once and is there."""
        child_spec = spec.child(name)
        if child_spec is None:
            return False
        if child_spec.allows_many:
            return True
        if self._child_tags[0] is not el:  # once per parent, not per unknown child: thousands of siblings stay linear
            self._child_tags = (el, frozenset(c.tag for c in el.children))
        return name not in self._child_tags[1]

    def _rename_fix(self, el: XmlElement, new: str) -> Fix | None:
        """One edit renaming both the start and the end tag."""
        title = f"Rename to <{new}>"
        if el.end_tag_span is None:
            return Fix(title, el.tag_span, new)
        name_start = el.end_tag_span.start + 2
        name_end = name_start + len(el.tag)
        if self.text[el.end_tag_span.start : name_start] != "</" or self.text[name_start:name_end] != el.tag:
            return None
        middle = self.text[el.tag_span.end : name_start]
        return Fix(title, Span(el.tag_span.start, name_end), new + middle + new)

    def _too_new(self, what: str, newer: str, span: Span) -> None:
        self.newer.append((what, newer, span))

    def _newer_summary(self) -> Diagnostic:
        """Every feature newer than the declared version, as one hint on the version: libsdformat
        converts the file to its newest version before reading it, so each one is read and Gazebo
        loads the file as written (a hint, not an information: it is not worth a reader's attention in
        the problem list); declaring the version that has them all says what the file needs."""
        root = self.doc.root
        assert root is not None
        version_attr = root.attr("version")
        span = version_attr.value_span if version_attr is not None else root.tag_span
        needed = max((v for _, v, _ in self.newer), key=version_key)
        features: dict[str, str] = {}
        for what, v, _ in self.newer:
            features.setdefault(what, v)
        listed = ", ".join(f"{w} ({v})" for w, v in list(features.items())[:4]) + (", ..." if len(features) > 4 else "")
        count = len(features)
        fixes: tuple[Fix, ...] = ()
        if version_attr is not None and root.tag == "sdf":
            fixes = (Fix(f"Declare SDFormat {needed}", version_attr.value_span, needed),)
        return Diagnostic(
            UNKNOWN_ELEMENT,
            Severity.HINT,
            f"this file uses {count} feature{'s' if count != 1 else ''} newer than its declared version {self.declared}: {listed}; "
            f"libsdformat reads {'them' if count != 1 else 'it'}, as it converts every file to its newest version, but other readers may not: "
            f'declare version="{needed}"',
            span,
            related=tuple(
                Related(sp, f"{w}: introduced in SDFormat {v}")
                for w, v, sp in sorted(self.newer, key=lambda n: n[2].start)[:50]
            ),
            fixes=fixes,
            data={"since": needed},
        )


def _closest(name: str, candidates) -> str | None:
    import difflib  # only when a name is wrong: not a cost of every start-up

    matches = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


_HOME_DEPTH = 2  # levels below the element looked at: <air_pressure><pressure><noise>


@lru_cache(maxsize=1024)  # a document repeats its unknown elements: each kind is looked for once
def _homes(spec: ElementSpec, tag: str, path: tuple[str, ...], version: str) -> tuple[str, ...]:
    """Where ``tag`` is read near an element (of ``spec``, at ``path``) that does not read it: the nearest
    levels below it that have it (``<air_pressure><pressure>``), else its parent when that one has it (written
    one level too deep). Only when the places are few (a ``<pose>`` fits almost anywhere: no advice)."""
    level: list[tuple[str, ElementSpec]] = [(f"<{spec.name}>", spec)]
    for _ in range(_HOME_DEPTH):
        below: list[tuple[str, ElementSpec]] = []
        for where, s in level:
            for name in s.children:
                c = s.child(name)
                if c is not None and not c.copy_data and name != spec.name:
                    below.append((f"{where}<{name}>", c))
        found = tuple(where for where, c in below if tag in c.children)
        if found:
            return found if len(found) <= 3 else ()
        level = below
    schema = schema_for(version)
    parent = schema.element_at(rooted(schema, path[:-1])) if schema is not None and len(path) > 2 else None
    if parent is not None and tag in parent.children:
        return (f"<{parent.name}> (beside this <{spec.name}>)",)
    return ()
