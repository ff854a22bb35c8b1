"""When documents are analysed, where, and which results count.

* Edits are debounced per document, on both edges: a change after a quiet
  period is checked at once; a change that follows another within
  ``debounce`` seconds waits until the document has been quiet that long
  (opening and settings changes never wait).
* ``analyze`` runs in a thread pool, never on the event loop, so typing
  and other requests stay responsive while a large world is checked.
* Every analysis is tagged with the document *revision* it was made from.
  A result whose revision is no longer the document's is never published
  and never kept as the latest analysis; requests that were made against
  that revision may still use it (their positions refer to that text).
* Features do not wait for the debounce: ``analysis(uri)`` returns the
  latest analysis when it matches the current revision, joins the run in
  flight for that revision, or starts one at once.
* Diagnostics after an edit are checked incrementally where they can be
  (``semantics/incremental.py``): published from a :class:`QuickAnalysis`,
  while the full analysis the features need is built in the background once
  the document has been quiet for the debounce after that (or at once when a
  request asks),
  so that a request made a moment later finds it built or half built.
  Until it is built and its lookups made, hover, definition and completion
  outside the edited element are answered from the last full analysis, their places moved
  through the edit, when nothing outside that element can depend on it
  (``earlier``; ``incremental.sealed_shift``). A
  background run that no request waits for stops at its next phase boundary
  when the text changes again (``semantics.analysis.cancellable``): typing
  never queues whole analyses of texts already gone.
* While the settings are being fetched from the client, analyses wait
  (``hold``): checking with settings about to be replaced would publish
  diagnostics that are wrong and then immediately different.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Awaitable, Callable, TypeVar, Union

from ..diagnostics import error
from ..semantics import Analysis, Options
from ..semantics.analysis import AnalysisCancelled, cancellable
from ..collector_pause import collector_paused
from ..semantics.incremental import (
    Base,
    QuickAnalysis,
    ScopeUses,
    Shift,
    base_of,
    reanalyze,
    rebase,
    scope_uses,
    sealed_shift,
)
from ..text import LineIndex, Span
from ..xml.tree import XmlDocument
from .documents import Document, DocumentStore
from .collector import Collector
from .disposal import Graveyard, free_here, remains_of
from .faults import log_fault
from .lazy import LazyModule

features = LazyModule("sdformat_lsp.features")  # prepared after each full analysis (imported then, see lazy.py)

log = logging.getLogger("sdformat_lsp.server")

FULL_ANALYSIS_AFTER = 0.05  # seconds after an incremental check, at least, before the features' full analysis starts

Analyze = Callable[[str, "str | None"], Analysis]
_T = TypeVar("_T")
Checked = Union[Analysis, QuickAnalysis]  # what a settled revision's diagnostics are published from


AFTER_LIMIT = 2.0  # seconds an edited file's analysis waits at most for those of the files including it


class Superseded(Exception):
    """The document changed (or closed) before the analysis of this revision settled."""


class Gate:
    """Closed while anything holds it; every hold also expires on its own, so a
    client that never answers cannot stop the server from checking documents."""

    def __init__(self) -> None:
        self._open = asyncio.Event()
        self._open.set()
        self._holds = 0

    def hold(self, timeout: float) -> Callable[[], None]:
        """Close the gate; returns the function that releases this hold (idempotent)."""
        self._holds += 1
        self._open.clear()
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            handle.cancel()
            self._holds -= 1
            if self._holds == 0:
                self._open.set()

        handle = asyncio.get_running_loop().call_later(timeout, release)
        return release

    @property
    def is_open(self) -> bool:
        return self._open.is_set()

    async def wait(self) -> None:
        await self._open.wait()


class Husk:
    """What is kept of a replaced analysis while the next one runs: its includes only.

    Requests never use an analysis of an older revision (they join the run of the
    current one), so holding the whole analysis during the run only doubled the
    peak memory of every edit (two analyses of a large world alive at once, and a
    resident size that never came down). The include records (whose analyses the
    include cache holds anyway) still say which files the document depends on.
    """

    __slots__ = ("includes", "xacro_files")

    def __init__(self, analysis: Analysis) -> None:
        self.includes = analysis.includes
        facts = analysis.xacro  # a xacro document: the files its expansion read (semantics/xacro_documents.py)
        self.xacro_files: tuple[str, ...] = tuple(facts.files) if facts is not None else ()  # type: ignore[attr-defined]

    def included_analysis(self, path: str) -> Analysis | None:
        return Analysis.included_analysis(self, path)  # type: ignore[arg-type]  # reads only .includes


@dataclass(slots=True)
class _Slot:
    analysis: Analysis | Husk | None = None
    revision: int = -1  # the revision ``analysis`` was made from
    running: tuple[int, asyncio.Future[Analysis]] | None = None
    stop: threading.Event | None = None  # set: the running run stops at its next phase boundary
    wanted: bool = False  # a request or a publication waits for the running run (it is never stopped)
    timer: asyncio.Task[None] | None = None
    settled: asyncio.Future[Checked] | None = None
    settled_revision: int = -1
    last_edit: float = float("-inf")  # loop time of the last scheduled change
    base: Base | None = None  # for incremental checks: the last result checked, as plain offsets and diagnostics
    base_fresh: int = -1  # the document's ``fresh_from`` when ``base`` was made (a touch since: no base)
    # (revision, the last full analysis, how that revision's text differs from it): requests outside the
    # edited element are answered from it while the revision's own full analysis is built (sealed_shift)
    shift: tuple[int, Analysis, Shift] | None = None
    uses: tuple[Analysis, ScopeUses | None] | None = None  # the scope uses of the analysis in ``shift``

    def stop_unwanted(self, revision: int) -> None:
        """A background run of another revision that nobody waits for: stop it (its text is gone)."""
        if self.running is not None and self.running[0] != revision and not self.wanted and self.stop is not None:
            self.stop.set()

    def earlier(self) -> tuple[Analysis | None, ScopeUses | None]:
        """The full analysis requests may be answered from after the next step (the kept one, or the one the
        last step kept) and its scope uses if made; the last step's shift no longer holds."""
        earlier = self.analysis if isinstance(self.analysis, Analysis) else self.shift[1] if self.shift else None
        self.shift = None
        return earlier, self.uses[1] if self.uses is not None and self.uses[0] is earlier else None

    def keep(self, revision: int, earlier: Analysis, shift: Shift | None, uses: ScopeUses | None) -> None:
        self.uses = (earlier, uses)
        self.shift = (revision, earlier, shift) if shift is not None else None

    def dying_uses(self) -> object:
        """What of ``uses`` goes when it is cleared: the scope uses alone while ``shift`` keeps the analysis
        (the graveyard would go through a live analysis for nothing)."""
        if self.uses is not None and self.shift is not None and self.shift[1] is self.uses[0]:
            return self.uses[1]
        return self.uses

    def holds_earlier(self, analysis: Analysis) -> bool:
        """Whether ``analysis`` is kept as the earlier one requests are answered from."""
        return (self.shift is not None and self.shift[1] is analysis) or (
            self.uses is not None and self.uses[0] is analysis
        )

    def adopt(self, analysis: Analysis, revision: int, fresh: int, graveyard: Graveyard) -> None:
        """``analysis``, of ``revision`` (the document's text, last touched at ``fresh``), is the latest now;
        what it replaces goes to ``graveyard`` (``shift`` answers until the new analysis's lookups are made)."""
        graveyard.bury(self.analysis, self.dying_uses())
        self.analysis, self.revision, self.uses = analysis, revision, None
        if self.base is not None and (self.base.text != analysis.text or self.base_fresh != fresh):
            graveyard.bury(self.base)
            self.base = None  # the next incremental check starts from this analysis
        elif self.base is not None:
            # The base of the same text, made by the incremental check of this revision, is kept (with the
            # excerpt of the unit being edited): starting afresh from the full analysis would cost the next
            # edit a walk over every unit of the document. It holds nothing of the replaced analysis.
            rebase(self.base, analysis)

    def supersede(self) -> None:
        """Whoever waits for the settled analysis of an older revision gets ``Superseded``."""
        if self.settled is not None and not self.settled.done():
            self.settled.set_exception(Superseded())


