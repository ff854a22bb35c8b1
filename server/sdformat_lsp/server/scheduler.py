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
  while the full analysis the features need is built after
  ``FULL_ANALYSIS_AFTER`` seconds of quiet, or at once when a request asks.
* While the settings are being fetched from the client, analyses wait
  (``hold``): checking with settings about to be replaced would publish
  diagnostics that are wrong and then immediately different.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Callable

from ..diagnostics import error
from ..semantics import Analysis, Options
from ..semantics.incremental import Base, QuickAnalysis, base_of, reanalyze
from ..text import LineIndex, Span
from ..xml.tree import XmlDocument
from .documents import Document, DocumentStore
from .faults import log_fault

log = logging.getLogger("sdformat_lsp.server")

FULL_ANALYSIS_AFTER = 1.0  # seconds of quiet after an incremental check before the features' full analysis

Analyze = Callable[[str, "str | None"], Analysis]


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

    __slots__ = ("includes",)

    def __init__(self, analysis: Analysis) -> None:
        self.includes = analysis.includes

    def included_analysis(self, path: str) -> Analysis | None:
        return Analysis.included_analysis(self, path)  # type: ignore[arg-type]  # reads only .includes


@dataclass(slots=True)
class _Slot:
    analysis: Analysis | Husk | None = None
    revision: int = -1  # the revision ``analysis`` was made from
    running: tuple[int, asyncio.Future[Analysis]] | None = None
    timer: asyncio.Task[None] | None = None
    settled: asyncio.Future[Analysis] | None = None
    settled_revision: int = -1
    last_edit: float = float("-inf")  # loop time of the last scheduled change
    base: Base | None = None  # for incremental checks: the last result checked, as plain offsets and diagnostics


def _consume(fut: asyncio.Future) -> None:
    """Mark a future's exception as seen (nobody may be waiting for it)."""
    if not fut.cancelled():
        fut.exception()


def failed_analysis(text: str, path: str | None, exc: BaseException, fault: str = "") -> Analysis:
    """What to show when the core raised: one diagnostic, and the text so positions still map."""
    xml = XmlDocument(text=text, lines=LineIndex(text), root=None)
    result = Analysis(text=text, path=path, xml=xml)
    result.diagnostics = [
        error("INTERNAL_ERROR", f"sdformat-lsp could not analyse this document ({type(exc).__name__}: {exc}){' [fault ' + fault + ']' if fault else ''}; please report it", Span(0, 0))
    ]
    return result


