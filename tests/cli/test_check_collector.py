"""A check leaves nothing of its analysis for the cyclic collector's young pass.

An analysis is built with the collector paused (``semantics.analysis``); everything it made sits in the
youngest generation when the collector resumes, and the first allocation after that starts a pass over
all of it (197 ms of a 100,000-line world's 0.77 s check, collecting nothing: analyses hold no cycles).
``check`` keeps the collector paused until the analysis is frozen (the program's lone file) or freed.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

from sdformat_lsp.cli import lifetime, main

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import generate  # noqa: E402


def _young_at_collections(argv: list[str]) -> list[int]:
    """Run ``main(argv)`` (it must succeed) with the collector on; the youngest generation's count as each
    collection started. What a run froze is handed back after it."""
    young: list[int] = []

    def watch(phase: str, info: dict) -> None:
        if phase == "start":
            young.append(gc.get_count()[0])

    was = gc.isenabled()
    gc.enable()
    gc.callbacks.append(watch)
    try:
        assert main(argv) == 0
    finally:
        gc.callbacks.remove(watch)
        gc.unfreeze()
        if not was:
            gc.disable()
    return young


@pytest.fixture
def world(tmp_path: Path) -> Path:
    path = tmp_path / "world.sdf"
    path.write_text(generate.large_world(200))
    return path


@pytest.mark.parametrize("kept", [False, True], ids=["in-process", "as-the-program"])
def test_no_collection_walks_the_analysis_of_a_checked_file(world, monkeypatch, capsys, kept):
    monkeypatch.setattr(lifetime, "KEPT", [] if kept else None)
    young = _young_at_collections(["check", str(world)])
    assert "1 file checked" in capsys.readouterr().err
    assert max(young, default=0) < 10_000  # the analysis: some 40,000 objects


@pytest.mark.parametrize("command", [["print"], ["graph"]])
def test_no_collection_walks_the_analysis_of_a_one_document_command(world, capsys, command):
    """``print``, ``graph`` and ``convert`` run with the collector paused to their end (``loading.one_document``)."""
    young = _young_at_collections([*command, str(world)])
    assert capsys.readouterr().out
    assert max(young, default=0) < 10_000
