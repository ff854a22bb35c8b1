"""The expander: a document's tree evaluated in xacro's order.

Walks an element's attributes, then its children in order, as ROS's xacro's
``eval_all`` does: ``xacro:property``, ``xacro:macro``, ``xacro:arg`` define
and disappear; ``xacro:include`` splices the included root's children
(evaluated with the includer's tables, or fresh ones under ``ns``);
``xacro:if``/``xacro:unless`` splice their evaluated children or nothing;
``xacro:insert_block`` splices a copy of a block parameter, evaluated again
where it is inserted; ``xacro:element`` renames and re-reads its element;
``xacro:attribute`` sets an attribute of its parent; any other ``xacro:NAME``
(and ``xacro:call macro="NAME"``) is a macro call: the call's attributes are
evaluated where the call is, its children (block parameters) too, then a copy
of the macro's body in a new table under the caller's, and its children
replace the call. Comments right before a definition or call go with it.

An error is located where the text that caused it is written, recorded as a
diagnostic, and the element it happened in is dropped; the walk goes on. A
:class:`LimitError` (macro recursion, include depth, an expansion over its
budget) stops the expansion.
"""

from __future__ import annotations

import os
import sys


from typing import Any, Callable

from ...diagnostics import Diagnostic, Severity
from . import errors
from .definitions import Definition, Use
from .directives import xacro_element
from .errors import LimitError, Unresolved, XacroError
from .evaluation import TextEvaluation
from .macros import MacroTable
from .expression_names import build
from .nodes import Comment, Document, Element, Text
from .properties import Globals, Scope
from .parsing import DocumentCache, read_document
from .source_map import Origin
from .substitution import Context, Substitutions
from ...records import record

MAX_DEPTH = 400  # nested elements (macro bodies included)
MAX_NODES = 350_000  # nodes copied and evaluated in one expansion (the largest robot of the corpus: 279,000)


@record
class ExpandOptions:
    """What one expansion is given besides the document, carried once from ``expand`` to the
    ``Expander``: xacro's arguments, the readers of files and packages, the environment and
    working directory of ``$(env)``/``$(cwd)``, the node budget and the cache of read trees."""

    args: dict[str, str]
    read_file: Callable[[str], str]
    find_package: Callable[[str], str | None] | None = None
    environ: dict[str, str] | None = None
    cwd: str | None = None
    max_nodes: int = MAX_NODES
    documents: DocumentCache | None = None


