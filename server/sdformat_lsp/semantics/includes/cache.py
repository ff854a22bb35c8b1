"""The analyses of included files: read once, kept while nothing they depend on changes.

An included file is analysed like any document (its own includes too), with
the options of the includer. Many documents include the same models, and the
server re-analyses on every edit, so :class:`IncludeCache` keeps each analysis
keyed by the file and the options that change it, and checks the signature of
every file it depended on before handing it out again. :func:`analyze_included`
is the resolver's way in: cycles and depth, the cache, reading the file (from
the editor's buffer when it is open) and analysing it.
"""

from __future__ import annotations

import contextvars
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Hashable

from ...diagnostics import Diagnostic, error
from ...files import FileRefused, read_file
from ...model import Include
from ...text import Span
from ...xml import decode_source
from .resources import ModelFile, model_file

# ``Options.open_documents``: the text and version of the editor's buffer for an
# absolute path, or None to read the file from disk. Called from analysis
# threads; it must be cheap and return a consistent (text, version) pair.
OpenDocuments = Callable[[str], "tuple[str, Hashable] | None"]
# ``semantics.analysis.analyze``, handed to the include machinery by its factory (never imported here:
# the analysis imports the include machinery)
Analyze = Callable[..., "Analysis"]

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis import Analysis
    from .resolver import IncludeResolver

MAX_DEPTH = 32  # includes nested deeper than this are reported, not followed
MAX_FILE_BYTES = 64 << 20  # larger 'model files' are not read (a mesh named by mistake, a device)

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

    def get(
        self, key: tuple, validated: "dict[tuple, _Entry] | None" = None, open_documents: OpenDocuments | None = None
    ) -> "Analysis | None":
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
        validated: "dict[tuple, _Entry] | None" = None,
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
        key = (
            directory,
            _stat(os.path.join(directory, "model.config")),
            _stat(os.path.join(directory, "manifest.xml")),
        )
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
_RUN: contextvars.ContextVar[dict[tuple, _Entry] | None] = contextvars.ContextVar(
    "sdformat_lsp_includes_run", default=None
)


def analyze_included(resolver: "IncludeResolver", path: str, inc: Include, span: Span) -> "Analysis | None":
    """The analysis of ``path``, from the cache or freshly made; None (with a diagnostic) if it cannot be."""
    active = _ACTIVE.get()
    chain = active or ((resolver.path,) if resolver.path else ())
    if path in chain or path == resolver.path:
        loop = [*(chain[chain.index(path) :] if path in chain else [resolver.path]), path]
        names = " -> ".join(os.path.basename(p) for p in loop)
        resolver.report(
            error(
                "INCLUDE_CYCLE",
                f"include cycle: {names}; a model cannot include itself, directly or through other files",
                span,
                data={"cycle": loop},
            )
        )
        resolver.context_dependent = True
        return None
    if len(chain) >= MAX_DEPTH:
        resolver.report(
            error(
                "INCLUDE_DEPTH",
                f"includes are nested more than {MAX_DEPTH} files deep here: stopping at {os.path.basename(path)}",
                span,
            )
        )
        resolver.context_dependent = True
        return None
    run = _RUN.get()
    own_run = run is None
    if own_run:
        run = {}
        run_token = _RUN.set(run)
    try:
        # libsdformat writes the include's <static> into the included model before loading it
        override = inc.static
        key: tuple = (path, *resolver.key_suffix, override, getattr(resolver.options, "model_parsers", ()))
        if not path.lower().endswith((".sdf", ".world")):
            from .foreign import has_parsers

            if has_parsers(path, resolver.options):  # a parser is given the include's name
                key = (*key, inc.name)
        sub = resolver.cache.get(key, run, resolver.open_documents)
        if sub is not None:
            return sub
        buffer = resolver.open_documents(path) if resolver.open_documents is not None else None
        problems: list[Diagnostic]
        own: tuple  # the file's signature() as it was read
        if buffer is not None:
            # open in the editor: its text, unsaved edits included, is what the user sees
            text, problems = buffer[0], []
            own = (path, "open", buffer[1])
        else:
            own = _stat(path)  # before reading: a change made while we read makes the entry stale
            try:
                # never blocks on a FIFO nor reads a device or a huge file (files.read_file)
                data = read_file(path, getattr(resolver.options, "max_document_bytes", MAX_FILE_BYTES))
            except FileRefused as exc:
                if exc.kind in ("special", "directory"):
                    message = f"cannot read {path}: {exc.reason}; an include names a model file or a model directory"
                elif exc.kind == "too-large":
                    message = f"{path} is not read: {exc.reason}"
                else:
                    message = f"cannot read {path}: {exc.reason}"
                resolver.report(error("FILE_READ", message, span))
                return None
            text, problems = decode_source(data)
        token = _ACTIVE.set((*chain, path))
        try:
            from .foreign import NOT_PARSED, parsed_include

            parsed = parsed_include(resolver, path, text, inc, span)
            if parsed is NOT_PARSED:
                sub = resolver.factory.analyze(
                    text, path, replace(resolver.options, root_static=override), extra=problems
                )
            else:
                sub = parsed
        finally:
            _ACTIVE.reset(token)
        inner = sub.include_resolver
        sub_deps = [path, *sub.extra_dependencies]  # files a model parser or the MJCF reader read too
        sigs = {path: own}
        context_dependent = False
        if inner is not None:
            sub_deps.extend(inner.dependencies)
            for p, sig in inner.signatures.items():
                sigs.setdefault(p, sig)
            context_dependent = inner.context_dependent
        sub.include_deps = tuple(dict.fromkeys(sub_deps))
        sub.include_sigs = sigs
        if context_dependent:
            resolver.context_dependent = True
        else:
            resolver.cache.put(key, sub, sub.include_deps, run, resolver.open_documents, sigs)
        resolver.cache.misses += 1
        return sub
    finally:
        if own_run:
            _RUN.reset(run_token)
