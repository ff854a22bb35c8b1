"""The full analysis after an incremental check is built in the background and stopped when the text
moves on (unless a request waits for it); analyses stop only at the top level; the server's collector
freezes analyses out of the cyclic collector's passes without keeping any garbage for good."""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor

import pytest
from lsprotocol import types

import sdformat_lsp.semantics.analysis as A
from sdformat_lsp.semantics import Analysis, Options, analyze
from sdformat_lsp.semantics.analysis import AnalysisCancelled, cancellable
from sdformat_lsp.semantics.incremental import QuickAnalysis
from sdformat_lsp.server import collector as collector_module
from sdformat_lsp.server.collector import Collector
from sdformat_lsp.server.documents import DocumentStore
from sdformat_lsp.server.scheduler import Scheduler

URI = "file:///tmp/world.sdf"


def _world(x: str) -> str:
    """Three models; ``x`` is the first one's x (an edit of it is checked incrementally)."""
    models = "".join(
        f'<model name="m{i}"><pose>{x if i == 0 else 0} 0 0 0 0 0</pose><link name="l"/></model>' for i in range(3)
    )
    return f'<sdf version="1.9"><world name="w">{models}</world></sdf>'


class _Harness:
    """A scheduler that checks edits incrementally; ``hold`` blocks the full analyses of chosen texts."""

    def __init__(self) -> None:
        self.store = DocumentStore()
        self.executor = ThreadPoolExecutor(2)
        self.hold: dict[str, threading.Event] = {}
        self.entered: list[str] = []  # texts whose full analysis started
        self.finished: list[str] = []  # texts whose full analysis ran to its end
        self.stopped: list[str] = []  # texts whose full analysis was stopped
        self.published: list[tuple[int | None, object]] = []
        self.scheduler = Scheduler(
            self.store, self.analyze, self.executor, lambda: 0.0, self.settled, lambda path: Options()
        )

    def analyze(self, text: str, path):
        self.entered.append(text)
        gate = self.hold.get(text)
        if gate is not None:
            assert gate.wait(5)
        try:
            result = analyze(text, path, Options())
        except AnalysisCancelled:
            self.stopped.append(text)
            raise
        self.finished.append(text)
        return result

    def settled(self, doc, analysis) -> None:
        self.published.append((doc.version, analysis))

    def open(self, text: str):
        doc = self.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text=text))
        self.scheduler.schedule(doc, immediate=True)
        return doc

    def change(self, version: int, text: str):
        doc = self.store.change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            ),
            "utf-16",
        )
        self.scheduler.schedule(doc)
        return doc

    async def until(self, predicate, timeout: float = 5.0) -> None:
        for _ in range(int(timeout / 0.01)):
            if predicate():
                return
            await asyncio.sleep(0.01)
        raise AssertionError("timed out")

    def close(self) -> None:
        for gate in self.hold.values():
            gate.set()
        self.scheduler.close()
        self.executor.shutdown(wait=True)


async def test_the_full_analysis_is_built_without_a_request_after_an_incremental_check():
    h = _Harness()
    h.open(_world("1"))
    await h.until(lambda: h.published)
    h.change(2, _world("2"))
    await h.until(lambda: len(h.published) == 2)
    assert isinstance(h.published[1][1], QuickAnalysis)  # the edit was checked incrementally
    await h.until(lambda: _world("2") in h.finished)
    await h.until(
        lambda: h.scheduler.latest(URI) is not None and getattr(h.scheduler.latest(URI)[1], "text", None) == _world("2")
    )
    assert isinstance(h.scheduler.latest(URI)[1], Analysis)
    h.close()


