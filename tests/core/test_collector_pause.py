"""``collector_paused``: one count of pauses for every thread, and what the paused work asks of the
resumption (``then``) done once, when the last overlapping pause ends, with the collector back on."""

from __future__ import annotations

import gc

import pytest

from sdformat_lsp.collector_pause import collector_paused


@pytest.fixture(autouse=True)
def _collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_then_runs_once_when_the_last_overlapping_pause_ends():
    calls: list[str] = []

    def then() -> None:
        calls.append("resumed" if not gc.isenabled() else "late")  # before the collector is back on

    outer = collector_paused()
    outer.__enter__()
    with collector_paused(then=then):
        assert not gc.isenabled()
    with collector_paused(then=then):  # the same work twice: asked once
        pass
    assert calls == [] and not gc.isenabled()  # the outer pause still runs
    outer.__exit__(None, None, None)
    assert calls == ["resumed"] and gc.isenabled()
    with collector_paused():
        pass
    assert calls == ["resumed"]  # asked once, done once


def test_a_failing_then_never_leaves_the_collector_off():
    def then() -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        with collector_paused(then=then):
            pass
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
