"""Editor features in a xacro document: its macros, properties and arguments, and the robot it expands to.

A xacro document's analysis (``Analysis.xacro``, see ``semantics/xacro_documents.py``)
holds its expansion: the definitions and uses the processor met (in this file
and in the files it includes) and a source map from every piece of the output
back to the text that made it. So:

* definition, references of a macro (at a call ``<xacro:wheel``), a property (a
  name inside ``${}``) or an argument (``$(arg name)``) come from the
  processor's definitions and uses, across included files;
* a link or joint name anywhere it was written (a literal, ``${prefix}_wheel``
  in a macro, ``parent="chassis"`` passed to a macro) is found in the
  expanded robot through the source map, and answered there as in a URDF
  (:mod:`sdformat_lsp.queries.urdf_structure`), then mapped back;
* hover says a property's value, a macro's parameters and where it is
  defined, on a link or joint what a URDF document says of it in the expansion
  (the pose libsdformat resolves after reading the URDF as SDFormat);
* completion offers macros after ``<xacro:`` (with xacro's own elements),
  a macro's parameters at its call, properties inside ``${``, link names
  where a link is expected; document symbols list the definitions.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Callable

from ..queries.frames import prepare_lookups
from ..queries.results import CompletionItem, CompletionList, HoverResult, Location, Symbol, TextEdit, Writer
from ..queries.urdf_structure import RobotStructure, urdf_hover_text
from ..semantics.analysis import Analysis
from ..text import Span

# xacro's own elements, offered after "<xacro:" beside the macros
XACRO_ELEMENTS = ("macro", "property", "arg", "include", "if", "unless", "insert_block", "element", "attribute", "call")
_ARG = re.compile(r"\$\(arg\s+([A-Za-z_][\w.-]*)\s*\)")
_WINDOW = 4000


def facts_of(analysis: Analysis):
    """The xacro facts of ``analysis`` (None when it is not a xacro document)."""
    return getattr(analysis, "xacro", None)


@lru_cache(maxsize=1024)
def _absolute(file: str) -> str:
    """A file's absolute path (an analysis names a few files, each in thousands of origins)."""
    return os.path.abspath(file)


def _here(analysis: Analysis) -> str | None:
    return _absolute(analysis.path) if analysis.path else None


def _same(file: str | None, here: str | None) -> bool:
    return file is not None and here is not None and _absolute(file) == here


def _location(file: str | None, span: tuple[int, int], here: str | None) -> Location:
    return Location(None if _same(file, here) else file, Span(*span))


def _within(span: tuple[int, int], offset: int) -> bool:
    return span[0] <= offset <= span[1]


# -- what is under the cursor ---------------------------------------------------------------------------


def _definition_at(analysis: Analysis, offset: int):
    """The processor's Definition named or used at ``offset`` in this document, or None."""
    facts = facts_of(analysis)
    here = _here(analysis)
    exp = facts.expansion
    for d in exp.definitions:
        o = d.name_origin
        if o is not None and _same(o.file, here) and _within(o.span, offset):
            return d
    for u in exp.uses:
        o = u.origin
        if o is not None and _same(o.file, here) and _within(o.span, offset):
            return u.definition or _property_named(analysis, u.name, offset)
    m = _arg_at(analysis, offset)
    if m is not None:
        return next((d for d in exp.definitions if d.kind == "arg" and d.name == m[0]), None)
    name = _name_in_expression(analysis.text, offset)
    if name is not None:  # a ${} the expansion did not evaluate (a macro never called here, a library)
        return _property_named(analysis, name, offset) or next(
            (
                d
                for d in exp.definitions
                if d.kind == "macro"
                and d.element is not None
                and _same(d.element.file, here)
                and _within(d.element.span, offset)
                and name in {p.lstrip("*").split(":=")[0].split("=")[0] for p in d.params}
            ),
            None,
        )
    return None


def _name_in_expression(text: str, offset: int) -> str | None:
    """The identifier at ``offset`` when it lies inside a ``${...}`` (None otherwise)."""
    opened = text.rfind("${", max(0, offset - 400), offset + 1)
    if opened < 0 or "}" in text[opened:offset]:
        return None
    start = offset
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    end = offset
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    word = text[start:end]
    return word if word.isidentifier() else None