async def test_a_background_run_delivers_its_analysis_with_the_features_lookups(monkeypatch):
    """A run after an incremental check prepares the features' lookups before it is delivered: a request
    answered from it (after the next edit, ``Scheduler.earlier``) must not build them at the same time as
    a worker does. A run a publication waits for delivers first and prepares after (``_prepare_next``)."""
    from sdformat_lsp import features

    prepared: list[str] = []
    real = features.prepare
    monkeypatch.setattr(features, "prepare", lambda a, *rest: (prepared.append(a.text), real(a, *rest))[1])
    h = _Harness()
    delivered: list[tuple[str, bool]] = []
    real_finished = h.scheduler._finished

    def finished(uri, revision, fut) -> None:
        if not fut.cancelled() and fut.exception() is None:
            delivered.append((fut.result().text, fut.result().text in prepared))
        real_finished(uri, revision, fut)

    h.scheduler._finished = finished  # type: ignore[method-assign]
    h.open(_world("1"))
    await h.until(lambda: h.published)
    h.change(2, _world("2"))
    await h.until(lambda: _world("2") in h.finished)
    await h.until(lambda: len(delivered) == 2)
    assert delivered == [(_world("1"), False), (_world("2"), True)]
    h.close()


async def test_a_background_run_nobody_waits_for_stops_when_the_text_changes():
    h = _Harness()
    h.open(_world("1"))
    await h.until(lambda: h.published)
    h.hold[_world("2")] = threading.Event()
    h.change(2, _world("2"))
    await h.until(lambda: _world("2") in h.entered)  # the background run, blocked before its analysis
    h.change(3, _world("3"))  # before its analysis starts: it must stop at its first phase boundary
    h.hold[_world("2")].set()
    await h.until(lambda: _world("2") in h.stopped)
    assert _world("2") not in h.finished
    got = await asyncio.wait_for(h.scheduler.analysis(URI), 5)  # the current text is still served
    assert got.text == _world("3")
    h.close()


async def test_a_background_run_a_request_joined_runs_to_its_end():
    h = _Harness()
    h.open(_world("1"))
    await h.until(lambda: h.published)
    h.hold[_world("2")] = threading.Event()
    h.change(2, _world("2"))
    await h.until(lambda: _world("2") in h.entered)
    request = asyncio.ensure_future(h.scheduler.analysis(URI))  # a hover on revision 2
    await asyncio.sleep(0.05)
    h.change(3, _world("3"))
    h.hold[_world("2")].set()
    got = await asyncio.wait_for(request, 5)
    assert got.text == _world("2") and _world("2") in h.finished and not h.stopped
    h.close()


async def test_an_analysis_of_a_text_already_gone_is_left_to_the_graveyard(monkeypatch):
    """A run a request joined runs to its end even when the text changed meanwhile; its analysis is kept by
    nobody, and the run's task held its only reference: dropped with the task, all of it was freed in one
    cascade on the event loop (20-35 ms on 3k_shapes.sdf). The graveyard takes it instead."""
    h = _Harness()
    buried: list[object] = []
    bury = h.scheduler.graveyard.bury
    monkeypatch.setattr(h.scheduler.graveyard, "bury", lambda *objs: (buried.extend(objs), bury(*objs))[1])
    h.open(_world("1"))
    await h.until(lambda: h.published)
    h.hold[_world("2")] = threading.Event()
    h.change(2, _world("2"))
    await h.until(lambda: _world("2") in h.entered)
    request = asyncio.ensure_future(h.scheduler.analysis(URI))  # a hover on revision 2: never stopped
    await asyncio.sleep(0.05)
    h.change(3, _world("3"))
    h.hold[_world("2")].set()
    got = await asyncio.wait_for(request, 5)
    assert got.text == _world("2")
    assert any(obj is got for obj in buried)
    h.close()


