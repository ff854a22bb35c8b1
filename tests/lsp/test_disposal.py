"""A replaced analysis is freed a slice at a time between the event loop's messages (server/disposal.py),
never in one cascade that a request would wait for; everything is freed in the end, and what is still
in use elsewhere is left as it was."""

from __future__ import annotations

import asyncio
import weakref

from sdformat_lsp.server import disposal
from sdformat_lsp.server.disposal import Graveyard

from .test_background_analysis import URI, _Harness, _world


class _Node:
    __slots__ = ("children", "attrs", "__weakref__")

    def __init__(self, children: list[_Node]) -> None:
        self.children = children
        self.attrs = {"name": "n", "pose": (0.0, 1.0, 2.0)}


def _tree(depth: int, fanout: int, freed: list[int]) -> tuple[_Node, list[_Node], list[weakref.ref]]:
    """A tree of ``fanout ** depth`` leaves, every node also in a flat index (shared within the structure,
    as an analysis's elements are by its tree and its model), each node counted in ``freed`` when freed."""
    index: list[_Node] = []
    refs: list[weakref.ref] = []
    level = [_Node([]) for _ in range(fanout**depth)]  # built bottom up: no recursive closure, no cycle
    while True:
        index += level
        if len(level) == 1:
            break
        level = [_Node(level[i : i + fanout]) for i in range(0, len(level), fanout)]
    for node in index:
        refs.append(weakref.ref(node, lambda _r: freed.append(1)))
    return level[0], index, refs


def _slices_counted(graveyard: Graveyard, freed: list[int], per_slice: list[int]) -> None:
    """Record how many nodes each of ``graveyard``'s slices freed."""
    run = graveyard._slice  # noqa: SLF001 - the test wraps the slice it measures

    def counted() -> None:
        before = len(freed)
        run()
        per_slice.append(len(freed) - before)

    graveyard._slice = counted  # type: ignore[method-assign]


async def test_a_large_structure_is_freed_in_slices_and_entirely():
    freed: list[int] = []
    root, index, refs = _tree(5, 10, freed)  # 111,111 nodes
    total = len(refs)
    graveyard = Graveyard()
    per_slice: list[int] = []
    _slices_counted(graveyard, freed, per_slice)
    graveyard.bury((root, index))
    del root, index
    assert freed == []  # nothing is freed until the loop runs a slice
    while graveyard.pending:
        await asyncio.sleep(0)
    assert len(freed) == total
    assert all(r() is None for r in refs)
    # a slice frees a part, never the whole at once (a one-shot drop frees all 111,111 in one go)
    assert len(per_slice) >= 4, per_slice
    assert max(per_slice) <= total // 3, per_slice


async def test_what_is_still_held_elsewhere_is_left_as_it_was():
    freed: list[int] = []
    root, index, refs = _tree(4, 8, freed)
    kept = root.children[3]  # e.g. a part the new analysis shares with the old one
    kept_leaves = [id(n) for n in kept.children[0].children]
    graveyard = Graveyard()
    graveyard.bury(root, index)
    del root, index
    while graveyard.pending:
        await asyncio.sleep(0)
    assert len(freed) == len(refs) - (1 + 8 + 64 + 512)  # all but ``kept`` and what it holds
    assert [id(n) for n in kept.children[0].children] == kept_leaves
    assert kept.attrs == {"name": "n", "pose": (0.0, 1.0, 2.0)}


def test_without_an_event_loop_objects_are_let_go_at_once():
    freed: list[int] = []
    root, index, refs = _tree(2, 3, freed)
    graveyard = Graveyard()
    graveyard.bury(root, index)
    del root, index
    assert len(freed) == len(refs)
    assert graveyard.pending == 0


async def test_drain_frees_everything_now():
    freed: list[int] = []
    root, index, refs = _tree(3, 10, freed)
    graveyard = Graveyard()
    graveyard.bury(root, index)
    del root, index
    graveyard.drain()
    assert len(freed) == len(refs)
    assert graveyard.pending == 0


