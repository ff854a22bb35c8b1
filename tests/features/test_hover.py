"""Hover: resolved poses, the relative_to chain, the attached link, and why not."""

from __future__ import annotations

import re

from sdformat_lsp.features import hover
from sdformat_lsp.queries.frames import format_number
from sdformat_lsp.semantics.analysis import analyze

from .util import analysed, find_span, spanned

WORLD = """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <!-- é 中 😀 before every cursor -->
    <frame name="dock_é"><pose>1 0 0 0 0 0</pose></frame>
    <model name="bot">
      <pose relative_to="dock_é" degrees="true">0 0 0 0 0 90</pose>
      <link name="chassis_中"/>
      <frame name="sensor_😀" attached_to="chassis_中">
        <pose relative_to="chassis_中">0 1 0 0 0 0</pose>
      </frame>
      <frame name="tip" attached_to="sensor_😀"><pose relative_to="sensor_😀">0 0 2 0 0 0</pose></frame>
      <link name="wheel">
        <visual name="rim"><pose relative_to="tip">0 0 1 0 0 0</pose></visual>
      </link>
    </model>
    <model name="shelf">
      <static>true</static>
      <frame name="top"><pose>0 0 1 0 0 0</pose></frame>
    </model>
  </world>
</sdf>
"""


def _hover(doc: str, needle: str, word: str | None = None, markdown: bool = True, inside: int = 1):
    a = analyze(doc)
    span = find_span(doc, needle, word)
    result = hover(a, span.start + inside, markdown)
    assert result is not None, f"no hover on {needle}"
    return result


def test_the_world_is_clean() -> None:
    assert [d.message for d in analyze(WORLD).diagnostics if d.is_error] == []


def test_a_frame_name_shows_its_pose_in_its_model_and_in_the_world() -> None:
    h = _hover(WORLD, '<frame name="tip"', "tip", inside=0)
    assert spanned(WORLD, h.span) == "tip"
    text = h.text
    assert "**frame** `bot::tip`" in text
    # tip = sensor (0 1 0 in the model) + 0 0 2
    assert "Relative to `__model__` of model `bot`:\n- xyz: `0 1 2`" in text
    # the model sits at dock (1 0 0), yawed 90 degrees: model y becomes world -x
    assert "Relative to `world`:\n- xyz: `0 0 2`" in text
    assert "- rpy: `0 0 1.570796` rad (`0 0 90` deg)" in text
    assert "- quaternion (x y z w): `0 0 0.707107 0.707107`" in text
    assert "relative_to chain: `tip -> sensor_😀 -> chassis_中 -> __model__`" in text
    assert "Attached to: `bot::chassis_中`" in text


def test_a_reference_shows_the_frame_it_resolves_to() -> None:
    h = _hover(WORLD, 'attached_to="sensor_😀"', "sensor_😀", inside=3)
    assert spanned(WORLD, h.span) == "sensor_😀"
    assert "**frame** `bot::sensor_😀`" in h.text
    assert "Relative to `__model__` of model `bot`:\n- xyz: `0 1 0`" in h.text


def test_plain_text_has_no_markdown() -> None:
    h = _hover(WORLD, 'attached_to="sensor_😀"', "sensor_😀", markdown=False)
    assert "`" not in h.text and "**" not in h.text
    assert "frame bot::sensor_😀" in h.text
    assert "relative_to chain: sensor_😀 -> chassis_中 -> __model__" in h.text
    assert "  xyz: 0 1 0" in h.text


def test_numbers_are_short_and_never_negative_zero() -> None:
    assert format_number(-0.0) == "0"
    assert format_number(-1e-12) == "0"
    assert format_number(1.23456789) == "1.234568"
    assert format_number(90.0000000001) == "90"
    assert format_number(-2.5) == "-2.5"
    for needle in ('<frame name="tip"', '<link name="chassis_中"', 'relative_to="dock_é"'):
        text = _hover(WORLD, needle, inside=13).text
        assert not re.search(r"-0(?![.\d])", text), text


def test_a_pose_shows_what_it_is_expressed_in() -> None:
    needle = '<pose relative_to="chassis_中">0 1 0 0 0 0</pose>'
    on_tag = _hover(WORLD, needle, "pose")
    on_text = _hover(WORLD, needle, "0 1 0 0 0 0", inside=4)
    assert spanned(WORLD, on_tag.span) == "pose"
    assert spanned(WORLD, on_text.span) == "0 1 0 0 0 0"
    for h in (on_tag, on_text):
        assert "**pose** of frame `sensor_😀`, expressed in `chassis_中`" in h.text
        assert "As written:\n- xyz: `0 1 0`" in h.text
        assert "**frame** `bot::sensor_😀`" in h.text


