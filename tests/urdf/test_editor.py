"""URDF editing features below the protocol: completion of link and joint names, hover in the root link's frame."""

from __future__ import annotations

from pathlib import Path

from sdformat_lsp.features import complete
from sdformat_lsp.features import hover
from sdformat_lsp.semantics import analyze

ARM = (Path(__file__).resolve().parent / "fixtures" / "arm.urdf").read_text()


def labels(text: str, offset: int) -> list[str]:
    return [i.label for i in complete(analyze(text, "/tmp/arm.urdf"), offset).items]


def test_link_names_in_parent_and_child():
    at = ARM.index('<parent link="base_link"') + len('<parent link="')
    found = labels(ARM, at)
    assert found[:1] == ["base_link"] or "base_link" in found
    assert "shoulder" not in found and "upper_arm" in found


def test_joint_names_in_mimic_and_both_in_gazebo_reference():
    i = ARM.index("</robot>")
    text = (
        ARM[:i] + '<joint name="copy" type="continuous"><parent link="hand"/><child link="x"/><mimic joint="' + ARM[i:]
    )
    at = i + len('<joint name="copy" type="continuous"><parent link="hand"/><child link="x"/><mimic joint="')
    found = labels(text, at)
    assert "shoulder" in found and "elbow" in found and "base_link" not in found and "copy" not in found
    text = ARM[:i] + '<gazebo reference="sh' + ARM[i:]
    at = i + len('<gazebo reference="sh')
    result = complete(analyze(text, "/tmp/arm.urdf"), at)
    assert {"base_link", "shoulder"} <= {x.label for x in result.items}
    assert result.replace_span.start == at - 2  # the typed 'sh' is replaced


def test_nothing_outside_references():
    assert labels(ARM, ARM.index("<robot") + 3) == []


def test_hover_gives_the_pose_in_the_root_link_frame():
    a = analyze(ARM, "/tmp/arm.urdf")
    h = hover(a, ARM.index('name="forearm"') + 7)
    assert "the root link `base_link`" in h.text and "`0 1 1`" in h.text


# -- a URDF that does not convert: the features read the robot as written ---------------------------------

NO_INERTIAL_ROOT = """<?xml version="1.0"?>
<robot name="r">
  <link name="base_link"/>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <joint name="j1" type="revolute">
    <origin xyz="0 0 1" rpy="0 0 1.5707963267948966"/>
    <parent link="base_link"/>
    <child link="arm"/>
    <axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <gazebo reference="arm"/>
</robot>
"""
# the same robot with a joint naming a link that does not exist (the conversion fails as a whole)
MISSING_LINK = NO_INERTIAL_ROOT.replace(
    "  <gazebo", '  <joint name="j2" type="fixed"><parent link="arm"/><child link="gripper"/></joint>\n  <gazebo'
)


def at(text: str, before: str, inside: int = 1) -> int:
    return text.index(before) + len(before) + inside


def test_definition_and_references_of_links_read_the_urdf_as_written():
    from sdformat_lsp.features import definition, references

    for text in (NO_INERTIAL_ROOT, MISSING_LINK):
        a = analyze(text, "/tmp/r.urdf")
        decl = text.index('<link name="base_link"') + len('<link name="')
        assert [(loc.span.start, loc.span.end) for loc in definition(a, at(text, '<parent link="'))] == [
            (decl, decl + len("base_link"))
        ]
        arm_decl = text.index('<link name="arm"') + len('<link name="')
        assert [loc.span.start for loc in definition(a, at(text, '<child link="'))] == [arm_decl]
        found = sorted(loc.span.start for loc in references(a, at(text, '<child link="')))
        expected = sorted(
            [
                arm_decl,
                text.index('<child link="arm"') + len('<child link="'),
                text.index('reference="arm"') + len('reference="'),
            ]
            + ([text.index('<parent link="arm"') + len('<parent link="')] if text is MISSING_LINK else [])
        )
        assert found == expected
        j1 = text.index('name="j1"') + len('name="')
        assert [loc.span.start for loc in definition(a, j1 + 1)] == [j1]


def test_hover_on_a_link_of_a_urdf_that_does_not_convert():
    for text in (NO_INERTIAL_ROOT, MISSING_LINK):
        a = analyze(text, "/tmp/r.urdf")
        h = hover(a, at(text, '<parent link="'))
        assert h is not None and "`base_link`" in h.text and "root link" in h.text
        h = hover(a, at(text, '<child link="'))
        assert h is not None and "`arm`" in h.text and "`0 0 1`" in h.text and "`0 0 90` deg" in h.text
    a = analyze(MISSING_LINK, "/tmp/r.urdf")
    h = hover(a, at(MISSING_LINK, '<child link="g'))
    assert h is not None and 'No `<link name="gripper">`' in h.text


def test_names_of_a_broken_urdf_complete():
    text = MISSING_LINK.replace('<child link="gripper"/>', '<child link="')
    labels_found = [i.label for i in complete(analyze(text, "/tmp/r.urdf"), at(text, '<child link="', 0)).items]
    assert "base_link" in labels_found and "arm" in labels_found
