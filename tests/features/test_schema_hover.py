"""Hover from the schema: the facts about an element or attribute name, per version, in our own words."""

from __future__ import annotations

import pytest

from sdformat_lsp.features import hover
from sdformat_lsp.queries.schema import spec_page
from sdformat_lsp.spec import schema_for

from .util import analysed, spanned


def _hover(marked: str, markdown: bool = True):
    a, offset = analysed(marked)
    h = hover(a, offset, markdown)
    return a, h


def doc(body: str, version: str = "1.9") -> str:
    return f'<?xml version="1.0"?>\n<sdf version="{version}">\n  <model name="m">\n    <link name="L"/>\n{body}\n  </model>\n</sdf>\n'


def test_an_element_tag_name() -> None:
    a, h = _hover(
        doc(
            '    <joint name="j" type="fixed"><parent>L</parent><child>L</child></joint>\n    <li|nk name="M">\n      <inertial><mass>2</mass></inertial>\n    </link>'
        )
    )
    assert h is not None
    assert spanned(a.text, h.span) == "link"
    assert "**`<link>`** element · SDFormat 1.9" in h.text
    assert "Occurs: optional, any number" in h.text
    assert "Versions: every version (since SDFormat 1.0)" in h.text
    assert "`name` (required)" in h.text
    assert "(http://sdformat.org/spec?ver=1.9&elem=link)" in h.text


def test_a_value_element_shows_type_default_and_its_page() -> None:
    a, h = _hover(doc('    <link name="M">\n      <inertial><ma|ss>2</mass></inertial>\n    </link>'))
    assert "Type: `double`" in h.text and "Default: `1.0`" in h.text
    assert "Occurs: optional, at most once" in h.text
    assert "since SDFormat 1.2" in h.text  # in 1.0 the mass was an attribute of <inertial>
    assert "elem=link" in h.text  # <inertial> is described on the link page


def test_the_end_tag_name_too() -> None:
    a, h = _hover(doc('    <link name="M">\n      <inertial><mass>2</ma|ss></inertial>\n    </link>'))
    assert h is not None and "<mass>" in h.text
    assert a.text[h.span.start - 2 : h.span.start] == "</"


def test_an_attribute_name() -> None:
    a, h = _hover(doc('    <joint name="j" ty|pe="fixed"><parent>L</parent><child>L</child></joint>'))
    assert spanned(a.text, h.span) == "type"
    assert "**`type`** attribute of `<joint>`" in h.text
    assert "Presence: required" in h.text and "Type: `string`" in h.text
    assert "elem=joint" in h.text


def test_bounds_and_required_multiplicity() -> None:
    world = (
        '<sdf version="1.12"><world name="w"><physics type="ode"><max_ste|p_size>0.001</max_step_size></physics>'
        "<scene><fog><density>1</density></fog><sky><clouds><humidity>0.5</humidity></clouds></sky></scene></world></sdf>"
    )
    _, h = _hover(world)
    assert "Occurs: required, exactly once" in h.text and "elem=physics" in h.text and "ver=1.12" in h.text
    _, h = _hover(world.replace("<max_ste|p_size>", "<max_step_size>").replace("<humidity>", "<humi|dity>"))
    assert "Value: from 0 to 1" in h.text and "elem=scene" in h.text
    _, h = _hover(world.replace("<max_ste|p_size>", "<max_step_size>").replace("<density>", "<dens|ity>"))
    assert "Value: at least 0.0" in h.text


def test_a_deprecated_element() -> None:
    marked = (
        '<sdf version="1.12"><model name="m"><link name="l"><sensor name="c" type="camera"><camera>'
        "<optical_fr|ame_id>x</optical_frame_id></camera></sensor></link></model></sdf>"
    )
    _, h = _hover(marked)
    assert "Occurs: deprecated" in h.text and "elem=sensor" in h.text


def test_removed_in_a_later_version() -> None:
    marked = '<sdf version="1.11"><world name="w"><state world_name="w"><mo|del name="m"/></state></world></sdf>'
    _, h = _hover(marked)
    assert "removed in 1.12" in h.text and "elem=state" in h.text


def test_an_element_newer_than_the_declared_version_is_described_from_the_version_that_has_it() -> None:
    marked = doc('    <frame name="f"><pose degr|ees="true">0 0 0 0 0 90</pose></frame>', version="1.6")
    _, h = _hover(marked)
    assert "Not part of SDFormat 1.6; described as in SDFormat 1.9." in h.text
    assert "Versions: since SDFormat 1.9" in h.text and "ver=1.9" in h.text


def test_plain_text_has_no_markdown() -> None:
    _, h = _hover(doc('    <li|nk name="M"/>'), markdown=False)
    assert "**" not in h.text and "`" not in h.text and "](" not in h.text
    assert "Specification: http://sdformat.org/spec?ver=1.9&elem=link" in h.text


def test_frame_hover_keeps_priority_on_names_references_and_poses() -> None:
    _, h = _hover(doc('    <frame name="f|" attached_to="L"/>'))
    assert "frame" in h.text and "SDFormat" not in h.text
    _, h = _hover(doc('    <frame name="f"><po|se>1 0 0 0 0 0</pose></frame>'))
    assert "expressed in" in h.text and "element ·" not in h.text


def test_nothing_on_unknown_or_free_form_names_or_text() -> None:
    assert _hover(doc("    <bo|gus/>"))[1] is None
    assert _hover(doc('    <plugin name="p" filename="f"><my_gai|n>1</my_gain></plugin>'))[1] is None
    assert _hover(doc('    <link name="M"><inertial><mass>2|</mass></inertial></link>'))[1] is None
    assert _hover(doc("    <gz:thi|ng/>"))[1] is None


def test_a_missing_version_uses_the_newest_schema() -> None:
    _, h = _hover('<sdf>\n  <model name="m"><li|nk name="L"/></model>\n</sdf>')
    assert h is not None and "SDFormat 1.12" in h.text


def test_a_document_without_frame_graphs_still_gets_schema_hover() -> None:
    a, h = _hover('<sdf version="1.9"><light name="l" type="point"><diff|use>1 1 1 1</diffuse></light></sdf>')
    assert a.graphs is None  # a top-level light: no model, no world
    assert "Type: `color`" in h.text and "elem=light" in h.text


@pytest.mark.parametrize(
    ("version", "path", "page"),
    [
        ("1.9", ("sdf", "model", "link", "visual", "geometry", "box", "size"), "geometry"),
        ("1.9", ("sdf", "model", "link", "visual", "material"), "material"),
        ("1.9", ("sdf", "world", "scene", "sky"), "scene"),
        ("1.9", ("sdf", "model", "link", "sensor", "camera", "image"), "sensor"),
        ("1.9", ("sdf", "world"), "world"),
        ("1.9", ("sdf",), "sdf"),
        ("1.12", ("sdf", "world", "state", "model_state"), "state"),
        ("1.0", ("gazebo", "model", "link"), "link"),
    ],
)
def test_specification_pages(version: str, path: tuple[str, ...], page: str) -> None:
    assert spec_page(schema_for(version), path) == page