def _property_named(analysis: Analysis, name: str, offset: int):
    """The definition a property name used at ``offset`` refers to: the last one written before it in this
    file, else the first anywhere (a macro's parameter is not one of them)."""
    facts = facts_of(analysis)
    here = _here(analysis)
    props = [
        d for d in facts.expansion.definitions if d.kind == "property" and d.name == name and d.name_origin is not None
    ]
    before = [d for d in props if _same(d.name_origin.file, here) and d.name_origin.span[0] <= offset]
    return before[-1] if before else (props[0] if props else None)


def _arg_at(analysis: Analysis, offset: int) -> tuple[str, Span] | None:
    text = analysis.text
    start = max(0, offset - 200)
    for m in _ARG.finditer(text, start, min(len(text), offset + 200)):
        if m.start(1) <= offset <= m.end(1):
            return m.group(1), Span(m.start(1), m.end(1))
    return None


def _written_here(analysis: Analysis) -> list[tuple[int, int, int, int, int]]:
    """The pieces of the expansion written in this document, made once per analysis: (start, end of
    the origin, start, end of the value's source, output offset), each -1 where it lies in another file."""
    facts = facts_of(analysis)
    found = facts.memo.get("written_here")
    if found is None:
        here = _here(analysis)
        smap = facts.expansion.source_map
        found = []
        for start, origin in zip(smap.starts, smap.origins, strict=True):
            if origin is None:
                continue
            src = origin.source
            own = _same(origin.file, here)
            via = _same(src.file, here)
            if own or via:
                o, v = origin.span if own else (-1, -1), src.span if via else (-1, -1)
                found.append((o[0], o[1], v[0], v[1], start))
        facts.memo["written_here"] = found
    return found


def _expanded_offsets(analysis: Analysis, offset: int) -> list[int]:
    """Where the text at ``offset`` of this document lands in the expansion (every copy)."""
    return [start for os_, oe, vs, ve, start in _written_here(analysis) if os_ <= offset <= oe or vs <= offset <= ve]


def expanded_robot(analysis: Analysis) -> RobotStructure | None:
    """The structure of the robot a xacro document expands to (None: no ``<robot>``), made once per analysis."""
    facts = facts_of(analysis)
    expanded = facts.expanded if facts is not None else None
    root = expanded.xml.root if expanded is not None else None
    if root is None or root.tag != "robot":
        return None
    robot = facts.memo.get("robot")
    if robot is None:
        robot = facts.memo["robot"] = RobotStructure(root)
    return robot


def prepare_xacro(analysis: Analysis) -> None:
    """Make the lookups of a xacro document's requests now (``features.prepare``, in the server's worker
    after an analysis): the first hover, definition or completion on a link then finds them made."""
    facts = facts_of(analysis)
    if facts is not None:
        _written_here(analysis)
        expanded_robot(analysis)
        if facts.expanded is not None:
            prepare_lookups(facts.expanded)  # a link's hover answers from the expansion's frame graphs


def _robot_name_at(analysis: Analysis, offset: int):
    """The link or joint name of the expanded robot written at ``offset``: (structure, name, kind)."""
    robot = expanded_robot(analysis)
    if robot is None:
        return None
    for at in _expanded_offsets(analysis, offset):
        n = robot.name_at(at)
        if n is not None:
            kind = robot.kind_of(n) or ("link" if n.kind == "any" else n.kind)
            return robot, n, kind
    return None


def _back(analysis: Analysis, expanded_span: Span) -> Location | None:
    """Where a span of the expansion was written (a value passed to a macro: at the call)."""
    origin = facts_of(analysis).expansion.origin(expanded_span.start)
    if origin is None:
        return None
    src = origin.source
    return _location(src.file, src.span, _here(analysis))


# -- definition, references, hover ----------------------------------------------------------------------


def xacro_definition(analysis: Analysis, offset: int) -> list[Location]:
    d = _definition_at(analysis, offset)
    if d is not None and d.name_origin is not None:
        return [_location(d.name_origin.file, d.name_origin.span, _here(analysis))]
    found = _robot_name_at(analysis, offset)
    if found is not None:
        robot, n, kind = found
        decl = robot.declaration(kind, n.name)
        a = decl.attr("name") if decl is not None else None
        loc = _back(analysis, a.value_span) if a is not None else None
        return [loc] if loc is not None else []
    return []


