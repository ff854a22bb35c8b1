"""Completion from the schema: child elements, attribute names and enumerated values, in half-typed documents."""

from __future__ import annotations

import pytest

from sdformat_lsp.features import CompletionItem, complete
from sdformat_lsp.queries.schema import ENUMS, enum_values
from sdformat_lsp.spec import known_versions

from .util import analysed, spanned


def _complete(marked: str, snippets: bool = True):
    a, offset = analysed(marked)
    return a, complete(a, offset, snippets)


def _items(marked: str, snippets: bool = True) -> dict[str, CompletionItem]:
    return {i.label: i for i in _complete(marked, snippets)[1].items}


def _ordered(marked: str) -> list[str]:
    return [i.label for i in sorted(_complete(marked)[1].items, key=lambda i: i.sort_text)]


def doc(body: str, version: str = "1.9") -> str:
    return f'<?xml version="1.0"?>\n<sdf version="{version}">\n  <model name="m">\n{body}\n  </model>\n</sdf>\n'


LINK_KIDS_19 = {
    "audio_sink",
    "audio_source",
    "battery",
    "collision",
    "enable_wind",
    "gravity",
    "inertial",
    "kinematic",
    "light",
    "must_be_base_link",
    "particle_emitter",
    "pose",
    "projector",
    "self_collide",
    "sensor",
    "velocity_decay",
    "visual",
}


# -- child elements ----------------------------------------------------------------


def test_half_typed_tag_with_nothing_after_it() -> None:
    # '<li' and then the end of the file: no end tags anywhere
    marked = '<sdf version="1.9">\n  <model name="m">\n    <link name="a">\n      <li|'
    a, result = _complete(marked)
    assert {i.label for i in result.items} == LINK_KIDS_19
    assert spanned(a.text, result.replace_span) == "li"


def test_half_typed_tag_in_a_model_offers_its_children_and_replaces_the_typed_name() -> None:
    a, result = _complete(doc('    <link name="base"/>\n    <li|\n    <joint name="j" type="fixed"/>'))
    labels = {i.label for i in result.items}
    assert {"link", "joint", "frame", "model", "include", "plugin", "static", "pose"} <= labels
    assert "inertial" not in labels and "parent" not in labels
    assert spanned(a.text, result.replace_span) == "li"
    link = next(i for i in result.items if i.label == "link")
    assert link.kind == "element" and link.snippet
    assert link.insert_text.startswith('link name="$1">')  # the '<' is already typed
    assert "<inertial>" in link.insert_text and "</link>" in link.insert_text


def test_an_empty_line_inside_a_link_offers_elements_with_their_angle_bracket() -> None:
    a, result = _complete(doc('    <link name="a">\n      |\n    </link>'))
    items = {i.label: i for i in result.items}
    assert set(items) == LINK_KIDS_19
    assert result.replace_span.start == result.replace_span.end
    assert items["visual"].insert_text.startswith('<visual name="$1">')


def test_a_name_typed_without_angle_bracket_is_replaced_by_the_element() -> None:
    a, result = _complete(doc('    <link name="a">\n      vis|\n    </link>'))
    assert spanned(a.text, result.replace_span) == "vis"
    assert next(i for i in result.items if i.label == "visual").insert_text.startswith("<visual")


def test_once_only_children_already_present_are_left_out_repeatable_ones_stay() -> None:
    labels = set(
        _items(
            doc(
                '    <link name="a">\n      <pose>0 0 0 0 0 0</pose>\n      <inertial/>\n'
                '      <visual name="v"><geometry><box/></geometry></visual>\n      <|\n    </link>'
            )
        )
    )
    assert "pose" not in labels and "inertial" not in labels
    assert "visual" in labels and "collision" in labels


def test_the_element_being_typed_does_not_count_as_present() -> None:
    assert "static" in _items(doc("    <sta|"))


def test_required_children_come_first() -> None:
    order = _ordered('<sdf version="1.9">\n  <world name="w">\n    <|\n  </world>\n</sdf>')
    required = {"atmosphere", "gravity", "magnetic_field", "physics", "scene"}
    assert set(order[: len(required)]) == required
    # once a required child is there, it is not offered again (or, if repeatable, no longer first)
    order = _ordered(
        '<sdf version="1.9">\n  <world name="w">\n    <scene/><physics type="ode"/>\n    <|\n  </world>\n</sdf>'
    )
    assert "scene" not in order
    assert order.index("physics") > order.index("atmosphere") and order.index("physics") > order.index("actor")


