"""Properties and their scopes, as ROS's xacro keeps them.

A :class:`Scope` is one table of properties with a parent: the document's
table under the table of xacro's names (``pi``, ``math``, ``xacro``, ...), a
macro call's table under the caller's (xacro's scoping is dynamic: a macro
body sees the properties of the place it is called from), an include's ``ns``
table under the includer's. Values are stored as xacro stores them: a text
that reads as a number or a boolean becomes one, a quoted text loses its
quotes, and a property defined lazily (the default) keeps its text until it
is first used, then is evaluated in the table that holds it.

Each value also keeps where its text was written (an :class:`Origin`), so that
what is made of it can be traced back there.
"""

from __future__ import annotations

from typing import Any, Callable

from .errors import XacroError
from .expressions import Namespace
from .source_map import Origin


def read_literal(value: Any) -> Any:
    """A stored text as xacro reads it: ``'quoted'`` unquoted; an int, a float, a boolean when
    it reads as one (texts with ``_`` stay texts: Python would drop the underscores)."""
    if not isinstance(value, str):
        return value
    if len(value) >= 2 and value[0] == "'" and value[-1] == "'":
        return value[1:-1]
    if "_" in value:
        return value
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        pass
    if value in ("true", "True"):
        return True
    if value in ("false", "False"):
        return False
    return value


def boolean(value: Any, written: str | None, origin: Origin | None) -> bool:
    """A condition's value as xacro reads it: true/True/false/False, else a number, else error."""
    try:
        if isinstance(value, str):
            if value in ("true", "True"):
                return True
            if value in ("false", "False"):
                return False
            return bool(int(value))
        return bool(value)
    except (ValueError, TypeError):
        raise XacroError(
            f"the condition '{written}' evaluates to '{value}', which is not a boolean "
            "(write true, false, 1 or 0, or an expression giving one)",
            origin,
        ) from None


class Globals(Namespace):
    """The table of xacro's own names, under every document's table."""

    def __init__(self, names: dict[str, Any]) -> None:
        self.names = names

    def get_name(self, name: str) -> Any:
        return self.names[name]

    def __contains__(self, name: str) -> bool:
        return name in self.names


class Scope:
    """One table of properties (see the module's docstring)."""

    __slots__ = ("evaluate", "lazy", "namespace", "origins", "parent", "resolving", "root", "values")

    def __init__(
        self, parent: "Scope | None", root: Globals, evaluate: Callable[[str, "Scope", Origin | None], tuple]
    ) -> None:
        self.parent = parent
        self.root = root
        self.values: dict[str, Any] = {}
        self.origins: dict[str, Origin | None] = {}
        self.lazy: set[str] = set()
        self.resolving: list[str] = []
        self.evaluate = evaluate  # (text, scope, origin) -> (value, source origin)
        self.namespace = False

    def child(self) -> "Scope":
        return Scope(self, self.root, self.evaluate)

    # -- reading -------------------------------------------------------------------------------
    def find(self, name: str) -> "Scope | None":
        scope: Scope | None = self
        while scope is not None:
            if name in scope.values:
                return scope
            scope = scope.parent
        return None

    def __contains__(self, name: str) -> bool:
        return self.find(name) is not None or name in self.root

    def get(self, name: str) -> Any:
        """The value of ``name`` (evaluated now if it was defined lazily); KeyError if unknown."""
        scope = self.find(name)
        if scope is None:
            return self.root.get_name(name)
        return scope.resolve(name)

    def origin_of(self, name: str) -> Origin | None:
        scope = self.find(name)
        if scope is None:
            return None
        if name in scope.lazy:
            scope.resolve(name)
        return scope.origins.get(name)

    def resolve(self, name: str) -> Any:
        if name in self.lazy:
            if name in self.resolving:
                chain = " -> ".join(self.resolving + [name])
                raise XacroError(
                    f"the property '{name}' is defined in terms of itself ({chain}); "
                    'break the cycle, or define them in order with lazy_eval="false"',
                    self.origins.get(name),
                )
            self.resolving.append(name)
            try:
                value, source = self.evaluate(self.values[name], self, self.origins.get(name))
            finally:
                self.resolving.remove(name)
            self.values[name] = read_literal(value)
            self.lazy.discard(name)
            if source is not None and self.origins.get(name) is not None:
                origin = self.origins[name]
                assert origin is not None
                self.origins[name] = Origin(origin.file, origin.span, origin.call, source)
        return self.values[name]

    # -- writing -------------------------------------------------------------------------------
    def set(self, name: str, value: Any, origin: Origin | None, lazy: bool = False) -> None:
        """Define ``name`` here; ``lazy``: a text that does not read as a literal is evaluated
        at first use."""
        value = read_literal(value)
        self.values[name] = value
        self.origins[name] = origin
        if lazy and isinstance(value, str):
            self.lazy.add(name)
        else:
            self.lazy.discard(name)

    def remove(self, name: str) -> None:
        scope: Scope | None = self
        while scope is not None:
            scope.values.pop(name, None)
            scope.lazy.discard(name)
            scope = scope.parent

    def top(self) -> "Scope":
        """The document's table (under xacro's names)."""
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def visible_names(self) -> list[str]:
        """The document's properties visible here (not xacro's own names: a misspelt property
        is rarely a math function)."""
        names: dict[str, None] = {}
        scope: Scope | None = self
        while scope is not None:
            names.update((n, None) for n in scope.values if not n.startswith("*"))
            scope = scope.parent
        return list(names)


class NamespaceScope(Scope, Namespace):
    """The table of an include's ``ns``: its properties are read as ``ns.name``."""

    __slots__ = ()

    def __init__(self, parent: Scope, root: Globals, evaluate: Callable) -> None:
        Scope.__init__(self, parent, root, evaluate)
        self.namespace = True

    def get_name(self, name: str) -> Any:
        return self.get(name)
