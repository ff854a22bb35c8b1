"""xacro, ROS's XML macro language, expanded as ROS's xacro 2.x does, with a source map.

The public API::

    expansion = expand(path, text, args={"name": "value"}, read_file=..., find_package=...)
    expansion.text          # the output document, as `xacro FILE` prints it
    expansion.origin(k)     # Origin(file, span, calls(), via) of output offset k, or None
    expansion.root          # the expanded tree (nodes.Element, each node with .origin)
    expansion.errors        # plain Diagnostics (path set to the file they are in), errors and warnings
    expansion.ok            # no error: ROS's xacro would have expanded it too
    expansion.files         # every file read (the document, includes, YAML), for re-checking dependants
    expansion.definitions   # macros, properties and args as defined (Definition, with spans)
    expansion.uses          # macro calls and property names in ${} (Use, with spans)
    expansion.args          # the arguments after xacro:arg defaults
    expansion.macros / .properties  # the definitions of that kind

``documents=DocumentCache()`` (kept by the caller between expansions, as the editor does)
reuses the trees of files read before with the same text.

``read_file(path) -> str`` reads included files and YAML (an ``OSError`` when
it cannot: an editor passes its open buffers); ``find_package(name) -> path |
None`` answers ``$(find name)`` (raise ``LookupError(message)`` to say what was
searched). Nothing here imports semantics or the shells.

Modules: ``reading`` (XML to the tree with spans), ``nodes`` (the tree),
``expressions`` (the interpreter of ``${}``), ``names`` (xacro's names),
``properties`` (scopes), ``macros`` (definitions and parameters),
``substitution`` (``$(...)`` commands and the cutting of texts),
``yaml_loading``, ``expander`` (the walk), ``evaluation`` (texts evaluated),
``directives`` (xacro's own elements), ``definitions`` (properties and macros
defined; what the editor reads), ``calls`` (macro calls), ``includes``,
``writer`` (the text and its map), ``source_map`` (origins), ``errors``,
``equivalence`` (documents compared).
"""

from __future__ import annotations


from typing import TYPE_CHECKING, Callable

from ...collector_pause import collector_paused
from ...diagnostics import Diagnostic, Severity
from ...files import FileRefused, read_file as _read_bytes
from .errors import XacroError, diagnostic
from .expander import MAX_NODES, Definition, ExpandOptions, Expander, Use
from .nodes import Element
from .parsing import DocumentCache, before_the_mistake
from .source_map import Call, Origin, SourceMap
from .writer import banner, write

if TYPE_CHECKING:
    from ...xml.built import TreeBuilder

__all__ = [
    "Call",
    "Definition",
    "DocumentCache",
    "ExpandOptions",
    "Expansion",
    "Origin",
    "Use",
    "before_the_mistake",
    "expand",
    "read_text_file",
]


def read_text_file(path: str) -> str:
    """A file's text as the processor reads it (UTF-8; an OSError when it cannot be read)."""
    try:
        data = _read_bytes(path)
    except FileRefused as exc:
        raise OSError(str(exc)) from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    # as the XML layer decodes (xml.source), without importing it: that package loads lxml,
    # which the `xacro` command does not need
    return data.decode("utf-8", "replace")


class Expansion:
    """The result of :func:`expand` (see the module's docstring)."""

    def __init__(
        self,
        text: str,
        source_map: SourceMap,
        root: Element | None,
        errors: list[Diagnostic],
        files: list[str],
        definitions: list[Definition],
        uses: list[Use],
        args: dict[str, str],
        packages: dict[str, str],
        tree: "TreeBuilder | None" = None,
    ) -> None:
        self.text = text
        self.source_map = source_map
        self.root = root
        self.errors = errors
        self.files = files
        self.definitions = definitions
        self.uses = uses
        self.args = args
        self.packages = packages  # $(find) answers used
        self.tree = tree  # with expand(..., tree=True): the XML elements of ``text``, made while writing it

    def origin(self, offset: int) -> Origin | None:
        """Where the output at ``offset`` comes from (None: xacro's own banner and declaration)."""
        return self.source_map.origin(offset)

    @property
    def ok(self) -> bool:
        return not any(d.severity == Severity.ERROR for d in self.errors)

    @property
    def macros(self) -> list[Definition]:
        return [d for d in self.definitions if d.kind == "macro"]

    @property
    def properties(self) -> list[Definition]:
        return [d for d in self.definitions if d.kind == "property"]

    @property
    def arg_definitions(self) -> list[Definition]:
        return [d for d in self.definitions if d.kind == "arg"]


def expand(
    path: str,
    text: str | None = None,
    *,
    args: dict[str, str] | None = None,
    read_file: Callable[[str], str] | None = None,
    find_package: Callable[[str], str | None] | None = None,
    environ: dict[str, str] | None = None,
    cwd: str | None = None,
    max_nodes: int | None = None,
    documents: DocumentCache | None = None,
    tree: bool = False,
) -> Expansion:
    """Expand the xacro document ``path`` (its ``text`` when given, else read). ``documents``:
    a cache of read trees kept by the caller between expansions (the editor); ``tree``: make the
    XML elements of the output while writing it (``Expansion.tree``), for a caller that analyses it."""
    # reading and expanding allocate many objects and make no cycles worth collecting: without
    # the cyclic collector's passes over the growing trees it runs about a fifth faster (the
    # collector is resumed only if it was running, so a caller's pause is kept)
    options = ExpandOptions(
        dict(args or {}),
        read_file or read_text_file,
        find_package,
        environ,
        cwd,
        MAX_NODES if max_nodes is None else max_nodes,
        documents,
    )
    with collector_paused():  # counted with the analyses running at once (collector_pause.py)
        return _expand(path, text, options, tree)


def _expand(path: str, text: str | None, options: ExpandOptions, tree: bool = False) -> Expansion:
    reader = options.read_file
    expander = Expander(options)
    expander.note_file(path)
    if text is None:
        try:
            text = reader(path)
        except (OSError, ValueError) as exc:  # ValueError: not text (a decoding error)
            reason = getattr(exc, "strerror", None) or str(exc)
            message = reason if path in reason else f"cannot read '{path}': {reason}"
            err = diagnostic("FILE_READ", Severity.ERROR, message, Origin(path, (0, 0)))
            return Expansion("", SourceMap(), None, [err], [path], [], [], dict(options.args), {})
    try:
        document = expander.read_tree(text, path)
    except XacroError as exc:
        err = diagnostic(exc.code, Severity.ERROR, exc.message, exc.origin)
        return Expansion("", SourceMap(), None, [err], [path], [], [], dict(options.args), {})
    if document.root is None:
        err = diagnostic("XACRO_ERROR", Severity.ERROR, "the document has no root element", Origin(path, (0, 0)))
        return Expansion("", SourceMap(), None, [err], [path], [], [], dict(options.args), {})
    expander.expand_document(document, path)
    written = None
    if tree:
        from ...xml.built import TreeBuilder  # only for a caller analysing the output (the XML layer loads lxml)

        written = TreeBuilder()
    out, smap = write(document.children, banner(path), written)
    return Expansion(
        out,
        smap,
        document.root,
        expander.diagnostics,
        expander.files,
        expander.definitions,
        expander.uses,
        expander.context.args,
        expander.context.packages_used,
        written,
    )
