"""Find references and rename: every segment that names a frame, and only those."""

from __future__ import annotations

import pytest

from sdformat_lsp.features import Location, RenameError, prepare_rename, references, rename
from sdformat_lsp.semantics.analysis import Options, analyze

from .util import analysed, apply, errors, find_span, spanned

DOC = """<?xml version="1.0"?>
<sdf version="1.9">
  <!-- é 中 😀 -->
  <model name="outer_é">
    <link name="L"/>
    <model name="hand_中">
      <link name="palm"/>
      <frame name="grip" attached_to="palm"><pose relative_to="palm">0 0 0.1 0 0 0</pose></frame>
      <link name="finger"/>
      <joint name="wrist" type="fixed"><parent>palm</parent><child>finger</child>
        <axis><xyz expressed_in="__model__">0 0 1</xyz></axis></joint>
    </model>
    <joint name="j" type="revolute"><parent>L</parent><child>hand_中::palm</child>
      <axis><xyz expressed_in="hand_中::__model__">1 0 0</xyz></axis></joint>
    <frame name="tool_😀" attached_to="hand_中::grip"/>
    <frame name="base" attached_to="hand_中"/>
  </model>
</sdf>
"""


def _texts(doc: str, locs: list[Location]) -> list[str]:
    return [spanned(doc, l.span) for l in locs]


def test_the_document_is_clean() -> None:
    assert errors(analyze(DOC, None, Options(schema=False))) == []


def test_references_of_a_link_include_scoped_paths_from_the_enclosing_model() -> None:
    a = analyze(DOC)
    decl = find_span(DOC, '<link name="palm"', "palm")
    found = references(a, decl.start + 1)
    assert found[0] == Location(None, decl)
    assert _texts(DOC, found) == ["palm"] * 5
    starts = [l.span.start for l in found[1:]]
    assert starts == sorted(starts)
    assert Location(None, find_span(DOC, "<child>hand_中::palm</child>", "palm")) in found
    # the same list from any reference, with or without the declaration
    from_ref = references(a, find_span(DOC, "<parent>palm</parent>", "palm").end)
    assert from_ref == found
    assert references(a, decl.start, include_declaration=False) == found[1:]


def test_references_of_a_nested_model_use_the_segment_that_names_it() -> None:
    a = analyze(DOC)
    decl = find_span(DOC, '<model name="hand_中"', "hand_中")
    found = references(a, decl.start)
    # __model__ inside it is a reference to the same frame, spelled differently
    assert _texts(DOC, found) == ["hand_中", "__model__", "hand_中", "hand_中", "hand_中", "hand_中"]
    assert found[1] == Location(None, find_span(DOC, 'expressed_in="__model__"', "__model__"))


def test_references_from_a_scoped_segment() -> None:
    a = analyze(DOC)
    on_segment = references(a, find_span(DOC, 'attached_to="hand_中::grip"', "hand_中").start + 2)
    assert on_segment == references(a, find_span(DOC, '<model name="hand_中"', "hand_中").start)
    grip = references(a, find_span(DOC, 'attached_to="hand_中::grip"', "grip").start)
    assert _texts(DOC, grip) == ["grip", "grip"]


def test_no_references_off_a_name() -> None:
    a = analyze(DOC)
    assert references(a, find_span(DOC, "0 0 0.1 0 0 0").start) == []


def test_prepare_rename_gives_the_segment_under_the_cursor() -> None:
    a = analyze(DOC)
    span = prepare_rename(a, find_span(DOC, "<child>hand_中::palm</child>", "hand_中").start + 1)
    assert span == find_span(DOC, "<child>hand_中::palm</child>", "hand_中")
    span = prepare_rename(a, find_span(DOC, "<child>hand_中::palm</child>", "palm").end)
    assert spanned(DOC, span) == "palm"
    assert prepare_rename(a, find_span(DOC, 'expressed_in="__model__"', "__model__").start) is None
    assert prepare_rename(a, find_span(DOC, "0 0 0.1 0 0 0").start) is None


def test_rename_edits_the_declaration_and_every_naming_segment() -> None:
    a = analyze(DOC)
    edits = rename(a, find_span(DOC, "<parent>palm</parent>", "palm").start, "paume_é")
    assert len(edits) == 5 and all(e.new_text == "paume_é" for e in edits)
    new = apply(DOC, edits)
    assert "palm" not in new
    assert "<child>hand_中::paume_é</child>" in new
    assert errors(analyze(new, None, Options(schema=False))) == []


