"""Macro definitions: the parameter list as xacro reads it, and the tables macros live in.

A parameter list is a sequence of ``name``, ``*block``, ``**blocks``,
``name:=default`` (or ``name=default``), ``name:=^`` (the caller's property of
the same name, required) and ``name:=^|default`` (the caller's, else the
default). A default is a ``${...}``, a ``$(...)``, or a run of quoted and
unquoted text without blanks; a default written ``'quoted'`` loses its quotes
when it is stored.
"""

from __future__ import annotations

import re

from .nodes import Element, size as subtree_size
from .source_map import Origin

_PARAM = re.compile(
    r"""\s*(?P<name>[^\s:=]+?)\s*:?=\s*(?P<fwd>\^\|?)?"""
    r"""(?P<default>\$\{.*?\}|\$\(.*?\)|(?:'.*?'|".*?"|[^\s'"]+)+|)(?:\s+|$)(?P<rest>.*)"""
)


class Param:
    """One parameter: its name (``*``/``**`` kept for blocks), whether it forwards the
    caller's property (``^``), its default text (None: none) and where that is written."""

    __slots__ = ("default", "default_origin", "forward", "has_spec", "name")

    def __init__(
        self, name: str, forward: bool, default: str | None, has_spec: bool, default_origin: Origin | None
    ) -> None:
        self.name = name
        self.forward = forward
        self.default = default
        self.has_spec = has_spec  # written with := (even an empty default)
        self.default_origin = default_origin

    @property
    def is_block(self) -> bool:
        return self.name.startswith("*")


def parse_params(text: str, origin: Origin | None, raw: bool) -> list[Param]:
    """The parameters of a ``params`` attribute, in order."""
    out: list[Param] = []
    pos = 0
    rest = text
    while rest:
        m = _PARAM.match(rest)
        if m is not None:
            default = m.group("default") or None
            d_origin = None
            if default is not None and origin is not None and raw:
                at = origin.span[0] + pos + m.start("default")
                d_origin = Origin(origin.file, (at, at + len(default)), origin.call)
            out.append(Param(m.group("name"), bool(m.group("fwd")), default, True, d_origin))
            pos += m.start("rest")
            rest = m.group("rest")
        else:
            stripped = rest.lstrip()
            pos += len(rest) - len(stripped)
            parts = stripped.split(None, 1)
            if not parts:
                break
            out.append(Param(parts[0], False, None, False, None))
            if len(parts) == 1:
                break
            pos += stripped.index(parts[1], len(parts[0]))
            rest = parts[1]
    return out


class Macro:
    """A macro as defined (the latest definition of its name wins)."""

    __slots__ = ("_size", "body", "name", "params")

    def __init__(self, name: str, body: Element, params: list[Param]) -> None:
        self.name = name
        self.body = body
        self.params = params
        self._size = -1

    @property
    def size(self) -> int:
        """The nodes copied per call, for the expansion's budget (counted at the first call:
        most macros a document's libraries define are never called)."""
        if self._size < 0:
            self._size = subtree_size(self.body)
        return self._size


class MacroTable:
    """The macros of a scope: a macro call's body sees the macros of its caller's table;
    an include with ``ns`` gets a table of its own, reached as ``ns.macro``."""

    __slots__ = ("macros", "parent")

    def __init__(self, parent: "MacroTable | None" = None) -> None:
        self.parent = parent
        self.macros: dict[str, "Macro | MacroTable"] = {}

    def get(self, name: str) -> "Macro | MacroTable | None":
        table: MacroTable | None = self
        while table is not None:
            found = table.macros.get(name)
            if found is not None:
                return found
            table = table.parent
        return None

    def names(self) -> set[str]:
        out: set[str] = set()
        table: MacroTable | None = self
        while table is not None:
            out.update(k for k, v in table.macros.items() if isinstance(v, Macro))
            table = table.parent
        return out
