"""Each validation phase: the code, the exact range, one diagnostic per root cause."""

import math

import pytest

from sdformat_lsp.diagnostics import Severity
from sdformat_lsp.semantics import analyze


def model(body: str, version: str = "1.9", attrs: str = "") -> str:
    return f'<?xml version="1.0"?>\n<sdf version="{version}">\n<model name="m"{attrs}>\n{body}\n</model>\n</sdf>\n'


def errors(text: str):
    return [d for d in analyze(text).diagnostics if d.severity == Severity.ERROR]


def only(text: str, code: str):
    errs = errors(text)
    assert [d.code for d in errs] == [code], [(d.code, d.message) for d in errs]
    d = errs[0]
    return d, text[d.span.start : d.span.end]


def test_valid_model_has_no_errors():
    text = model(
        '<link name="L1"/><link name="L2"><pose relative_to="L1">1 0 0 0 0 0</pose></link>'
        '<joint name="J" type="fixed"><parent>L1</parent><child>L2</child></joint>'
        '<frame name="F" attached_to="J"/>'
    )
    assert errors(text) == []


def test_missing_name_and_parent():
    d, s = only(
        model("<link/>", "1.9").replace(
            "<link/>", '<link name="L"/><joint name="J" type="fixed"><child>L</child></joint>'
        ),
        "ELEMENT_MISSING",
    )
    assert "<parent>" in d.message
    d, s = only(model('<link name="L"/><frame attached_to="L"/>'), "ATTRIBUTE_MISSING")
    assert s == "frame" and d.fixes


@pytest.mark.parametrize(
    "pose, fragment",
    [
        ("<pose>1 2 3 0 0</pose>", "1 2 3 0 0"),
        ("<pose>1 2 x 0 0 0</pose>", "x"),
        ('<pose rotation_format="quat_xyzw">1 2 3 0 0 0</pose>', "1 2 3 0 0 0"),
        ('<pose rotation_format="quat_xyzw" degrees="true">1 2 3 0 0 0 1</pose>', 'degrees="true"'),
    ],
)
def test_pose_values(pose, fragment):
    d, s = only(model(f'<link name="L">{pose}</link>'), "PARAMETER_ERROR")
    assert s == fragment


def test_names_reserved_and_duplicate():
    d, s = only(model('<link name="world"/>'), "RESERVED_NAME")
    assert s == "world"
    d, s = only(model('<link name="L"/><frame name="__x__" attached_to="L"/>'), "RESERVED_NAME")
    assert s == "__x__"
    d, s = only(model('<link name="a::b"/>', "1.8"), "RESERVED_NAME")
    d, s = only(model('<link name="L"/><frame name="L"/>', "1.7"), "DUPLICATE_NAME")
    assert s == "L" and d.related and "other" in d.related[0].message


def test_sibling_names_of_different_types_before_1_7_fail_the_check():
    d, s = only(
        model(
            '<link name="L"/><link name="a"/><joint name="a" type="fixed"><parent>L</parent><child>a</child></joint>',
            "1.6",
        ),
        "PARSING_ERROR",
    )
    assert s == "a"


def test_joint_parent_child():
    d, s = only(
        model(
            '<link name="link1"/><link name="L2"/><joint name="J" type="fixed"><parent>link_1</parent><child>L2</child></joint>'
        ),
        "JOINT_PARENT_LINK_INVALID",
    )
    assert s == "link_1" and "did you mean 'link1'" in d.message and d.fixes[0].new_text == "link1"
    d, s = only(
        model('<link name="L"/><joint name="J" type="fixed"><parent>L</parent><child>world</child></joint>'),
        "JOINT_CHILD_LINK_INVALID",
    )
    d, s = only(
        model('<link name="L"/><joint name="J" type="fixed"><parent>L</parent><child>L</child></joint>'),
        "JOINT_PARENT_SAME_AS_CHILD",
    )
    d, s = only(
        model(
            '<link name="L"/><frame name="F" attached_to="L"/><joint name="J" type="fixed"><parent>L</parent><child>F</child></joint>'
        ),
        "JOINT_PARENT_SAME_AS_CHILD",
    )
    assert "attached to link 'L'" in d.message
    d, s = only(
        model(
            '<link name="L"/><frame name="F" attached_to="L"/><joint name="J" type="fixed"><parent>L</parent><child>F</child></joint>',
            "1.7",
        ),
        "JOINT_CHILD_LINK_INVALID",
    )
    assert (
        errors(model('<link name="L"/><joint name="J" type="fixed"><parent>world</parent><child>L</child></joint>'))
        == []
    )


def test_canonical_link():
    d, s = only(model('<link name="L"/><frame name="F"/>', attrs=' canonical_link="F"'), "MODEL_CANONICAL_LINK_INVALID")
    assert s == "F"
    d, s = only(model('<frame name="F"/>'), "MODEL_WITHOUT_LINK")
    assert errors(model('<frame name="F"/><static>true</static>')) == []
    assert errors(model('<model name="n"><link name="L"/></model>', attrs=' canonical_link="n::L"')) == []


