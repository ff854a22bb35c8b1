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
    text = ARM[:i] + '<joint name="copy" type="continuous"><parent link="hand"/><child link="x"/><mimic joint="' + ARM[i:]
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
