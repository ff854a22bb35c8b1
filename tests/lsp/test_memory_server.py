"""The server's analyses keep nothing alive: no garbage is made immortal (issue 11).

The server once called ``gc.freeze()`` after every large analysis; that moved
everything alive at that moment out of the cyclic collector's reach for good,
so each edit of a large world leaked whatever cyclic garbage existed then (a
superseded run's traceback holding the previous text and analysis): 3 GB after
25 edits of a 113,000-line world. The server freezes its analyses again now,
but hands every frozen object back to the collector at the next sweep
(``server/collector.py``): nothing stays frozen for good, and a replaced
analysis, which holds no cycle, is freed by reference counting at once.
``benchmarks/bench_memory.py`` measures the whole session; these tests pin the
mechanism.
"""

from __future__ import annotations

import gc
import sys
import weakref
from pathlib import Path

from sdformat_lsp.server import scheduler
from sdformat_lsp.server.app import SdformatLanguageServer

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import generate  # noqa: E402


class _Held:
    """Something only a reference cycle keeps alive (a traceback does this in real life)."""


def test_cyclic_garbage_alive_during_a_large_analysis_is_still_collected():
    server = SdformatLanguageServer()
    try:
        text = generate.large_world(80)
        assert len(text) > 100_000  # the size that used to trigger gc.freeze()
        held = _Held()
        cycle: list = [held]
        cycle.append(cycle)
        probe = weakref.ref(held)
        del held
        first = server._analyze(text, None)
        probe_analysis = weakref.ref(first)
        del cycle, first
        server._analyze(text.replace('name="m1"', 'name="m1x"'), None)
        gc.collect()
        assert probe() is None, "cyclic garbage alive during an analysis outlived it"
        assert probe_analysis() is None, "a replaced analysis was not freed"
    finally:
        server.executor.shutdown(wait=False)


def test_a_frozen_analysis_is_freed_when_replaced_and_frozen_garbage_at_the_next_sweep():
    server = SdformatLanguageServer()
    try:
        text = generate.large_world(80)
        held = _Held()
        cycle: list = [held]
        cycle.append(cycle)
        probe = weakref.ref(held)
        del held, cycle  # cyclic garbage not yet collected when the run freezes what is alive
        # the scheduler's run: analysed, then frozen
        first = scheduler._full_run(server.scheduler._analyze, server.collector, text, None)
        assert gc.get_freeze_count() > 0
        probe_analysis = weakref.ref(first)
        del first
        assert probe_analysis() is None, "a frozen analysis was not freed when dropped"
        gc.collect()
        assert probe() is not None  # frozen until the sweep...
        server.collector.sweep()
        assert probe() is None, "frozen cyclic garbage outlived the sweep"
    finally:
        server.collector.close()
        gc.unfreeze()
        server.executor.shutdown(wait=False)


def test_analyze_itself_freezes_nothing():
    server = SdformatLanguageServer()
    try:
        before = gc.get_freeze_count()
        server._analyze(generate.large_world(80), None)
        assert gc.get_freeze_count() == before
    finally:
        server.executor.shutdown(wait=False)
