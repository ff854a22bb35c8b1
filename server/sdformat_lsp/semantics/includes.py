"""``<include>``: find the file, analyse it (cached), and hand its model to the frame graphs.

The frame graphs ask an *include resolver* for the model an ``<include>``
brings in (``FrameGraphs(include_resolver=...)``). :class:`IncludeResolver`
is that resolver for one analysis:

1. the ``<uri>`` is looked up (:mod:`.resources`: ``model://``,
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

Files open in an editor are read from the editor, not the disk:
``Options.open_documents`` (an :data:`OpenDocuments`) gives the text and a
version of a file's buffer; a cache entry records that version in place of
the file's modification time, so an edit (or closing the buffer) makes it stale.
"""

from __future__ import annotations

import contextvars
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable, Hashable

from ..diagnostics import Diagnostic, Fix, Related, Severity, error, info, warning
from ..files import FileRefused, read_file
from ..model import Include, Model, version_tuple
from ..text import Span
from ..xml import decode_source
from .checks import ROOT_NOT_STATIC, ROOT_ONLY
from .params import apply_params, params_element
from .resources import Lookup, ModelFile, lookup, model_file, model_root_of, path_problem, search_path

# ``Options.open_documents``: the text and version of the editor's buffer for an
# absolute path, or None to read the file from disk. Called from analysis
# threads; it must be cheap and return a consistent (text, version) pair.
OpenDocuments = Callable[[str], "tuple[str, Hashable] | None"]

if TYPE_CHECKING:  # pragma: no cover
    from .analysis import Analysis, Options
    from .frames import FrameGraphs, Scope

MAX_DEPTH = 32  # includes nested deeper than this are reported, not followed
MAX_FILE_BYTES = 64 << 20  # larger 'model files' are not read (a mesh named by mistake, a device)
RELATED_LIMIT = 3  # how many problems of an included file are listed as related information

# the chain of files being analysed through includes, outermost first (per thread / task)
_ACTIVE: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("sdformat_lsp_includes_active", default=())


def _stat(path: str) -> tuple[str, int, int]:
    try:
        st = os.stat(path)
        return (path, st.st_mtime_ns, st.st_size)
    except (OSError, ValueError):  # ValueError: a NUL or unencodable character in the path
        return (path, -1, -1)


def signature(path: str, open_documents: OpenDocuments | None = None) -> tuple:
    """What a dependency looks like now: ``(path, "open", version)`` for a file open in
    the editor, else ``(path, mtime_ns, size)`` (``-1, -1`` when it does not exist)."""
    if open_documents is not None:
        hit = open_documents(path)
        if hit is not None:
            return (path, "open", hit[1])
    return _stat(path)


@dataclass(frozen=True, slots=True)
class IncludeRecord:
    """One ``<include>`` of an analysed document, for the features (links, definitions, watching)."""

    include: Include
    target: str | None  # what the URI named on disk: a file or a model directory; None if not found
    path: str | None  # the file that was (or would have been) analysed
    analysis: "Analysis | None" = field(default=None, repr=False)  # the included file's analysis
    model: Model | None = field(default=None, repr=False)  # the model as placed in the including scope (None: actor, light, failure)
    lookup: Lookup | None = field(default=None, repr=False)
    dependencies: tuple[str, ...] = field(default=(), repr=False)  # every file and directory whose change can change this include
    config: ModelFile | None = field(default=None, repr=False)  # what model.config said, when the URI named a model directory


@dataclass
class _Entry:
    analysis: "Analysis"
    deps: tuple[tuple, ...]  # signature() of each dependency when it was read


