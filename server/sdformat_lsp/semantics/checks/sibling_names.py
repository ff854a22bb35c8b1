"""Sibling names that repeat: the comparison of the name phase, and a walk of it that can ride
on another walk of the tree.

The name phase (``checks.name_checks``) compares, under every element but free-form content (plugins,
namespaced elements), the names of its children. Its own walk of the tree costs about as much as
the schema check's walk, which visits nearly the same elements: :class:`SiblingNames` lets the
schema walk compare the names of the children it goes through anyway (``analysis._schema``), and
walks by itself only the subtrees the schema walk does not enter (unknown and free-form
elements but plugins).

The name phase's own walk takes the children of an element last first, so it reports the parents
with repeated names by descending end offset (in a well-formed tree, an element ends after all it
holds, and a later sibling after everything of an earlier one). :meth:`SiblingNames.result` puts
the repeats found in any order back in that order: the same diagnostics, in the same order, as
the name phase's walk, in a well-formed document (``analysis._schema`` uses it only there).
"""

from __future__ import annotations

from dataclasses import replace

from ...diagnostics import Diagnostic, Related, error
from ...xml import XmlElement

NO_NAME_CHECK = frozenset({"plugin"})  # free-form content, with ':' in a tag (a namespace prefix)
FRAME_TAGS = frozenset({"link", "joint", "frame", "model"})


def repeats_names(el: XmlElement) -> bool:
    """Do two children of ``el`` that the name phase compares have the same name?"""
    names = None
    for c in el.children:
        if c.attributes:
            tag = c.tag
            if tag in NO_NAME_CHECK or ":" in tag:
                continue
            a = c.attributes.get("name")
            if a is not None and a.value:
                if names is None:
                    names = [a.value]
                else:
                    names.append(a.value)
    return names is not None and len(names) > 1 and len(set(names)) < len(names)


def unique_children(el: XmlElement, version: tuple[int, int], out: list[Diagnostic]) -> None:
    """A diagnostic in ``out`` for each child of ``el`` whose name an earlier sibling has."""
    seen: dict[str, XmlElement] = {}
    for c in el.children:
        if c.tag in NO_NAME_CHECK or ":" in c.tag:
            continue
        a = c.attributes.get("name")
        if a is None or not a.value:
            continue
        other = seen.get(a.value)
        if other is None:
            seen[a.value] = c
            continue
        scope_what = f"<{el.tag} name='{el.get('name')}'>" if el.get("name") else f"<{el.tag}>"
        code = "DUPLICATE_NAME"
        if other.tag == c.tag:
            msg = f"{scope_what} already has a <{c.tag}> named '{a.value}': sibling names must be unique; rename one of them"
        else:
            if not (version >= (1, 7) and {c.tag, other.tag} <= FRAME_TAGS):
                code = "PARSING_ERROR"  # what `gz sdf --check` reports for siblings of different types
            msg = (
                f"'{a.value}' names both a <{other.tag}> and a <{c.tag}> in {scope_what}: "
                "siblings must have distinct names, whatever their type; rename one of them"
            )
        data: dict[str, object] = {"duplicate": a.value}
        if code == "PARSING_ERROR":
            # only `gz sdf --check` compares names across types (recursiveSiblingUniqueNames in its gz.cc):
            # Gazebo loads the file. One habit, written link after link: folded by fold_clashes.
            msg = (
                f"'{a.value}' names both a <{other.tag}> and a <{c.tag}> in {scope_what}: `gz sdf --check` fails on "
                f"siblings sharing a name whatever their type (Gazebo loads the file, only the check compares them); "
                f"rename one of them, e.g. '{a.value}_{c.tag}'"
            )
            data[CLASH] = (other.tag, c.tag, a.value)
        oa = other.attr("name")
        out.append(
            error(
                code,
                msg,
                a.value_span,
                related=(Related(oa.value_span if oa else other.tag_span, f"the other '{a.value}'"),),
                data=data,
            )
        )


CLASH = "clash"  # a diagnostic's data key: (tag, other tag, name) of siblings of two types sharing a name


def fold_clashes(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The same clash of names across types (a <visual> and a <collision> both 'body') written in link after
    link is one habit: one diagnostic, on the first, with every other place related."""
    groups: dict[tuple, list[Diagnostic]] = {}
    for d in diagnostics:
        key = d.data.get(CLASH) if d.path is None else None
        if key is not None:
            groups.setdefault(key, []).append(d)
    if all(len(g) == 1 for g in groups.values()):
        return diagnostics
    out: list[Diagnostic] = []
    for d in diagnostics:
        key = d.data.get(CLASH) if d.path is None else None
        group = groups.get(key) if key is not None else None
        if group is None or len(group) == 1:
            out.append(d)
        elif key is not None and d is group[0]:  # (a group has a key)
            first, *rest = sorted(group, key=lambda x: x.span.start)
            other, tag, name = key
            more = len(rest)
            related = first.related + tuple(Related(r.span, f"'{name}' again, a <{other}> and a <{tag}>") for r in rest)
            out.append(
                replace(
                    first,
                    message=f"{first.message} (here and in {more} more place{'s' if more != 1 else ''}, listed as related)",
                    related=related,
                    data=dict(first.data),
                )
            )
    return out


class SiblingNames:
    """The name phase's repeated names, found element by element in whatever walk visits them."""

    __slots__ = ("version", "out", "_groups")

    def __init__(self, version: tuple[int, int]) -> None:
        self.version = version
        self.out: list[Diagnostic] = []  # in the order found; its length counts as a report
        self._groups: list[tuple[int, int, int]] = []  # (end of the parent, first, last + 1 in out)

    def compare(self, el: XmlElement) -> None:
        """Report the children of ``el`` whose names repeat (call it when :func:`repeats_names`)."""
        first = len(self.out)
        unique_children(el, self.version, self.out)
        self._groups.append((el.ts + el._end, first, len(self.out)))  # el.end, without the property's call

    def walk(self, el: XmlElement) -> None:
        """The name phase's walk of ``el``'s subtree (``el`` compared, free-form content left out)."""
        stack = [el]
        while stack:
            el = stack.pop()
            if repeats_names(el):
                self.compare(el)
            for c in el.children:
                if c.children and c.tag not in NO_NAME_CHECK and ":" not in c.tag:
                    stack.append(c)

    def result(self) -> list[Diagnostic]:
        """The diagnostics in the name phase's order (parents by descending end; see the module)."""
        out = self.out
        return [d for _, first, last in sorted(self._groups, key=lambda g: -g[0]) for d in out[first:last]]
