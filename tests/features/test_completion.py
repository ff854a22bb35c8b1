"""Completion: exactly the frame names legal at the cursor, in half-typed documents too."""

from __future__ import annotations

from pathlib import Path

from sdformat_lsp.features import complete
from sdformat_lsp.semantics.analysis import analyze
from sdformat_lsp.text import Span

from .util import analysed, at, spanned


def _labels(marked: str, path: str | None = None) -> set[str]:
    a, offset = analysed(marked, path)
    return {i.label for i in complete(a, offset).items}


# A model file: every cursor below is written into this template at {cursor}.
# Its nested model 'hand' has its own nested model 'finger'; 'é 中 😀' precede every cursor.
MODEL = """<?xml version="1.0"?>
<sdf version="{version}">
  <!-- é 中 😀 -->
  <model name="robot_é" {model_attrs}>
    <link name="base_中"/>
    <link name="arm_😀"/>
    <frame name="mount" attached_to="arm_😀"/>
    <joint name="shoulder" type="revolute"><parent>base_中</parent><child>arm_😀</child></joint>
    <model name="hand">
      <link name="palm"/>
      <frame name="grip"/>
      <joint name="knuckle" type="revolute"><parent>palm</parent><child>finger</child></joint>
      <model name="finger"><link name="tip"/></model>
    </model>
    {cursor}
  </model>
</sdf>
"""

LOCAL = {"base_中", "arm_😀", "mount", "shoulder", "hand", "__model__"}
NESTED = {
    "hand::palm",
    "hand::grip",
    "hand::knuckle",
    "hand::finger",
    "hand::__model__",
    "hand::finger::tip",
    "hand::finger::__model__",
}


def model(cursor: str, version: str = "1.9", model_attrs: str = "") -> str:
    return MODEL.format(cursor=cursor, version=version, model_attrs=model_attrs)


def test_attached_to_with_no_closing_quote_offers_the_scope_and_paths_down() -> None:
    # the quote is never closed and the tag never ends: the scanner keeps the siblings in the model
    assert _labels(model('<frame name="new" attached_to="|\n    <link name="late"/>')) == LOCAL | NESTED | {"late"}


def test_attached_to_excludes_the_frame_itself_and_what_would_close_a_cycle() -> None:
    doc = model(
        '<frame name="a" attached_to="|"/>\n    <frame name="b" attached_to="a"/>\n'
        '    <frame name="c" attached_to="b"/>\n    <frame name="d" attached_to="mount"/>'
    )
    labels = _labels(doc)
    assert {"a", "b", "c"}.isdisjoint(labels)
    assert {"d", "mount", "base_中", "hand::palm"} <= labels


def test_relative_to_excludes_frames_whose_pose_depends_on_this_one() -> None:
    doc = model(
        '<frame name="a"><pose relative_to="|">0 0 0 0 0 0</pose></frame>\n'
        '    <frame name="b"><pose relative_to="a">0 0 0 0 0 0</pose></frame>\n'
        '    <link name="c"><pose relative_to="b">0 0 0 0 0 0</pose></link>'
    )
    labels = _labels(doc)
    assert {"a", "b", "c"}.isdisjoint(labels)
    assert LOCAL | NESTED <= labels


def test_relative_to_with_no_closing_quote_inside_a_link() -> None:
    doc = model('<link name="new">\n      <pose relative_to="|\n    </link>\n    <frame name="late"/>')
    assert _labels(doc) == LOCAL | NESTED | {"late"}


def test_nothing_from_an_enclosing_scope() -> None:
    doc = model("").replace('<frame name="grip"/>', '<frame name="grip" attached_to="|"/>')
    assert _labels(doc) == {"palm", "knuckle", "finger", "__model__", "finger::tip", "finger::__model__"}


def test_a_nested_model_pose_cannot_be_relative_to_itself_or_anything_inside_it() -> None:
    doc = model("").replace('<model name="hand">', '<model name="hand"><pose relative_to="|"/>')
    assert _labels(doc) == LOCAL - {"hand"}


def test_canonical_link_offers_only_links() -> None:
    labels = _labels(model("", model_attrs='canonical_link="|"'))
    assert labels == {"base_中", "arm_😀", "hand::palm", "hand::finger::tip"}


def test_placement_frame_offers_the_models_own_frames() -> None:
    labels = _labels(model("", model_attrs='placement_frame="|"'))
    assert labels == LOCAL | NESTED


def test_mimic_offers_only_other_joints() -> None:
    doc = model(
        '<joint name="elbow" type="revolute"><parent>arm_😀</parent><child>hand</child>\n'
        '      <axis><xyz>0 0 1</xyz><mimic joint="|"/></axis></joint>'
    )
    assert _labels(doc) == {"shoulder", "hand::knuckle"}


def test_expressed_in_offers_every_frame_of_the_scope() -> None:
    doc = model(
        '<joint name="elbow" type="revolute"><parent>arm_😀</parent><child>hand</child>\n'
        '      <axis><xyz expressed_in="|">0 0 1</xyz></axis></joint>'
    )
    assert _labels(doc) == LOCAL | NESTED | {"elbow"}


