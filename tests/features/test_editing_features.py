"""Editing aids on awkward input: half-typed XML, nested and included models, no frames at all."""

from __future__ import annotations

from sdformat_lsp.features.colors import color_text, document_colors
from sdformat_lsp.features.frame_view import frame_view
from sdformat_lsp.features.highlight import document_highlights, linked_editing_ranges
from sdformat_lsp.features.inlay_hints import inlay_hints
from sdformat_lsp.features.structure import folding_ranges, selection_ranges
from sdformat_lsp.features.workspace_symbols import document_entities, workspace_symbols
from sdformat_lsp.semantics.analysis import Options, analyze
from sdformat_lsp.xml import parse
from sdformat_lsp.model import build

from .util import analysed, find, spanned

NESTED = """<sdf version="1.9">
  <model name="outer">
    <pose>5 5 5 0 0 0</pose>
    <link name="base"/>
    <model name="inner">
      <pose relative_to="base">1 0 0 0 0 0</pose>
      <link name="l"><pose>0 2 0 0 0 0</pose></link>
    </model>
  </model>
</sdf>
"""


def test_hints_are_relative_to_the_declaring_models_frame():
    a = analyze(NESTED, None, Options(schema=False))
    got = [(h.offset, h.label) for h in inlay_hints(a)]
    # the top-level model's own pose places the file elsewhere: no hint there;
    # base (no pose: after its tag), inner (in outer's frame), l (in inner's frame)
    assert got == [
        (find(NESTED, '<link name="base"/>') + len('<link name="base"/>'), "xyz 0 0 0 rpy 0 0 0°"),
        (
            find(NESTED, '<pose relative_to="base">1 0 0 0 0 0</pose>')
            + len('<pose relative_to="base">1 0 0 0 0 0</pose>'),
            "xyz 1 0 0 rpy 0 0 0°",
        ),
        (find(NESTED, "<pose>0 2 0 0 0 0</pose>") + len("<pose>0 2 0 0 0 0</pose>"), "xyz 0 2 0 rpy 0 0 0°"),
    ]


def test_hints_survive_half_typed_documents():
    for text in (
        "<sdf version='1.9'><model name='m'><link name='a'><pose>1 2",
        "<sdf version='1.9'><model name='m'><link name=",
        "<sdf",
        "",
        "\x00\x00<sdf version='1.9'><model name='m'><pose relative_to='nope'>1 0 0 0 0 0</pose>",
    ):
        a = analyze(text, None, Options(schema=False))
        inlay_hints(a)
        document_colors(a)
        folding_ranges(a)
        frame_view(a)
        for off in range(0, len(text) + 1, 3):
            selection_ranges(a, off)
            document_highlights(a, off)
            linked_editing_ranges(a, off)


def test_colors_come_from_the_schema_not_a_tag_list():
    text = """<sdf version="1.9"><world name="w">
  <scene><background>0.1 0.2 0.3 1</background></scene>
  <light name="sun" type="directional"><diffuse>0.8 0.8 0.8 1</diffuse></light>
  <model name="m"><link name="l"><visual name="v"><material><emissive>2 0 0 1</emissive>
  <specular>0 0 1 0.5</specular></material></visual></link></model>
  <model name="n"><link name="k"><sensor name="s" type="camera"><pose>0 0 0 0 0 0</pose></sensor></link></model>
</world></sdf>"""
    a = analyze(text, None, Options())
    colors = [(spanned(text, c.span), c.rgba) for c in document_colors(a)]
    # 2 0 0 1 is out of range (a diagnostic says so): no colour for the picker to clamp silently
    assert colors == [
        ("0.1 0.2 0.3 1", (0.1, 0.2, 0.3, 1.0)),
        ("0.8 0.8 0.8 1", (0.8, 0.8, 0.8, 1.0)),
        ("0 0 1 0.5", (0.0, 0.0, 1.0, 0.5)),
    ]
    assert color_text((1.0, 0.5, 1 / 3, 1.0)) == "1 0.5 0.333 1"


def test_highlight_on_a_tag_name_marks_both_tags():
    a, off = analysed('<sdf version="1.9"><model name="m"><li|nk name="l"></link></model></sdf>')
    spans = [spanned(a.text, h.span) for h in document_highlights(a, off)]
    assert spans == ["link", "link"]
    assert [spanned(a.text, s) for s in linked_editing_ranges(a, off)] == ["link", "link"]


def test_no_linked_editing_for_a_self_closing_or_unclosed_element():
    a, off = analysed('<sdf version="1.9"><model name="m"><li|nk name="l"/></model></sdf>')
    assert linked_editing_ranges(a, off) == []
    b, off = analysed('<sdf version="1.9"><model name="m"><li|nk name="l"></model></sdf>')
    assert linked_editing_ranges(b, off) == []


def test_selection_from_an_attribute_value_outwards():
    a, off = analysed('<sdf version="1.9"><model name="m"><link name="ab|c"/></model></sdf>')
    got = [spanned(a.text, s) for s in selection_ranges(a, off)]
    assert got[:3] == ["abc", 'name="abc"', '<link name="abc"/>']  # the element is its start tag: one entry
    assert got[3].startswith('<model name="m">') and got[3].endswith("</model>")
    assert got[-1].startswith("<sdf") and got[-1].endswith("</sdf>")


def test_workspace_entities_nest_models_and_match_like_editors():
    doc = build(parse(NESTED))[0]
    ents = document_entities(doc)
    assert [(e.name, e.kind, e.container) for e in ents] == [
        ("outer", "model", None),
        ("base", "link", "outer"),
        ("inner", "model", "outer"),
        ("l", "link", "outer::inner"),
    ]
    found = workspace_symbols([("a.sdf", ents)], "inr")
    assert [s.name for _, s in found] == ["inner"]
    assert [s.name for _, s in workspace_symbols([("a.sdf", ents)], "l")][0] == "l"  # exact match first


def test_frame_view_of_a_world_names_frames_from_the_world():
    text = """<sdf version="1.9"><world name="w">
  <frame name="f"><pose>0 0 1 0 0 0</pose></frame>
  <model name="m"><pose relative_to="f">1 0 0 0 0 0</pose><link name="l"/></model>
</world></sdf>"""
    view = frame_view(analyze(text, None, Options(schema=False)))
    assert view is not None and view.root_kind == "world"
    by_name = {f.name: f for f in view.frames}
    assert by_name["m::l"].pose is not None and by_name["m::l"].pose.p == (1.0, 0.0, 1.0)
    assert by_name["m::l"].parent == by_name["m"].id