def xacro_references(analysis: Analysis, offset: int, include_declaration: bool = True) -> list[Location]:
    here = _here(analysis)
    d = _definition_at(analysis, offset)
    out: list[Location] = []
    if d is not None:
        exp = facts_of(analysis).expansion
        if include_declaration and d.name_origin is not None:
            out.append(_location(d.name_origin.file, d.name_origin.span, here))
        for u in exp.uses:
            if u.kind != d.kind and not (d.kind == "property" and u.kind == "property"):
                continue
            target = u.definition or (
                _property_named(analysis, u.name, u.origin.span[0]) if _same(u.origin.file, here) else None
            )
            if target is d or (target is None and u.name == d.name and u.kind == d.kind):
                loc = _location(u.origin.file, u.origin.span, here)
                if loc not in out:
                    out.append(loc)
        if d.kind == "arg":
            for m in _ARG.finditer(analysis.text):
                if m.group(1) == d.name:
                    loc = Location(None, Span(m.start(1), m.end(1)))
                    if loc not in out:
                        out.append(loc)
        return out
    found = _robot_name_at(analysis, offset)
    if found is not None:
        robot, n, kind = found
        for use in robot.uses_of(kind, n.name):
            if use.declares and not include_declaration:
                continue
            back = _back(analysis, use.span)
            if back is not None and back not in out:
                out.append(back)
    return out


def xacro_hover(
    analysis: Analysis,
    offset: int,
    markdown: bool = True,
    robot_hover: Callable[[Analysis, int], HoverResult | None] | None = None,
) -> HoverResult | None:
    """A definition's or an expression's hover; on a link or joint name, ``robot_hover`` answered on the
    expanded robot (its analysis and the offset of the name there: the pose libsdformat resolves, as in a
    URDF document), else the robot as written."""
    here = _here(analysis)
    d = _definition_at(analysis, offset)
    if d is not None:
        w = Writer(markdown)
        where = ""
        if d.name_origin is not None and not _same(d.name_origin.file, here):
            where = f" (defined in {w.code(os.path.basename(d.name_origin.file))})"
        if d.kind == "macro":
            params = ", ".join(w.code(p) for p in d.params) or "none"
            w.para(f"{w.bold('xacro macro')} {w.code(d.name)}{where}")
            w.para(f"Parameters: {params}")
        elif d.kind == "arg":
            value = facts_of(analysis).expansion.args.get(d.name, d.value)
            w.para(f"{w.bold('xacro argument')} {w.code(d.name)}{where}")
            w.para(
                f"Value: {w.code(str(value))}"
                + (f" (default {w.code(str(d.value))})" if d.value is not None and value != d.value else "")
            )
        else:
            w.para(f"{w.bold('xacro property')} {w.code(d.name)}{where}")
            if d.value is not None:
                w.para(f"Value: {w.code(str(d.value))}")
        _expression_values(w, analysis, offset)
        span = _span_at(analysis, offset)
        return HoverResult(w.text(), span)
    expression = _expression_at(analysis.text, offset)
    if expression is not None:
        w = Writer(markdown)
        w.para(f"{w.bold('xacro expression')} {w.code(analysis.text[expression.start : expression.end])}")
        if not _expression_values(w, analysis, offset):
            w.para("Not evaluated in this expansion (in a macro no call reaches, or a branch not taken).")
        return HoverResult(w.text(), expression)
    found = _robot_name_at(analysis, offset)
    if found is not None:
        robot, n, kind = found
        expanded = facts_of(analysis).expanded
        answer = robot_hover(expanded, n.span.start) if robot_hover is not None and expanded is not None else None
        text = answer.text if answer is not None else urdf_hover_text(robot, kind, n.name, markdown)
        return HoverResult(text, _span_at(analysis, offset))
    return None


def _expression_at(text: str, offset: int) -> Span | None:
    """The ``${...}`` holding ``offset``."""
    opened = text.rfind("${", max(0, offset - 400), offset + 1)
    if opened < 0:
        return None
    close = text.find("}", opened)
    if close < 0 or close < offset - 1:
        return None
    return Span(opened, close + 1)


