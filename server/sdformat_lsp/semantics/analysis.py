"""One document, fully analysed: the entry point of the semantic layer.

``analyze`` never raises on bad input; whatever it cannot make sense of
becomes a diagnostic. The result holds everything the features need: the
XML tree, the document model, the scopes and frame graphs, and the
resolution of every frame reference.
"""

from __future__ import annotations

import bisect
import os
import sys
import threading
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..diagnostics import Diagnostic, Severity, error, warning
from ..files import DEFAULT_MAX_BYTES, size_text
from ..model import Document, Include, Model, build, version_tuple
from ..records import record
from ..text import LineIndex, Span
from ..xml import XmlDocument, parse
from .checks.phases import check
from ..collector_pause import collector_paused
from .checks.reserved_names import reserved_entity_names
from .checks.domain import DomainChecks, check_domain
from .checks.dropped_links import fold_dropped_links
from .frames import MAX_INCLUDED_INSTANCES, FrameGraphs, FrameNode, Resolution, Scope
from .checks.merged_checks import merged_joint_checks
from .checks.mass_properties import inertial_warnings
from .pose import Transform
from .includes.model_config import MODEL_CONFIG, check_model_config
from .checks.same_text import well_formed
from .schema.validation import check_schema
from .checks.sibling_names import SiblingNames, fold_clashes
from .checks.suppressions import apply_severities, apply_suppressions

if TYPE_CHECKING:  # pragma: no cover
    from .includes.resolver import IncludeResolver
    from .xacro_documents import XacroFacts