def test_attached_to_invalid_and_cycle():
    d, s = only(model('<link name="L"/><frame name="F" attached_to="missing"/>'), "FRAME_ATTACHED_TO_INVALID")
    assert s == "missing"
    text = model(
        '<link name="L"/><frame name="A" attached_to="B"/><frame name="B" attached_to="A"/><frame name="C" attached_to="A"/>'
    )
    d, s = only(text, "FRAME_ATTACHED_TO_CYCLE")
    assert s == "B" and len(d.related) == 2
    d, s = only(model('<link name="L"/><frame name="A" attached_to="A"/>'), "FRAME_ATTACHED_TO_CYCLE")


def test_relative_to_invalid_cycle_and_top_level():
    d, s = only(model('<link name="L"><pose relative_to="nope">0 0 0 0 0 0</pose></link>'), "POSE_RELATIVE_TO_INVALID")
    assert s == "nope"
    text = model(
        '<link name="L"/><frame name="A" attached_to="L"><pose relative_to="B"/></frame><frame name="B" attached_to="L"><pose relative_to="A"/></frame>'
    )
    d, s = only(text, "POSE_RELATIVE_TO_CYCLE")
    assert len(d.related) == 2
    text = '<sdf version="1.9"><model name="m"><pose relative_to="L"/><link name="L"/></model></sdf>'
    d, s = only(text, "ATTRIBUTE_INVALID")
    assert s == "L"


def test_scopes_only_go_down():
    text = model('<link name="L"/><model name="n"><link name="NL"><pose relative_to="L"/></link></model>')
    d, s = only(text, "POSE_RELATIVE_TO_INVALID")
    assert "outside" in d.message
    assert (
        errors(model('<link name="L"><pose relative_to="n::NL"/></link><model name="n"><link name="NL"/></model>'))
        == []
    )


def test_axis_and_mimic():
    body = '<link name="A"/><link name="B"/><joint name="J" type="revolute"><parent>A</parent><child>B</child><axis><xyz expressed_in="nowhere">0 0 1</xyz></axis></joint>'
    d, s = only(model(body), "JOINT_AXIS_EXPRESSED_IN_INVALID")
    assert s == "nowhere"
    body = '<link name="A"/><link name="B"/><joint name="J" type="revolute"><parent>A</parent><child>B</child><axis><xyz>0 0 1</xyz><mimic joint="A"/></axis></joint>'
    d, s = only(model(body), "JOINT_AXIS_MIMIC_INVALID")


def test_versions():
    d, s = only('<sdf><model name="m"><link name="L"/></model></sdf>', "FILE_READ")
    d, s = only('<sdf version="1.13"><model name="m"><link name="L"/></model></sdf>', "CONVERSION_ERROR")
    assert s == "1.13"
    assert errors('<robot name="r"><link name="a"/></robot>')


def test_world_frames_and_models():
    text = (
        '<sdf version="1.10"><world name="w"><frame name="F"><pose>1 0 0 0 0 0</pose></frame>'
        '<model name="M"><pose relative_to="F">0 1 0 0 0 0</pose><link name="L"/><frame name="MF" attached_to="L"/></model>'
        '<frame name="G" attached_to="M::MF"/></world></sdf>'
    )
    a = analyze(text)
    assert not a.has_errors
    frames = {f["name"]: f for f in a.frames()}
    assert frames["M::L"]["pose"][:3] == pytest.approx([1, 1, 0])
    assert frames["G"]["attached_to"] == "M::L"


def test_resolved_pose_math():
    text = model(
        '<link name="L"><pose>1 0 0 0 0 1.5707963267948966</pose></link>'
        '<frame name="F" attached_to="L"><pose relative_to="L" degrees="true">1 0 0 90 0 0</pose></frame>'
        '<frame name="Q"><pose rotation_format="quat_xyzw">0 0 0 0 0 0.7071067811865476 0.7071067811865476</pose></frame>'
    )
    frames = {f["name"]: f for f in analyze(text).frames()}
    x, y, z, r, p, yaw = frames["F"]["pose"]
    assert (x, y, z) == pytest.approx((1, 1, 0), abs=1e-12)
    assert (r, p, yaw) == pytest.approx((math.pi / 2, 0, math.pi / 2), abs=1e-12)
    assert frames["Q"]["pose"][5] == pytest.approx(math.pi / 2, abs=1e-12)


def test_placement_frame_on_nested_model():
    text = model(
        '<link name="base"/><model name="n" placement_frame="P"><pose>0 0 1 0 0 0</pose>'
        '<link name="NL"><pose>0 0 0.5 0 0 0</pose></link><frame name="P" attached_to="NL"><pose relative_to="NL">0 0 -0.5 0 0 0</pose></frame></model>'
    )
    frames = {f["name"]: f for f in analyze(text).frames()}
    assert frames["n::P"]["pose"][:3] == pytest.approx([0, 0, 1])
    assert frames["n"]["pose"][:3] == pytest.approx([0, 0, 1])