def _expression_values(w: Writer, analysis: Analysis, offset: int) -> bool:
    """The values the text at ``offset`` took in the expansion (the attribute or text it lies in), at most three."""
    facts = facts_of(analysis)
    expanded = facts.expanded
    if expanded is None or _expression_at(analysis.text, offset) is None:
        return False
    values: list[str] = []
    for at in _expanded_offsets(analysis, offset):
        el = expanded.xml.element_at(at)
        if el is None:
            continue
        value = None
        for a in el.attributes.values():
            vs = a.value_span
            if vs.start <= at <= vs.end:
                value = a.value
                break
        if value is None and el.text_span is not None and el.text_span.start <= at <= el.text_span.end:
            value = expanded.text[el.text_span.start : el.text_span.end].strip()
        if value is not None and value not in values:
            values.append(value)
        if len(values) > 3:
            break
    if not values:
        return False
    shown = ", ".join(w.code(v) for v in values[:3]) + (" ..." if len(values) > 3 else "")
    w.para(f"Expands to: {shown}" if len(values) == 1 else f"Expands to (one per call): {shown}")
    return True


def _span_at(analysis: Analysis, offset: int) -> Span:
    """The word (name) at ``offset``."""
    text = analysis.text
    start = offset
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_.-:"):
        start -= 1
    end = offset
    while end < len(text) and (text[end].isalnum() or text[end] in "_.-"):
        end += 1
    return Span(start, end)


# -- rename ----------------------------------------------------------------------------------------------

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _text_of(analysis: Analysis, file: str | None) -> str | None:
    here = _here(analysis)
    if file is None or _same(file, here):
        return analysis.text
    src = facts_of(analysis).source(os.path.abspath(file))
    return src.text if src is not None else None


def _name_part(analysis: Analysis, file: str | None, span: tuple[int, int]) -> Span | None:
    """The name inside a written span: ``wheel`` of ``xacro:wheel``."""
    text = _text_of(analysis, file)
    if text is None:
        return None
    written = text[span[0] : span[1]]
    colon = written.find(":")
    return Span(span[0] + colon + 1, span[1]) if colon >= 0 else Span(*span)


def xacro_rename_places(analysis: Analysis, offset: int) -> list[tuple[str | None, Span]] | None:
    """Every place naming the macro, property or argument at ``offset`` (in this document and the
    files the expansion read), as (file or None, span of the name); None when nothing renamable is there."""
    d = _definition_at(analysis, offset)
    if d is None or d.name_origin is None:
        return None
    here = _here(analysis)
    places: list[tuple[str | None, Span]] = []
    for loc in xacro_references(analysis, offset, include_declaration=True):
        span = _name_part(analysis, loc.path, (loc.span.start, loc.span.end))
        if span is not None and (loc.path, span) not in places:
            places.append((None if _same(loc.path, here) else loc.path, span))
    if d.kind == "arg":  # $(arg NAME) in the files the expansion read too
        for path, src in facts_of(analysis).sources.items():
            for m in _ARG.finditer(src.text):
                if m.group(1) == d.name and (path, Span(m.start(1), m.end(1))) not in places:
                    places.append((path, Span(m.start(1), m.end(1))))
    return places


def xacro_prepare_rename(analysis: Analysis, offset: int) -> Span | None:
    places = xacro_rename_places(analysis, offset)
    if not places:
        return None
    return next((s for p, s in places if p is None and s.start <= offset <= s.end), None)


def xacro_rename(analysis: Analysis, offset: int, new_name: str) -> list[TextEdit] | str:
    """The edits renaming the macro, property or argument at ``offset`` everywhere it is written, or why not."""
    places = xacro_rename_places(analysis, offset)
    if not places:
        return "nothing to rename here: put the cursor on a macro, a property or an argument"
    if not _IDENTIFIER.match(new_name):
        return f"'{new_name}' is not a name xacro accepts (letters, digits and '_', not starting with a digit)"
    return [TextEdit(span, new_name, path) for path, span in sorted(places, key=lambda p: (p[0] or "", p[1].start))]


# -- completion ------------------------------------------------------------------------------------------