async def test_the_base_kept_past_a_full_analysis_holds_nothing_of_the_one_it_replaced():
    """The base an incremental step made is kept when the full analysis of its text arrives; its names for
    suggestions held the scope of the analysis the chain of bases started from, and through it that
    analysis's frame graph, model and most of its tree, for good (bench_memory: 2.1-2.4 times the size
    after the first analysis). They are made from the new analysis's scope now."""
    h = _Harness()
    h.open(_world("1"))
    await h.until(lambda: h.published)
    slot = h.scheduler._slots[URI]
    await h.until(lambda: slot.base is not None and slot.uses is not None)  # made from the first analysis
    first = weakref.ref(h.scheduler.latest(URI)[1].graphs.root)
    h.change(2, _world("2"))
    await h.until(lambda: len(h.published) == 2)
    assert isinstance(h.published[1][1], QuickAnalysis)
    await h.until(lambda: getattr(h.scheduler.latest(URI)[1], "text", None) == _world("2"))
    await h.until(lambda: h.scheduler.earlier(URI) is None)
    assert slot.base is not None and slot.base.text == _world("2")  # the step's base, kept
    h.published.clear()  # (the harness's record of the first analysis)
    h.scheduler.graveyard.drain()
    gc.collect()
    assert first() is None
    h.close()


async def test_what_the_server_builds_under_a_pause_is_frozen_as_the_collector_resumes():
    """An incremental step (like a full run) is frozen when the collector resumes: left in the young
    generation, what it built met the collector's young pass all at once on whatever thread allocated
    next (100-145 ms after a step on 3k_shapes.sdf, requests waiting)."""
    h = _Harness()
    collector = Collector(idle=60)
    h.scheduler.collector = collector
    try:
        h.open(_world("1"))
        await h.until(lambda: h.published)
        await h.until(lambda: h.scheduler._slots[URI].uses is not None)  # (its lookups made: nothing runs)
        gc.unfreeze()
        h.change(2, _world("2"))
        await h.until(lambda: len(h.published) == 2)
        assert isinstance(h.published[1][1], QuickAnalysis)
        assert gc.get_freeze_count() > 0
    finally:
        h.close()
        collector.close()
        gc.unfreeze()


def test_a_set_stop_ends_the_run_at_a_phase_boundary_and_only_the_outermost(monkeypatch):
    text = _world("1")
    stop = threading.Event()
    with cancellable(stop):
        assert analyze(text).text == text  # not set: runs to its end
    stop.set()
    with cancellable(stop), pytest.raises(AnalysisCancelled):
        analyze(text)
    assert analyze(text).graphs is not None  # outside the block, never

    # An analysis made during a stoppable one (an included file's) runs to its end; the outer one stops after.
    stop.clear()
    inner: list[Analysis] = []
    real = A.inertial_warnings

    def inertial_warnings(xml):
        if not stop.is_set():
            stop.set()
            inner.append(analyze(_world("9")))
        return real(xml)

    monkeypatch.setattr(A, "inertial_warnings", inertial_warnings)
    with cancellable(stop), pytest.raises(AnalysisCancelled):
        analyze(text)
    assert len(inner) == 1 and inner[0].graphs is not None and inner[0].text == _world("9")


class _Node:
    def __init__(self) -> None:
        self.other: object = None


def _cycle() -> weakref.ref:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


async def test_the_collector_freezes_and_hands_everything_back_when_idle():
    collector = Collector(idle=0.05)
    try:
        dead = _cycle()  # cyclic garbage not yet collected when an analysis is frozen
        collector.keep()
        assert gc.get_freeze_count() > 0
        gc.collect()
        assert dead() is not None  # frozen: out of the collector's reach...
        collector.activity()
        await asyncio.sleep(0.02)
        collector.activity()  # ...until the server has been quiet for `idle`
        assert collector.sweeps == 0
        for _ in range(50):
            await asyncio.sleep(0.01)
            if collector.sweeps:
                break
        assert collector.sweeps == 1 and dead() is None
    finally:
        collector.close()
        gc.unfreeze()


def test_the_collector_sweeps_at_once_when_memory_quadruples():
    collector = Collector(idle=60)
    try:
        collector.keep()
        dead = _cycle()
        grown = [
            [i] for i in range(sys.getallocatedblocks() + 400_000)
        ]  # 3 blocks each: more than four times the memory in use
        collector.keep()
        assert collector.sweeps == 1 and dead() is None
        del grown
    finally:
        collector.close()
        gc.unfreeze()


