"""A xacro document analysed through its expansion, every diagnostic back on the line the user wrote.

``analyze`` hands a xacro document (a ``*.xacro`` file, or a ``<robot>``/``<sdf>``
using xacro elements in a file not named ``*.urdf``) to :func:`analyze_xacro`:

1. the document is expanded by the project's xacro processor
   (:func:`sdformat_lsp.formats.xacro.expand`), with the arguments of the
   configuration or the command line, included files read from the editor's
   open buffers first, and ``$(find)`` answered by :func:`sdformat_lsp.packages.find_package`;
2. xacro's own errors are kept where the processor located them;
3. the expansion is analysed as what it is (a ``<robot>``: URDF; an ``<sdf>``:
   SDFormat) by ``analyze`` itself, and each of its diagnostics is moved to
   where its text came from (the source map: through macro calls, and for a
   substituted value to where the value was written, e.g. ``parent="chasis"``
   at the call), with the chain of macro calls as related places.

A diagnostic whose origin lies in another file (a macro library) is anchored
in this document at the outermost call written here (or the
``<xacro:include>`` that brought the file in), its true place given as the
first related location: an editor shows diagnostics of the open document only,
and the place to act on is often that call.

A *library*, a file whose root holds only macros, properties, arguments and
includes, and the URDF definitions that belong to a robot defined elsewhere
(``<material>``, ``<gazebo>`` blocks), with no link or joint in what it expands
to, is made to be included: it is not checked as a robot by itself (it is
checked through the files that include it). xacro's own errors in it are still
reported, but for names it leaves undefined: the file including it defines them
(a ``${prefix}`` or ``${is_multiple}`` read at the top of a library). A *fragment*, a file whose root is neither ``<robot>`` nor
``<sdf>`` (``<root xmlns:xacro=...>``, common in robot descriptions), is made
to be included: ``xacro:include`` takes its root's children into the includer,
where the macros and arguments it uses are defined. Expanded alone it means
nothing (ROS's xacro would print a ``<root>`` document), so it gives no
diagnostic of its own: it is checked through the files that include it.

The analysis of the xacro text keeps the xacro tree (``Analysis.xml``) for the
xacro features; the expansion and its analysis are ``Analysis.xacro``
(:class:`XacroFacts`), used by the frame view and the command line's jobs.
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from ..diagnostics import Diagnostic, Related
from ..text import LineIndex, Span
from ..xml import XmlDocument, XmlElement

if TYPE_CHECKING:
    from ..formats.xacro import Expansion, Origin
    from .analysis import Analysis, Options

XACRO_NS_HINT = "xacro"
# the elements a library's root may hold (anything else is content of the robot or world): xacro's
# definitions, and the URDF elements that define things for a robot whose links are elsewhere
LIBRARY_ELEMENTS = {"macro", "property", "arg", "include", "if", "unless"}
LIBRARY_URDF_ELEMENTS = {"material", "gazebo"}


def xacro_prefixes(root: XmlElement) -> set[str]:
    """The prefixes bound to xacro's namespace on ``root`` (``xacro`` always counts)."""
    return {"xacro"} | {
        name.split(":", 1)[1] for name, a in root.attributes.items() if name.startswith("xmlns:") and "xacro" in a.value
    }


def is_xacro_document(path: str | None, xml: XmlDocument) -> bool:
    """Whether ``analyze`` expands the document: a ``*.xacro`` file, or (in a file not named
    ``*.urdf``, which Gazebo reads as URDF whatever it holds) a ``<robot>`` or ``<sdf>`` that uses xacro elements."""
    if path is not None and path.lower().endswith(".xacro"):
        return True
    root = xml.root
    if root is None or root.tag not in ("robot", "sdf") or (path is not None and path.lower().endswith(".urdf")):
        return False
    prefixes = xacro_prefixes(root)
    return any(el.prefix in prefixes for el in root.iter())