class IncludeCache:
    """Analyses of included files, valid while none of their dependencies changed.

    Thread-safe; bounded in entries and in the characters of their texts (least
    recently used entries are dropped). One
    instance can serve any number of analyses with any options: the search
    path is part of the key.
    """

    def __init__(self, maxsize: int = 2048, max_chars: int = 64 << 20) -> None:
        self.maxsize = maxsize
        self.max_chars = max_chars  # the included texts kept, in characters (their analyses take ~17x that)
        self._chars = 0
        self._entries: OrderedDict[tuple, _Entry] = OrderedDict()
        self._configs: dict[tuple, ModelFile] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple, validated: dict | None = None, open_documents: OpenDocuments | None = None) -> "Analysis | None":
        """The cached analysis for ``key`` if none of its dependencies changed (as seen
        through ``open_documents``: an open file's version stands for its modification time)."""
        with self._lock:
            entry = self._entries.get(key)
        if entry is None:
            return None
        if validated is not None and validated.get(key) is entry:
            self.hits += 1
            return entry.analysis
        if any(signature(sig[0], open_documents) != sig for sig in entry.deps):
            with self._lock:
                if self._entries.get(key) is entry:
                    del self._entries[key]
                    self._chars -= len(entry.analysis.text)
            return None
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
        if validated is not None:
            validated[key] = entry
        self.hits += 1
        return entry.analysis

    def put(
        self,
        key: tuple,
        analysis: "Analysis",
        deps: tuple[str, ...],
        validated: dict | None = None,
        open_documents: OpenDocuments | None = None,
        signatures: dict[str, tuple] | None = None,
    ) -> None:
        """Keep ``analysis``; ``signatures`` are the dependencies as they were when read
        (taken now for those missing: a change made meanwhile would go unnoticed)."""
        known = signatures or {}
        entry = _Entry(analysis, tuple(known.get(p) or signature(p, open_documents) for p in dict.fromkeys(deps)))
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._chars -= len(old.analysis.text)
            self._entries[key] = entry
            self._chars += len(analysis.text)
            while len(self._entries) > 1 and (len(self._entries) > self.maxsize or self._chars > self.max_chars):
                _, dropped = self._entries.popitem(last=False)
                self._chars -= len(dropped.analysis.text)
        if validated is not None:
            validated[key] = entry

    def model_file(self, directory: str) -> ModelFile:
        """``resources.model_file``, memoised on the manifest's modification time and size."""
        key = (directory, _stat(os.path.join(directory, "model.config")), _stat(os.path.join(directory, "manifest.xml")))
        with self._lock:
            hit = self._configs.get(key)
        if hit is not None:
            return hit
        result = model_file(directory)
        with self._lock:
            if len(self._configs) > 4 * self.maxsize:
                self._configs.clear()
            self._configs[key] = result
        return result

    def invalidate(self, path: str | None = None) -> None:
        """Forget everything (``path=None``) or every entry that depends on ``path``."""
        with self._lock:
            if path is None:
                self._entries.clear()
                self._configs.clear()
                self._chars = 0
                return
            path = os.path.abspath(path)
            for key in [k for k, e in self._entries.items() if any(sig[0] == path for sig in e.deps)]:
                self._chars -= len(self._entries.pop(key).analysis.text)

    def __len__(self) -> int:
        return len(self._entries)

    def __bool__(self) -> bool:  # an empty cache is still a cache
        return True


DEFAULT_CACHE = IncludeCache()

# checks made for one top-level analysis: cache entries already validated (stat'ed) during it
_RUN: contextvars.ContextVar[dict | None] = contextvars.ContextVar("sdformat_lsp_includes_run", default=None)


class IncludeResolverFactory:
    """``Options.include_resolver_factory``: one :class:`IncludeResolver` per analysis."""

    def __init__(self, options: "Options", cache: IncludeCache | None = None, env: dict[str, str] | None = None) -> None:
        self.options = options
        self.cache = cache if cache is not None else DEFAULT_CACHE
        self.env = env

    def __call__(self, analysis: "Analysis") -> "IncludeResolver":
        return IncludeResolver(self, analysis)


def default_factory(options: "Options") -> IncludeResolverFactory:
    cache = getattr(options, "include_cache", None)
    return IncludeResolverFactory(options, cache if isinstance(cache, IncludeCache) else None)


def _owner_analysis(scope: "Scope") -> "Analysis | None":
    """The analysis of the included file a foreign scope was written in."""
    s = scope
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