_TAG = re.compile(r"<([A-Za-z_][\w.-]*):([\w.-]*)$")
_CALL_ATTR = re.compile(
    r"<([A-Za-z_][\w.-]*):([A-Za-z_][\w.-]*)\b(?:\s+[\w.:-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*\s+([\w.-]*)$"
)
_EXPR = re.compile(r"\$\{([^{}]*?)([A-Za-z_][\w]*)?$")
_ANY_VALUE = re.compile(r"<[A-Za-z_][\w.:-]*\b[^<>]*?\b[\w.:-]+\s*=\s*([\"'])([^\"'<>$]*)$")
_LINK_ATTR = re.compile(r"<(parent|child)\b[^<>]*?\blink\s*=\s*([\"'])([^\"'<>]*)$")


def xacro_complete(analysis: Analysis, offset: int) -> CompletionList | None:
    facts = facts_of(analysis)
    if facts is None:
        return None
    text = analysis.text
    before = text[max(0, offset - _WINDOW) : offset]
    exp = facts.expansion
    macros = {d.name: d for d in exp.definitions if d.kind == "macro"}
    m = _EXPR.search(before)
    if m is not None and "}" not in m.group(0):
        typed = m.group(2) or ""
        props = sorted({d.name for d in exp.definitions if d.kind == "property"})
        items = [CompletionItem(p, "property", _value_detail(exp, p), f"0{p}") for p in props]
        return CompletionList(items, Span(offset - len(typed), offset))
    m = _TAG.search(before)
    if m is not None:
        typed = m.group(2)
        items = [
            CompletionItem(name, "macro", "macro(" + ", ".join(d.params) + ")", f"0{name}")
            for name, d in sorted(macros.items())
        ]
        items += [CompletionItem(e, "element", "xacro", f"1{e}") for e in XACRO_ELEMENTS]
        return CompletionList(items, Span(offset - len(typed), offset))
    m = _CALL_ATTR.search(before)
    if m is not None and m.group(2) in macros:
        typed = m.group(3)
        written = set(re.findall(r"\s([\w.:-]+)\s*=", before[m.start() :]))
        params = [
            p.lstrip("*").split(":=")[0].split("=")[0] for p in macros[m.group(2)].params if not p.startswith("*")
        ]
        items = [
            CompletionItem(p, "parameter", f"parameter of {m.group(2)}", f"0{p}") for p in params if p not in written
        ]
        return CompletionList(items, Span(offset - len(typed), offset))
    m = _LINK_ATTR.search(before)
    if m is not None:
        typed = m.group(3)
        robot = expanded_robot(analysis)
        names = list(robot.links) if robot is not None else []
        return CompletionList(
            [CompletionItem(n, "link", "link", f"0{n}") for n in names], Span(offset - len(typed), offset)
        )
    m = _ANY_VALUE.search(before)
    if m is not None:  # a value that becomes a link or joint name in the expansion (a macro's argument)
        found = _robot_name_at(analysis, offset)
        if found is not None and found[2] in ("link", "joint"):
            robot, _n, kind = found
            names = list(robot.links if kind == "link" else robot.joints)
            typed = m.group(2)
            return CompletionList(
                [CompletionItem(n, kind, kind, f"0{n}") for n in names], Span(offset - len(typed), offset)
            )
    return None


def _value_detail(exp, name: str) -> str:
    d = next((d for d in exp.definitions if d.kind == "property" and d.name == name), None)
    return f"= {d.value}" if d is not None and d.value is not None else "property"


# -- document symbols ------------------------------------------------------------------------------------


def xacro_symbols(analysis: Analysis) -> list[Symbol] | None:
    facts = facts_of(analysis)
    if facts is None:
        return None
    here = _here(analysis)
    out: list[Symbol] = []
    for d in facts.expansion.definitions:
        o = d.name_origin
        if o is None or not _same(o.file, here):
            continue
        span = Span(*(d.element.span if d.element is not None and _same(d.element.file, here) else o.span))
        detail = "(" + ", ".join(d.params) + ")" if d.kind == "macro" else (str(d.value) if d.value is not None else "")
        out.append(
            Symbol(
                d.name, d.kind, detail, span if span.start <= o.span[0] <= span.end else Span(*o.span), Span(*o.span)
            )
        )
    out.sort(key=lambda s: s.span.start)
    return out


__all__ = [
    "xacro_complete",
    "xacro_definition",
    "xacro_hover",
    "xacro_prepare_rename",
    "xacro_references",
    "xacro_rename",
    "xacro_rename_places",
    "xacro_symbols",
]