_CONTENT = re.compile(r"<(?:link|joint|model|world|actor|light)\b")


def is_library(xml: XmlDocument, expanded_text: str = "") -> bool:
    """A file of definitions only: its root holds no element but xacro's definitions and includes, and
    what it expands to holds no link, joint, model or world (the included files only define macros too)."""
    root = xml.root
    if root is None:
        return False
    prefixes = xacro_prefixes(root)
    kids = list(root.children)
    return all(
        (c.prefix in prefixes and c.local_name in LIBRARY_ELEMENTS) or (not c.prefix and c.tag in LIBRARY_URDF_ELEMENTS)
        for c in kids
    ) and not _CONTENT.search(expanded_text)


def is_fragment(xml: XmlDocument) -> bool:
    """A file made to be included: its root is neither <robot> nor <sdf> (``<root xmlns:xacro>``), or it is a
    ``<robot>`` without the name every robot description has (the includer's robot is named)."""
    root = xml.root
    return root is not None and (
        root.tag not in ("robot", "sdf") or (root.tag == "robot" and root.attr("name") is None)
    )


class XacroFacts:
    """The expansion of a xacro document and the analysis of what it expanded to."""

    __slots__ = ("expanded", "expansion", "library", "memo", "sources")

    def __init__(self, expansion: "Expansion", expanded: "Analysis | None", library: bool, sources: dict) -> None:
        self.memo: dict = {}  # what the editor's features derive from these facts, made once (features.xacro_features)
        self.expansion = expansion
        self.expanded = expanded  # the analysis of expansion.text (None: a library, or nothing expanded; also
        # when the expansion failed, for the editor: its diagnostics are not the document's)
        self.library = library
        self.sources = sources  # path -> Analysis holding only the text and lines of each file the expansion read

    def source(self, path: str) -> "Analysis | None":
        """The text and lines of a file the expansion read (the document's included files)."""
        return self.sources.get(path)

    @property
    def files(self) -> list[str]:
        return list(self.expansion.files)


_caches = threading.local()


def _documents():
    """The read trees of unchanged files, kept between analyses (an included library is read again at
    every edit of the document including it); one cache per thread, as the server analyses two documents at once."""
    cache = getattr(_caches, "documents", None)
    if cache is None:
        from ..formats.xacro import DocumentCache

        cache = _caches.documents = DocumentCache()
    return cache


def _reader(options: "Options", texts: dict[str, str]):
    """Reads included files for the processor (an open document's text first), remembering each in ``texts``."""
    from ..formats.xacro import read_text_file

    open_documents = getattr(options, "open_documents", None)

    def read(path: str) -> str:
        key = os.path.abspath(path)
        found = open_documents(key) if open_documents is not None else None
        text = found[0] if found is not None else read_text_file(path)
        texts[key] = text
        return text

    return read


def _finder(base_dir: str | None, options: "Options"):
    from ..packages import find_package

    def find(name: str) -> str | None:
        hit = find_package(name, base_dir, getattr(options, "package_paths", ()))
        if hit.path is None:
            raise LookupError(hit.message())
        return hit.path

    return find