async def test_a_doubling_sweeps_after_a_short_quiet_never_during_activity(monkeypatch):
    """Memory doubles without garbage whenever a large document's old and new analyses are alive at once:
    the full pass (0.3-0.45 s holding the interpreter on 3k_shapes.sdf) waits for a quiet moment, shorter
    than the idle one."""
    monkeypatch.setattr(collector_module, "GROWTH_QUIET", 0.05)
    collector = Collector(idle=60)
    try:
        collector.keep()
        dead = _cycle()
        grown = [[i] for i in range(sys.getallocatedblocks() // 2)]  # 3 blocks each: 2.5 times the blocks in use
        collector.keep()
        assert collector.sweeps == 0  # not at once
        collector.activity()
        for _ in range(5):  # edits and requests keep coming: still not
            await asyncio.sleep(0.02)
            collector.activity()
        assert collector.sweeps == 0
        await asyncio.sleep(0.2)  # quiet
        assert collector.sweeps == 1 and dead() is None
        del grown
    finally:
        collector.close()
        gc.unfreeze()


async def test_the_incremental_base_of_a_full_analysis_is_made_before_the_first_edit():
    h = _Harness()
    h.open(_world("1"))
    await h.until(lambda: h.published)
    await h.until(lambda: h.scheduler._slots[URI].base is not None)  # made in a worker, no edit needed
    assert h.scheduler._slots[URI].base.text == _world("1")
    slot = h.scheduler._slots[URI]
    await h.until(lambda: slot.uses is not None)  # so are its scope uses (the first step's sealed_shift)
    assert slot.uses[0] is slot.analysis and slot.earlier()[1] is slot.uses[1]
    h.change(2, _world("2"))
    await h.until(lambda: len(h.published) == 2)
    assert isinstance(h.published[1][1], QuickAnalysis)
    h.close()


async def test_requests_after_an_incremental_check_are_answered_from_the_earlier_analysis():
    """While the new text's full analysis is built, ``Scheduler.earlier`` gives the last full analysis and
    the shift of the edit (server/requests.with_snapshot answers hover, definition and completion outside
    the edited model from it); once the new analysis is built, it answers everything."""
    from sdformat_lsp import features
    from sdformat_lsp.server.convert import MovedLines, position

    h = _Harness()
    h.open(_world("1"))
    await h.until(lambda: h.published)
    h.hold[_world("22")] = threading.Event()
    doc = h.change(2, _world("22"))  # the first model's x typed longer: everything after it moves by one
    await h.until(lambda: _world("22") in h.entered)
    got = h.scheduler.earlier(URI)
    assert got is not None
    earlier, shift = got
    assert earlier.text == _world("1")
    at = doc.text.index('"l"', doc.text.index('name="m2"')) + 1  # the link of the last model
    lines = MovedLines(doc.lines, shift)
    hover = features.hover(earlier, shift.to_earlier(at))
    fresh = features.hover(analyze(doc.text, None, Options()), at)
    assert hover.text == fresh.text
    assert position(lines, hover.span.start, "utf-16") == position(doc.lines, fresh.span.start, "utf-16")
    inside = doc.text.index("22")
    assert shift.to_earlier(inside) is None  # the edited model: the new analysis answers
    h.hold[_world("22")].set()
    await h.until(lambda: _world("22") in h.finished)
    await h.until(lambda: h.scheduler.earlier(URI) is None)
    h.close()


async def test_the_earlier_analysis_answers_until_the_new_ones_lookups_are_made(monkeypatch):
    """A request that waited for the full analysis of an edited text (one held by the edit) gets it; the
    requests after it are answered from the earlier analysis, whose lookups are made, until the new
    analysis's are made too (``_prepare_next``), instead of making them again meanwhile."""
    import sdformat_lsp.server.scheduler as scheduler

    gate, made = threading.Event(), scheduler._prepare

    def prepare(analysis, want_base, *rest):
        if analysis.text == _world("22"):
            assert gate.wait(5)
        return made(analysis, want_base, *rest)

    monkeypatch.setattr(scheduler, "_prepare", prepare)
    h = _Harness()
    h.open(_world("1"))
    await h.until(lambda: h.published)
    await h.until(lambda: h.scheduler._slots[URI].uses is not None)
    h.change(2, _world("22"))
    await h.until(lambda: len(h.published) == 2)  # checked incrementally
    built = await h.scheduler.analysis(URI)
    assert built.text == _world("22")
    got = h.scheduler.earlier(URI)
    assert got is not None and got[0].text == _world("1")  # its lookups are made: it answers where it may
    gate.set()
    await h.until(lambda: h.scheduler.earlier(URI) is None)  # the new analysis's lookups are made now
    h.close()


async def test_an_edited_files_analysis_waits_for_those_of_the_files_including_it():
    """A library edited while the robot including it is open: the robot is checked first (its diagnostics
    show the edit), and the library's own analysis starts only once the robot's has settled."""
    h = _Harness()
    try:
        lib_uri = "file:///tmp/lib.sdf"
        robot_text, lib_text = _world("1"), _world("2")
        robot = h.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text=robot_text))
        lib = h.store.open(types.TextDocumentItem(uri=lib_uri, language_id="sdformat", version=1, text=lib_text))
        gate = h.hold[robot_text] = threading.Event()
        h.scheduler.schedule(robot, immediate=True)
        h.scheduler.schedule(lib, after=[URI])
        await h.until(lambda: robot_text in h.entered)
        await asyncio.sleep(0.2)
        assert lib_text not in h.entered  # waiting for the robot's analysis
        gate.set()
        await h.until(lambda: lib_text in h.finished)
        assert h.entered.index(robot_text) < h.entered.index(lib_text)
    finally:
        h.close()