class Scheduler:
    def __init__(
        self,
        store: DocumentStore,
        analyze: Analyze,
        executor: Executor,
        debounce: Callable[[], float],
        on_settled: Callable[[Document, Analysis], None],
        options: Callable[["str | None"], Options] | None = None,
    ) -> None:
        self.store = store
        self._analyze = analyze
        self.executor = executor
        self._debounce = debounce
        self._on_settled = on_settled
        self._options = options  # given: diagnostics after an edit are checked incrementally where they can be
        self._slots: dict[str, _Slot] = {}
        self.gate = Gate()

    # -- scheduling ----------------------------------------------------

    def schedule(self, doc: Document, *, immediate: bool = False) -> None:
        """(Re)start the quiet-period timer for ``doc``'s current revision."""
        loop = asyncio.get_running_loop()
        slot = self._slots.setdefault(doc.uri, _Slot())
        if slot.timer is not None:
            slot.timer.cancel()
        self._supersede(slot)
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
        slot.timer = loop.create_task(self._debounced(doc.uri, doc.revision, delay))

    def forget(self, uri: str) -> None:
        """The document closed: stop its timer and fail anyone waiting for it."""
        slot = self._slots.pop(uri, None)
        if slot is None:
            return
        if slot.timer is not None:
            slot.timer.cancel()
        self._supersede(slot)

    def close(self) -> None:
        for uri in list(self._slots):
            self.forget(uri)

    @staticmethod
    def _supersede(slot: _Slot) -> None:
        if slot.settled is not None and not slot.settled.done():
            slot.settled.set_exception(Superseded())

    async def _debounced(self, uri: str, revision: int, delay: float) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            doc = self.store.get(uri)
            if doc is None or doc.revision != revision:
                return
            analysis = await self._incremental(doc) if self._options is not None else None
            if analysis is None:
                analysis = await asyncio.shield(self._ensure(doc))
            doc = self.store.get(uri)
            if doc is None or doc.revision != revision:
                log.debug("dropping the analysis of %s revision %d: the document moved on", uri, revision)
                return
            slot = self._slots.get(uri)
            if slot is not None and slot.settled_revision == revision and slot.settled is not None and not slot.settled.done():
                slot.settled.set_result(analysis)
            self._on_settled(doc, analysis)
            if isinstance(analysis, QuickAnalysis):
                # Checked incrementally: the features need the full analysis. Build it once the user has
                # paused (a new edit cancels this task with the timer), unless a request asks first.
                await asyncio.sleep(FULL_ANALYSIS_AFTER)
                doc = self.store.get(uri)
                if doc is not None and doc.revision == revision:
                    await asyncio.shield(self._ensure(doc))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log_fault(f"checking {uri}", exc)

    async def _incremental(self, doc: Document) -> QuickAnalysis | None:
        """The diagnostics of the current text checked from the last result (semantics/incremental.py), or
        None: a full analysis is needed. The features still get a full analysis when they ask for one."""
        slot = self._slots.get(doc.uri)
        if slot is None or not self.gate.is_open:
            return None
        source: Base | Analysis | None = slot.base
        if source is None and isinstance(slot.analysis, Analysis) and slot.analysis.options is not None:
            source = slot.analysis
        if source is None:
            return None
        got = await asyncio.get_running_loop().run_in_executor(self.executor, self._step, source, doc.text, doc.path, doc.lines)
        if got is None:
            slot.base = None
            return None
        slot.base = got[1]
        return got[0]

    def _step(self, source: Base | Analysis, text: str, path: str | None, lines: LineIndex) -> tuple[QuickAnalysis, Base] | None:
        """In a worker thread; a bug here costs a full analysis, never a wrong or missing result."""
        try:
            assert self._options is not None
            base = source if isinstance(source, Base) else base_of(source, source.options)
            if base is None:
                return None
            return reanalyze(base, text, path, self._options(path), lines)
        except Exception as exc:
            log_fault(f"checking {path or 'an unsaved document'} incrementally", exc)
            return None

    # -- results -------------------------------------------------------

    async def analysis(self, uri: str) -> Analysis | None:
        """An analysis of the document's current text (see the module docstring)."""
        doc = self.store.get(uri)
        if doc is None:
            return None
        return await asyncio.shield(self._ensure(doc))

    async def settled(self, uri: str) -> tuple[int, Analysis]:
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

    def _ensure(self, doc: Document) -> asyncio.Future[Analysis]:
        loop = asyncio.get_running_loop()
        slot = self._slots.setdefault(doc.uri, _Slot())
        revision = doc.revision
        if slot.revision == revision and isinstance(slot.analysis, Analysis):
            done: asyncio.Future[Analysis] = loop.create_future()
            done.set_result(slot.analysis)
            return done
        if slot.running is not None and slot.running[0] == revision:
            return slot.running[1]
        if isinstance(slot.analysis, Analysis):
            slot.analysis = Husk(slot.analysis)  # free it before the next one is built
        fut: asyncio.Future[Analysis] = loop.create_task(self._start(doc.text, doc.path, functools.partial(self._settle_early, doc.uri, revision)))
        slot.running = (revision, fut)
        fut.add_done_callback(functools.partial(self._finished, doc.uri, revision))
        return fut

    async def _start(self, text: str, path: str | None, done: Callable[[asyncio.Future[Analysis]], None]) -> Analysis:
        """The text is fixed now; the run waits for settings that are being fetched."""
        if not self.gate.is_open:
            await self.gate.wait()
        run = asyncio.get_running_loop().run_in_executor(self.executor, self._run, text, path)
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

    def _run(self, text: str, path: str | None) -> Analysis:
        """In a worker thread: the core never raises on bad input, but a bug must not kill the server."""
        try:
            return self._analyze(text, path)
        except Exception as exc:
            fault = log_fault(f"analysing {path or 'an unsaved document'}", exc)
            return failed_analysis(text, path, exc, fault)

    def _finished(self, uri: str, revision: int, fut: asyncio.Future[Analysis]) -> None:
        slot = self._slots.get(uri)
        if slot is None:
            return
        if slot.running is not None and slot.running[0] == revision:
            slot.running = None
        if fut.cancelled() or fut.exception() is not None:
            return
        doc = self.store.get(uri)
        if doc is not None and doc.revision == revision:
            slot.analysis = fut.result()
            slot.revision = revision
            slot.base = None  # the next incremental check starts from this analysis