async def test_a_slice_keeps_to_its_budget_whatever_the_first_objects_hold(monkeypatch):
    """The frontier is released largest share first, one object at first, then in batches as long as they
    are cheap: a wide structure behind few objects does not make one long slice."""
    monkeypatch.setattr(disposal, "EXPAND_LIMIT", 50)  # a frontier of subtrees of about 2,000 nodes
    freed: list[int] = []
    root, index, refs = _tree(5, 10, freed)
    del index
    graveyard = Graveyard()
    per_slice: list[int] = []
    _slices_counted(graveyard, freed, per_slice)
    graveyard.bury(root)
    del root
    while graveyard.pending:
        await asyncio.sleep(0)
    assert len(freed) == len(refs)
    assert max(per_slice) <= len(refs) // 3, per_slice


async def test_the_scheduler_frees_a_replaced_analysis_in_slices_after_delivering_the_new_one():
    h = _Harness()
    h.open(_world("1"))
    await h.until(lambda: h.published)
    graveyard = h.scheduler.graveyard
    in_slice = [False]
    run = graveyard._slice  # noqa: SLF001 - the test marks when a slice runs

    def marked() -> None:
        in_slice[0] = True
        try:
            run()
        finally:
            in_slice[0] = False

    graveyard._slice = marked  # type: ignore[method-assign]
    first = h.scheduler.latest(URI)[1]
    freed_in_slice: list[bool] = []
    root = weakref.ref(first.xml.root, lambda _r: freed_in_slice.append(in_slice[0]))
    del first
    h.published.clear()  # the harness's record of what was published would keep it
    delivered: list[bool] = []
    real_finished = h.scheduler._finished

    def finished(uri, revision, fut) -> None:
        real_finished(uri, revision, fut)
        delivered.append(root() is not None)

    h.scheduler._finished = finished  # type: ignore[method-assign]
    h.change(2, _world("2"))  # checked incrementally; the earlier analysis answers requests meanwhile
    await h.until(lambda: delivered)
    assert delivered == [True]  # the new analysis was delivered before the old one was freed
    await h.until(lambda: root() is None)  # freed a moment later, without the cyclic collector,
    assert freed_in_slice == [True]  # by the graveyard: wherever the scheduler lets it go
    h.close()
    assert graveyard.pending == 0


def test_what_a_cancelled_run_built_is_freed_in_slices_that_let_other_threads_run(monkeypatch):
    """A background analysis stopped by a new edit used to be freed at once where its exception was
    dropped, in the worker, holding the interpreter (30-40 ms on 3k_shapes.sdf): now a slice at a time,
    the interpreter handed over between slices."""
    import pytest

    from sdformat_lsp.semantics.analysis import AnalysisCancelled
    from sdformat_lsp.server.scheduler import _full_run

    freed: list[int] = []
    per_slice: list[int] = []

    refs: list[list[weakref.ref]] = []  # the weak references outlive what they watch

    def build_then_stop(text: str, path):
        half_built, _index, node_refs = _tree(5, 10, freed)  # held only by this frame's locals
        refs.append(node_refs)
        weakref.finalize(half_built, freed.append, -1)
        raise AnalysisCancelled()

    real_sleep = disposal.time.sleep

    def handed_over(seconds: float) -> None:
        per_slice.append(len(freed) - sum(per_slice))
        real_sleep(seconds)

    monkeypatch.setattr(disposal.time, "sleep", handed_over)
    with pytest.raises(AnalysisCancelled):
        _full_run(build_then_stop, None, "<sdf/>", None, None, False)
    assert -1 in freed and len(freed) == 1 + 111111  # all of it freed when the run ends
    assert len(per_slice) >= 4 and max(per_slice) <= 111111 // 3, per_slice  # in slices


def test_remains_of_an_exception_hold_what_its_finished_frames_held():
    freed: list[int] = []

    def inner():
        big, _index, _refs = _tree(2, 5, freed)
        raise ValueError("stop")

    def outer():
        inner()

    try:
        outer()
    except ValueError as exc:
        remains = disposal.remains_of(exc)
    assert freed == []
    assert any("big" in frame_locals for frame_locals in remains)
    del remains
    assert len(freed) == 31