def test_the_collector_measures_growth_only_when_asked():
    """keep(check=False) freezes at once (constant time) and leaves the measure to check(), which the
    server runs after publishing; check() sweeps when the memory in use doubled."""
    collector = Collector(idle=60)
    try:
        collector.keep()
        grown = [
            [i] for i in range(sys.getallocatedblocks() + 400_000)
        ]  # 3 blocks each: more than doubles the memory in use
        collector.keep(check=False)
        assert collector.sweeps == 0  # frozen, not yet counted
        collector.check()
        assert collector.sweeps == 1
        del grown
    finally:
        collector.close()
        gc.unfreeze()


def test_the_collector_never_counts_the_frozen_objects(monkeypatch):
    """Counting the frozen objects walks every one of them holding the interpreter (30-90 ms with
    3k_shapes.sdf open: a request arriving meanwhile waited that long); check() measures the allocator."""
    collector = Collector(idle=60)

    def walk() -> int:
        raise AssertionError("gc.get_freeze_count walked the frozen objects")

    try:
        collector.keep()
        monkeypatch.setattr(gc, "get_freeze_count", walk)
        grown = [[i] for i in range(sys.getallocatedblocks() + 400_000)]
        collector.check()
        assert collector.sweeps == 1
        collector.check()
        assert collector.sweeps == 1
        del grown
    finally:
        collector.close()
        gc.unfreeze()


async def test_a_full_analysis_takes_the_line_starts_the_document_has_found():
    """Finding a text's line starts is a pass over all of it holding the interpreter (16-18 ms on
    3k_shapes.sdf): the analysis of an open document's text takes the document's, already found."""
    h = _Harness()
    doc = h.open(_world("1"))
    await h.until(lambda: h.published)
    doc = h.change(2, _world("2"))
    found = doc.lines.starts  # the document's index has found them (an edit's positions do)
    built = await h.scheduler.analysis(URI)
    assert built.text == doc.text
    assert built.lines.starts is found
    h.close()
