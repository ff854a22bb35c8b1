"""Go to definition from every kind of frame reference, segment by segment."""

from __future__ import annotations

from pathlib import Path

import pytest

from sdformat_lsp.features import Location, definition, target_at
from sdformat_lsp.semantics.analysis import analyze

from .util import analysed, at, find_span, spanned

# Non-ASCII before every cursor: offsets are code points, never bytes or UTF-16 units.
MODEL = """<?xml version="1.0"?>
<sdf version="1.9">
  <!-- é 中 😀: offsets count code points -->
  <model name="robot_é">
    <link name="base_中"/>
    <link name="arm_😀"><pose relative_to="base_中">0 0 1 0 0 0</pose></link>
    <joint name="shoulder" type="revolute">
      <parent>base_中</parent>
      <child>arm_😀</child>
      <axis><xyz expressed_in="__model__">0 0 1</xyz></axis>
    </joint>
    <joint name="elbow" type="revolute">
      <parent>arm_😀</parent>
      <child>hand::palm</child>
      <axis><xyz expressed_in="hand::__model__">0 1 0</xyz><mimic joint="shoulder"/></axis>
    </joint>
    <frame name="tool" attached_to="hand::palm"/>
    <model name="hand" canonical_link="palm" placement_frame="grip">
      <pose relative_to="arm_😀">0 0 0.5 0 0 0</pose>
      <link name="palm"/>
      <frame name="grip" attached_to="palm"/>
      <model name="finger">
        <link name="tip"/>
      </model>
    </model>
    <frame name="fingertip" attached_to="hand::finger::tip"/>
    <joint name="to_world" type="fixed"><parent>world</parent><child>base_中</child></joint>
  </model>
</sdf>
"""


def _definition_of(doc: str, needle: str, word: str, cursor: int = 0) -> str | None:
    """The text at the definition of ``word`` inside ``needle`` (cursor ``cursor`` chars into the word)."""
    a = analyze(doc)
    span = find_span(doc, needle, word)
    found = definition(a, span.start + cursor)
    if not found:
        return None
    (loc,) = found
    assert loc.path is None
    # the definition is always a name attribute's value
    before = doc[: loc.span.start]
    assert before.endswith('name="') or before.endswith("<name>")
    return spanned(doc, loc.span)


def test_the_document_is_clean() -> None:
    a = analyze(MODEL)
    assert [d for d in a.diagnostics if d.is_error] == []


@pytest.mark.parametrize(
    ("needle", "word"),
    [
        ('relative_to="base_中"', "base_中"),  # relative_to
        ("<parent>base_中</parent>", "base_中"),  # <parent>
        ("<child>arm_😀</child>", "arm_😀"),  # <child>
        ('canonical_link="palm"', "palm"),  # canonical_link
        ('placement_frame="grip"', "grip"),  # placement_frame (model attribute)
        ('<mimic joint="shoulder"/>', "shoulder"),  # mimic
        ('attached_to="palm"', "palm"),  # attached_to
    ],
)
def test_every_kind_of_reference_goes_to_the_name_it_names(needle: str, word: str) -> None:
    assert _definition_of(MODEL, needle, word) == word
    assert _definition_of(MODEL, needle, word, cursor=len(word)) == word  # the end of the word still counts


def test_each_segment_of_a_scoped_name_goes_to_what_it_names() -> None:
    a = analyze(MODEL)
    needle = 'attached_to="hand::finger::tip"'
    hand = definition(a, find_span(MODEL, needle, "hand").start + 1)
    finger = definition(a, find_span(MODEL, needle, "finger").start + 2)
    tip = definition(a, find_span(MODEL, needle, "tip").end)
    assert [spanned(MODEL, l.span) for l in (*hand, *finger, *tip)] == ["hand", "finger", "tip"]
    assert hand[0].span == find_span(MODEL, '<model name="hand"', "hand")
    assert finger[0].span == find_span(MODEL, '<model name="finger"', "finger")
    assert tip[0].span == find_span(MODEL, '<link name="tip"', "tip")


def test_model_frame_goes_to_its_models_name() -> None:
    a = analyze(MODEL)
    own = definition(a, find_span(MODEL, 'expressed_in="__model__"', "__model__").start + 3)
    assert own == [Location(None, find_span(MODEL, 'model name="robot_é"', "robot_é"))]
    nested = definition(a, find_span(MODEL, 'expressed_in="hand::__model__"', "__model__").start)
    assert nested == [Location(None, find_span(MODEL, '<model name="hand"', "hand"))]


def test_world_goes_to_the_world_name_only_in_a_world_file() -> None:
    a = analyze(MODEL)
    assert definition(a, find_span(MODEL, "<parent>world</parent>", "world").start) == []
    world = """<sdf version="1.10">
  <world name="plaza_é">
    <frame name="corner" attached_to="world"/>
    <model name="m"><link name="L"/>
      <joint name="pin" type="fixed"><parent>world</parent><child>L</child></joint>
    </model>
  </world>
</sdf>"""
    a = analyze(world)
    name = find_span(world, 'world name="plaza_é"', "plaza_é")
    assert definition(a, find_span(world, 'attached_to="world"', "world").start) == [Location(None, name)]
    assert definition(a, find_span(world, "<parent>world</parent>", "world").start) == [Location(None, name)]


def test_a_definition_goes_to_itself_and_plain_text_goes_nowhere() -> None:
    a = analyze(MODEL)
    span = find_span(MODEL, '<link name="base_中"', "base_中")
    assert definition(a, span.start + 2) == [Location(None, span)]
    assert definition(a, find_span(MODEL, "0 0 0.5 0 0 0").start) == []
    assert definition(a, 0) == []


def test_an_unresolved_reference_has_no_definition() -> None:
    a, offset = analysed(
        '<sdf version="1.9"><model name="m"><link name="L"/><frame name="F" attached_to="nested::L|"/></model></sdf>'
    )
    assert definition(a, offset) == []
    target = target_at(a, offset)
    assert target is not None and target.node is None and target.text == "L"


def test_a_frame_of_an_included_model_is_found_in_its_file(tmp_path: Path) -> None:
    (tmp_path / "arm").mkdir()
    arm = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="arm">
    <link name="base"/>
    <frame name="tool_é" attached_to="base"><pose>0 0 0.1 0 0 0</pose></frame>
  </model>
</sdf>
"""
    (tmp_path / "arm" / "model.sdf").write_text(arm, encoding="utf-8")
    world, offset = at("""<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <include><uri>arm/model.sdf</uri><name>arm_1</name><pose>1 0 0 0 0 0</pose></include>
    <frame name="f" attached_to="arm_1::tool_é|"/>
  </world>
</sdf>
""")
    path = tmp_path / "world.sdf"
    path.write_text(world, encoding="utf-8")
    a = analyze(world, str(path))
    (loc,) = definition(a, offset)
    assert loc.path == str(tmp_path / "arm" / "model.sdf")
    assert spanned(arm, loc.span) == "tool_é"
    # the model segment goes to the include's <name>, in this file
    (inc,) = definition(a, find_span(world, 'attached_to="arm_1', "arm_1").start)
    assert inc == Location(None, find_span(world, "<name>arm_1</name>", "arm_1"))