LATEST = (1, 12)
_NAME_SPANS = "analysis.name_spans"  # graphs.memo: the local nodes' name spans, sorted (node_defined_at)
# A diagnostic's data key: the version of a document libsdformat no longer converts, which print converts
# by libsdformat's own rules (cli/print.py prints it in spite of that error).
CONVERTS_FROM = "converts_from"
KNOWN_VERSIONS = {"1.0", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11", "1.12"}


@record(frozen=False)
class Options:
    """What an analysis may depend on besides the text."""

    resource_paths: tuple[str, ...] = ()
    # directories holding model directories, found without configuration (the server's workspace folders):
    # searched for model:// after resource_paths and the environment, as is the one holding the document's own
    model_roots: tuple[str, ...] = ()
    # searched first for the ROS packages of package:// URIs (the configuration's package-paths; packages.find_package)
    package_paths: tuple[str, ...] = ()
    include_resolver_factory: Callable[["Analysis"], Callable] | None = (
        None  # None: includes.IncludeResolverFactory when the path is known
    )
    schema: bool = True
    include_cache: object | None = None  # an includes.IncludeCache kept across analyses (None: a process-wide one)
    # includes.OpenDocuments: (text, version) of a file open in the editor, or None to read the disk;
    # included files that are open are analysed from the editor's text (unsaved edits included)
    open_documents: Callable[[str], tuple[str, object] | None] | None = None
    # included models placed in one document, at any depth, before expansion stops (one warning)
    max_included_instances: int = MAX_INCLUDED_INSTANCES
    # documents (and included files) larger than this, in characters or bytes, are not analysed:
    # one FILE_READ error says so (None: no limit)
    max_document_bytes: int | None = DEFAULT_MAX_BYTES
    # per-code severities from the configuration file: code -> error|warning|info|hint|off
    severity: Mapping[str, str] | None = None
    suppressions: bool = True  # honour <!-- sdformat-lsp: disable... --> comments
    # an <include>'s <static>, which libsdformat writes into the included model before loading it
    # (parser.cc), so the included file is checked as a model that is, or is not, static (None: as written)
    root_static: bool | None = None
    # model parsers of the configuration's [model-parsers] (suffix, "module:function"), or (suffix, function)
    # from a program; tried before the entry points of interface.registry for included files of other formats
    model_parsers: tuple[tuple[str, object], ...] = ()
    # xacro: documents using it are expanded and analysed through the expansion (xacro_documents.py), with these
    # arguments ($(arg name)); False for the analysis of an expansion itself
    expand_xacro: bool = True
    xacro_args: Mapping[str, str] | None = None
    # names the top scope (the world, or the root model) has besides those its text writes: an excerpt's
    # (semantics/incremental), the names of the document's children it leaves out, so that the nearest name a
    # diagnostic suggests for a reference read in that scope is the whole document's
    top_scope_names: tuple[str, ...] = ()


@record(frozen=False)
class Analysis:
    """Everything one analysis of a document found: its tree, model, frame graphs and diagnostics."""

    text: str
    path: str | None
    xml: XmlDocument
    document: Document | None = None
    graphs: FrameGraphs | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    version: str | None = None
    includes: list = field(default_factory=list)  # includes.IncludeRecord per <include> of this document
    root_static_written: bool | None = None  # the root model's own <static>, when Options.root_static overrides it
    options: Options | None = None  # what it was analysed with (an incremental check after it must use the same)
    xacro: XacroFacts | None = None  # a xacro document: its expansion and that one's analysis
    # What the include machinery keeps with an analysis (semantics/includes/): the resolver of its includes
    # (read back by an includer: dependencies, cycles; it drops its reference back when the run ends), and
    # when it is itself an included file, the files it depended on and their signatures as first seen, and
    # for a URDF, the diagnostics of its conversion
    include_resolver: IncludeResolver | None = field(default=None, repr=False, compare=False)
    include_deps: tuple[str, ...] | None = field(default=None, repr=False, compare=False)
    include_sigs: dict[str, tuple] | None = field(default=None, repr=False, compare=False)
    urdf_diagnostics: list[Diagnostic] | None = field(default=None, repr=False, compare=False)
    # an included file of another format read by a registered model parser (includes/foreign.py): the
    # parser's label, and whether the model it returned may be merged
    interface_parser: str | None = field(default=None, repr=False, compare=False)
    interface_merges: bool = field(default=False, repr=False, compare=False)
    # and what kept its model out (the parser's error or fault), said again on every include of it
    interface_problems: tuple[Diagnostic, ...] = field(default=(), repr=False, compare=False)
    # the other files a model parser or the MJCF reader read for it (InterfaceModel.files): its cache
    # entry depends on them too
    extra_dependencies: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def included_analysis(self, path: str) -> "Analysis | None":
        """The analysis of a file included (at any depth) by this document."""
        xacro = self.xacro
        if xacro is not None:  # a xacro document: the files its expansion read, and what the expansion includes
            found = xacro.source(path) or (
                xacro.expanded.included_analysis(path) if xacro.expanded is not None else None
            )
            if found is not None:
                return found
        stack, seen = list(self.includes), set()
        while stack:
            rec = stack.pop()
            sub = rec.analysis
            if sub is None or id(sub) in seen:
                continue
            seen.add(id(sub))
            if sub.path == path:
                return sub
            stack.extend(sub.includes)
        return None

    @property
    def lines(self) -> LineIndex:
        return self.xml.lines

    @property
    def root_scope(self) -> Scope | None:
        return self.graphs.root if self.graphs else None

    @property
    def has_errors(self) -> bool:
        return any(d.severity == Severity.ERROR for d in self.diagnostics)

    def scopes(self) -> list[Scope]:
        return list(self.graphs.root.iter_scopes()) if self.graphs else []

    def node_defined_at(self, offset: int) -> FrameNode | None:
        """The frame whose name attribute value contains ``offset`` (the first in ``graphs.nodes``). Found by
        bisection in the name spans, sorted once per analysis (``graphs.memo``): a walk over every node took
        5 ms a hover on 3k_shapes.sdf. Names written in different places never overlap, so only the span
        starting last at or before ``offset`` can hold it (nodes named by one text share its span)."""
        index = self.name_spans()
        if index is None:
            return None
        starts, found = index
        k = bisect.bisect_right(starts, offset)
        if k == 0:
            return None
        first = bisect.bisect_left(starts, starts[k - 1])  # the same span's nodes: the first in order
        return found[first][3] if found[first][1] >= offset else None

    def name_spans(self) -> tuple[list[int], list[tuple[int, int, int, FrameNode]]] | None:
        """The index :meth:`node_defined_at` reads: the starts, and (start, end, order, node) of the local
        nodes' name spans, sorted; made once (``features.prepare`` makes it ahead of the first hover)."""
        graphs = self.graphs
        if graphs is None:
            return None
        index = graphs.memo.get(_NAME_SPANS)
        if index is None:
            found = []
            for order, n in enumerate(graphs.nodes):
                sp = n.name_span
                if sp is None or (n.scope is None and n.kind != "model"):
                    continue  # no name, or the world (named by its <world>, not a frame of its own)
                if self._local(n):
                    found.append((sp.start, sp.end, order, n))
            found.sort(key=lambda e: (e[0], e[2]))
            index = graphs.memo[_NAME_SPANS] = ([e[0] for e in found], found)
        return index

    def _local(self, node: FrameNode) -> bool:
        s = node.inner if node.inner is not None else node.scope
        return s is None or s.path is None

    def resolution_at(self, offset: int) -> Resolution | None:
        """The frame reference under ``offset``, if any."""
        if self.graphs is None:
            return None
        for r in self.graphs.resolutions:
            sp = r.ref.span
            if sp.start <= offset <= sp.end and r.source_path is None:
                return r
        return None

    def pose_in_scope(self, node: FrameNode) -> Transform | None:
        """Pose of ``node`` relative to the frame of the scope that declares it."""
        if self.graphs is None:
            return None
        return self.frame_facts(node).in_scope

    def frame_facts(self, node: FrameNode) -> "FrameFacts":
        """What every feature says about ``node``: hover, ``check --frames``, completion details, inlay hints.

        One answer from the frame graphs, so that no feature computes its own:
        a merged entity is posed in the model it joined (not in its proxy
        frame), a static model is its own body.
        """
        g = self.graphs
        assert g is not None
        scope = g.real_scope(node.scope)
        in_root = g.pose(node)
        in_scope = in_root
        if scope is not None and scope.node is not None:
            base = g.pose(scope.node)
            in_scope = None if in_root is None or base is None else base.inverse() * in_root
        link = g.attached_link(node)
        return FrameFacts(node, node.scoped_name(), scope, in_scope, in_root, link, _link_name(link))

    def frames(self) -> list[dict]:
        """Every frame of the root scope, as ``check --frames`` prints them.

        In a file with several worlds, the frames of the second and later
        worlds are listed under their world's name (``w2::box::link``,
        ``w2::world``), relative to that world.
        """
        expanded = self.xacro.expanded if self.xacro is not None else None
        if expanded is not None:  # a xacro document: the frames of its expansion
            return expanded.frames()
        if self.graphs is None:
            return []
        out: list[dict[str, Any]] = []
        others = {id(s) for s in self.graphs.other_roots}
        for n in self.graphs.nodes:
            facts = self.frame_facts(n)
            pose = facts.in_root
            root = self.graphs.root_of(n) if others else None
            prefix = f"{root.name}::" if root is not None and id(root) in others else ""
            names = [prefix + facts.name]
            if n.kind == "model" and n.scope is not None:
                names.append(prefix + facts.name + "::__model__")
            for name in names:
                out.append(
                    {
                        "name": name,
                        "kind": n.kind,
                        "pose": pose.as_list() if pose is not None else None,
                        "attached_to": prefix + facts.attached_to
                        if prefix and facts.attached_to
                        else facts.attached_to,
                    }
                )
        if self.graphs.version < (1, 8) and self.graphs.root.kind == "world":
            _unflattened(out)
        out.sort(key=lambda f: f["name"])
        return out


def _unflattened(frames: list[dict]) -> None:
    """libsdformat converts a 1.7 world to 1.8 by *unflattening* its models: a model written flat, with
    a frame ``M1::__model__`` and links ``M1::L1``, becomes a nested model ``M1`` whose model frame is that
    frame. List the frames as libsdformat lists them then: ``A::M1`` too, the frame ``A::M1::__model__`` as
    a model frame. Only the listing changes; the names stay as written for the editor's features."""
    names = {f["name"] for f in frames}
    for f in list(frames):
        if f["kind"] == "frame" and f["name"].endswith("::__model__") and f["name"].count("::") >= 2:
            f["kind"] = "model"
            nested = f["name"][: -len("::__model__")]
            if nested not in names:
                names.add(nested)
                frames.append({**f, "name": nested})


@record(slots=True)
class FrameFacts:
    """The resolved facts of one frame, computed once from the graphs for every feature."""

    node: FrameNode
    name: str  # as written from the root scope (``a::b::L``), as check --frames lists it
    scope: Scope | None  # the model or world declaring it; for a merged entity the model it joined
    in_scope: Transform | None  # relative to that scope's frame (``__model__``, or the world)
    in_root: Transform | None  # relative to the root model's frame, or the world
    link: FrameNode | None  # the body carrying it: a link, a static model, the world
    attached_to: str | None  # that body as check --frames names it


def _link_name(link: FrameNode | None) -> str | None:
    if link is None:
        return None
    if link.kind == "model":
        return link.scoped_name() if link.scope is None else link.scoped_name() + "::__model__"
    return link.scoped_name()


def _root_checks(doc: Document, xml: XmlDocument) -> list[Diagnostic]:
    """Version and top-level structure."""
    out: list[Diagnostic] = []
    root = xml.root
    if root is None:
        return out
    if root.tag in ("robot", "mujoco"):
        return out  # a URDF or an MJCF model: analysed through its conversion (_analyze_urdf, foreign.analyze_mjcf)
    if root.tag != "sdf":
        out.append(
            error("PARSING_ERROR", f'the root element must be <sdf version="...">, not <{root.tag}>', root.tag_span)
        )
        return out
    va = root.attr("version")
    if va is None:
        out.append(
            error(
                "FILE_READ",
                '<sdf> has no version: add version="1.12" (or the version the file was written for)',
                root.tag_span,
            )
        )
    else:
        v = va.value.strip()
        vt = version_tuple(v)
        if vt > LATEST:
            out.append(
                error(
                    "CONVERSION_ERROR",
                    f'SDFormat {v} is newer than the newest version known here (1.12): use version="1.12" or older',
                    va.value_span,
                )
            )
        elif vt == (1, 0):
            # libsdformat main embeds its conversions from 1.2 on (sdf/embedSdf.py lists no 1.2 directory,
            # which holds 1_0.convert), so its Converter fails on 1.0 with CONVERSION_ERROR
            out.append(
                error(
                    "CONVERSION_ERROR",
                    "libsdformat converts SDFormat 1.2 and newer only (its 1.0 to 1.2 rules are no longer built in), "
                    "so Gazebo refuses this file: `sdformat-lsp print FILE` converts it by those rules to the newest "
                    "version",
                    va.value_span,
                    data={CONVERTS_FROM: "1.0"},
                )
            )
        elif v not in KNOWN_VERSIONS:
            out.append(
                error(
                    "ATTRIBUTE_INVALID",
                    f"'{v}' is not an SDFormat version: use one of 1.0, 1.2 ... 1.12",
                    va.value_span,
                )
            )
    singles = [c for c in root.children if c.tag in ("model", "actor", "light")]
    if len(singles) > 1:
        for extra in singles[1:]:
            out.append(
                error(
                    "ELEMENT_INCORRECT_TYPE",
                    f"an <sdf> file holds one model, actor or light at its top level; this <{extra.tag}> is one too many: "
                    "move it into a world or another file",
                    extra.tag_span,
                )
            )
    if doc.worlds and singles:
        for extra in singles:
            out.append(
                error(
                    "ELEMENT_INCORRECT_TYPE",
                    f"an <sdf> file with a <world> cannot also have a top-level <{extra.tag}>: move it into the world",
                    extra.tag_span,
                )
            )
    return out


class AnalysisCancelled(Exception):
    """A run stopped at a phase boundary because its result is no longer wanted (see :func:`cancellable`)."""


_cancel = threading.local()  # .stop: the event that stops the run this thread is making


class cancellable:
    """``with cancellable(stop): analyze(...)`` stops the run with :class:`AnalysisCancelled` at its next
    phase boundary once ``stop`` is set (the language server's runs for a text the user has already
    changed). Only the outermost run stops: the analyses of included files made inside it always run to
    their end, so no include cache ever holds a run cut short. Without it, ``analyze`` never raises."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop

    def __enter__(self) -> None:
        _cancel.stop = self.stop

    def __exit__(self, *exc: object) -> None:
        _cancel.stop = None


def _checkpoint(stop: threading.Event | None) -> None:
    if stop is not None and stop.is_set():
        raise AnalysisCancelled()


def analyze(
    text: str,
    path: str | None = None,
    options: Options | None = None,
    extra: list[Diagnostic] | None = None,
    xml: XmlDocument | None = None,
) -> Analysis:
    """Analyse one SDFormat document. Never raises on bad input (nor at all, outside :class:`cancellable`).
    ``xml``: ``parse(text)`` when the caller has it already (a xacro expansion's, made while writing it)."""
    options = options or Options()
    limit = options.max_document_bytes
    if limit is not None and len(text) > limit:
        return too_large(text, path, limit)
    stop: threading.Event | None = getattr(_cancel, "stop", None)
    _cancel.stop = None  # the analyses of included files made during this one run to their end
    try:
        with collector_paused():  # large trees and no cyclic garbage: collector passes would dominate the run time
            try:
                if xml is None:
                    xml = parse(text)
                _checkpoint(stop)
                result = Analysis(text=text, path=path, xml=xml, options=options)
                result.diagnostics.extend(extra or ())
                result.diagnostics.extend(xml.problems)
                if path is not None and os.path.basename(path) == MODEL_CONFIG:
                    result.diagnostics.extend(check_model_config(xml, path))
                elif options.expand_xacro and _uses_xacro(path, text) and _is_xacro(path, xml):
                    from .xacro_documents import analyze_xacro  # here: only a xacro document needs the processor

                    analyze_xacro(result, options, analyze)
                else:
                    _analyze_into(result, options, stop)
                    if (
                        path is not None
                        and "<mesh" in text
                        and xml.root is not None
                        and xml.root.tag in ("sdf", "robot")
                    ):
                        from .includes.mesh_files import (
                            mesh_diagnostics,
                        )  # only a document naming a mesh pays for the import

                        result.diagnostics.extend(
                            mesh_diagnostics(
                                xml.root,
                                path,
                                options.resource_paths,
                                options.model_roots,
                                tuple(getattr(options, "package_paths", ()) or ()),
                            )
                        )
                _finish(result, options)
            except RecursionError:  # pragma: no cover - the layers are iterative; this is a last guard
                result.diagnostics.append(
                    error("INTERNAL_ERROR", "the document is nested too deeply to analyse", Span(0, 0))
                )
    finally:
        _cancel.stop = stop
    return result


def _uses_xacro(path: str | None, text: str) -> bool:
    """A cheap first test (no import) before :func:`xacro_documents.is_xacro_document`."""
    return (path is not None and path.lower().endswith(".xacro")) or "xacro" in text


def _is_xacro(path: str | None, xml: XmlDocument) -> bool:
    from .xacro_documents import is_xacro_document

    return is_xacro_document(path, xml)


def too_large(text: str, path: str | None, limit: int) -> Analysis:
    """What a document over the size limit gets instead of an analysis: one error, and its lines
    (so that positions still map)."""
    result = Analysis(text=text, path=path, xml=XmlDocument(text=text, lines=LineIndex(text), root=None))
    result.diagnostics = [
        error(
            "FILE_READ",
            f"the document has {len(text):,} characters, more than the maximum document size of "
            f"{size_text(limit)}: it is not analysed (raise the limit with --max-size or the maxDocumentSizeMB setting)",
            Span(0, 0),
        )
    ]
    return result


def _finish(result: Analysis, options: Options) -> None:
    """Suppression comments, then the configured severities (so ``off`` codes can still be suppressed)."""
    diags = result.diagnostics
    if options.suppressions:
        diags = apply_suppressions(result, diags)
    result.diagnostics = apply_severities(fold_clashes(diags), options.severity)


def _analyze_into(result: Analysis, options: Options, stop: threading.Event | None = None) -> None:
    xml = result.xml
    doc, diags = build(xml)
    _checkpoint(stop)
    if (
        options.root_static is not None
        and doc.models
        and not doc.worlds
        and doc.models[0].static != options.root_static
    ):
        result.root_static_written = doc.models[0].static
        doc = replace(doc, models=(replace(doc.models[0], static=options.root_static), *doc.models[1:]))
    result.document = doc
    result.version = doc.version
    result.diagnostics.extend(_root_checks(doc, xml))
    if xml.root is not None and xml.root.tag == "robot":
        _analyze_urdf(result)
        return
    if xml.root is not None and xml.root.tag == "mujoco":
        from .includes.foreign import analyze_mjcf

        analyze_mjcf(result)
        return
    if xml.root is None or xml.root.tag != "sdf" or doc.version is None or version_tuple(doc.version) > LATEST:
        return
    version = version_tuple(doc.version)
    result.diagnostics.extend(diags)
    found = duplicates = None
    if options.schema:
        checked, found, duplicates = _schema(xml, doc.version, version)
        result.diagnostics.extend(checked)
        _checkpoint(stop)
    result.diagnostics.extend(found if found is not None else check_domain(xml))
    result.diagnostics.extend(inertial_warnings(xml))
    result.diagnostics.extend(reserved_entity_names(xml, version))
    _checkpoint(stop)
    root = doc.root
    factory = options.include_resolver_factory
    # Without the word "include" anywhere in the text there is no <include> to resolve, and a
    # resolver with nothing to resolve reports nothing: skip importing the include machinery
    # (a fifth of the start-up of a check of a small file).
    if factory is None and result.path is not None and "include" in result.text:
        from .includes.resolver import default_factory

        factory = default_factory(options, analyze)
    resolver = factory(result) if factory else None
    try:
        if root is None and resolver is not None and hasattr(resolver, "top_level"):
            root = resolver.top_level(xml, version)  # <sdf><include> (the file is the included model)
        if root is None:
            return
        others = tuple(doc.worlds[1:]) if doc.worlds and root is doc.worlds[0] else ()
        graphs = FrameGraphs(root, version, resolver, options.max_included_instances, other_worlds=others, xml=xml)
        result.graphs = graphs
        _checkpoint(stop)
        if graphs.over_budget is not None:
            result.diagnostics.append(_over_budget(graphs))
        result.diagnostics.extend(
            check(xml, graphs, version, duplicates=duplicates, more_names=options.top_scope_names)
        )
        result.diagnostics.extend(merged_joint_checks(graphs))
        if "<plugin" in result.text:  # the plugin catalogue is read only for a document that has one
            from .checks.plugins import check_plugins

            result.diagnostics.extend(check_plugins(xml))
        if resolver is not None and hasattr(resolver, "finish"):
            result.diagnostics.extend(resolver.finish(graphs))
    finally:
        # Includes are resolved while the graphs are built, never after: the resolver and the
        # analysis pointed at each other, a cycle that kept every replaced analysis of a file
        # with a path alive until a full collection (hundreds of MB per edit of a large world).
        if result.graphs is not None:
            result.graphs.include_resolver = None
        if resolver is not None and hasattr(resolver, "detach"):
            resolver.detach()


def _over_budget(graphs: FrameGraphs) -> Diagnostic:
    inc = graphs.over_budget
    assert inc is not None
    span = inc.uri.span if inc.uri is not None else inc.element.tag_span
    return warning(
        "INCLUDE_LIMIT",
        f"the includes expand to more than {graphs.max_instances:,} model instances here (files that include each "
        "other several times grow exponentially): the models past that are not checked",
        span,
    )


def _analyze_urdf(result: Analysis) -> None:
    """A URDF ``<robot>``: the model libsdformat converts it to, checked like SDFormat 1.11."""
    from ..formats.urdf import URDF_SDF_VERSION, urdf_to_model

    model, diags = urdf_to_model(result.xml, result.path)
    result.diagnostics.extend(diags)
    if model is None:
        return
    result.document = Document(URDF_SDF_VERSION, None, result.xml.root, models=(model,))
    result.version = URDF_SDF_VERSION
    version = version_tuple(URDF_SDF_VERSION)
    result.graphs = FrameGraphs(model, version, None)
    # sibling names were checked on the converted model: URDF links and joints live apart
    checked = check(result.xml, result.graphs, version, names=False)  # the conversion checks URDF names
    # a link without mass, once with its consequences (the conversion's diagnostics are result's so far)
    fold_dropped_links(result.diagnostics, checked, bool(model.links), result.text)
    if not model.links and any(d.is_error for d in diags):  # the URDF errors already say why
        checked = [d for d in checked if d.code != "MODEL_WITHOUT_LINK"]
    result.diagnostics.extend(checked)
    if "<plugin" in result.text:  # <gazebo><plugin>: the robot's plugins (semantics/checks/plugins.py)
        from .checks.plugins import check_plugins

        result.diagnostics.extend(check_plugins(result.xml))


def _schema(
    xml: XmlDocument, version: str, numbers: tuple[int, int]
) -> tuple[list[Diagnostic], list[Diagnostic] | None, list[Diagnostic] | None]:
    """Schema validation against the declared version's tables, with checks/domain.py's checks and the
    name phase's repeated sibling names (``checks.sibling_names``, for version ``numbers``) in the same
    walk of the tree: (schema diagnostics, domain diagnostics, repeated names). The last two are
    None when they still need walks of their own: in a document with an XML problem (both
    restore their order from the elements' end offsets, which only nest strictly in a
    well-formed tree), or when the schema check failed."""
    fused = well_formed(xml)
    domain = DomainChecks(xml, in_order=False) if fused else None
    names = SiblingNames(numbers) if fused else None
    try:
        checked = check_schema(xml, version, domain, names)
    except Exception as exc:  # a schema bug must never hide the frame diagnostics
        print(f"sdformat-lsp: schema check failed: {exc!r}", file=sys.stderr)
        return [], None, None
    return checked, (domain.result() if domain is not None else None), (names.result() if names is not None else None)


__all__ = ["CONVERTS_FROM", "Analysis", "Options", "analyze", "Include", "Model", "warning"]
