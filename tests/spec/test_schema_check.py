"""Schema diagnostics for XML documents."""

from __future__ import annotations

from sdformat_lsp.diagnostics import Diagnostic, Severity
from sdformat_lsp.semantics.schema.validation import check_schema
from sdformat_lsp.xml import parse


def run(body: str, version: str = "1.12") -> tuple[str, list[Diagnostic]]:
    text = f'<?xml version="1.0"?>\n<sdf version="{version}">\n{body}\n</sdf>\n'
    return text, check_schema(parse(text), version)


def spans(text: str, diags: list[Diagnostic]) -> list[tuple[str, str, str]]:
    return [(d.code, d.severity.name, text[d.span.start : d.span.end]) for d in diags]


def apply(text: str, d: Diagnostic) -> str:
    fix = d.fixes[0]
    return text[: fix.span.start] + fix.new_text + text[fix.span.end :]


MODEL = """<model name="m">
  <link name="l">
    <inertial><mass>1.5</mass></inertial>
    <collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision>
    <visual name="v"><geometry><sphere><radius>0.5</radius></sphere></geometry></visual>
  </link>
  <joint name="j" type="fixed"><parent>world</parent><child>l</child></joint>
</model>"""


def test_valid_document_is_quiet() -> None:
    for version in ("1.6", "1.9", "1.12"):
        assert run(MODEL, version)[1] == []


def test_unknown_element_suggests_a_rename_of_both_tags() -> None:
    text, diags = run('<model name="m"><statc>true</statc><link name="l"/></model>')
    assert spans(text, diags) == [("ELEMENT_INCORRECT_TYPE", "WARNING", "statc")]
    d = diags[0]
    assert "<statc>" in d.message and "<static>" in d.message and "<model>" in d.message
    fixed = apply(text, d)
    assert "<static>true</static>" in fixed
    assert run('<model name="m"><static>true</static><link name="l"/></model>')[1] == []


def test_unknown_element_without_a_close_match() -> None:
    # libsdformat keeps unknown elements for simulators and plugins: a hint, not a warning, and no false claim
    text, diags = run('<model name="m"><link name="l"/><banana/></model>')
    assert spans(text, diags) == [("ELEMENT_INCORRECT_TYPE", "HINT", "banana")]
    assert diags[0].fixes == ()
    assert "keeps it" in diags[0].message and "skips" not in diags[0].message


def test_self_closing_unknown_element_fix() -> None:
    text, diags = run('<model name="m"><link name="l"/><statc/></model>')
    assert "<static/>" in apply(text, diags[0])


def test_unknown_attribute() -> None:
    text, diags = run('<model name="m"><link name="l" nmae="x" colour="red"/></model>')
    got = spans(text, diags)
    assert got == [("ATTRIBUTE_INCORRECT_TYPE", "WARNING", "nmae"), ("ATTRIBUTE_INCORRECT_TYPE", "WARNING", "colour")]
    assert all("<link>" in d.message for d in diags)


def test_missing_required_attribute_but_not_name() -> None:
    text, diags = run('<model><link name="l"/><joint name="j"><parent>world</parent><child>l</child></joint></model>')
    assert spans(text, diags) == [("ATTRIBUTE_MISSING", "ERROR", "joint")]
    assert "type" in diags[0].message
    assert ' type=""' in apply(text, diags[0])


def test_plugin_filename_is_required_but_its_body_is_free() -> None:
    text, diags = run(
        '<model name="m"><link name="l"/><plugin name="p"><whatever x="1"><deep/></whatever></plugin></model>'
    )
    assert spans(text, diags) == [("ATTRIBUTE_MISSING", "ERROR", "plugin")]
    assert "filename" in diags[0].message


def test_namespaced_elements_and_attributes_are_free_form() -> None:
    body = (
        '<model name="m" xmlns:gz="http://gazebosim.org" gz:a="1"><link name="l"/><gz:thing><bogus/></gz:thing></model>'
    )
    assert run(body)[1] == []


