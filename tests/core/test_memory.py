"""An analysis leaves nothing for the cyclic garbage collector: dropping it frees it at once."""

import gc

from sdformat_lsp.semantics import analyze

DOC = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <link name="L"><pose relative_to="F">0 0 1 0 0 0</pose><visual name="v"><pose relative_to="L"/></visual></link>
    <frame name="F" attached_to="N::NL"><pose>1 0 0 0 0 0</pose></frame>
    <model name="N"><link name="NL"/><frame name="C1" attached_to="C2"/><frame name="C2" attached_to="C1"/></model>
    <joint name="J" type="fixed"><parent>L</parent><child>N::NL</child></joint>
  </model>
</sdf>
"""


def test_a_dropped_analysis_is_freed_by_reference_counting():
    analyze(DOC)  # warm caches and lazily created module state
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        a = analyze(DOC)
        a.frames()
        del a
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


def test_the_collector_is_back_on_after_an_analysis():
    assert gc.isenabled()
    analyze(DOC)
    assert gc.isenabled()


def test_a_dropped_analysis_of_a_file_with_includes_is_freed_by_reference_counting(tmp_path):
    """With a path the analysis gets an include resolver: it must not point back at the analysis."""
    (tmp_path / "part.sdf").write_text('<sdf version="1.9"><model name="p"><link name="pl"/></model></sdf>')
    doc = DOC.replace('<model name="N">', '<include><uri>part.sdf</uri><name>P</name></include><model name="N">')
    path = str(tmp_path / "top.sdf")
    analyze(doc, path)
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        a = analyze(doc, path)
        assert a.includes and a.includes[0].analysis is not None
        a.frames()
        del a
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


def test_an_analysis_holds_at_most_16_bytes_per_character():
    """Issue 11: a 100 MB world must be analysed within 2 GB. What an analysis keeps (tree, model,
    graphs; the text itself not counted) was 22 bytes a character of a generated world, and is
    13.5 to 14 on Pythons 3.10 to 3.13 (benchmarks/bench_peak.py measures the whole process)."""
    import sys
    import tracemalloc
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import generate

    text = generate.large_world(300)
    analyze(text)  # warm: schema tables and other module state
    tracemalloc.start()
    try:
        a = analyze(text)
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert a.graphs is not None and not a.has_errors
    assert kept / len(text) <= 16, f"{kept / len(text):.1f} bytes per character"
