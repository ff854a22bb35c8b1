"""Completion in a URDF: link names in ``<parent link>`` and ``<child link>``, joint names in ``<mimic joint>``,
both in ``<gazebo reference>``.

A URDF's names are plain strings of one namespace per kind: every ``<link>``
and ``<joint>`` of the ``<robot>`` may be named, lumped or not (the names are
the URDF's; lumping happens when it is converted). A joint is not offered as
its own child's parent: a link never hangs from itself. The context is read
from the raw text before the cursor, like the SDFormat completion, so a
half-typed attribute completes too.
"""

from __future__ import annotations

import re

from ..semantics.analysis import Analysis
from ..text import Span
from ..queries.results import CompletionItem, CompletionList

_WINDOW = 4000
_ATTR = re.compile(r"<([A-Za-z_][\w.-]*)\b[^<>]*?\b([A-Za-z_][\w.-]*)\s*=\s*([\"'])([^\"'<>]*)$")
_ROLES = {
    ("parent", "link"): "link",
    ("child", "link"): "link",
    ("mimic", "joint"): "joint",
    ("gazebo", "reference"): "any",
}


def is_urdf(analysis: Analysis) -> bool:
    return analysis.xml.root is not None and analysis.xml.root.tag == "robot"


def urdf_complete(analysis: Analysis, offset: int) -> CompletionList:
    text = analysis.text
    offset = max(0, min(offset, len(text)))
    before = text[max(0, offset - _WINDOW) : offset]
    m = _ATTR.search(before)
    role = _ROLES.get((m.group(1), m.group(2))) if m is not None else None
    if m is None or role is None:
        return CompletionList([], Span(offset, offset))
    start = offset - len(m.group(4))
    end = offset
    while end < len(text) and text[end] not in "\"'<>\r\n":
        end += 1
    robot = analysis.xml.root
    if robot is None:  # never: asked of URDF documents (is_urdf)
        return CompletionList([], Span(offset, offset))
    here = analysis.xml.element_at(offset)
    joint = here.parent if here is not None and here.parent is not None and here.parent.tag == "joint" else None
    items: list[CompletionItem] = []
    seen: set[str] = set()
    for kind in ("link", "joint"):
        if role not in (kind, "any"):
            continue
        for el in robot.children_named(kind):
            name = el.get("name")
            if not name or name in seen:
                continue
            if joint is not None and m.group(1) == "mimic" and el is joint:
                continue  # a joint does not mimic itself
            seen.add(name)
            items.append(CompletionItem(name, kind, _detail(el, kind), f"{0 if kind == role else 1}{name}"))
    return CompletionList(items, Span(start, end))


def _detail(el, kind: str) -> str:
    if kind == "joint":
        p, c = el.child("parent"), el.child("child")
        return f"{el.get('type') or 'joint'} joint: {p.get('link') if p is not None else '?'} -> {c.get('link') if c is not None else '?'}"
    return "link"