def test_bad_values() -> None:
    body = """<model name="m"><static>maybe</static><link name="l">
      <inertial><mass>heavy</mass></inertial>
      <collision name="c"><geometry><box><size>1 2</size></box></geometry></collision>
    </link></model>"""
    text, diags = run(body)
    assert spans(text, diags) == [
        ("PARAMETER_ERROR", "ERROR", "maybe"),
        ("PARAMETER_ERROR", "ERROR", "heavy"),
        ("PARAMETER_ERROR", "ERROR", "1 2"),
    ]
    assert "<static>" in diags[0].message and "true or false" in diags[0].message
    assert "<mass>" in diags[1].message and "number" in diags[1].message
    assert "expected 3 numbers (x y z), got 2" in diags[2].message


def test_value_read_only_in_part_is_a_warning() -> None:
    text, diags = run('<model name="m"><link name="l"><inertial><mass>2kg</mass></inertial></link></model>')
    assert spans(text, diags) == [("PARAMETER_ERROR", "WARNING", "2kg")]
    assert "'kg'" in diags[0].message


def test_bad_attribute_value() -> None:
    text, diags = run(
        '<model name="m"><link name="l"><visual name="v"><geometry><empty/></geometry>'
        '<material><pbr><metal><light_map uv_set="two">x.png</light_map></metal></pbr></material>'
        "</visual></link></model>"
    )
    assert spans(text, diags) == [("ATTRIBUTE_INVALID", "ERROR", "two")]


def test_min_and_max() -> None:
    body = """<model name="m"><link name="l"><collision name="c"><geometry><empty/></geometry>
      <surface><bounce><restitution_coefficient>1.5</restitution_coefficient></bounce>
      <friction><ode><mu>-1</mu></ode></friction></surface></collision></link></model>"""
    text, diags = run(body)
    assert spans(text, diags) == [("PARAMETER_ERROR", "ERROR", "1.5"), ("PARAMETER_ERROR", "ERROR", "-1")]
    assert "at most 1.0" in diags[0].message
    assert "at least 0.0" in diags[1].message


def test_bound_of_an_old_version_that_the_newest_relaxed_is_not_reported() -> None:
    # 1.4 asked camera clip far >= 10; libsdformat converts to 1.12 (min 0.1) and reads it without a word.
    body = """<model name="m"><link name="l"><sensor name="s" type="camera"><camera>
      <horizontal_fov>1</horizontal_fov><image><width>1</width><height>1</height></image>
      <clip><near>0.1</near><far>5</far></clip></camera></sensor></link></model>"""
    text, diags = run(body, "1.4")
    assert spans(text, diags) == []
    text, diags = run(body.replace("<far>5</far>", "<far>0.01</far>"), "1.4")
    assert spans(text, diags) == [("PARAMETER_ERROR", "ERROR", "0.01")]


def test_empty_required_value() -> None:
    body = '<model name="m"><link name="l"><visual name="v"><geometry><mesh><uri></uri></mesh></geometry></visual></link></model>'
    text, diags = run(body)
    assert spans(text, diags) == [("PARAMETER_ERROR", "ERROR", "uri")]
    assert "needs a value" in diags[0].message


def test_joint_parent_child_and_pose_are_left_to_the_semantic_core() -> None:
    body = """<model name="m"><link name="l"><pose degrees="perhaps">1 2</pose></link>
      <joint name="j" type="fixed"><parent></parent></joint></model>"""
    assert run(body)[1] == []


def test_deprecated_element() -> None:
    body = """<model name="m"><link name="a"/><link name="b"/>
      <joint name="j" type="screw"><parent>a</parent><child>b</child><thread_pitch>2</thread_pitch></joint></model>"""
    text, diags = run(body)
    assert spans(text, diags) == [("ELEMENT_DEPRECATED", "WARNING", "thread_pitch")]