async def _settled_first(waits: list[Awaitable[object]]) -> None:
    """Until the analyses awaited have settled (at most AFTER_LIMIT seconds; one superseded or closed
    meanwhile is not waited for)."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    for t in tasks:
        t.add_done_callback(_consume)
    try:
        await asyncio.wait(tasks, timeout=AFTER_LIMIT)
    finally:
        for t in tasks:
            if not t.done():
                t.cancel()


async def _check_growth(executor: Executor, collector: Collector, graveyard: Graveyard) -> None:
    """After a run's diagnostics have gone out: whether what it froze calls for a sweep now (counting
    the frozen objects walks them all: 10-25 ms that no edit should wait for). What the graveyard is
    still freeing is no growth: the check waits for it (2 s at most)."""
    await asyncio.sleep(0.01)
    for _ in range(200):
        if not graveyard.pending:
            break
        await asyncio.sleep(0.01)
    try:
        await asyncio.get_running_loop().run_in_executor(executor, collector.check)
    except RuntimeError:  # the executor was shut down: the server is stopping
        return
    collector.activity()  # a doubling found: the sweep waits for a shorter quiet


def _consume(fut: asyncio.Future) -> None:
    """Mark a future's exception as seen (nobody may be waiting for it)."""
    if not fut.cancelled():
        fut.exception()


