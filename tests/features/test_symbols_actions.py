"""Document symbols and quick fixes."""

from __future__ import annotations

from sdformat_lsp.features import code_actions, document_symbols
from sdformat_lsp.semantics.analysis import Options, analyze
from sdformat_lsp.text import Span

from .util import analysed, apply, find_span, spanned

WORLD = """<?xml version="1.0"?>
<sdf version="1.10">
  <!-- é 中 😀 -->
  <world name="plaza_é">
    <frame name="dock"/>
    <model name="bot_中">
      <static>true</static>
      <link name="chassis"/>
      <joint name="axle" type="revolute"><parent>chassis</parent><child>wheel</child></joint>
      <link name="wheel"/>
      <frame name="cam_😀" attached_to="chassis"/>
      <model name="arm"><link name="a"/></model>
      <include><uri>model://gripper</uri></include>
    </model>
    <include><uri>model://table</uri><name>table_1</name></include>
    <joint name="bolt" type="fixed"><parent>world</parent><child>bot_中::chassis</child></joint>
  </world>
</sdf>
"""


def test_symbols_are_a_tree_in_document_order() -> None:
    a = analyze(WORLD, None, Options(schema=False))
    (world,) = document_symbols(a)
    assert (world.name, world.kind) == ("plaza_é", "world")
    assert spanned(WORLD, world.selection_span) == "plaza_é"
    assert world.span == find_span(WORLD, WORLD[WORLD.index("<world") : WORLD.index("</world>") + len("</world>")])
    assert [(s.name, s.kind) for s in world.children] == [
        ("dock", "frame"),
        ("bot_中", "model"),
        ("table_1", "include"),
        ("bolt", "joint"),
    ]
    bot = world.children[1]
    assert bot.detail == "static model"
    assert [(s.name, s.kind) for s in bot.children] == [
        ("chassis", "link"),
        ("axle", "joint"),
        ("wheel", "link"),
        ("cam_😀", "frame"),
        ("arm", "model"),
        ("model://gripper", "include"),
    ]
    axle, cam, arm, gripper = bot.children[1], bot.children[3], bot.children[4], bot.children[5]
    assert axle.detail == "revolute chassis -> wheel"
    assert cam.detail == "attached to chassis"
    assert spanned(WORLD, cam.selection_span) == "cam_😀"
    assert [c.name for c in arm.children] == ["a"]
    # an include without <name> is named by its URI and selected by its tag
    assert spanned(WORLD, gripper.selection_span) == "include"
    assert spanned(WORLD, world.children[2].selection_span) == "table_1"
    for s in (world, bot, axle, cam, arm, gripper):
        assert s.span.start <= s.selection_span.start <= s.selection_span.end <= s.span.end


def test_symbols_of_a_model_file_and_of_a_broken_one() -> None:
    a = analyze('<sdf version="1.9"><model name="m"><link/><link name="L"/></model></sdf>')
    (m,) = document_symbols(a)
    assert [(c.name, spanned(a.text, c.selection_span)) for c in m.children] == [("<link>", "link"), ("L", "L")]
    assert document_symbols(analyze("not xml at all")) == []


def _fixed(text: str, code: str, title_part: str = "") -> str:
    """Apply the first quick fix for the one ``code`` diagnostic; check the diagnostic is gone."""
    a = analyze(text)
    (diag,) = [d for d in a.diagnostics if d.code == code]
    actions = [x for x in code_actions(a, Span(diag.span.start, diag.span.start)) if x.diagnostic is diag]
    actions = [x for x in actions if title_part in x.title]
    assert actions, f"no quick fix for {code}"
    fixed = apply(text, actions[0].edits)
    assert [d for d in analyze(fixed).diagnostics if d.code == code] == []
    return fixed


def test_did_you_mean_fixes_a_misspelt_reference() -> None:
    doc = """<sdf version="1.9">
  <model name="m_é"><link name="chassis_中"/><frame name="f" attached_to="chasis_中"/></model>
</sdf>"""
    fixed = _fixed(doc, "FRAME_ATTACHED_TO_INVALID")
    assert 'attached_to="chassis_中"' in fixed


def test_add_name_fixes_a_missing_name() -> None:
    doc = '<sdf version="1.9">\n  <model name="m"><link name="link_1"/><link/></model>\n</sdf>'
    fixed = _fixed(doc, "ATTRIBUTE_MISSING", "name")
    assert '<link name="link_2"/>' in fixed


def test_a_duplicate_is_renamed_to_a_free_name() -> None:
    doc = """<sdf version="1.9">
  <model name="m">
    <link name="wheel"/>
    <link name="wheel_2"/>
    <frame name="f" attached_to="wheel"/>
    <link name="wheel"/>
  </model>
</sdf>"""
    a = analyze(doc)
    (diag,) = [d for d in a.diagnostics if d.code == "DUPLICATE_NAME"]
    (action,) = [x for x in code_actions(a, diag.span) if x.diagnostic is diag and not x.title.startswith("Suppress")]
    assert action.title == "Rename this link to 'wheel_3'" and action.preferred
    fixed = _fixed(doc, "DUPLICATE_NAME")
    assert fixed.count('name="wheel"') == 1 and '<link name="wheel_3"/>' in fixed
    assert 'attached_to="wheel"' in fixed  # the first keeps its references


def test_only_diagnostics_touching_the_range_are_fixed() -> None:
    doc = """<sdf version="1.9">
  <model name="m"><link name="base"/>
    <frame name="a" attached_to="bsae"/>
    <frame name="b" attached_to="bass"/>
  </model>
</sdf>"""
    a = analyze(doc)
    span = find_span(doc, 'attached_to="bass"', "bass")
    actions = code_actions(a, Span(span.end, span.end))
    assert [x.title for x in actions] == [
        "Change to 'base'",
        "Suppress FRAME_ATTACHED_TO_INVALID on this line",
        "Suppress FRAME_ATTACHED_TO_INVALID in this file",
    ]
    assert spanned(doc, actions[0].edits[0].span) == "bass"
    assert code_actions(a, Span(0, 0)) == []


def test_every_fix_of_a_messy_document_removes_its_diagnostic() -> None:
    doc, _ = analysed("""<sdf version="1.9">
  <model name="m">
    <link name="base"/><link name="base"/>
    <link/>
    <frame name="a" attached_to="bsae"/>
    <joint name="j" type="fixed"><parent>base</parent><child>nozzle</child></joint>
    <frame name="nozzel"/>
    <model name="n" canonical_link="lnk"><link name="link"/></model>
  |</model>
</sdf>""")
    text = doc.text
    checked = 0
    for action in code_actions(doc, Span(0, len(text))):
        d = action.diagnostic
        after = analyze(apply(text, action.edits))
        assert not [x for x in after.diagnostics if x.code == d.code and x.message == d.message], action.title
        checked += 1
    assert checked >= 5