def test_rename_of_a_nested_model_leaves_model_frame_references_alone() -> None:
    a = analyze(DOC)
    edits = rename(a, find_span(DOC, 'attached_to="hand_中"', "hand_中").start, "gripper")
    new = apply(DOC, edits)
    assert "hand_中" not in new
    assert 'expressed_in="__model__"' in new and 'expressed_in="gripper::__model__"' in new
    assert '<frame name="tool_😀" attached_to="gripper::grip"/>' in new
    assert errors(analyze(new, None, Options(schema=False))) == []


def test_renaming_to_the_same_name_changes_nothing() -> None:
    a = analyze(DOC)
    assert rename(a, find_span(DOC, '<link name="L"', "L").start, "L") == []


@pytest.mark.parametrize(
    ("new_name", "message"),
    [
        ("", "empty"),
        ("world", "reserved"),
        ("__frame__", "reserved"),
        ("a::b", "'::'"),
        ("two words", "white space"),
        ('say"hi', "quote"),
        ("base", "already has a frame named 'base'"),
        ("hand_中", "already has a model named 'hand_中'"),
        ("j", "already has a joint named 'j'"),
    ],
)
def test_rename_refuses_illegal_or_taken_names(new_name: str, message: str) -> None:
    a = analyze(DOC)
    with pytest.raises(RenameError) as exc:
        rename(a, find_span(DOC, '<link name="L"', "L").start, new_name)
    assert message in exc.value.message


def test_a_name_taken_only_in_another_scope_is_free() -> None:
    a = analyze(DOC)
    edits = rename(a, find_span(DOC, '<link name="L"', "L").start, "palm")
    new = apply(DOC, edits)
    assert errors(analyze(new, None, Options(schema=False))) == []


def test_model_frame_and_world_cannot_be_renamed() -> None:
    a = analyze(DOC)
    with pytest.raises(RenameError, match="__model__"):
        rename(a, find_span(DOC, 'expressed_in="__model__"', "__model__").start, "x")
    w, offset = analysed("""<sdf version="1.10">
  <world name="é_world">
    <model name="m"><link name="L"/></model>
    <joint name="pin" type="fixed"><parent>world|</parent><child>m::L</child></joint>
  </world>
</sdf>""")
    assert prepare_rename(w, offset) is None
    with pytest.raises(RenameError, match="world"):
        rename(w, offset, "earth")


def test_rename_in_a_world_reaches_into_models() -> None:
    w, offset = analysed("""<sdf version="1.10">
  <world name="w">
    <model name="m"><link name="L|"/><frame name="f" attached_to="L"/></model>
    <joint name="pin" type="fixed"><parent>world</parent><child>m::L</child></joint>
    <frame name="marker" attached_to="m::L"/>
  </world>
</sdf>""")
    new = apply(w.text, rename(w, offset, "body"))
    assert new.count("body") == 4 and "L" not in new.replace("<link", "")
    assert errors(analyze(new, None, Options(schema=False))) == []


def test_an_included_model_is_renamed_through_its_include_name_but_not_its_frames(tmp_path) -> None:
    (tmp_path / "arm").mkdir()
    (tmp_path / "arm" / "model.sdf").write_text(
        '<sdf version="1.9"><model name="arm"><link name="base"/><frame name="tool"/></model></sdf>', encoding="utf-8"
    )
    doc = """<sdf version="1.9">
  <world name="w">
    <include><uri>arm/model.sdf</uri><name>arm_é</name></include>
    <frame name="f" attached_to="arm_é::tool"/>
  </world>
</sdf>"""
    path = tmp_path / "world.sdf"
    path.write_text(doc, encoding="utf-8")
    a = analyze(doc, str(path))
    tool = find_span(doc, 'attached_to="arm_é::tool"', "tool")
    assert prepare_rename(a, tool.start) is None
    with pytest.raises(RenameError, match="is defined in .*arm.model.sdf; open that file to rename it"):
        rename(a, tool.start, "gripper")
    new = apply(doc, rename(a, find_span(doc, "<name>arm_é</name>", "arm_é").start, "arm_2"))
    assert "<name>arm_2</name>" in new and 'attached_to="arm_2::tool"' in new