def _source(slot: _Slot, fresh: int) -> Base | Analysis | None:
    """What an incremental check of a document last touched at revision ``fresh`` starts from: the slot's
    base or full analysis, if made since (a file its includes read changed: only a full analysis reads it)."""
    if slot.revision < fresh:
        return None
    if slot.base_fresh != fresh:
        slot.base = None
    if slot.base is None and isinstance(slot.analysis, Analysis) and slot.analysis.options is not None:
        return slot.analysis
    return slot.base


def _touched(doc: Document | None, revision: int) -> int:
    """The document's last touch, for a base made from its analysis of ``revision`` (-2, no touch, if older)."""
    return doc.fresh_from if doc is not None and revision >= doc.fresh_from else -2


def failed_analysis(text: str, path: str | None, exc: BaseException, fault: str = "") -> Analysis:
    """What to show when the core raised: one diagnostic, and the text so positions still map."""
    xml = XmlDocument(text=text, lines=LineIndex(text), root=None)
    result = Analysis(text=text, path=path, xml=xml)
    result.diagnostics = [
        error(
            "INTERNAL_ERROR",
            f"sdformat-lsp could not analyse this document ({type(exc).__name__}: {exc}){' [fault ' + fault + ']' if fault else ''}; please report it",
            Span(0, 0),
        )
    ]
    return result


def _full_run(
    analyze: Analyze,
    collector: Collector | None,
    text: str,
    path: str | None,
    stop: threading.Event | None = None,
    background: bool = False,
    lines: LineIndex | None = None,
) -> Analysis:
    """In a worker thread: the core never raises on bad input, but a bug must not kill the server.
    ``lines``, the document's line index: the analysis takes its line starts when they are found (finding
    them again took 16-18 ms of the interpreter on 3k_shapes.sdf, in the first request after an edit).
    Raises :class:`AnalysisCancelled` when ``stop`` is set (the run is no longer wanted), after freeing
    what the run had built a slice at a time (``disposal.free_here``).

    The features' lookups are made after a run whose result someone awaits, by ``_prepare_next``
    (its diagnostics go out first), and within a ``background`` run (diagnostics published from an
    incremental check already): the analysis is delivered with them, so a request answered from it
    (after the next edit, from ``Scheduler.earlier``) never builds them itself at the same time as
    ``_prepare_next`` does, each slowed by the other's share of the interpreter."""
    stopped = False
    # what the run leaves alive (the analysis, or what a stopped run could not free) is frozen as the
    # collector resumes, its growth checked after the publication (_check_growth; server/collector.py)
    with _freezing(collector):
        try:
            if stop is None:
                analysis = analyze(text, path)
            else:
                with cancellable(stop):
                    analysis = analyze(text, path)
        except AnalysisCancelled as cancelled:
            stopped = True
            remains = [remains_of(cancelled)]  # freed below, a slice at a time
        except Exception as exc:
            fault = log_fault(f"analysing {path or 'an unsaved document'}", exc)
            return failed_analysis(text, path, exc, fault)
        if stopped:
            free_here(remains)
            # Raised afresh, out of the handler: the exception caught holds the frames of the run, and
            # through them the half-built analysis, for as long as the future keeps its exception.
            raise AnalysisCancelled()
        if lines is not None:
            analysis.lines.adopt(lines)
        if background and not (stop is not None and stop.is_set()):  # (a text gone: not worth it)
            try:
                features.prepare(analysis, stop.is_set if stop is not None else None)  # (a new edit: stops)
            except Exception as exc:  # the first request makes them, and meets the same fault there
                log_fault(f"preparing {path or 'an unsaved document'}", exc)
    return analysis


