"""The schema check's questions to other versions of the spec.

libsdformat converts every file to its newest version before reading it: a
value only the declared version rejects is no problem, and an element the
declared version lacks is read when a newer one has it. The schema check
(schema/validation.py) asks these questions only of elements with a problem.
"""

from __future__ import annotations

from ...diagnostics import Severity
from ...records import record
from ...spec import ElementSpec, Schema, check_value, known_versions, schema_for, version_key
from ...spec.types import scalar_value
from ...xml import XmlElement


@record(slots=True)
class Visit:
    """An element being checked, built only when a diagnostic needs its path."""

    element: XmlElement
    spec: ElementSpec
    path: tuple[str, ...]  # tag names from the root, the root's spec name first
    version: str  # the version whose schema ``spec`` comes from


class OtherVersions:
    """The schema check's methods about other versions (a mixin of schema.validation._Checker)."""

    def _severity_in_latest(self, v: Visit, attr: str | None, text: str) -> tuple[Severity | None, str]:
        """libsdformat converts older files to the newest spec before reading
        values, so a value only the declared version rejects is no problem (None)."""
        spec = self._in_latest(v)
        if spec is None:
            return Severity.ERROR, ""
        if attr is not None:
            aspec = spec.attribute(attr)
            accepted = (
                aspec is not None
                and check_value(aspec.type, text) is None
                and not (aspec.is_required and not text.strip())
            )
        elif not text.strip():
            accepted = spec.type is not None and spec.required != "1"
        else:
            accepted = (
                spec.type is not None
                and check_value(spec.type, text) is None
                and bound_problem(spec.type, text, spec.min, spec.max) is None
            )
        if not accepted:
            return Severity.ERROR, ""
        return None, ""

    def _in_latest(self, v: Visit) -> ElementSpec | None:
        """The same place in the newest schema, when ``v`` is read with an older one."""
        latest = known_versions()[-1]
        if version_key(v.version) >= version_key(latest):
            return None
        schema = schema_for(latest)
        return schema.element_at(rooted(schema, v.path)) if schema else None

    def _newer(self, path: tuple[str, ...], attr: str | None, since: str, child: str | None = None) -> str | None:
        """The first version after ``since`` that has this element or attribute."""
        later = [w for w in known_versions() if version_key(w) > version_key(since)]
        return first_having(later, path, attr, child)

    def _older(self, path: tuple[str, ...], attr: str | None, before: str, child: str | None = None) -> str | None:
        """The last version before ``before`` that had this element or attribute."""
        earlier = [w for w in known_versions() if version_key(w) < version_key(before)]
        return first_having(list(reversed(earlier)), path, attr, child)


def first_having(versions: list[str], path: tuple[str, ...], attr: str | None, child: str | None) -> str | None:
    for w in versions:
        schema = schema_for(w)
        if schema is None:
            continue
        spec = schema.element_at(rooted(schema, path))
        if spec is None:
            continue
        if child is not None and child in spec.children:
            return w
        if attr is not None and attr in spec.attributes:
            return w
    return None


def rooted(schema: Schema, path: tuple[str, ...]) -> tuple[str, ...]:
    """``path`` with its first name replaced by ``schema``'s root (sdf/gazebo)."""
    return (schema.root().name,) + path[1:]


def bound_problem(type_name: str, text: str, low: str | None, high: str | None) -> str | None:
    if low is None and high is None:
        return None
    value = scalar_value(type_name, text)
    if value is None:
        return None
    lo = scalar_value(type_name, low) if low is not None else None
    hi = scalar_value(type_name, high) if high is not None else None
    if lo is not None and value < lo:
        return f"must be at least {low}{f' (and at most {high})' if high is not None else ''}, not {text.strip()}"
    if hi is not None and value > hi:
        return f"must be at most {high}{f' (and at least {low})' if low is not None else ''}, not {text.strip()}"
    return None
