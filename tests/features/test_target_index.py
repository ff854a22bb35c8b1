"""The reference under the cursor, found through the index, is what a walk over every reference finds."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from sdformat_lsp.queries import frames as common
from sdformat_lsp.semantics.analysis import Options, analyze
from sdformat_lsp.text import Span

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "core"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import generate  # noqa: E402
from random_docs import random_model  # noqa: E402


def _walk(analysis, offset):
    """The smallest reference containing ``offset`` by a walk over all of them (the first on a tie)."""
    best = None
    for res in common.local_resolutions(analysis):
        sp = res.ref.span
        if sp.contains(offset) and (best is None or sp.end - sp.start < best.ref.span.end - best.ref.span.start):
            best = res
    return best


def _same_everywhere(text: str) -> int:
    a = analyze(text, None, Options(schema=False))
    index = common._reference_index(a)
    hits = 0
    for offset in range(len(text) + 1):
        expected = _walk(a, offset)
        assert index.smallest_at(offset) is expected, offset
        hits += expected is not None
    return hits


def test_index_agrees_with_a_walk_on_random_models():
    hits = sum(_same_everywhere(random_model(seed)) for seed in range(12))
    assert hits > 100  # the documents do have references under many offsets


def test_index_agrees_on_examples_and_a_generated_model():
    hits = sum(
        _same_everywhere((ROOT / "examples" / name).read_text()) for name in ("arm.sdf", "broken_arm.sdf", "world.sdf")
    )
    hits += _same_everywhere(generate.small_model())
    assert hits > 0


def test_overlapping_and_repeated_spans_pick_the_smallest_then_the_first():
    text = '<sdf version="1.9"><model name="m"><link name="a"/><frame name="f" attached_to="a"/></model></sdf>'
    a = analyze(text, None, Options(schema=False))
    res = list(common.local_resolutions(a))
    assert res
    r0 = res[0]
    # stand-ins written over the same text: one long reference around r0, one as short as r0 but later
    outer = replace(r0, ref=replace(r0.ref, at=Span(0, len(text))))
    same = replace(r0, ref=replace(r0.ref, at=r0.ref.span))
    a.graphs.resolutions[:0] = [outer]
    a.graphs.resolutions.append(same)
    index = common._reference_index(a)  # rebuilt: the number of resolutions changed
    for offset in range(len(text) + 1):
        assert index.smallest_at(offset) is _walk(a, offset), offset
    assert index.smallest_at(r0.ref.span.start) is r0
    assert index.smallest_at(0) is outer
