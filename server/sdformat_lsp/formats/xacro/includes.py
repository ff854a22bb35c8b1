"""``xacro:include``: the file named (relative to the including file; a glob pattern
includes every match, sorted), read and evaluated with the includer's tables or, under
``ns``, fresh ones reached as ``ns.name``; its root's children put where the include was.
A file that includes itself, directly or not, is one error at the include."""

from __future__ import annotations

import os
import re

from typing import TYPE_CHECKING

from .definitions import attributes
from .errors import LimitError, XacroError
from .macros import MacroTable
from .nodes import Element, remove_previous_comments
from .properties import NamespaceScope, Scope, boolean

if TYPE_CHECKING:
    from .expander import Expander

MAX_INCLUDES = 2_000  # files included (with repetitions)


def expand_include(ex: "Expander", node: Element, parent: Element, new: list, macros: MacroTable, scope: Scope) -> None:

    spec, ns, optional = attributes(ex, node, ["filename"], ["ns", "optional"])
    fattr = node.attrs["filename"]
    if ns is not None:
        ns_name = str(ex.text_value(node.attrs["ns"], scope)[0])
        ns_macros = MacroTable()
        macros.macros[ns_name] = ns_macros
        ns_scope: Scope = NamespaceScope(scope, ex.names, ex.evaluate)
        scope.values[ns_name] = ns_scope
        scope.origins[ns_name] = node.attrs["ns"].origin
    else:
        ns_macros, ns_scope = macros, scope
    is_optional = boolean(optional, optional, node.origin) if optional is not None else False
    if any(type(c) is Element for c in node.children):
        ex.warn("the child elements of <xacro:include> are ignored", node.origin)
    filename = ex.abs_filename(str(ex.text_value(fattr, scope)[0]))
    if re.search(r"[*[?]+", filename):
        from glob import glob  # imported when needed: an error, a pattern

        names = sorted(glob(filename))
        if not names:
            ex.warn(f"the include pattern '{filename}' matches no file", fattr.origin)
    else:
        names = [filename]
    included: list = []
    for path in names:
        ex.includes += 1
        if ex.includes > MAX_INCLUDES:
            raise LimitError(f"more than {MAX_INCLUDES} files included", fattr.origin)
        if os.path.abspath(path) in (os.path.abspath(f) for f in ex.filestack):
            chain = " -> ".join(os.path.basename(f) for f in ex.filestack + [path])
            raise LimitError(f"include cycle: {chain}", fattr.origin)
        try:
            text = ex.read_file(path)
        except (OSError, ValueError) as exc:  # ValueError: not text (a decoding error)
            if is_optional:
                continue
            reason = getattr(exc, "strerror", None) or str(exc)
            raise XacroError(f"cannot include '{path}': {reason}", fattr.origin) from None
        ex.note_file(path)
        document = ex.read_tree(text, path)
        if document.root is None:
            raise XacroError(f"the included file '{path}' has no root element", fattr.origin)
        root = document.root
        ex.filestack.append(path)
        try:
            ex.eval_element(root, ns_macros, ns_scope)
        finally:
            ex.filestack.pop()
        included.extend(root.children)
        for key, attr in root.attrs.items():
            if key.startswith("xmlns:"):
                old = parent.attrs.get(key)
                if old is not None and old.value != attr.value:
                    ex.warn(f"the namespace prefix {key[6:]} is declared differently in '{path}'", attr.origin)
                else:
                    parent.attrs[key] = attr
    remove_previous_comments(new)
    new.extend(included)