def _included_models(sub: "Analysis") -> Callable[[Model, object], Model | None]:
    """Model of any include written in ``sub`` or in the files it includes, by the Include object."""
    table: dict[int, Model | None] = {}
    stack, seen = [sub], set()
    while stack:
        a = stack.pop()
        if id(a) in seen:
            continue
        seen.add(id(a))
        for rec in getattr(a, "includes", ()) or ():
            table[id(rec.include)] = rec.model
            if rec.analysis is not None:
                stack.append(rec.analysis)
    return lambda _model, inc: table.get(id(inc))


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
        self._lookups: dict[str, Lookup] = {}
        env = factory.env if factory.env is not None else os.environ
        self.env = env
        own_root = model_root_of(self.path) if self.path else None
        self.model_roots = tuple(dict.fromkeys(([own_root] if own_root else []) + list(getattr(self.options, "model_roots", ()))))
        severity = tuple(sorted((getattr(self.options, "severity", None) or {}).items()))
        self.key_suffix = (tuple(search_path(self.options.resource_paths, env, self.model_roots)), bool(self.options.schema), severity,
                           bool(getattr(self.options, "suppressions", True)))
        self.dependencies: list[str] = []
        self.open_documents: OpenDocuments | None = getattr(self.options, "open_documents", None)
        self.signatures: dict[str, tuple] = {}  # each dependency as it was first seen during this analysis
        self.context_dependent = False  # saw a cycle: the result depends on who included this file
        self._remote_at: int | None = None  # index in the diagnostics of the one Fuel-cache information
        self._remotes: list[tuple[Span, str, tuple]] = []  # (span, label, fuel key) of each include it covers
        if getattr(analysis, "includes", None) is None:
            analysis.includes = []
        analysis._include_resolver = self  # read back by the includer: dependencies, cycles

    def detach(self) -> None:
        """The analysis is complete: drop the reference back to it (it keeps one to this
        resolver, for its includer to read the dependencies), so no cycle outlives the run."""
        self.analysis = None

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

    def _emit(self, d: Diagnostic) -> None:
        self.analysis.diagnostics.append(d)

    def _span(self, inc: Include) -> Span:
        if inc.uri is not None:
            return inc.uri.span
        return inc.element.tag_span

    # -- resolution --------------------------------------------------------

    def _lookup(self, uri: str) -> Lookup:
        hit = self._lookups.get(uri)
        if hit is None:
            hit = lookup(uri, self.base_dir, self.options.resource_paths, self.env, model_roots=self.model_roots)
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
            self._emit(
                error(
                    "MODEL_PLACEMENT_FRAME_INVALID",
                    "<placement_frame> needs a <pose> in the same <include>: the pose says where the placement frame goes; add <pose/>",
                    inc.placement_frame.span if inc.placement_frame.text else inc.placement_frame.element.tag_span,
                )
            )
        if not uri:
            self._emit(error("URI_LOOKUP", "<uri> is empty: name a model (model://NAME), a model directory or an .sdf file", span))
            records.append(IncludeRecord(inc, None, None))
            return None
        bad = path_problem(uri)
        if bad is not None:
            self._emit(error("URI_LOOKUP", f"<uri> cannot name a file: {bad}", span))
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
            self._emit(self._not_found(uri, found, span))
            return None
        target = os.path.abspath(found.path)
        file_path = target
        if os.path.isdir(target):
            mf = self.cache.model_file(target)
            deps.extend(mf.dependencies)
            for p in mf.problems:
                if p.severity == "warning":
                    self._emit(warning(p.code, p.message, span))
            if mf.path is None:
                problems = "; ".join(p.message for p in mf.problems if p.severity == "error")
                self._emit(error("URI_LOOKUP", f"'{uri}' is the directory {target}, which cannot be used as a model: {problems}", span))
                records.append(IncludeRecord(inc, target, None, lookup=found, dependencies=tuple(deps), config=mf))
                self._depend(deps)
                return None
            file_path = os.path.abspath(mf.path)
            if not os.path.isfile(file_path):
                self._emit(
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
        sub = self._analyse(file_path, inc, span)
        if sub is None:
            deps.append(file_path)
            records.append(IncludeRecord(inc, target, file_path, lookup=found, dependencies=tuple(deps), config=mf))
            self._depend(deps)
            return None
        deps.extend(getattr(sub, "_include_deps", (file_path,)))
        for p, sig in getattr(sub, "_include_sigs", {}).items():
            self.signatures.setdefault(p, sig)  # as the included file's analysis saw them
        model = self._model_of(sub, inc, span, scope)
        self._summarise(sub, inc, span, scope)
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
            self._emit(d)

    def _depend(self, deps: list[str]) -> None:
        """Record dependencies (and their state now, unless an included analysis saw them earlier)."""
        self.dependencies.extend(deps)
        for p in deps:
            if p not in self.signatures:
                self.signatures[p] = signature(p, self.open_documents)

    def _not_found(self, uri: str, found: Lookup, span: Span) -> Diagnostic:
        if found.scheme == "model" and not found.searched:
            where = (
                "no directories are searched for model:// URIs: pass --resource-path DIR or set "
                "GZ_SIM_RESOURCE_PATH (or SDF_PATH) to the directory that holds the model (a file inside a model "
                "directory finds the models beside its own without either)"
            )
        elif found.searched:
            listed = ", ".join(found.searched)
            where = f"searched {listed}"
            if found.scheme in ("model", "name"):
                where += "; add the directory holding it with --resource-path or GZ_SIM_RESOURCE_PATH"
        else:
            where = "nothing to search"
        return error(
            "URI_LOOKUP",
            f"cannot find '{uri}': {where}",
            span,
            data={"searched": list(found.searched), "uri": uri},
        )

    def _analyse(self, path: str, inc: Include, span: Span) -> "Analysis | None":
        """The analysis of ``path``, from the cache or freshly made; None (with a diagnostic) if it cannot be."""
        active = _ACTIVE.get()
        chain = active or ((self.path,) if self.path else ())
        if path in chain or path == self.path:
            loop = [*(chain[chain.index(path):] if path in chain else [self.path]), path]
            names = " -> ".join(os.path.basename(p) for p in loop)
            self._emit(
                error(
                    "INCLUDE_CYCLE",
                    f"include cycle: {names}; a model cannot include itself, directly or through other files",
                    span,
                    data={"cycle": loop},
                )
            )
            self.context_dependent = True
            return None
        if len(chain) >= MAX_DEPTH:
            self._emit(
                error(
                    "INCLUDE_DEPTH",
                    f"includes are nested more than {MAX_DEPTH} files deep here: stopping at {os.path.basename(path)}",
                    span,
                )
            )
            self.context_dependent = True
            return None
        run = _RUN.get()
        own_run = run is None
        if own_run:
            run = {}
            run_token = _RUN.set(run)
        try:
            # libsdformat writes the include's <static> into the included model before loading it
            override = inc.static
            key = (path, *self.key_suffix, override)
            sub = self.cache.get(key, run, self.open_documents)
            if sub is not None:
                return sub
            buffer = self.open_documents(path) if self.open_documents is not None else None
            if buffer is not None:
                # open in the editor: its text, unsaved edits included, is what the user sees
                text, problems = buffer[0], []
                own = (path, "open", buffer[1])
            else:
                own = _stat(path)  # before reading: a change made while we read makes the entry stale
                try:
                    # never blocks on a FIFO nor reads a device or a huge file (files.read_file)
                    data = read_file(path, getattr(self.options, "max_document_bytes", MAX_FILE_BYTES))
                except FileRefused as exc:
                    if exc.kind in ("special", "directory"):
                        message = f"cannot read {path}: {exc.reason}; an include names a model file or a model directory"
                    elif exc.kind == "too-large":
                        message = f"{path} is not read: {exc.reason}"
                    else:
                        message = f"cannot read {path}: {exc.reason}"
                    self._emit(error("FILE_READ", message, span))
                    return None
                text, problems = decode_source(data)
            token = _ACTIVE.set((*chain, path))
            try:
                from .analysis import analyze

                sub = analyze(text, path, replace(self.options, root_static=override), extra=problems)
            finally:
                _ACTIVE.reset(token)
            resolver = getattr(sub, "_include_resolver", None)
            sub_deps = [path]
            sigs = {path: own}
            context_dependent = False
            if resolver is not None:
                sub_deps.extend(resolver.dependencies)
                for p, sig in resolver.signatures.items():
                    sigs.setdefault(p, sig)
                context_dependent = resolver.context_dependent
            sub._include_deps = tuple(dict.fromkeys(sub_deps))
            sub._include_sigs = sigs
            if context_dependent:
                self.context_dependent = True
            else:
                self.cache.put(key, sub, sub._include_deps, run, self.open_documents, sigs)
            self.cache.misses += 1
            return sub
        finally:
            if own_run:
                _RUN.reset(run_token)

    def _model_of(self, sub: "Analysis", inc: Include, span: Span, scope: "Scope") -> Model | None:
        """The model the included file contributes, placed for the including scope."""
        doc = sub.document
        model: Model | None = doc.models[0] if doc is not None and doc.models else None
        root = sub.xml.root
        if model is None and root is not None and root.tag == "robot":
            model = self._urdf_model(sub)
            if model is None:
                return None
        if model is None:
            if doc is not None and doc.others:
                if inc.merge:
                    self._emit(
                        error(
                            "MERGE_INCLUDE_UNSUPPORTED",
                            f"merge=\"true\" only works for models; this file has an <{doc.others[0].tag}>: remove merge=\"true\"",
                            span,
                        )
                    )
                return None  # an actor or a light: no frames
            if root is None or root.tag != "sdf":
                if not sub.has_errors:
                    what = f"<{root.tag}>" if root is not None else "no XML element"
                    self._emit(error("FILE_READ", f"{os.path.basename(sub.path or '')} is not an SDFormat file (it has {what})", span))
                return None
            if doc is not None and doc.worlds:
                msg = "the included file holds a <world>: <include> brings in a <model>, <actor> or <light> only"
            else:
                msg = "the included file has no top-level <model>, <actor> or <light> for <include> to bring in"
            self._emit(error("ELEMENT_MISSING", msg, span, related=(Related(root.tag_span, "its <sdf> element", path=sub.path),)))
            return None
        params = params_element(inc.element)
        if params is not None:
            model, problems = apply_params(params, model, self.analysis.xml, self.version, _included_models(sub))
            for d in problems:
                self._emit(d)
        if inc.merge:
            self._check_merge(model, inc, span, scope, sub)
        if inc.static is False and sub.root_static_written and not model.links and not model.models and not model.includes:
            st = inc.element.child("static")
            self._emit(
                error(
                    "MODEL_WITHOUT_LINK",
                    f"<static>false</static> makes the included model '{model.name}' movable, but it has no link to carry its frames: "
                    "remove this <static>, or include a model with a link",
                    st.tag_span if st is not None else span,
                )
            )
        if inc.pose is not None:
            pose = inc.pose
        elif model.pose.relative_to is not None:
            # relative_to on a top-level model is an error of the included file; keep the numbers only
            pose = replace(model.pose, relative_to=None)
        else:
            pose = model.pose
        return replace(
            model,
            name=inc.name if inc.name else model.name,
            name_at=inc.name_span,
            pose=pose,
            static=inc.static if inc.static is not None else model.static,
            from_include=inc,
            source=sub,
        )

    def _urdf_model(self, sub: "Analysis") -> Model | None:
        try:
            from ..formats.urdf import urdf_to_model
        except ImportError:  # pragma: no cover - the URDF converter ships with the package
            return None
        try:
            model, diags = urdf_to_model(sub.xml, sub.path)
        except Exception:  # a converter bug must not hide the includer's own diagnostics
            return None
        if not hasattr(sub, "_urdf_diagnostics"):
            sub._urdf_diagnostics = diags
        return model

    def _check_merge(self, model: Model, inc: Include, span: Span, scope: "Scope", sub: "Analysis") -> None:
        attr = inc.element.attr("merge")
        where = attr.span if attr is not None else span
        if scope.kind not in ("model", "world"):
            self._emit(error("MERGE_INCLUDE_UNSUPPORTED", "merge=\"true\" needs a <model> or <world> to merge into: remove it here", where))
            return
        # Below 1.9 nothing is lost: libsdformat converts the file to its newest
        # version and merges. The version information (schema_check) already
        # names merge= among the newer features, once for the whole file.
        if scope.kind == "world":
            if self.version < (1, 10):
                # Portability only (libsdformat main merges it): an information.
                self._emit(
                    info(
                        "MERGE_INCLUDE_UNSUPPORTED",
                        "merging a model into a <world> is SDFormat 1.10 (libsdformat 13) or later; libsdformat 12 and older refuse it",
                        where,
                    )
                )
            for link in model.links:
                self._emit(
                    error(
                        "MERGE_INCLUDE_UNSUPPORTED",
                        f"a <world> cannot take links: the merged model's link '{link.name}' has nowhere to go; "
                        "include the model without merge=\"true\", or move its links into nested models",
                        span,
                        related=(Related(link.name_span or link.element.tag_span, f"link '{link.name}'", path=sub.path),),
                    )
                )

    def _summarise(self, sub: "Analysis", inc: Include, span: Span, scope: "Scope") -> None:
        """One diagnostic on the include for the errors of the included file that libsdformat sees here.

        The included file was checked as a root model. libsdformat makes some
        checks only at the top level (``checks.ROOT_ONLY``): they apply where
        the model lands at the top of a world or of the file, and when it is
        merged (libsdformat loads a merged model on its own first); nested
        deeper, they become one information. The file was analysed with the
        include's ``<static>`` in place of its own (``Options.root_static``), as
        libsdformat writes it there before loading: the checks that depend on
        it (frames on the canonical link or on the static model, joints whose
        parent and child land on one link, a model without link) are those of
        the model as included.
        """
        diags = [d for d in sub.diagnostics if d.severity == Severity.ERROR and d.code != "URDF_UNSUPPORTED"]
        diags += [d for d in getattr(sub, "_urdf_diagnostics", ()) if d.severity == Severity.ERROR]
        top_level = inc.merge or scope.kind in ("world", "sdf")
        unchecked = [d for d in diags if d.data.get(ROOT_ONLY) and not top_level]
        # (a root model without link made movable by <static>false</static> is reported on that <static>, by _model_of)
        diags = [d for d in diags if not (d.data.get(ROOT_ONLY) and not top_level) and not (d.data.get(ROOT_NOT_STATIC) and sub.root_static_written)]
        if unchecked:
            first = min(unchecked, key=lambda d: d.span.start)
            more = f" (and {len(unchecked) - 1} more)" if len(unchecked) > 1 else ""
            self._emit(
                info(
                    first.code,
                    f"not checked here: {first.message}{more}, in {os.path.basename(sub.path or '')}; libsdformat checks this only "
                    "in top-level models and this one is nested, so it loads the file (it refuses the file on its own)",
                    span,
                    related=tuple(Related(d.span, d.message, path=d.path or sub.path) for d in unchecked[:RELATED_LIMIT]),
                    data={"included_path": sub.path},
                )
            )
        if not diags:
            return
        diags.sort(key=lambda d: d.span.start)
        name = os.path.basename(sub.path or "")
        related: list[Related] = []
        roots = []
        for d in diags:
            root = d.data.get("include_root") if d.data else None
            if root is None:
                root = {"code": d.code, "message": d.message, "path": d.path or sub.path, "span": tuple(d.span)}
            roots.append((d, root))
        first_d, first = roots[0]
        for d, root in roots[:RELATED_LIMIT]:
            if root["path"] != (d.path or sub.path):
                related.append(Related(Span(*root["span"]), root["message"], path=root["path"]))
                related.append(Related(d.span, "included from here", path=d.path or sub.path))
            else:
                related.append(Related(d.span, d.message, path=root["path"]))
        count = len(diags)
        root_el = sub.xml.root
        if root_el is None or root_el.tag not in ("sdf", "robot") or any(p.is_error for p in sub.xml.problems):
            # libsdformat cannot read it at all (FILE_READ); a custom parser (interface API) may, but not here
            ext = os.path.splitext(name)[1]
            hint = "" if ext in (".sdf", ".world", ".urdf", "") else f" ({ext} files need a custom parser registered by the simulator; they are not checked here)"
            self._emit(
                Diagnostic(
                    "FILE_READ",
                    Severity.ERROR,
                    f"cannot read the included file {name} as SDFormat: {first['message']}{hint}",
                    span,
                    related=tuple(related[:1]),
                    data={"include_root": {**first, "code": "FILE_READ"}, "included_errors": count, "included_path": sub.path},
                )
            )
            return
        where = name if first["path"] == sub.path else f"{os.path.basename(first['path'] or '')} (included by {name})"
        if sub.root_static_written is not None:  # true of the model as this include makes it, not of the file alone
            where += f" with this include's <static>{'true' if inc.static else 'false'}</static>"
        if count == 1:
            message = f"error in the included file {where}: {first['message']}"
        else:
            message = f"{count} errors in the included file {name}; the first, in {where}: {first['message']}"
        self._emit(
            Diagnostic(
                first["code"],
                Severity.ERROR,
                message,
                span,
                related=tuple(related),
                data={"include_root": first, "included_errors": count, "included_path": sub.path},
            )
        )

    def top_level(self, xml, version: tuple[int, int]) -> Model | None:
        """The model of a top-level ``<sdf><include>``, which libsdformat accepts as the file's model."""
        root = xml.root
        tops = [c for c in root.children if c.tag == "include"] if root is not None else []
        if not tops:
            return None
        from ..model.builder import Builder

        b = Builder(xml)
        b.version = version
        inc = b.include(tops[0])
        self.analysis.diagnostics.extend(b.diagnostics)
        for extra in tops[1:]:
            self._emit(error("ELEMENT_INCORRECT_TYPE", "an <sdf> file holds one model: this second top-level <include> is one too many", extra.tag_span))
        return self(inc, _TOP)

    # -- after the frame graphs are built ------------------------------------

    def _merged_duplicates(self, graphs: "FrameGraphs") -> list[Diagnostic]:
        """Names that a ``merge="true"`` include brings into a scope that already has them.

        libsdformat copies the merged elements into the including model, so a
        merged link, joint, frame or nested model named like another entity of
        that model (written here, or merged by another include) is a duplicate
        name there. Reported once per name, on the include written in this
        document that brought it.
        """
        def origin(node: "FrameNode") -> tuple[object, Include | None]:
            """(the real scope ``node`` is a name of, the include of this document that brought it or None)."""
            scope = node.scope
            brought: Include | None = None
            if id(node) in graphs.merged_into:  # a proxy frame: brought by its include
                inc, scope = graphs.merged_into[id(node)]
                if scope.path is None or id(scope) in graphs.merged_into:
                    brought = inc
            while scope is not None and id(scope) in graphs.merged_into:
                inc, into = graphs.merged_into[id(scope)]
                if into.path is None:
                    brought = inc
                scope = into
            return scope, brought

        groups: dict[tuple[int, str], list[tuple["FrameNode", Include | None]]] = {}
        for node in graphs.nodes:
            if not node.name or node.kind == "world" or node.scope is None:
                continue
            scope, brought = origin(node)
            if scope is None or scope.path is not None:
                continue  # a scope of an included file: its own analysis reports it
            groups.setdefault((id(scope), node.name), []).append((node, brought))
        found: dict[int, tuple[Include, list[tuple[str, "FrameNode", "FrameNode", Related | None]]]] = {}
        for (_, name), members in groups.items():
            if len(members) < 2 or all(b is None for _, b in members):
                continue  # written here only: the name phase reports it
            merged = [(n, b) for n, b in members if b is not None]
            local = [n for n, b in members if b is None and n.name_span is not None and (n.scope is None or n.scope.path is None)]
            node, inc = merged[-1] if local or len(merged) == 1 else merged[1]
            other = local[0] if local else merged[0][0]
            rel = None
            if local:
                rel = Related(local[0].name_span, f"the '{name}' written here")
            elif merged[0][1] is not inc:
                rel = Related(self._span(merged[0][1]), f"the include that also brings '{name}'")
            found.setdefault(id(inc), (inc, []))[1].append((name, node, other, rel))
        out: list[Diagnostic] = []
        for inc, dups in found.values():
            where = dups[0][1].scope.name if dups[0][1].scope is not None else ""
            proxies = [n for n, *_ in dups if n.startswith("_merged__") and n.endswith("__model__")]
            if proxies:
                merged_name = proxies[0][len("_merged__"):-len("__model__")]
                msg = f"model '{merged_name}' is merged into model '{where}' more than once (directly or through another merged model)"
            else:
                listed = ", ".join(f"'{n}' ({node.kind}; {other.kind} there already)" for n, node, other, _ in dups[:6])
                more = f" and {len(dups) - 6} more" if len(dups) > 6 else ""
                msg = f"this merged include brings names that model '{where}' already has: {listed}{more}"
            out.append(
                error(
                    "DUPLICATE_NAME",
                    msg + "; names must be unique once merged: rename one of them",
                    self._span(inc),
                    related=tuple(r for *_, r in dups[:RELATED_LIMIT] if r is not None),
                    data={"duplicate": dups[0][0]},
                )
            )
        return out

    def finish(self, graphs: "FrameGraphs") -> list[Diagnostic]:
        """Checks that need the built scopes: placement frames and names of included models."""
        out: list[Diagnostic] = self._merged_duplicates(graphs)
        for inc, child in graphs.included:
            parent = child.parent
            if parent is None or parent.path is not None or child.path is None and not inc.merge:
                continue
            pf = inc.placement_frame
            if pf is not None and pf.text and inc.pose is not None and not inc.merge:
                res = graphs.resolve(pf, child, record=True)
                if res.target is None:
                    names = [n for n, _ in child.nested_frames()]
                    import difflib

                    hint = difflib.get_close_matches(pf.text, names, n=1, cutoff=0.6)
                    msg = f"placement_frame '{pf.text}' does not name a frame of the included model '{child.name}'"
                    fixes: tuple[Fix, ...] = ()
                    if hint:
                        msg += f"; did you mean '{hint[0]}'?"
                        fixes = (Fix(f"Change to '{hint[0]}'", pf.span, hint[0]),)
                    out.append(error("POSE_RELATIVE_TO_INVALID", msg, pf.span, fixes=fixes))
            if not inc.merge and child.name:
                node = parent.frames.get(child.name)
                if node is child.node:
                    # a nested <model> written later under the same name lost its place to the include
                    later = next((m for m in getattr(parent.entity, "models", ()) if m.name == child.name), None)
                    if later is not None:
                        node = next((n for n in graphs.nodes if n.entity is later), None)
                if node is not child.node and node is not None:
                    span = inc.name_span or self._span(inc)
                    other = node.entity if node is not None else None
                    what = f"a {node.kind}" if node is not None else "another entity"
                    rel: tuple[Related, ...] = ()
                    other_inc = getattr(other, "from_include", None)
                    if other_inc is not None:
                        rel = (Related(other_inc.name_span or self._span(other_inc), f"the other '{child.name}'"),)
                        what = "another included model"
                    elif node is not None and node.name_span is not None and (node.scope is None or node.scope.path is None):
                        rel = (Related(node.name_span, f"the other '{child.name}'"),)
                    out.append(
                        error(
                            "DUPLICATE_NAME",
                            f"the included model is named '{child.name}', like {what} in {parent.kind} '{parent.name}': "
                            "names must be unique; give the include its own <name>",
                            span,
                            related=rel,
                        )
                    )
        return out


__all__ = [
    "DEFAULT_CACHE", "MAX_DEPTH", "IncludeCache", "IncludeRecord", "IncludeResolver", "IncludeResolverFactory", "OpenDocuments",
    "default_factory", "signature",
]