def test_a_16_file_is_not_offered_elements_newer_than_16() -> None:
    world = '<sdf version="{v}">\n  <world name="w">\n    <|\n  </world>\n</sdf>'
    assert "frame" in _items(world.format(v="1.9")) and "frame" not in _items(world.format(v="1.6"))
    light = '<sdf version="{v}">\n  <world name="w">\n    <light name="l" type="point">\n      <|\n    </light>\n  </world>\n</sdf>'
    assert {"intensity", "light_on", "visualize"} <= set(_items(light.format(v="1.9")))
    assert {"intensity", "light_on", "visualize"}.isdisjoint(_items(light.format(v="1.6")))
    assert {"diffuse", "attenuation"} <= set(_items(light.format(v="1.6")))
    include = doc("    <include>\n      <uri>model://x</uri>\n      <|\n    </include>", version="{v}")
    assert "placement_frame" in _items(include.replace("{v}", "1.9"))
    assert "placement_frame" not in _items(include.replace("{v}", "1.6"))


def test_a_missing_or_unknown_version_falls_back_to_the_newest_schema() -> None:
    for root in ("<sdf>", '<sdf version="7.3">'):
        marked = f'{root}\n  <model name="m">\n    <link name="a">\n      <|\n    </link>\n  </model>\n</sdf>'
        assert "must_be_base_link" in _items(marked)


def test_deprecated_children_are_marked_and_sorted_last() -> None:
    marked = '<sdf version="1.12"><model name="m"><link name="l"><sensor name="c" type="camera"><camera>\n<|\n</camera></sensor></link></model></sdf>'
    items = _items(marked)
    assert items["optical_frame_id"].deprecated
    assert items["optical_frame_id"].sort_text.startswith("2")
    assert not items["image"].deprecated


def test_joint_snippet_has_its_attributes_parent_and_child() -> None:
    joint = _items(doc("    <jo|"))["joint"]
    assert joint.snippet
    first_line, parent, child, end = joint.insert_text.split("\n")
    assert first_line.startswith('joint name="$1" type="${2|revolute,prismatic,fixed,')
    assert "continuous" in first_line and first_line.endswith('|}">')
    assert parent == "  <parent>$3</parent>" and child == "  <child>$4</child>" and end == "</joint>"


def test_model_snippet_holds_a_link() -> None:
    model = _items('<sdf version="1.9">\n  <world name="w">\n    <mo|\n  </world>\n</sdf>')["model"]
    assert model.insert_text.startswith('model name="$1">\n  <link name="$2">')


def test_plain_text_when_the_client_takes_no_snippets() -> None:
    # indented like the line it is written on, since a client without snippets inserts text as it is
    items = _items(doc("    <jo|"), snippets=False)
    joint = items["joint"]
    assert not joint.snippet
    assert joint.insert_text == 'joint name="" type="">\n      <parent></parent>\n      <child></child>\n    </joint>'
    assert "$" not in items["link"].insert_text and "$" not in items["static"].insert_text
    assert items["static"].insert_text == "static>false</static>"


def test_snippet_indentation_follows_the_document() -> None:
    marked = '<sdf version="1.9">\n\t<model name="m">\n\t\t<jo|\n\t</model>\n</sdf>'
    assert "\n\t<parent>$3</parent>" in _items(marked)["joint"].insert_text


def test_the_document_root_when_there_is_none_yet() -> None:
    items = _items("<|")
    assert set(items) == {"sdf"}
    assert items["sdf"].insert_text.startswith('sdf version="${1|1.12,1.11,1.10,1.9,')
    assert _items('<sdf version="1.9"/>\n<|') == {}


def test_nothing_inside_comments_end_tags_plugins_or_a_written_tag() -> None:
    assert _items(doc("    <!-- <|")) == {}
    assert _items(doc("    <!-- a comment --> <link name='a'></li|nk>")) == {}
    assert _items(doc('    <plugin name="p" filename="f">\n      <|\n    </plugin>')) == {}
    assert _items(doc('    <li|nk name="a"/>')) == {}
    assert _items(doc('    <link name="a"><pose>0 0 |0 0 0 0</pose></link>')) == {}


def test_a_comment_before_the_cursor_is_skipped() -> None:
    assert "link" in _items(doc("    <!-- <joint> -->\n    <|"))


# -- attribute names ---------------------------------------------------------------------


def test_attribute_names_in_a_start_tag_required_first_present_ones_left_out() -> None:
    a, result = _complete(doc('    <joint name="j" |'))
    assert [i.label for i in result.items] == ["type"]
    item = result.items[0]
    assert item.kind == "attribute" and item.sort_text.startswith("0") and item.snippet
    assert item.insert_text.startswith('type="${1|revolute,prismatic,')


def test_attribute_names_with_a_partial_name_replace_it() -> None:
    a, result = _complete(doc('    <frame name="f">\n      <pose rel|\n    </frame>'))
    labels = [i.label for i in sorted(result.items, key=lambda i: i.sort_text)]
    assert set(labels) == {"relative_to", "degrees", "rotation_format"}
    assert spanned(a.text, result.replace_span) == "rel"
    assert next(i for i in result.items if i.label == "relative_to").insert_text == 'relative_to="$1"'
    degrees = next(i for i in result.items if i.label == "degrees")
    assert degrees.insert_text == 'degrees="${1|false,true|}"'