def _freezing(collector: Collector | None) -> collector_paused:
    """The pause of the server's work over large analyses: what the work leaves alive (long-lived, made of
    many objects, like an analysis) is frozen as the collector resumes (``collector_pause``)."""
    return collector_paused(then=collector.freeze if collector is not None else None)


def _in_pause(collector: Collector | None, work: Callable[..., _T], *args: object) -> _T:
    """In a worker: ``work(*args)`` under :func:`_freezing` (an incremental step, the lookups after a run)."""
    with _freezing(collector):
        return work(*args)


def _prepare(analysis: Analysis, want_base: bool) -> tuple[Base | None, ScopeUses | None]:
    """In a worker: the features' lookups of a new full analysis, its incremental base if wanted, and its
    scope uses (what the first incremental step after it would make: 40 ms on a 100k-line world)."""
    features.prepare(analysis)
    base = base_of(analysis, analysis.options) if want_base and analysis.options is not None else None
    return base, scope_uses(analysis) if analysis.options is not None else None


def _step(
    options_of: Callable[["str | None"], Options],
    source: Base | Analysis,
    text: str,
    path: str | None,
    lines: LineIndex,
    earlier: Analysis | None,
    uses: ScopeUses | None,
) -> tuple[QuickAnalysis, Base, Shift | None, ScopeUses | None] | None:
    """In a worker thread: the incremental check of ``text`` and how it differs from ``earlier`` (when that
    is sealed); a bug here costs a full analysis, never a wrong or missing result."""
    try:
        options = None if isinstance(source, Base) else source.options  # never None: see _incremental
        base = source if isinstance(source, Base) else base_of(source, options) if options is not None else None
        if base is None:
            return None
        got = reanalyze(base, text, path, options_of(path), lines)
        if got is None:
            return None
        if earlier is not None and uses is None:
            uses = scope_uses(earlier)  # once per full analysis
        shift = sealed_shift(earlier, got[1], uses) if earlier is not None and uses is not None else None
        return got[0], got[1], shift, uses
    except Exception as exc:
        log_fault(f"checking {path or 'an unsaved document'} incrementally", exc)
        return None