def test_joint_parent_without_end_tag_offers_world_and_child_does_not() -> None:
    parent = _labels(model('<joint name="elbow" type="revolute"><parent>|\n    <link name="late"/>'))
    # Recovery while typing keeps the link on the next line (indented like the joint's children) as a
    # link of the model, so it is a parent the joint may name.
    assert parent == (LOCAL | NESTED | {"world", "late"}) - {"elbow"}
    child = _labels(model('<joint name="elbow" type="revolute"><parent>base_中</parent><child>ha|'))
    assert child == LOCAL | NESTED
    assert "world" not in child


def test_joint_child_excludes_frames_attached_to_the_joint() -> None:
    doc = model(
        '<joint name="elbow" type="revolute"><parent>base_中</parent><child>|</child></joint>\n'
        '    <frame name="on_elbow" attached_to="elbow"/>'
    )
    labels = _labels(doc)
    assert "on_elbow" not in labels and "elbow" not in labels
    assert "hand" in labels


def test_before_1_8_there_are_no_scoped_paths_and_joints_connect_links() -> None:
    labels = _labels(model('<frame name="new" attached_to="|"/>', version="1.7"))
    assert labels == LOCAL
    parent = _labels(model('<joint name="elbow" type="revolute"><parent>|</parent></joint>', version="1.7"))
    assert parent == {"base_中", "arm_😀", "world"}


def test_the_replace_span_is_the_typed_reference_with_its_scopes() -> None:
    a, offset = analysed(model('<frame name="new" attached_to="hand::fin|ger::tip"/>'))
    result = complete(a, offset)
    assert spanned(a.text, result.replace_span) == "hand::finger::tip"
    a, offset = analysed(model('<frame name="new" attached_to="hand::|\n'))
    result = complete(a, offset)
    assert spanned(a.text, result.replace_span) == "hand::"
    assert result.replace_span.end == offset


def test_items_carry_kind_detail_and_sort_local_names_first() -> None:
    a, offset = analysed(model('<frame name="new" attached_to="|"/>'))
    items = {i.label: i for i in complete(a, offset).items}
    assert items["hand::palm"].kind == "link"
    assert items["hand"].kind == "model" and items["__model__"].kind == "model"
    assert items["shoulder"].kind == "joint" and items["mount"].kind == "frame"
    assert items["mount"].detail == "attached to arm_😀 · xyz 0 0 0 · rpy 0 0 0"
    order = sorted(items, key=lambda label: items[label].sort_text)
    assert (
        order.index("base_中") < order.index("__model__") < order.index("hand::palm") < order.index("hand::finger::tip")
    )


def test_world_scope_offers_world_and_model_paths() -> None:
    doc = """<sdf version="1.10">
  <world name="w_é">
    <frame name="dock"/>
    <model name="m"><link name="L"/><model name="n"><link name="K"/></model></model>
    <frame name="new" attached_to="|"/>
  </world>
</sdf>"""
    assert _labels(doc) == {"world", "dock", "m", "m::L", "m::__model__", "m::n", "m::n::K", "m::n::__model__"}
    joint_child = doc.replace(
        '<frame name="new" attached_to="|"/>',
        '<joint name="pin" type="fixed"><parent>world</parent><child>|</child></joint>',
    )
    assert "world" not in _labels(joint_child)


def test_include_placement_frame_offers_the_included_models_frames(tmp_path: Path) -> None:
    (tmp_path / "arm").mkdir()
    (tmp_path / "arm" / "model.sdf").write_text(
        '<sdf version="1.9"><model name="arm"><link name="base"/><frame name="flange"/></model></sdf>', encoding="utf-8"
    )
    doc = """<sdf version="1.9">
  <world name="w">
    <frame name="table"/>
    <include><uri>arm/model.sdf</uri><name>arm_é</name>
      <pose relative_to="table">0 0 1 0 0 0</pose><placement_frame>|
    </include>
  </world>
</sdf>"""
    path = tmp_path / "world.sdf"
    text, _ = at(doc)
    path.write_text(text, encoding="utf-8")
    assert _labels(doc, str(path)) == {"base", "flange", "__model__"}
    # and the include's own pose is relative to a frame of the world, not the included model
    rel = doc.replace('relative_to="table"', 'relative_to="|"').replace("<placement_frame>|", "<placement_frame>")
    assert _labels(rel, str(path)) == {"world", "table"}


def test_no_items_outside_a_frame_reference() -> None:
    for cursor in ('<frame name="|"/>', '<link name="x"><pose>0 0 |0 0 0 0</pose></link>', '<!-- attached_to="| -->'):
        a, offset = analysed(model(cursor))
        result = complete(a, offset)
        assert result.items == [] and result.replace_span == Span(offset, offset)


def test_a_document_without_frame_graphs_still_answers() -> None:
    a, offset = analysed('<sdf><model name="m"><link name="L"/><frame name="f" attached_to="|"/></model></sdf>')
    result = complete(a, offset)
    assert result.items == [] and result.replace_span == Span(offset, offset)


def test_frames_defined_with_non_ascii_names_keep_their_offsets() -> None:
    doc = model('<frame name="新" attached_to="ba|se_中"/>')
    a, offset = analysed(doc)
    result = complete(a, offset)
    assert spanned(a.text, result.replace_span) == "base_中"
    assert (
        analyze(a.text).text[result.replace_span.start - len('attached_to="') : result.replace_span.start]
        == 'attached_to="'
    )