def test_repeated_once_only_element() -> None:
    text, diags = run('<model name="m"><static>true</static><static>false</static><link name="l"/></model>')
    assert spans(text, diags) == [("ELEMENT_INVALID", "WARNING", "static")]
    first = text.index("<static>") + 1
    assert diags[0].span.start > first
    assert diags[0].related[0].span.start == first
    # many-allowed elements and the root's children (checked elsewhere) are not flagged
    assert run('<model name="m"><link name="a"/><link name="b"/></model>')[1] == []
    assert run('<model name="a"><link name="l"/></model><model name="b"><link name="l"/></model>')[1] == []


def test_polylines_may_repeat() -> None:
    poly = "<polyline><point>0 0</point><point>1 0</point><point>0 1</point><height>1</height></polyline>"
    body = f'<model name="m"><link name="l"><collision name="c"><geometry>{poly}{poly}</geometry></collision></link></model>'
    assert run(body)[1] == []


def test_newer_element_and_attribute_name_their_version() -> None:
    body = """<model name="m" canonical_link="l"><link name="l"><inertial>
      <fluid_added_mass><xx>1</xx></fluid_added_mass></inertial></link></model>"""
    text, diags = run(body, "1.6")
    # one hint on the version (Gazebo reads the file as written), each use a related location, a fix
    # raising it to the newest needed
    assert spans(text, diags) == [("ELEMENT_INCORRECT_TYPE", "HINT", "1.6")]
    d = diags[0]
    assert "2 features newer than its declared version 1.6" in d.message
    assert [text[r.span.start : r.span.end] for r in d.related] == ["canonical_link", "fluid_added_mass"]
    assert "1.7" in d.related[0].message and "1.10" in d.related[1].message
    assert d.data["since"] == "1.10"
    assert 'version="1.10"' in apply(text, d)


def test_newer_element_subtree_is_checked_with_its_version() -> None:
    body = """<model name="m"><link name="l"><inertial>
      <fluid_added_mass><xx>lots</xx></fluid_added_mass></inertial></link></model>"""
    text, diags = run(body, "1.6")
    assert ("PARAMETER_ERROR", "ERROR", "lots") in spans(text, diags)


def test_removed_attribute_says_when_it_existed() -> None:
    text, diags = run('<model name="m"><link name="l"><pose frame="x">0 0 0 0 0 0</pose></link></model>', "1.12")
    assert spans(text, diags) == [("ATTRIBUTE_INCORRECT_TYPE", "WARNING", "frame")]
    assert "1.6" in diags[0].message


def test_nested_models_follow_the_reference() -> None:
    body = '<model name="a"><model name="b"><model name="c"><link name="l"><statc/></link></model></model></model>'
    text, diags = run(body)
    assert spans(text, diags) == [("ELEMENT_INCORRECT_TYPE", "HINT", "statc")]
    assert "<link>" in diags[0].message


def test_old_gazebo_root() -> None:
    text = '<gazebo version="1.0"><world name="w"><model name="m"><link name="l"/><bogus/></model></world></gazebo>'
    diags = check_schema(parse(text), "1.0")
    assert [text[d.span.start : d.span.end] for d in diags] == ["bogus"]


def test_unknown_version_or_root_gives_nothing() -> None:
    text = '<sdf version="9.9"><bogus/></sdf>'
    assert check_schema(parse(text), "9.9") == []
    assert check_schema(parse("<robot name='r'><link name='x'/></robot>"), "1.12") == []
    assert check_schema(parse(""), "1.12") == []


def test_severities_are_consistent() -> None:
    text, diags = run('<model name="m"><link name="l" x="1"><bogus/></link><static>2</static></model>')
    for d in diags:
        assert d.severity in (Severity.ERROR, Severity.WARNING, Severity.INFORMATION, Severity.HINT)
        assert d.message and d.message[0].islower() or d.message[0] == "<"
