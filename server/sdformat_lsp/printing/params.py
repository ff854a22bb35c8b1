"""``<include><experimental:params>`` applied to the included model's text, as libsdformat's
``ParamPassing.cc`` applies it to the included elements before they join the document.

Each child of ``<experimental:params>`` finds its element by ``element_id`` (names separated
by ``::``, relative to the included model, through its nested models and includes) and:

- ``add``: its content (a new child named by ``name``) goes into the element found (the model
  itself for an empty ``element_id``);
- ``modify``: its attributes are set on the element found; its text replaces the element's
  value, or each of its children modifies the element's child of that tag (and name), down
  the tree;
- ``remove``: the element goes (or, when the parameter has children, those children of it);
- ``replace``: the element is replaced by the parameter's content;
- no ``action``: each child carries its own action, relative to the element found.

The result is a table of operations by element (``Ops``) that the writer applies as it copies
each element, so an element of a nested include's file is changed where it is printed. The
including document has been checked: what the analysis accepted is found here, and anything
this lookup cannot find refuses the print with the parameter's place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SKIP_ATTRS = ("element_id", "action")


@dataclass
class Ops:
    """What to do to one element of an included file."""

    delete: bool = False
    replace: object | None = None  # the parameter element whose content replaces it
    text: str | None = None  # its new value
    attrs: dict[str, str] = field(default_factory=dict)
    add: list = field(default_factory=list)  # parameter elements whose content becomes new children


class ParamsRefused(Exception):
    def __init__(self, message: str, element) -> None:
        super().__init__(message)
        self.message, self.element = message, element


def collect(writer, params_el, model_el, table: dict[int, Ops]) -> None:
    """Record in ``table`` (by id of the element changed) what ``params_el`` does to ``model_el``."""
    for p in params_el.children:
        eid = p.get("element_id")
        if eid is None:
            continue  # reported by the analysis; libsdformat skips it too
        action = p.get("action")
        if action == "add":
            target = model_el if eid == "" else _find(writer, model_el, eid.split("::"), None)
            if target is None:
                raise ParamsRefused(f"print cannot find '{eid}' in the included model to add <{p.tag}> to", p)
            _ops(table, target).add.append(p)
            continue
        target = _find(writer, model_el, eid.split("::"), p.tag)
        if target is None:
            raise ParamsRefused(f"print cannot find <{p.tag}> '{eid}' in the included model", p)
        if action is None:
            _children(writer, p, target, table)
        else:
            _act(action, p, target, table)


def _act(action: str, p, target, table) -> None:
    if action == "modify":
        _modify(p, target, table)
    elif action == "remove":
        if not p.children:
            _ops(table, target).delete = True
        for c in p.children:
            found = _by_name(target, c, modify=False)
            if found is not None:
                _ops(table, found).delete = True
    elif action == "replace":
        _ops(table, target).replace = p


def _children(writer, p, target, table) -> None:
    """No action on the parameter: each child acts on ``target``'s children (``add``: into ``target``)."""
    for c in p.children:
        action = c.get("action")
        if action == "add":
            _ops(table, target).add.append(c)
        elif action in ("modify", "remove", "replace"):
            found = _by_name(target, c, modify=action == "modify")
            if found is not None:
                if action == "remove":
                    _ops(table, found).delete = True
                else:
                    _act(action, c, found, table)


def _modify(p, target, table) -> None:
    ops = _ops(table, target)
    for name, a in p.attributes.items():
        if name not in SKIP_ATTRS:
            ops.attrs[name] = a.value
    if p.text.strip():
        ops.text = p.text.strip()
        return
    for c in p.children:
        found = _by_name(target, c, modify=True)
        if found is None:
            continue  # libsdformat: "Could not find element", the modification is skipped
        if c.text.strip():
            sub = _ops(table, found)
            sub.text = c.text.strip()
            sub.attrs.update({k: a.value for k, a in c.attributes.items() if k not in SKIP_ATTRS})
        elif c.children:
            _modify(c, found, table)


def _by_name(parent, c, modify: bool):
    """libsdformat's getElementByName: the child of that tag with c's name (any of that tag for modify)."""
    same = [e for e in parent.children if e.tag == c.tag]
    if not same:
        return None
    name = c.get("name")
    if name is None:
        return same[0]
    named = next((e for e in same if e.get("name") == name), None)
    return named if named is not None or not modify else same[0]


def _find(writer, model_el, segments: list[str], tag: str | None):
    """The element ``segments`` names below ``model_el`` (of ``tag``; any tag for an add's parent)."""
    cur = model_el
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        nxt = None
        for child, name in _named_children(writer, cur):
            if name == seg and (not last or tag is None or child.tag == tag):
                nxt = child
                break
        if nxt is None:
            return None
        cur = nxt
    return cur


def _named_children(writer, el):
    """``el``'s children as libsdformat sees them once includes are expanded, with their names."""
    for c in el.children:
        if c.tag != "include":
            yield c, c.get("name")
            continue
        found = writer.includes.get(id(c))
        if found is None:
            continue
        inc, scope = found
        model = scope.entity.element
        if model is None or model.tag != "model":
            continue  # a URDF: its elements are made by the converter, not in a file to change
        if inc.merge:
            yield from ((m, m.get("name")) for m in model.children)
        else:
            yield model, scope.entity.name


def _ops(table: dict[int, Ops], el) -> Ops:
    found = table.get(id(el))
    if found is None:
        found = table[id(el)] = Ops()
    return found


def apply_ops(writer, d, text: str, ops: Ops, repl: list) -> bool:
    """Splice ``ops`` into the copy of ``d`` (in ``text``); True when ``d`` was removed or replaced whole."""
    from .splice import escape_attr, escape_text, indent_of, line_start

    if ops.delete:
        repl.append((line_start(text, d.span.start), d.span.end, ""))
        return True
    if ops.replace is not None:
        repl.append((d.span.start, d.span.end, writer._param_content(ops.replace)))
        return True
    for name, value in ops.attrs.items():
        a = d.attr(name)
        if a is not None:
            repl.append((a.value_span.start, a.value_span.end, escape_attr(value)))
        else:
            at = d.ts + 1 + len(d.tag)
            repl.append((at, at, f' {name}="{escape_attr(value)}"'))
    inner = ""
    if ops.text is not None:
        if d.text_span is not None and not d.children:
            repl.append((d.text_span.start, d.text_span.end, escape_text(ops.text)))
        else:
            inner += escape_text(ops.text)
    if ops.add:
        at = writer._newline(text) + indent_of(text, d.span.start) + "  "
        inner += "".join(at + writer._param_content(p) for p in ops.add)
    if inner:
        if d.self_closing:
            repl.append((d.stag_end - 2, d.stag_end, f">{inner}</{d.tag}>"))
        else:
            repl.append((d.stag_end, d.stag_end, inner))
    return False


__all__ = ["Ops", "ParamsRefused", "apply_ops", "collect"]
