"""What a document defines and uses, kept for the editor (definitions, references,
completion): macros, properties and arguments with where they are written, and the
definitions themselves as the expander meets them (``define_property``, ``define_macro``),
with xacro's rules for names, scopes, defaults, removal and lazy evaluation.
"""

from __future__ import annotations

import keyword

from typing import TYPE_CHECKING, Any

from .errors import XacroError
from .macros import Macro, MacroTable, parse_params
from .nodes import Element
from .properties import Scope, boolean
from .source_map import Origin

if TYPE_CHECKING:
    from .expander import Expander


def attributes(ex: "Expander", node: Element, required: list[str], optional: list[str]) -> list[Any]:
    """The values of required and optional attributes (None when absent); unknown ones are
    warned about, as xacro does."""
    out: list[Any] = []
    for name in required:
        attr = node.attrs.get(name)
        if attr is None:
            raise XacroError(f"{node.tag} needs the attribute '{name}'", node.origin)
        out.append(attr.value)
    for name in optional:
        attr = node.attrs.get(name)
        out.append(None if attr is None else attr.value)
    extra = [a for a in node.attrs if a not in required and a not in optional and not a.startswith("xmlns:")]
    if extra:
        ex.warn(f"{node.tag} ignores the unknown attribute(s) {', '.join(extra)}", node.origin)
    return out


class Definition:
    """A macro, property or argument as defined: its name, where the name is written, where the
    whole definition is, and for macros the parameters."""

    __slots__ = ("element", "kind", "name", "name_origin", "namespace", "params", "value")

    def __init__(
        self,
        kind: str,
        name: str,
        name_origin: Origin | None,
        element: Origin | None,
        params: tuple[str, ...] = (),
        value: str | None = None,
        namespace: str | None = None,
    ) -> None:
        self.kind = kind  # "macro", "property", "arg"
        self.name = name
        self.name_origin = name_origin
        self.element = element
        self.params = params
        self.value = value
        self.namespace = namespace

    def __repr__(self) -> str:
        return f"Definition({self.kind}, {self.name!r}, {self.name_origin})"


class Use:
    """A use of a macro (a call) or of a property (a name in ``${}``), where it is written,
    and its definition when known."""

    __slots__ = ("definition", "kind", "name", "origin")

    def __init__(self, kind: str, name: str, origin: Origin, definition: Definition | None) -> None:
        self.kind = kind
        self.name = name
        self.origin = origin
        self.definition = definition


def define_property(ex: "Expander", node: Element, scope: Scope) -> None:
    name, value, default, remove, where, lazy = attributes(
        ex, node, ["name"], ["value", "default", "remove", "scope", "lazy_eval"]
    )
    name_attr = node.attrs["name"]
    name = str(ex.text_value(name_attr, scope)[0])
    if not name.isidentifier() or keyword.iskeyword(name):
        raise XacroError(f"the property name '{name}' is not a valid Python identifier", name_attr.origin)
    if name.startswith("__"):
        raise XacroError(f"the property name '{name}' must not start with '__'", name_attr.origin)
    remove_flag = boolean(ex.evaluate(remove or "false", scope, None)[0], remove, node.origin)
    if sum([value is not None, default is not None, bool(remove_flag)]) > 1:
        raise XacroError(f"property '{name}': value, default and remove cannot be used together", node.origin)
    if remove_flag and name in scope:
        scope.remove(name)
        return
    value_attr = node.attrs.get("value")
    if default is not None:
        if where is not None:
            ex.warn(f"property '{name}': a default is only set in the local scope", node.origin)
        if name in scope:
            return
        value = default
        value_attr = node.attrs.get("default")
    stored: Any = value
    if value is None:
        name = "**" + name
        stored = node
    lazy_flag = boolean(ex.evaluate(lazy or "true", scope, None)[0], lazy, node.origin)
    target = scope
    if where == "global":
        target = scope.top()
        lazy_flag = False
    elif where == "parent":
        if scope.parent is None:
            # ROS's xacro fails here (its global table's parent is the table of its own names)
            raise XacroError(
                f"property '{name}': scope=\"parent\" at the document's top level, which has no parent scope",
                node.attrs["scope"].origin,
            )
        target = scope.parent
        lazy_flag = False
        if not scope.namespace:
            while target.namespace and target.parent is not None:
                target = target.parent
    origin = value_attr.origin if value_attr is not None else node.origin
    source = None
    if not lazy_flag and isinstance(stored, str):
        assert value_attr is not None
        stored, source = ex.evaluate(stored, scope, value_attr.origin, value_attr.raw)
    if name in ex.names:
        ex.warn(f"the property '{name}' hides xacro's own name '{name}'", name_attr.origin)
    if source is not None and origin is not None:
        origin = Origin(origin.file, origin.span, origin.call, source)
    target.set(name, stored, origin, lazy=lazy_flag)
    ex.define("property", name.lstrip("*"), name_attr.origin, node.origin, value=value)


def define_macro(ex: "Expander", node: Element, macros: MacroTable) -> None:
    name, params_text = attributes(ex, node, ["name"], ["params"])
    name_origin = node.attrs["name"].origin
    if name == "call":
        raise XacroError("a macro cannot be named 'call' (xacro:call calls macros by name)", name_origin)
    if "." in name:
        raise XacroError(f"macro names cannot contain '.' (it separates namespaces): {name}", name_origin)
    if name.startswith("xacro:"):
        ex.warn(f"macro names should not start with 'xacro:': {name}", name_origin)
        name = name[6:]
    pattr = node.attrs.get("params")
    params = parse_params(params_text or "", pattr.origin if pattr else None, bool(pattr and pattr.raw))
    macros.macros[name] = Macro(name, node, params)
    ex.define("macro", name, name_origin, node.origin, params=tuple(p.name for p in params))