def test_a_model_pose_in_degrees_is_shown_in_radians_and_degrees() -> None:
    h = _hover(WORLD, '<pose relative_to="dock_é" degrees="true">0 0 0 0 0 90</pose>', "0 0 0 0 0 90")
    assert "**pose** of model `bot`, expressed in `dock_é`" in h.text
    assert "As written:\n- xyz: `0 0 0`\n- rpy: `0 0 1.570796` rad (`0 0 90` deg)" in h.text
    assert "Relative to `world`:\n- xyz: `1 0 0`" in h.text
    assert "relative_to chain: `bot -> dock_é -> world`" in h.text


def test_a_visual_pose_is_resolved_through_its_relative_to() -> None:
    h = _hover(WORLD, '<visual name="rim"><pose', "pose")
    assert "**pose** of `<visual>` `rim`, expressed in `tip`" in h.text
    assert "Relative to `__model__` of model `bot`:\n- xyz: `0 1 3`" in h.text


def test_attachment_to_a_static_model_and_to_the_world() -> None:
    top = _hover(WORLD, '<frame name="top"', "top")
    assert "Attached to: `static model shelf`" in top.text
    dock = _hover(WORLD, '<frame name="dock_é"', "dock_é")
    assert "Attached to: `world`" in dock.text
    assert "Relative to `world`:\n- xyz: `1 0 0`" in dock.text


def test_the_world_name_and_model_frame() -> None:
    h = _hover(WORLD, '<world name="w"', '"w"', inside=1)
    assert h.text.startswith("**world** `w`")


def test_a_cycle_is_explained() -> None:
    a, offset = analysed("""<sdf version="1.9">
  <model name="m_é">
    <link name="L"/>
    <frame name="a|"><pose relative_to="b">0 0 0 0 0 0</pose></frame>
    <frame name="b"><pose relative_to="a">0 0 0 0 0 0</pose></frame>
  </model>
</sdf>""")
    h = hover(a, offset)
    assert h is not None
    assert "Pose cannot be resolved: relative_to cycle: a -> b -> a." in h.text
    assert "Attached to: `L`" in h.text  # a model file names frames from inside its model


def test_an_attached_to_cycle_is_explained() -> None:
    a, offset = analysed("""<sdf version="1.9">
  <model name="m"><link name="L"/>
    <frame name="x|" attached_to="y"/><frame name="y" attached_to="x"/>
  </model>
</sdf>""")
    h = hover(a, offset)
    assert h is not None and "Not attached to a link: attached_to cycle: x -> y -> x." in h.text


def test_an_unresolved_reference_says_why() -> None:
    a, offset = analysed("""<sdf version="1.9">
  <model name="outer"><link name="L"/>
    <model name="inner"><link name="K"/><frame name="f" attached_to="L|"/></model>
  </model>
</sdf>""")
    h = hover(a, offset, markdown=False)
    assert h is not None
    assert h.text.startswith("attached_to L")
    assert "no frame 'L' in model 'inner'" in h.text


def test_a_frame_relative_to_an_unresolved_frame_says_which() -> None:
    a, offset = analysed("""<sdf version="1.9">
  <model name="m"><link name="L"/>
    <frame name="f|"><pose relative_to="nowhere">0 0 0 0 0 0</pose></frame>
  </model>
</sdf>""")
    h = hover(a, offset)
    assert h is not None
    assert "Pose cannot be resolved: relative_to 'nowhere' of frame 'f' does not resolve." in h.text


def test_nothing_to_say_elsewhere() -> None:
    a, offset = analysed(
        '<sdf version="1.9"><model name="m"><link name="L"><inertial>|</inertial></link></model></sdf>'
    )
    assert hover(a, offset) is None
    assert hover(a, 0) is None


def test_empty_and_half_scoped_references_say_what_is_missing() -> None:
    a, offset = analysed(
        '<sdf version="1.9"><model name="m"><link name="L"/>'
        '<joint name="j" type="fixed"><parent>|</parent><child>L</child></joint></model></sdf>'
    )
    h = hover(a, offset, markdown=False)
    assert h is not None and h.text == "parent (empty)\n\nDoes not resolve: the reference is empty."
    a, offset = analysed(
        '<sdf version="1.9"><model name="m"><link name="L"/><model name="n"><link name="K"/></model>'
        '<frame name="f" attached_to="n::|"/></model></sdf>'
    )
    h = hover(a, offset, markdown=False)
    assert h is not None and "a name is missing around '::'" in h.text
    a, offset = analysed(
        '<sdf version="1.9"><model name="m"><link name="L"/><frame name="f" attached_to="no|pe::K"/></model></sdf>'
    )
    h = hover(a, offset, markdown=False)
    assert h is not None and "there is no nested model 'nope' in model 'm'" in h.text