def analyze_xacro(result: "Analysis", options: "Options", analyze: Callable[..., "Analysis"]) -> None:
    """Fill ``result`` (the analysis of a xacro document's own text) from its expansion, analysed with
    ``analyze`` (handed in by ``analysis.analyze``, which imports this module: no import back)."""
    from ..formats.xacro import expand
    from ..formats.xacro.errors import UNRESOLVED

    text = _without_half_typed(result)
    recovered = text is None
    if text is None:
        # not well-formed: the XML errors say it (xacro would stop at the first of them). What precedes
        # the mistake is expanded for the editor's features only: no diagnostic of it is reported
        from ..formats.xacro import before_the_mistake

        text = before_the_mistake(_blanked(result))
        if text is None:
            return
    path = os.path.abspath(result.path) if result.path else os.path.join(os.getcwd(), "<document>.xacro")
    base_dir = os.path.dirname(path)
    args = dict(getattr(options, "xacro_args", None) or {})
    texts: dict[str, str] = {}
    expansion = expand(
        path,
        text,
        args=args,
        read_file=_reader(options, texts),
        find_package=_finder(base_dir, options),
        documents=_documents(),
        tree=True,
    )
    fragment = is_fragment(result.xml)
    library = fragment or is_library(result.xml, expansion.text)
    sources = _sources(expansion, path, texts, type(result))
    place = _Placer(result, expansion, path, sources)
    out: list[Diagnostic] = []
    for d in expansion.errors if not (fragment or recovered) else ():
        if not (library and d.data.get(UNRESOLVED)):  # a library's undefined names are its includer's
            out.append(place.own(d))
    expanded = None
    root = expansion.root
    if not library and expansion.text and root is not None:
        # analysed also when the expansion failed (an unknown property, a macro call being typed): the
        # editor's navigation, hover and completion read the robot there is; its diagnostics count only
        # when xacro would have expanded the document (else they are consequences of the error)
        expanded = analyze(
            expansion.text, path, replace(options, expand_xacro=False, suppressions=False), xml=_written_xml(expansion)
        )
        if expansion.ok and not recovered:
            for d in expanded.diagnostics:
                out.append(place.mapped(d, expanded))
    result.diagnostics.extend(once_per_place(out))
    result.xacro = XacroFacts(expansion, expanded, library, sources)
    if expanded is not None and expansion.ok and not recovered:
        result.version = expanded.version


def _written_xml(expansion: "Expansion") -> XmlDocument | None:
    """The XML document of the expansion from the tree made while writing it (not scanned again), or
    None when there is none to use (the analysis parses the text)."""
    tree = expansion.tree
    if tree is None or not tree.complete or tree.root is None:
        return None
    from ..xml import parse_built

    return parse_built(expansion.text, tree.root, tree.depth)


