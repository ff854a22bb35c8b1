"""``<include>``: find the file, analyse it (cached), and hand its model to the frame graphs.

The frame graphs ask an *include resolver* for the model an ``<include>``
brings in (``FrameGraphs(include_resolver=...)``). :class:`IncludeResolver`
is that resolver for one analysis:

1. the ``<uri>`` is looked up (:mod:`~sdformat_lsp.semantics.includes.resources`: ``model://``,
   ``package://``, ``file://``, relative and absolute paths, plain names, the
   local Fuel cache) and a directory is turned into its model file through
   ``model.config``;
2. the file is analysed with the same options (recursively, so its own
   includes are resolved too) through an :class:`IncludeCache` keyed by the
   file's path, modification time and size and those of everything it
   depends on;
3. its single ``<model>`` comes back renamed, re-posed and made static as
   the ``<include>`` says, with ``from_include`` and ``source`` (the included
   :class:`~.analysis.Analysis`) set. An ``<actor>`` or ``<light>`` is
   accepted and contributes no frames.

A problem inside an included file is reported once, on the ``<uri>`` of the
``<include>`` in the document being analysed, with related information
pointing into the included file (first error and how many there are).
Include cycles and absurd depth give one diagnostic each.

References only go down: the included model is a nested scope of the
including one, so ``name::frame`` works from the includer, and nothing in
the included file can see the includer.

The server keeps one :class:`IncludeCache` for its lifetime and passes it as
``Options(include_cache=...)``; ``analyze`` builds the resolver by itself
whenever the document has a path.

The resolver keeps the steps in order; the work of each lives beside it so
that no piece is too long to read at once: :mod:`~sdformat_lsp.semantics.includes.cache` reads,
analyses and caches the included file, :mod:`~sdformat_lsp.semantics.includes.placement` places its
model and checks what the ``<include>`` asks of it, :mod:`~sdformat_lsp.semantics.includes.summary`
reports the included file's own errors on the include. The names other
modules use (:class:`IncludeCache`, :func:`signature`, :data:`MAX_DEPTH`,
...) are importable from here.

Files open in an editor are read from the editor, not the disk:
``Options.open_documents`` (an :data:`OpenDocuments`) gives the text and a
version of a file's buffer; a cache entry records that version in place of
the file's modification time, so an edit (or closing the buffer) makes it stale.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ...diagnostics import Diagnostic, Related, error, info, warning
from ...model import Include, Model, version_tuple
from ...text import Span
from .cache import DEFAULT_CACHE, MAX_DEPTH, IncludeCache, OpenDocuments, analyze_included, signature
from .placement import after_graphs, place_model
from .summary import summarise
from .resources import Lookup, ModelFile, lookup, model_root_of, path_problem, search_path

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis import Analysis, Options
    from .cache import Analyze
    from ..frames import FrameGraphs, Scope


@dataclass(frozen=True, slots=True)
class IncludeRecord:
    """One ``<include>`` of an analysed document, for the features (links, definitions, watching)."""

    include: Include
    target: str | None  # what the URI named on disk: a file or a model directory; None if not found
    path: str | None  # the file that was (or would have been) analysed
    analysis: "Analysis | None" = field(default=None, repr=False)  # the included file's analysis
    model: Model | None = field(
        default=None, repr=False
    )  # the model as placed in the including scope (None: actor, light, failure)
    lookup: Lookup | None = field(default=None, repr=False)
    dependencies: tuple[str, ...] = field(
        default=(), repr=False
    )  # every file and directory whose change can change this include
    config: ModelFile | None = field(
        default=None, repr=False
    )  # what model.config said, when the URI named a model directory


class IncludeResolverFactory:
    """``Options.include_resolver_factory``: one :class:`IncludeResolver` per analysis.

    ``analyze`` is the function that analyses an included file (``semantics.analysis.analyze``,
    handed in by its caller: the include machinery never imports the analysis back)."""

    def __init__(
        self,
        options: "Options",
        analyze: "Analyze",
        cache: IncludeCache | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.options = options
        self.analyze = analyze
        self.cache = cache if cache is not None else DEFAULT_CACHE
        self.env = env

    def __call__(self, analysis: "Analysis") -> "IncludeResolver":
        return IncludeResolver(self, analysis)


def default_factory(options: "Options", analyze: "Analyze") -> IncludeResolverFactory:
    cache = getattr(options, "include_cache", None)
    return IncludeResolverFactory(options, analyze, cache if isinstance(cache, IncludeCache) else None)


def _owner_analysis(scope: "Scope") -> "Analysis | None":
    """The analysis of the included file a foreign scope was written in."""
    s: Scope | None = scope
    while s is not None:
        src = getattr(s.entity, "source", None)
        if src is not None:
            return src
        s = s.parent
    return None


class _TopScope:
    """Stands for the ``<sdf>`` element as the parent of a top-level include."""

    kind = "sdf"
    name = ""
    path = None
    parent = None


_TOP = _TopScope()


class IncludeResolver:
    """Resolves the includes of one analysis; collects their diagnostics into it."""

    def __init__(self, factory: IncludeResolverFactory, analysis: "Analysis") -> None:
        self.factory = factory
        self.options = factory.options
        self.cache = factory.cache
        self.analysis = analysis
        self.path = os.path.abspath(analysis.path) if analysis.path else None
        self.base_dir = os.path.dirname(self.path) if self.path else None
        self.version = version_tuple(analysis.version)
        self.models: dict[int, Model | None] = {}  # id(Include) -> what it resolved to
        # id(Include) of those whose file has errors reported on them: what they bring is not all there
        self.flawed: set[int] = set()
        self._lookups: dict[str, Lookup] = {}
        env = factory.env if factory.env is not None else os.environ
        self.env = env
        own_root = model_root_of(self.path) if self.path else None
        self.model_roots = tuple(
            dict.fromkeys(([own_root] if own_root else []) + list(getattr(self.options, "model_roots", ())))
        )
        severity = tuple(sorted((getattr(self.options, "severity", None) or {}).items()))
        self.key_suffix = (
            tuple(search_path(self.options.resource_paths, env, self.model_roots)),
            bool(self.options.schema),
            severity,
            bool(getattr(self.options, "suppressions", True)),
            tuple(getattr(self.options, "package_paths", ())),
        )
        self.dependencies: list[str] = []
        self.open_documents: OpenDocuments | None = getattr(self.options, "open_documents", None)
        self.signatures: dict[str, tuple] = {}  # each dependency as it was first seen during this analysis
        self.context_dependent = False  # saw a cycle: the result depends on who included this file
        self._remote_at: int | None = None  # index in the diagnostics of the one Fuel-cache information
        self._remotes: list[tuple[Span, str, tuple]] = []  # (span, label, fuel key) of each include it covers
        self._missing: dict[str, tuple[int, list[Span]]] = {}  # uri not found -> (index of its diagnostic, each place)
        if getattr(analysis, "includes", None) is None:
            analysis.includes = []
        analysis.include_resolver = self  # read back by the includer: dependencies, cycles

    def detach(self) -> None:
        """The analysis is complete: drop the reference back to it (it keeps one to this
        resolver, for its includer to read the dependencies), so no cycle outlives the run."""
        self.analysis = None  # type: ignore[assignment]  # detached: its run is over, nothing reads it again

    # -- the resolver protocol ------------------------------------------------

    def __call__(self, inc: Include, scope: "Scope") -> Model | None:
        if scope.path is not None:
            # an include written inside an included file: its analysis already resolved it
            owner = _owner_analysis(scope)
            for rec in getattr(owner, "includes", None) or ():
                if rec.include is inc:
                    return rec.model
            return None
        if id(inc) in self.models:
            return self.models[id(inc)]
        model = self._resolve(inc, scope)
        self.models[id(inc)] = model
        return model

    # -- diagnostics -------------------------------------------------------

    def report(self, d: Diagnostic) -> None:
        """Add ``d`` to the including analysis (how every part of the include machinery reports)."""
        self.analysis.diagnostics.append(d)

    def include_span(self, inc: Include) -> Span:
        """Where a problem of ``inc`` is reported: its ``<uri>``, else its start tag."""
        if inc.uri is not None:
            return inc.uri.span
        return inc.element.tag_span

    # -- resolution --------------------------------------------------------

    def _lookup(self, uri: str) -> Lookup:
        hit = self._lookups.get(uri)
        if hit is None:
            hit = lookup(
                uri,
                self.base_dir,
                self.options.resource_paths,
                self.env,
                model_roots=self.model_roots,
                package_paths=getattr(self.options, "package_paths", ()),
            )
            self._lookups[uri] = hit
        return hit

    def _resolve(self, inc: Include, scope: "Scope") -> Model | None:
        records = self.analysis.includes
        if inc.uri is None:
            records.append(IncludeRecord(inc, None, None))
            return None  # the builder reported the missing <uri>
        uri = inc.uri.text
        span = inc.uri.span
        if inc.placement_frame is not None and inc.pose is None:
            self.report(
                error(
                    "MODEL_PLACEMENT_FRAME_INVALID",
                    "<placement_frame> needs a <pose> in the same <include>: the pose says where the placement frame goes; add <pose/>",
                    inc.placement_frame.span if inc.placement_frame.text else inc.placement_frame.element.tag_span,
                )
            )
        if not uri:
            self.report(
                error(
                    "URI_LOOKUP", "<uri> is empty: name a model (model://NAME), a model directory or an .sdf file", span
                )
            )
            records.append(IncludeRecord(inc, None, None))
            return None
        bad = path_problem(uri)
        if bad is not None:
            self.report(error("URI_LOOKUP", f"<uri> cannot name a file: {bad}", span))
            records.append(IncludeRecord(inc, None, None))
            return None
        found = self._lookup(uri)
        deps: list[str] = [d for d in found.searched if d]
        if found.path is None:
            records.append(IncludeRecord(inc, None, None, lookup=found, dependencies=tuple(deps)))
            self._depend(deps)
            if found.remote:
                self._remote(found, span)
                return None
            self._missing_model(uri, found, span)
            return None
        target = os.path.abspath(found.path)
        file_path = target
        if os.path.isdir(target):
            mf = self.cache.model_file(target)
            deps.extend(mf.dependencies)
            for p in mf.problems:
                if p.severity == "warning":
                    self.report(warning(p.code, p.message, span))
            if mf.path is None:
                problems = "; ".join(p.message for p in mf.problems if p.severity == "error")
                self.report(
                    error(
                        "URI_LOOKUP",
                        f"'{uri}' is the directory {target}, which cannot be used as a model: {problems}",
                        span,
                    )
                )
                records.append(IncludeRecord(inc, target, None, lookup=found, dependencies=tuple(deps), config=mf))
                self._depend(deps)
                return None
            file_path = os.path.abspath(mf.path)
            if not os.path.isfile(file_path):
                self.report(
                    error(
                        "FILE_READ",
                        f"{mf.config} names {os.path.basename(file_path)}, which does not exist in {target}: fix the <sdf> entry or add the file",
                        span,
                    )
                )
                deps.append(file_path)
                records.append(IncludeRecord(inc, target, file_path, lookup=found, dependencies=tuple(deps), config=mf))
                self._depend(deps)
                return None
        else:
            mf = None
        sub = analyze_included(self, file_path, inc, span)
        if sub is None:
            deps.append(file_path)
            records.append(IncludeRecord(inc, target, file_path, lookup=found, dependencies=tuple(deps), config=mf))
            self._depend(deps)
            return None
        deps.extend(sub.include_deps if sub.include_deps is not None else (file_path,))
        for dep, sig in (sub.include_sigs or {}).items():
            self.signatures.setdefault(dep, sig)  # as the included file's analysis saw them
        model = place_model(self, sub, inc, span, scope)
        if summarise(self, sub, inc, span, scope):
            self.flawed.add(id(inc))
        records.append(IncludeRecord(inc, target, file_path, sub, model, found, tuple(dict.fromkeys(deps)), config=mf))
        self._depend(deps)
        return model

    def _remote(self, found: Lookup, span: Span) -> None:
        """A Fuel model not in the local cache: one information per document, on the first such include
        in the text, with the others as related locations."""
        host, owner, name, version = found.fuel or ("", "", "", None)
        label = f"'{name}' by {owner}{' (version ' + version + ')' if version else ''}"
        self._remotes.append((span, label, (host, owner, name, version)))
        self._remotes.sort(key=lambda r: r[0].start)
        first_span, first_label, _ = self._remotes[0]
        distinct = len({r[2] for r in self._remotes})
        if len(self._remotes) == 1:
            message = (
                f"{first_label} is a Fuel model that is not in the local Fuel cache, so it is not checked offline; "
                "download it once (e.g. `gz fuel download -u URL`) to check it"
            )
        else:
            message = (
                f"{len(self._remotes)} includes name Fuel models ({distinct} distinct, {first_label} here) that are not in the "
                "local Fuel cache, so they are not checked offline; download them once (e.g. `gz fuel download -u URL`) to check them"
            )
        models = [{"host": h, "owner": o, "name": n, "version": v} for _, _, (h, o, n, v) in self._remotes]
        d = info(
            "URI_REMOTE",
            message,
            first_span,
            related=tuple(Related(s, f"{lab}, not in the local Fuel cache either") for s, lab, _ in self._remotes[1:]),
            data={"fuel": models[0], "models": models},
        )
        diags = self.analysis.diagnostics
        at = self._remote_at
        if at is not None and at < len(diags) and diags[at].code == "URI_REMOTE":
            diags[at] = d
        else:
            self._remote_at = len(diags)
            self.report(d)

    def _missing_model(self, uri: str, found: Lookup, span: Span) -> None:
        """A URI not found: one error per distinct URI, on its first include in the text, the others
        related (a world placing one missing model 40 times has one thing to fix)."""
        seen = self._missing.get(uri)
        diags = self.analysis.diagnostics
        if seen is None or seen[0] >= len(diags) or diags[seen[0]].code != "URI_LOOKUP":
            self._missing[uri] = (len(diags), [span])
            self.report(self._not_found(uri, found, span))
            return
        at, spans = seen
        spans.append(span)
        spans.sort(key=lambda s: s.start)
        d = self._not_found(uri, found, spans[0])
        more = len(spans) - 1
        diags[at] = replace(
            d,
            message=f"{d.message} (here and in {more} more include{'s' if more != 1 else ''} of it, listed as related)",
            related=tuple(Related(s, f"'{uri}' again, not found either") for s in spans[1:]),
        )

    def _depend(self, deps: list[str]) -> None:
        """Record dependencies (and their state now, unless an included analysis saw them earlier)."""
        self.dependencies.extend(deps)
        for p in deps:
            if p not in self.signatures:
                self.signatures[p] = signature(p, self.open_documents)

    def _not_found(self, uri: str, found: Lookup, span: Span) -> Diagnostic:
        if found.scheme == "model" and not found.searched:
            # the same analysis answers the editor and the command line: name the way to add a directory in both
            where = (
                "no directories are searched for model:// URIs: add the one that holds the model to the editor's "
                "resourcePaths setting or the command's --resource-path, or set GZ_SIM_RESOURCE_PATH (or SDF_PATH) "
                "to it (a file inside a model directory finds the models beside its own without either)"
            )
        elif found.package is not None and not found.package.found:
            where = found.package.message()
        elif found.package is not None:
            where = f"the package '{found.package.name}' is {found.package.path}, which does not hold it"
        elif found.searched:
            listed = ", ".join(found.searched)
            where = f"searched {listed}"
            if found.scheme in ("model", "name"):
                where += (
                    "; add the directory holding it to the editor's resourcePaths setting, the command's "
                    "--resource-path or GZ_SIM_RESOURCE_PATH"
                )
        else:
            where = "nothing to search"
        return error(
            "URI_LOOKUP",
            f"cannot find '{uri}' (libsdformat refuses the file without it): {where}",
            span,
            data={"searched": list(found.searched), "uri": uri},
        )

    def top_level(self, xml, version: tuple[int, int]) -> Model | None:
        """The model of a top-level ``<sdf><include>``, which libsdformat accepts as the file's model."""
        root = xml.root
        tops = [c for c in root.children if c.tag == "include"] if root is not None else []
        if not tops:
            return None
        from ...model.builder import Builder

        b = Builder(xml)
        b.version = version
        inc = b.include(tops[0])
        self.analysis.diagnostics.extend(b.diagnostics)
        for extra in tops[1:]:
            self.report(
                error(
                    "ELEMENT_INCORRECT_TYPE",
                    "an <sdf> file holds one model: this second top-level <include> is one too many",
                    extra.tag_span,
                )
            )
        # _TOP has what the resolution reads of the scope an include is written in (kind, name, path, parent)
        return self(inc, _TOP)  # type: ignore[arg-type]

    def finish(self, graphs: "FrameGraphs") -> list[Diagnostic]:
        """Checks that need the built scopes: placement frames and names of included models."""
        return after_graphs(self, graphs)


__all__ = [
    "DEFAULT_CACHE",
    "MAX_DEPTH",
    "IncludeCache",
    "IncludeRecord",
    "IncludeResolver",
    "IncludeResolverFactory",
    "OpenDocuments",
    "default_factory",
    "signature",
]