class Expander(TextEvaluation):
    def __init__(self, options: ExpandOptions) -> None:
        self.read_file = options.read_file
        documents = options.documents
        self.read_tree = documents.read if documents is not None else read_document
        self.context = Context(dict(options.args), options.find_package, options.environ, options.cwd)
        self.diagnostics: list[Diagnostic] = []
        self._seen: set[tuple] = set()
        self.files: list[str] = []
        self.definitions: list[Definition] = []
        self.uses: list[Use] = []
        self.filestack: list[str] = []
        self.depth = 0
        self.calls = 0
        self.nodes = 0
        self.incomplete = False  # an include failed: undefined names are its consequences
        self.max_nodes = options.max_nodes
        self.includes = 0
        self._defs_by_origin: dict[tuple, Definition] = {}
        from .yaml_loading import YamlLoader

        self.yaml = YamlLoader(self)
        table, allowed = build(
            {
                "load_yaml": self.yaml.load,
                "abs_filename": self.abs_filename,
                "dotify": self.yaml.dotify,
                "arg": self.context.args.__getitem__,
                "message": self._message("message"),
                "warning": self._message("warning"),
                "error": self._message("error"),
                "print_location": lambda *a, **k: "",
                "fatal": fatal,
            }
        )
        self.names = Globals(table)
        self.allowed = allowed
        self.subst = Substitutions(self.context, {k: v for k, v in table.items()}, allowed)
        self.where: Origin | None = None  # the node being evaluated, for errors raised without a place

    # -- reporting -------------------------------------------------------------------------------
    def report(
        self, severity: Severity, code: str, message: str, origin: Origin | None, data: dict | None = None
    ) -> None:
        key = (code, message, origin.file if origin else None, origin.span if origin else None)
        if key in self._seen:
            return
        self._seen.add(key)
        self.diagnostics.append(errors.diagnostic(code, severity, message, origin, data))

    def fail(self, exc: XacroError, where: Origin | None) -> None:
        """Report an error (at ``where`` when it carries no place), unless it is a name left
        undefined by an include that failed."""
        if self.incomplete and isinstance(exc, Unresolved):
            return
        unresolved = {errors.UNRESOLVED: True} if isinstance(exc, Unresolved) else None
        self.report(Severity.ERROR, exc.code, exc.message, exc.origin or where, unresolved)
        # what a failed definition, call or include would have defined is then missing: names
        # left undefined after a first error are most likely its consequences, not reported
        self.incomplete = True

    def warn(self, message: str, origin: Origin | None) -> None:
        self.report(Severity.WARNING, errors.WARNING, message, origin)

    def _message(self, kind: str) -> Callable[..., str]:
        def show(*args: Any, **kwargs: Any) -> str:
            text = " ".join(str(a) for a in args)
            severity = {"message": Severity.INFORMATION, "warning": Severity.WARNING, "error": Severity.WARNING}[kind]
            self.report(severity, errors.WARNING, f"xacro.{kind}: {text}", self.where)
            return ""

        return show

    def abs_filename(self, name: str) -> str:
        if os.path.isabs(name):
            return name
        base = os.path.dirname(self.filestack[-1]) if self.filestack and self.filestack[-1] else "."
        return os.path.join(base, name)

    def note_file(self, path: str) -> None:
        if path not in self.files:
            self.files.append(path)

    # -- the walk -----------------------------------------------------------------------------------
    def eval_element(self, elem: Element, macros: MacroTable, scope: Scope) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.depth = 0
            raise LimitError(
                f"the expansion is nested more than {MAX_DEPTH} deep: a macro calls itself without end, "
                "or elements nest too deeply",
                elem.origin,
            )
        try:
            for name in list(elem.attrs):
                attr = elem.attrs[name]
                if name.startswith("xacro:"):
                    del elem.attrs[name]
                    continue
                self.where = attr.origin
                try:
                    value, source = self.text_value(attr, scope)
                except LimitError:
                    raise
                except XacroError as exc:  # the attribute is left as written; the rest goes on
                    self.fail(exc, attr.origin)
                    continue
                text = str(value)
                if text != attr.value:
                    attr.value = text
                    attr.raw = False
                if source is not None and attr.origin is not None:
                    o = attr.origin
                    attr.origin = Origin(o.file, o.span, o.call, source)
            elem.attrs.pop("xmlns:xacro", None)
            self.eval_children(elem, macros, scope)
        finally:
            self.depth -= 1

    def eval_children(self, parent: Element, macros: MacroTable, scope: Scope) -> None:
        old = parent.children
        new: list = []
        parent.children = new
        eval_comments = False
        i = 0
        n = len(old)
        self.nodes += n
        if self.nodes > self.max_nodes:
            raise LimitError(
                f"the expansion is too large (over {self.max_nodes:,} nodes): macros multiply each other's output",
                parent.origin,
            )
        while i < n:
            node = old[i]
            i += 1
            kind = type(node)
            if kind is Element:
                eval_comments = False
                if node.tag.startswith("xacro:"):
                    try:
                        again = xacro_element(self, node, parent, new, macros, scope)
                    except LimitError:
                        raise
                    except XacroError as exc:
                        self.fail(exc, self.where or node.origin)
                        again = False
                    if again:
                        i -= 1
                else:
                    try:
                        self.eval_element(node, macros, scope)
                    except LimitError:
                        raise
                    except XacroError as exc:
                        self.fail(exc, self.where or node.origin)
                    new.append(node)
            elif kind is Text:
                if not node.cdata and "$" in node.data:
                    try:
                        value, source = self.evaluate(node.data, scope, node.origin, node.raw)
                        text = str(value)
                        if text != node.data:
                            node.data = text
                            node.raw = False
                        if source is not None and node.origin is not None:
                            o = node.origin
                            node.origin = Origin(o.file, o.span, o.call, source)
                    except LimitError:
                        raise
                    except XacroError as exc:
                        self.fail(exc, node.origin)
                if not node.cdata and node.data.strip():
                    eval_comments = False
                new.append(node)
            elif kind is Comment:
                if "xacro:eval-comments" in node.data:
                    eval_comments = "xacro:eval-comments:off" not in node.data
                    continue
                if eval_comments:
                    try:
                        node.data = str(self.evaluate(node.data, scope, node.origin)[0])
                    except XacroError as exc:
                        self.report(Severity.ERROR, exc.code, exc.message, exc.origin or node.origin)
                new.append(node)
            else:
                new.append(node)

    def define(self, kind: str, name: str, name_origin: Origin | None, element: Origin | None, **kw: Any) -> Definition:
        key = (kind, name, name_origin.file if name_origin else None, name_origin.span if name_origin else None)
        found = self._defs_by_origin.get(key)
        if found is None:
            found = Definition(kind, name, name_origin, element, **kw)
            self._defs_by_origin[key] = found
            self.definitions.append(found)
        return found

    # -- the document -----------------------------------------------------------------------------------
    def expand_document(self, document: Document, path: str) -> Document:
        root = document.root
        if root is None:
            return document
        self.filestack.append(path)
        macros = MacroTable()
        scope = Scope(None, self.names, self.evaluate)
        target = root.attrs.pop("xacro:targetNamespace", None)
        if target is not None:
            root.attrs["xmlns"] = target
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 10 * MAX_DEPTH + 2000))
        try:
            self.eval_element(root, macros, scope)
        except LimitError as exc:
            self.report(Severity.ERROR, exc.code, exc.message, exc.origin)
            root.children = []
        except XacroError as exc:
            self.report(Severity.ERROR, exc.code, exc.message, exc.origin or self.where)
        except RecursionError:
            self.report(Severity.ERROR, errors.LIMIT, "the expansion recurses too deeply", self.where)
            root.children = []
        finally:
            sys.setrecursionlimit(old)
            self.filestack.pop()
        return document


def fatal(*args: Any) -> str:
    """xacro.fatal(...): stop with the message."""
    raise XacroError("xacro.fatal: " + " ".join(str(a) for a in args))
