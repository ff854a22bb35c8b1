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