def once_per_place(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """One diagnostic per mistake: a macro body expanded by several calls makes the same mistake once per
    call, at the same place; they become the first one, the others' messages as related places (at their calls)."""
    first: dict[tuple, int] = {}
    out: list[Diagnostic] = []
    for d in diagnostics:
        key = (d.code, d.severity, d.path, d.span)
        at = first.get(key)
        if at is None:
            first[key] = len(out)
            out.append(d)
            continue
        kept = out[at]
        if d.message == kept.message:
            continue
        call = next((r for r in reversed(d.related) if r.message.startswith("from the call")), None)
        if call is not None:
            out[at] = replace(
                kept, related=(*kept.related, Related(call.span, f"also, from this call: {d.message}", call.path))
            )
    return out


def _without_half_typed(result: "Analysis") -> str | None:
    """The text to expand: the document's, with the elements being typed blanked (offsets kept), as the
    XML layer keeps them out of the tree; None when it is not well-formed for another reason."""
    xml = result.xml
    if xml.root is None:
        return None
    if not any(d.is_error for d in xml.problems):
        return result.text
    if not xml.half_typed:
        return None
    text = _blanked(result)
    from ..xml import parse

    return text if not any(d.is_error for d in parse(text).problems) else None


def _blanked(result: "Analysis") -> str:
    """The document's text with the elements being typed blanked (offsets kept)."""
    if not result.xml.half_typed:
        return result.text
    chars = list(result.text)
    for el in result.xml.half_typed:
        for i in range(el.span.start, min(el.span.end, len(chars))):
            if chars[i] not in "\r\n":
                chars[i] = " "
    return "".join(chars)


def _sources(expansion: "Expansion", path: str, texts: dict[str, str], Analysis: type) -> dict:
    """The text and lines of every other file the expansion read (as it read them), to place spans in them
    (``Analysis``: the analysis type, from the document's own analysis)."""

    out: dict = {}
    for f in expansion.files:
        f = os.path.abspath(f)
        text = texts.get(f)
        if f == path or f in out or text is None:
            continue
        out[f] = Analysis(text=text, path=f, xml=XmlDocument(text=text, lines=LineIndex(text), root=None))
    return out


class _Placer:
    """Moves diagnostics to the xacro files: the processor's own, and those of the expanded document."""

    def __init__(self, result: "Analysis", expansion: "Expansion", path: str, sources: dict) -> None:
        self.result = result
        self.expansion = expansion
        self.path = path
        self.sources = sources
        root = result.xml.root
        self.fallback = root.tag_span if root is not None else Span(0, 0)

    def _here(self, file: str | None) -> bool:
        return file is None or os.path.abspath(file) == self.path

    def _include_of(self, file: str) -> Span:
        """The ``<xacro:include>`` of this document that brought ``file`` in (else the root's tag)."""
        root = self.result.xml.root
        if root is None:
            return self.fallback
        prefixes = xacro_prefixes(root)
        includes = [el for el in root.iter() if el.prefix in prefixes and el.local_name == "include"]
        base = os.path.basename(file)
        for el in includes:
            a = el.attr("filename")
            if a is not None and os.path.basename(a.value.strip()) == base:
                return a.value_span
        return includes[0].tag_span if includes else self.fallback

    def _anchor(self, file: str, span: Span, calls: list) -> tuple[Span, tuple[Related, ...]]:
        """Where a problem at ``file``:``span`` (reached through ``calls``, innermost first) is shown in
        this document, and the related places (the true place first when it is elsewhere)."""
        related = [
            Related(Span(*c.span), f"from the call of macro '{c.name}'", None if self._here(c.file) else c.file)
            for c in calls
        ]
        if self._here(file):
            return span, tuple(related)
        outer = next((c for c in reversed(calls) if self._here(c.file)), None)
        at = Span(*outer.span) if outer is not None else self._include_of(file)
        true = Related(span, f"the mistake is here, in {os.path.basename(file)}", file)
        return at, (true, *related)

    def own(self, d: Diagnostic) -> Diagnostic:
        """One of the processor's diagnostics (placed in its file already) moved into this document."""
        file = d.path or self.path
        calls_related = tuple(r for r in d.related)
        if self._here(file):
            return replace(
                d, path=None, related=tuple(replace(r, path=None) if self._here(r.path) else r for r in calls_related)
            )
        outer = next((r for r in reversed(calls_related) if self._here(r.path)), None)
        at = outer.span if outer is not None else self._include_of(file)
        true = Related(d.span, f"the mistake is here, in {os.path.basename(file)}", file)
        return replace(
            d,
            span=at,
            path=None,
            related=(true, *(replace(r, path=None) if self._here(r.path) else r for r in calls_related)),
        )

    def _origin(self, offset: int) -> "Origin | None":
        return self.expansion.origin(offset)

    def mapped(self, d: Diagnostic, expanded: "Analysis") -> Diagnostic:
        """A diagnostic of the expanded document at the place its text came from."""
        if d.path is not None and os.path.abspath(d.path) != self.path:
            return d  # in a file the expansion includes (an SDFormat <include>): already where it is
        origin = self._origin(d.span.start)
        if origin is None:
            return replace(d, span=self.fallback, related=(), fixes=(), path=None)
        src = origin.source
        span, related = self._anchor(src.file, Span(*src.span), origin.calls())
        extra = []
        for r in d.related:
            if r.path is not None and os.path.abspath(r.path) != self.path:
                extra.append(r)
                continue
            o = self._origin(r.span.start)
            if o is None:
                continue
            s = o.source
            if self._here(s.file):
                extra.append(Related(Span(*s.span), r.message))
            else:
                extra.append(Related(Span(*s.span), r.message, s.file))
        return replace(d, span=span, path=None, related=(*related, *extra), fixes=())


__all__ = ["XacroFacts", "analyze_xacro", "is_library", "is_xacro_document", "xacro_prefixes"]