class Scheduler:
    def __init__(
        self,
        store: DocumentStore,
        analyze: Analyze,
        executor: Executor,
        debounce: Callable[[], float],
        on_settled: Callable[[Document, Checked], None],
        options: Callable[["str | None"], Options] | None = None,
        collector: Collector | None = None,
    ) -> None:
        self.store = store
        self._analyze = analyze
        self.executor = executor
        self._debounce = debounce
        self._on_settled = on_settled
        self._options = options  # given: diagnostics after an edit are checked incrementally where they can be
        self._slots: dict[str, _Slot] = {}
        self.gate = Gate()
        # replaced analyses are freed a slice at a time between messages, never in one go (disposal.py)
        self.graveyard = Graveyard()
        self.collector = collector  # given: every full analysis is frozen out of the cyclic collector's passes

    # -- scheduling ----------------------------------------------------

    def schedule(self, doc: Document, *, immediate: bool = False, after: list[str] | tuple[str, ...] = ()) -> None:
        """(Re)start the quiet-period timer for ``doc``'s current revision; with ``after``, its analysis
        starts once those documents' analyses have settled (at most AFTER_LIMIT seconds later)."""
        loop = asyncio.get_running_loop()
        slot = self._slots.setdefault(doc.uri, _Slot())
        if self.collector is not None:
            self.collector.activity()
        if slot.timer is not None:
            slot.timer.cancel()
        slot.supersede()
        slot.stop_unwanted(doc.revision)
        slot.settled = loop.create_future()
        slot.settled.add_done_callback(_consume)
        slot.settled_revision = doc.revision
        # Leading and trailing edge: the first change after a quiet period is
        # checked at once (an edit shows its result as fast as the analysis
        # allows); changes that follow each other closely wait until typing pauses.
        debounce = max(0.0, self._debounce())
        now = loop.time()
        quiet = now - slot.last_edit >= debounce
        slot.last_edit = now
        delay = 0.0 if immediate or quiet else debounce
        slot.timer = loop.create_task(self._debounced(doc.uri, doc.revision, delay, tuple(after)))

    def forget(self, uri: str) -> None:
        """The document closed: stop its timer and fail anyone waiting for it."""
        slot = self._slots.pop(uri, None)
        if slot is None:
            return
        if slot.timer is not None:
            slot.timer.cancel()
        slot.supersede()
        slot.stop_unwanted(-1)
        self.graveyard.bury(slot)

    def close(self) -> None:
        for uri in list(self._slots):
            self.forget(uri)
        self.graveyard.drain()

    async def _debounced(self, uri: str, revision: int, delay: float, after: tuple[str, ...] = ()) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            if after:  # an edited library: the files including it first (their diagnostics show the edit)
                await _settled_first([self.settled(u) for u in after])
            doc = self.store.get(uri)
            if doc is None or doc.revision != revision:
                return
            analysis: Checked | None = await self._incremental(doc) if self._options is not None else None
            if analysis is None:
                analysis = await asyncio.shield(self._ensure(doc))
            doc = self.store.get(uri)
            if doc is None or doc.revision != revision:
                log.debug("dropping the analysis of %s revision %d: the document moved on", uri, revision)
                return
            slot = self._slots.get(uri)
            if (
                slot is not None
                and slot.settled_revision == revision
                and slot.settled is not None
                and not slot.settled.done()
            ):
                slot.settled.set_result(analysis)
            self._on_settled(doc, analysis)
            if isinstance(analysis, QuickAnalysis):
                await self._build_in_background(uri, revision)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log_fault(f"checking {uri}", exc)

    async def _build_in_background(self, uri: str, revision: int) -> None:
        """Checked incrementally: the features need the full analysis. Start it shortly (a new edit
        cancels this task with the timer, and stops the run if no request has joined it by then)."""
        await asyncio.sleep(max(FULL_ANALYSIS_AFTER, self._debounce()))  # a pause as long as the debounce
        slot = self._slots.get(uri)
        while slot is not None and slot.running is not None and slot.running[0] != revision:
            # A run of an older text (stopping, or wanted by a request): one run at a time, so that
            # the next edit's incremental check never waits behind two whole analyses.
            await asyncio.wait([slot.running[1]])
            slot = self._slots.get(uri)
        doc = self.store.get(uri)
        if doc is not None and doc.revision == revision:
            try:
                await asyncio.shield(self._ensure(doc, wanted=False))
            except AnalysisCancelled:
                pass

    async def _incremental(self, doc: Document) -> QuickAnalysis | None:
        """The diagnostics of the current text checked from the last result (semantics/incremental.py), or
        None: a full analysis is needed. The features still get a full analysis when they ask for one."""
        slot = self._slots.get(doc.uri)
        options_of = self._options
        if slot is None or not self.gate.is_open or options_of is None:
            return None
        fresh = doc.fresh_from
        source = _source(slot, fresh)
        if source is None:
            return None
        earlier, uses = slot.earlier()
        step = functools.partial(_step, options_of, source, doc.text, doc.path, doc.lines, earlier, uses)
        got = await asyncio.get_running_loop().run_in_executor(self.executor, _in_pause, self.collector, step)
        got = got if doc.fresh_from == fresh else None  # touched meanwhile: what the step read may be stale
        self.graveyard.bury(slot.base)
        slot.base, slot.base_fresh = (got[1] if got is not None else None), fresh
        if got is not None and earlier is not None:
            slot.keep(doc.revision, earlier, got[2], got[3])
        elif earlier is not None and earlier is not slot.analysis and not slot.holds_earlier(earlier):
            self.graveyard.bury(earlier)  # no longer kept: this was its last reference
        return got[0] if got is not None else None

    def earlier(self, uri: str) -> tuple[Analysis, Shift] | None:
        """Until the current text's full analysis is built and its lookups made (``_prepare_next``): the last
        one and how the text differs from it, when that is sealed in one element
        (``semantics.incremental.sealed_shift``; requests.with_snapshot)."""
        doc, slot = self.store.get(uri), self._slots.get(uri)
        if doc is None or slot is None or slot.shift is None or slot.shift[0] != doc.revision:
            return None
        return slot.shift[1], slot.shift[2]

    # -- results -------------------------------------------------------

    async def analysis(self, uri: str) -> Analysis | None:
        """An analysis of the document's current text (see the module docstring)."""
        doc = self.store.get(uri)
        if doc is None:
            return None
        if self.collector is not None:
            self.collector.activity()
        return await asyncio.shield(self._ensure(doc))

    async def settled(self, uri: str) -> tuple[int, Checked]:
        """Wait for the debounced analysis of the current revision.

        Raises ``Superseded`` when the document changes or closes first.
        """
        doc = self.store.get(uri)
        if doc is None:
            raise Superseded()
        slot = self._slots.get(uri)
        if slot is None or slot.settled is None or slot.settled_revision != doc.revision:
            self.schedule(doc, immediate=True)
            slot = self._slots[uri]
        revision = slot.settled_revision
        assert slot.settled is not None
        return revision, await asyncio.shield(slot.settled)

    def latest(self, uri: str) -> tuple[int, Analysis | Husk] | None:
        """The newest kept analysis and its revision (possibly older than the text, and then
        possibly only its :class:`Husk`: read ``includes`` and ``included_analysis`` only)."""
        slot = self._slots.get(uri)
        if slot is None or slot.analysis is None:
            return None
        return slot.revision, slot.analysis

    def _ensure(self, doc: Document, wanted: bool = True) -> asyncio.Future[Analysis]:
        """The full analysis of ``doc``'s current text: kept, running, or started now. ``wanted=False``
        (the background build only): nobody waits for it, so a new edit may stop it."""
        loop = asyncio.get_running_loop()
        slot = self._slots.setdefault(doc.uri, _Slot())
        revision = doc.revision
        if slot.revision == revision and isinstance(slot.analysis, Analysis):
            done: asyncio.Future[Analysis] = loop.create_future()
            done.set_result(slot.analysis)
            return done
        if slot.running is not None and slot.running[0] == revision:
            slot.wanted = slot.wanted or wanted
            return slot.running[1]
        if isinstance(slot.analysis, Analysis):
            if not slot.holds_earlier(slot.analysis):
                self.graveyard.bury(slot.analysis)
            slot.analysis = Husk(slot.analysis)  # free it before the next one is built
        slot.stop = threading.Event()
        slot.wanted = wanted
        fut: asyncio.Future[Analysis] = loop.create_task(
            self._start(
                doc.lines, doc.path, functools.partial(self._settle_early, doc.uri, revision), slot.stop, not wanted
            )
        )
        slot.running = (revision, fut)
        fut.add_done_callback(functools.partial(self._finished, doc.uri, revision))
        return fut

    async def _start(
        self,
        lines: LineIndex,  # the document's: its text, and its line starts if found (see _full_run)
        path: str | None,
        done: Callable[[asyncio.Future[Analysis]], None],
        stop: threading.Event,
        background: bool = False,
    ) -> Analysis:
        """The text is fixed now; the run waits for settings that are being fetched."""
        if not self.gate.is_open:
            await self.gate.wait()
        if stop.is_set():
            raise AnalysisCancelled()
        work = functools.partial(_full_run, self._analyze, self.collector, lines=lines)  # in a worker thread
        run = asyncio.get_running_loop().run_in_executor(self.executor, work, lines.text, path, stop, background)
        run.add_done_callback(done)  # before this task's own wake-up: see _settle_early
        return await run

    def _settle_early(self, uri: str, revision: int, run: asyncio.Future[Analysis]) -> None:
        """The analysis of the current text is done: whoever waits for the settled result (a
        diagnostic pull) gets it now, one step of the event loop before the requests that await the
        analysis itself (document symbols, colours, hints, frames... all sent with the pull when a
        file opens) wake up and compute their answers: the problems reach the editor first. The
        same result the debounced run would give: it reuses this analysis of this revision."""
        if run.cancelled() or run.exception() is not None:
            return
        doc = self.store.get(uri)
        slot = self._slots.get(uri)
        if doc is None or doc.revision != revision or slot is None or slot.settled_revision != revision:
            return
        if slot.settled is not None and not slot.settled.done():
            slot.settled.set_result(run.result())

    def _finished(self, uri: str, revision: int, fut: asyncio.Future[Analysis]) -> None:
        """A run is over: its analysis is kept if its text is still the document's. One that is not (a text
        already gone, a closed document) is buried: the run's task holds its only reference, and dropping the
        task freed all of it in one cascade on the loop (20-35 ms on 3k_shapes.sdf, requests waiting)."""
        result = None if fut.cancelled() or fut.exception() is not None else fut.result()
        slot = self._slots.get(uri)
        if slot is None:
            self.graveyard.bury(result)
            return
        if slot.running is not None and slot.running[0] == revision:
            slot.running, slot.stop, slot.wanted = None, None, False
        if result is None:
            return
        if self.collector is not None:
            self.collector.activity()  # (re)arm the idle sweep of what the run froze
            asyncio.ensure_future(_check_growth(self.executor, self.collector, self.graveyard))
        doc = self.store.get(uri)
        if doc is not None and doc.revision == revision:
            slot.adopt(result, revision, doc.fresh_from, self.graveyard)
            want_base = slot.base is None and self._options is not None and result.options is not None
            asyncio.ensure_future(self._prepare_next(uri, revision, result, want_base))
        else:
            self.graveyard.bury(result)

    async def _prepare_next(self, uri: str, revision: int, analysis: Analysis, want_base: bool) -> None:
        """Make now, in a worker, what the next request and the next edit would otherwise make first: the
        features' lookups and the incremental base of
        the new analysis (a walk over every unit: ~60 ms on a 100k-line world, most of the first edit
        after opening it). The base is kept only if nothing newer came meanwhile (an edit makes its own)."""
        # after the run's diagnostics have gone out (the loop's next work): no contention with them
        await asyncio.sleep(0.01)
        try:
            base, uses = await asyncio.get_running_loop().run_in_executor(
                self.executor, _in_pause, self.collector, _prepare, analysis, want_base
            )
        except Exception as exc:  # the next request or edit makes them, and meets the same fault there
            log_fault(f"preparing {analysis.path or 'an unsaved document'}", exc)
            base = uses = None
        slot = self._slots.get(uri)
        if slot is not None and slot.shift is not None and slot.shift[0] == revision:
            self.graveyard.bury(slot.shift)
            slot.shift = None  # this analysis answers everything now
        if base is None and uses is None:
            return
        if uses is not None and slot is not None and slot.analysis is analysis and slot.uses is None:
            slot.uses = (analysis, uses)  # read by Slot.earlier while this analysis is the earlier one
        if (
            base is not None
            and slot is not None
            and slot.base is None
            and slot.revision == revision
            and slot.analysis is analysis
        ):
            slot.base, slot.base_fresh = base, _touched(self.store.get(uri), revision)
