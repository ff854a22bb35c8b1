"""Macro calls, as ROS's xacro expands them: the macro found (``ns.name`` through include
namespaces), the call's attributes evaluated where the call is, its child elements (the
block parameters) too, defaults and ``^`` forwarding from the caller's properties, then a
copy of the body, every origin of it carrying the call, evaluated in a new table under the
caller's, its children put where the call was."""

from __future__ import annotations


from typing import TYPE_CHECKING, Any

from .definitions import Use
from .errors import LimitError, Unresolved, XacroError
from .macros import Macro, MacroTable, Param
from .nodes import Element, remove_previous_comments
from .properties import Scope
from .source_map import Call, Origin

if TYPE_CHECKING:
    from .expander import Expander

MAX_CALLS = 150  # nested macro calls


def resolve_macro(
    ex: "Expander", name: str, macros: MacroTable, scope: Scope, origin: Origin | None
) -> tuple[Macro, Scope]:

    found = macros.get(name)
    if isinstance(found, Macro):
        return found, scope
    parts = name.split(".")
    if len(parts) > 1:
        table: MacroTable | Macro | None = macros
        sc: Any = scope
        for ns in parts[:-1]:
            table = table.get(ns) if isinstance(table, MacroTable) else None
            try:
                sc = sc.get(ns) if isinstance(sc, Scope) else None
            except KeyError:
                sc = None
            if not isinstance(table, MacroTable) or not isinstance(sc, Scope):
                table = None
                break
        if isinstance(table, MacroTable):
            found = table.get(parts[-1])
            if isinstance(found, Macro) and isinstance(sc, Scope):
                return found, sc
    known = sorted(macros.names())
    from difflib import get_close_matches  # imported when needed: an error, a pattern

    near = get_close_matches(name, known, 1, 0.6)
    hint = f"; did you mean 'xacro:{near[0]}'?" if near else ""
    raise Unresolved(f"unknown macro 'xacro:{name}'{hint}", origin)


def expand_call(ex: "Expander", node: Element, parent: Element, new: list, macros: MacroTable, scope: Scope) -> None:

    if node.tag == "xacro:call":
        attr = node.attrs.get("macro")
        if attr is None or not attr.value:
            raise XacroError("xacro:call needs the attribute 'macro' (the name of the macro to call)", node.origin)
        name = str(ex.text_value(attr, scope)[0])
        del node.attrs["macro"]
        name_origin = attr.origin
    else:
        name = node.tag[6:]
        name_origin = node.origin
    macro, body_scope = resolve_macro(ex, name, macros, scope, name_origin)
    definition = ex._defs_by_origin.get(
        (
            "macro",
            macro.name,
            macro.body.attrs["name"].origin.file if macro.body.attrs["name"].origin else None,
            macro.body.attrs["name"].origin.span if macro.body.attrs["name"].origin else None,
        )
    )
    if name_origin is not None:
        ex.uses.append(Use("macro", name, name_origin, definition))
    here = node.origin
    call = Call(name, here.file if here else "", here.span if here else (0, 0), here.call if here else None)
    ex.nodes += macro.size
    if ex.nodes > ex.max_nodes:
        raise LimitError(
            f"the expansion is too large (over {ex.max_nodes:,} nodes): the calls of macro '{name}' "
            "multiply each other's output",
            node.origin,
        )
    if ex.calls >= MAX_CALLS:
        raise LimitError(
            f"macro calls nest more than {MAX_CALLS} deep: macro '{name}' calls itself without end "
            "(give the recursion a condition that stops it)",
            node.origin,
        )
    local = body_scope.child()
    remaining = list(macro.params)
    by_name = {p.name: p for p in macro.params}
    for key in list(node.attrs):
        attr = node.attrs[key]
        param = by_name.get(key)
        if param is None or param not in remaining:
            if key.startswith("xacro:") or key.startswith("xmlns"):
                continue
            names = [p.name for p in macro.params if not p.is_block]
            from difflib import get_close_matches  # imported when needed: an error, a pattern

            near = get_close_matches(key, names, 1, 0.6)
            hint = f"; did you mean '{near[0]}'?" if near else f"; its parameters are: {', '.join(names) or 'none'}"
            raise XacroError(f"macro '{name}' has no parameter '{key}'{hint}", attr.origin)
        remaining.remove(param)
        ex.where = attr.origin
        value, source = ex.text_value(attr, scope)
        o = attr.origin
        local.set(key, value, o if source is None or o is None else Origin(o.file, o.span, o.call, source))
        attr.value = ""
        attr.raw = False
    ex.eval_element(node, macros, scope)  # the block parameters, where the call is
    blocks = [c for c in node.children if type(c) is Element]
    b = 0
    for param in list(remaining):
        if param.is_block:
            if b >= len(blocks):
                raise XacroError(
                    f"macro '{name}' expects a block for '{param.name}' but the call has no more child elements",
                    node.origin,
                )
            local.values[param.name] = blocks[b]
            local.origins[param.name] = blocks[b].origin
            b += 1
            remaining.remove(param)
    if b < len(blocks):
        raise XacroError(f"macro '{name}' takes no more blocks: <{blocks[b].tag}> is not used", blocks[b].origin)
    for param in list(remaining):
        if param.is_block:
            continue
        if param.forward or param.default is not None:
            value, source, origin = default_value(ex, param, scope, name, node.origin)
            o = origin
            local.set(param.name, value, o if source is None or o is None else Origin(o.file, o.span, o.call, source))
            remaining.remove(param)
    if remaining:
        missing = ", ".join(p.name for p in remaining)
        raise XacroError(f"the call of macro '{name}' misses parameter(s): {missing}", node.origin)
    body = macro.body.copy(call)
    ex.calls += 1
    try:
        ex.eval_element(body, MacroTable(macros if body_scope is scope else _table_of(macros, name)), local)
    finally:
        ex.calls -= 1
    remove_previous_comments(new)
    for key, attr in body.attrs.items():
        if key.startswith("xmlns:") and key not in parent.attrs:
            parent.attrs[key] = attr
    new.extend(body.children)


def default_value(
    ex: "Expander", param: Param, scope: Scope, macro: str, at: Origin | None
) -> tuple[Any, Origin | None, Origin | None]:
    if param.forward:
        try:
            value = scope.get(param.name)
            return value, scope.origin_of(param.name), at
        except KeyError:
            if param.default is None:
                raise XacroError(
                    f"macro '{macro}': parameter '{param.name}' forwards the caller's property '{param.name}' (^), "
                    "which is not defined here",
                    at,
                ) from None
    assert param.default is not None
    value, source = ex.evaluate(param.default, scope, param.default_origin, param.default_origin is not None)
    return value, source, param.default_origin


def _table_of(macros: MacroTable, name: str) -> MacroTable:
    """The table holding a namespaced macro (``ns.name``), for the body's own calls."""
    table: Any = macros
    for ns in name.split(".")[:-1]:
        found = table.get(ns) if isinstance(table, MacroTable) else None
        if not isinstance(found, MacroTable):
            return macros
        table = found
    return table
