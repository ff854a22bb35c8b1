"""Rename a link, joint, frame or model together with every reference to it.

Only segments that spell the name change: ``n::L`` becomes ``n::L2`` and
``__model__`` stays. The new name is checked against the rules a name must
follow in its scope, so that a rename never introduces an error.

Renames stop at the file boundary: a frame declared in an included file
(``hand::tip``, or a name merged in by ``merge="true"``) is not renamed from
the includer, since the file may have other includers and its own
references. The refusal names the file (:attr:`RenameError.path`), so the
user can open it and rename there. An included model itself is renamed
through the ``<name>`` of its ``<include>``.
"""

from __future__ import annotations

import re

from ..semantics.analysis import Analysis
from ..semantics.frames import MODEL_FRAME, WORLD, WORLD_SENTINEL, FrameNode
from ..text import Span
from ..xml import XmlElement
from ..queries.frames import CursorTarget, definition_location, name_from, target_at
from ..queries.references import reference_spans
from ..queries.results import TextEdit

_RESERVED = re.compile(r"^__.*__$")
_FORBIDDEN = re.compile(r"[\s\"'<>&]")
_NOT_NAME_CHECKED = {"plugin"}  # siblings whose names need not be unique (as the core's checks say)


class RenameError(Exception):
    """A rename that cannot be done; ``message`` says why, for the user.

    ``path`` is set when the name is declared in another file (an included one).
    """

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


def _renamable(analysis: Analysis, offset: int) -> tuple[CursorTarget, FrameNode, Span] | RenameError:
    found = _check(analysis, offset)
    return RenameError(found) if isinstance(found, str) else found


def _check(analysis: Analysis, offset: int) -> tuple[CursorTarget, FrameNode, Span] | str | RenameError:
    """The target, its node and its declaration, or why it cannot be renamed."""
    target = target_at(analysis, offset)
    if target is None:
        return "there is no link, joint, frame or model name here"
    node = target.node
    if node is None:
        return f"'{target.text}' does not name a frame, so there is nothing to rename"
    if node is WORLD_SENTINEL or node.kind == "world" or target.text == WORLD:
        return "'world' is the world frame and cannot be renamed"
    if target.text == MODEL_FRAME:
        return "'__model__' is the implicit frame of a model and cannot be renamed; rename the model instead"
    if target.text != node.name:
        return f"'{target.text}' is not the name of {node.kind} '{node.name}'"
    decl = definition_location(analysis, node)
    written = name_from(target.scope, node) if target.scope is not None else node.name
    inc = getattr(node.entity, "from_include", None) if node.kind == "model" else None
    if inc is not None and inc.name_span is None and node.scope is not None and node.scope.path is None:
        # an <include> of this file without <name>: the model is called what its own file calls it
        where = node.inner.path if node.inner is not None and node.inner.path else "the included file"
        return RenameError(
            f"'{written}' is the name the included model has in {where}; give its <include> a <name> to rename it in this file",
            where,
        )
    if decl is None:
        return f"{node.kind} '{node.name}' has no name written in this file to rename"
    if decl.path is not None:
        return RenameError(f"'{written}' is defined in {decl.path}; open that file to rename it", decl.path)
    return target, node, decl.span


def prepare_rename(analysis: Analysis, offset: int) -> Span | None:
    """The span of the name (or ``::`` segment) to rename at ``offset``, None if it cannot be renamed."""
    found = _renamable(analysis, offset)
    return None if isinstance(found, RenameError) else found[0].span


def rename_refusal(analysis: Analysis, offset: int) -> RenameError | None:
    """Why the name at ``offset`` cannot be renamed (None if it can); ``path`` is set
    when it is declared in another file, the refusal worth showing at ``prepareRename``."""
    found = _renamable(analysis, offset)
    return found if isinstance(found, RenameError) else None


def _sibling_names(analysis: Analysis, node: FrameNode) -> dict[str, str]:
    """Names already used next to ``node``, with what uses them (name -> kind)."""
    taken: dict[str, str] = {}
    if node.scope is not None:
        for name, other in node.scope.frames.items():
            if other is not node and name not in (MODEL_FRAME, WORLD):
                taken.setdefault(name, other.kind)
    el: XmlElement | None = getattr(node.entity, "element", None)
    inc = getattr(node.entity, "from_include", None)
    if inc is not None:
        el = inc.element
    parent = el.parent if el is not None else None
    if parent is not None:
        for c in parent.children:
            if c is el or c.tag in _NOT_NAME_CHECKED or c.prefix is not None:
                continue
            written = c.get("name")
            if written is None and c.tag == "include":
                n = c.child("name")
                written = n.text.strip() if n is not None else None
            if written:
                taken.setdefault(written, c.tag)
    return taken


def check_new_name(analysis: Analysis, node: FrameNode, new_name: str) -> None:
    """Raise :class:`RenameError` unless ``new_name`` is a legal, free name for ``node``."""
    if not new_name:
        raise RenameError("the new name is empty")
    if new_name == WORLD:
        raise RenameError("'world' is reserved for the world frame")
    if _RESERVED.match(new_name):
        raise RenameError(f"'{new_name}' is reserved: names of the form __name__ belong to implicit frames")
    if "::" in new_name:
        raise RenameError("'::' separates scopes and cannot appear in a name")
    if _FORBIDDEN.search(new_name):
        raise RenameError(f"'{new_name}' contains white space, a quote, '<', '>' or '&'; use a plain name")
    if new_name == node.name:
        return
    taken = _sibling_names(analysis, node)
    if new_name in taken:
        where = node.scope.describe() if node.scope is not None else "this file"
        raise RenameError(f"{where} already has a {taken[new_name]} named '{new_name}'")


def rename(analysis: Analysis, offset: int, new_name: str) -> list[TextEdit]:
    """Edits renaming the frame at ``offset``: its declaration and every reference segment naming it."""
    found = _renamable(analysis, offset)
    if isinstance(found, RenameError):
        raise found
    _target, node, decl = found
    check_new_name(analysis, node, new_name)
    if new_name == node.name:
        return []
    spans = {decl, *(l.span for l in reference_spans(analysis, node, aliases=False))}
    return [TextEdit(s, new_name) for s in sorted(spans)]


__all__ = ["RenameError", "check_new_name", "prepare_rename", "rename", "rename_refusal"]
