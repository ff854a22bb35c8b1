"""xacro's own elements (``xacro:property``, ``xacro:macro``, ``xacro:arg``,
``xacro:include``, ``xacro:if``/``xacro:unless``, ``xacro:insert_block``,
``xacro:element``, ``xacro:attribute``; any other ``xacro:NAME`` is a macro call),
each handled where the walk meets it, as ROS's xacro's ``eval_all`` does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .calls import expand_call
from .definitions import attributes, define_macro, define_property
from .errors import Unresolved, XacroError
from .includes import expand_include
from .macros import MacroTable
from .nodes import Attr, Element, remove_previous_comments, size
from .properties import Scope, boolean
from .source_map import Origin

if TYPE_CHECKING:
    from .expander import Expander


def xacro_element(ex: "Expander", node: Element, parent: Element, new: list, macros: MacroTable, scope: Scope) -> bool:
    """Handle one ``xacro:`` element; True when it must be read again (``xacro:element``)."""
    tag = node.tag
    ex.where = node.origin
    if tag == "xacro:insert_block":
        (name,) = attributes(ex, node, ["name"], [])
        multi = scope.find("**" + name)
        single = scope.find("*" + name) if multi is None else None
        if multi is not None:
            block = multi.values["**" + name]
        elif single is not None:
            block = single.values["*" + name]
        else:
            raise Unresolved(
                f"there is no block parameter or property '{name}' to insert here", node.attrs["name"].origin
            )
        if not isinstance(block, Element):
            raise XacroError(f"'{name}' is not a block", node.origin)
        block = block.copy(None)
        ex.nodes += size(block)
        ex.eval_element(block, macros, scope)
        if multi is not None:
            new.extend(block.children)
        else:
            new.append(block)
    elif tag == "xacro:include":
        expand_include(ex, node, parent, new, macros, scope)
    elif tag == "xacro:property":
        remove_previous_comments(new)
        define_property(ex, node, scope)
    elif tag == "xacro:macro":
        remove_previous_comments(new)
        define_macro(ex, node, macros)
    elif tag == "xacro:arg":
        name, default = attributes(ex, node, ["name", "default"], [])
        if name not in ex.context.args:
            ex.context.args[name] = str(ex.text_value(node.attrs["default"], scope)[0])
        ex.define("arg", name, node.attrs["name"].origin, node.origin, value=default)
        remove_previous_comments(new)
    elif tag == "xacro:element":
        attr = node.attrs.get("xacro:name")
        if attr is None:
            raise XacroError(
                "xacro:element needs the attribute xacro:name (the name of the element to make)", node.origin
            )
        name = ex.text_value(attr, scope)[0]
        if not name:
            raise XacroError("xacro:element: the name evaluates to an empty text", attr.origin)
        del node.attrs["xacro:name"]
        node.tag = str(name)
        return True
    elif tag == "xacro:attribute":
        name_attr, value_attr = node.attrs.get("name"), node.attrs.get("value")
        if name_attr is None or value_attr is None:
            raise XacroError("xacro:attribute needs the attributes name and value", node.origin)
        name = ex.text_value(name_attr, scope)[0]
        value, source = ex.text_value(value_attr, scope)
        if not name:
            raise XacroError("xacro:attribute: the name evaluates to an empty text", name_attr.origin)
        if not isinstance(value, str):
            # ROS's xacro stores the value as it is and fails when writing the document
            raise XacroError(
                f"xacro:attribute: the value is a {type(value).__name__}, not a text, which ROS's xacro "
                "cannot write; make it a text (add text around it, or use str())",
                value_attr.origin,
            )
        o = value_attr.origin
        origin = o if source is None or o is None else Origin(o.file, o.span, o.call, source)
        existing = parent.attrs.get(str(name))
        if existing is not None:
            existing.value, existing.origin, existing.raw = str(value), origin, False
        else:
            parent.attrs[str(name)] = Attr(str(value), origin, value_attr.raw and str(value) == value_attr.value)
    elif tag in ("xacro:if", "xacro:unless"):
        remove_previous_comments(new)
        (cond,) = attributes(ex, node, ["value"], [])
        value, _ = ex.text_value(node.attrs["value"], scope)
        keep = boolean(value, cond, node.attrs["value"].origin)
        if tag == "xacro:unless":
            keep = not keep
        if keep:
            ex.eval_element(node, macros, scope)
            new.extend(node.children)
    else:
        expand_call(ex, node, parent, new, macros, scope)
    return False