def test_attributes_after_the_cursor_count_as_present() -> None:
    assert set(_items(doc('    <model | name="n" canonical_link="l">'))) == {"placement_frame"}


def test_attribute_names_in_plain_text() -> None:
    item = _items(doc('    <joint name="j" |'), snippets=False)["type"]
    assert item.insert_text == 'type=""' and not item.snippet


def test_attributes_depend_on_the_version() -> None:
    assert "canonical_link" in _items(doc("    <model |/>", version="1.8"))
    assert "canonical_link" not in _items(doc("    <model |/>", version="1.6"))


# -- values --------------------------------------------------------------------------------


def test_joint_type_values_in_an_unterminated_attribute() -> None:
    a, result = _complete(doc('    <joint name="j" type="re|\n    <link name="l"/>'))
    labels = [i.label for i in result.items]
    assert labels[:3] == ["revolute", "prismatic", "fixed"] and "gearbox" in labels
    assert all(i.kind == "value" for i in result.items)
    assert spanned(a.text, result.replace_span) == "re"


def test_joint_types_follow_the_version() -> None:
    assert "continuous" not in _items(doc('    <joint name="j" type="|"/>', version="1.5"))
    assert "piston" in _items(doc('    <joint name="j" type="|"/>', version="1.4"))
    assert "piston" not in _items(doc('    <joint name="j" type="|"/>', version="1.9"))


def test_rotation_format_light_and_sensor_types() -> None:
    assert set(_items(doc('    <link name="l"><pose rotation_format="|"/></link>'))) == {"euler_rpy", "quat_xyzw"}
    assert list(_items('<sdf version="1.9"><world name="w"><light name="s" type="|"/></world></sdf>')) == [
        "point",
        "directional",
        "spot",
    ]
    sensors = _items(doc('    <link name="l"><sensor name="s" type="c|"/></link>'))
    assert {"camera", "contact", "lidar", "navsat", "custom"} <= set(sensors)
    assert "older name of lidar" in sensors["ray"].detail and sensors["ray"].sort_text > sensors["lidar"].sort_text
    assert "custom" not in _items(doc('    <link name="l"><sensor name="s" type="|"/></link>', version="1.6"))


def test_booleans_in_element_text_and_attributes() -> None:
    a, result = _complete(doc("    <static>tr|</static>"))
    assert [i.label for i in result.items] == ["true", "false"]
    assert spanned(a.text, result.replace_span) == "tr"
    assert "default" in _items(doc("    <static>|"))["false"].detail
    assert set(_items('<sdf version="1.12"><world name="w"><include merge="|"/></world></sdf>')) == {"true", "false"}


def test_the_version_attribute_offers_the_known_versions() -> None:
    assert list(_items('<sdf version="1.|">\n</sdf>'))[:3] == ["1.12", "1.11", "1.10"]


def test_no_values_for_free_text() -> None:
    assert _items(doc('    <link name="|"/>')) == {}
    assert _items(doc('    <link name="l"><pose>|</pose></link>')) == {}


def test_frame_names_keep_priority_inside_frame_references() -> None:
    items = _items(doc('    <link name="a"/>\n    <frame name="f" attached_to="|"/>'))
    assert "a" in items and items["a"].kind == "link"
    assert not any(i.kind in ("value", "attribute", "element") for i in items.values())


def test_enum_table_values_are_known_for_every_version() -> None:
    for version in known_versions():
        assert "revolute" in enum_values("joint", "type", "string", version)
        assert enum_values("light", "type", "string", version) == ("point", "directional", "spot")
        assert enum_values("static", None, "bool", version) == ("true", "false")
    for key, values in ENUMS.items():
        assert len({v for v, _s, _u in values}) == len(values), key


@pytest.mark.parametrize("version", ["1.0", "1.2", "1.4", "1.6", "1.9", "1.12"])
def test_every_version_completes_a_model(version: str) -> None:
    root = "gazebo" if version in ("1.0", "1.2") else "sdf"
    marked = f'<{root} version="{version}">\n  <model name="m">\n    <|\n  </model>\n</{root}>'
    items = _items(marked)
    assert {"link", "joint"} <= set(items)
    assert items["link"].insert_text.startswith('link name="$1">')


def test_an_unclosed_element_before_the_cursor_stays_open() -> None:
    marked = doc('    <link name="a">\n      <visual name="v">\n        <|\n    </link>\n    <link name="b"/>')
    labels = set(_items(marked))
    assert {"geometry", "material", "transparency"} <= labels and "visual" not in labels


def test_complete_siblings_before_the_cursor_are_skipped_but_comments_after_them_are_read() -> None:
    siblings = "\n".join(f'    <link name="l{i}"><pose>0 0 {i} 0 0 0</pose></link>' for i in range(50))
    assert "link" in _items(doc(f"{siblings}\n    <|"))
    assert _items(doc(f"{siblings}\n    <!-- <|")) == {}
    assert _items(doc(f"{siblings}\n    <![CDATA[ <|")) == {}
