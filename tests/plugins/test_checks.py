"""The checks of a known plugin's parameters (semantics/checks/plugins.py), on documents of our own."""

from __future__ import annotations

from sdformat_lsp.plugins.catalogue import key, lookup
from sdformat_lsp.semantics.analysis import analyze

BOT = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="bot">
    <link name="base"/>
    <link name="left_wheel"/>
    <link name="right_wheel"/>
    <joint name="left_wheel_joint" type="revolute"><parent>base</parent><child>left_wheel</child><axis><xyz>0 1 0</xyz></axis></joint>
    <joint name="right_wheel_joint" type="revolute"><parent>base</parent><child>right_wheel</child><axis><xyz>0 1 0</xyz></axis></joint>
    PLUGIN
  </model>
</sdf>
"""
DIFF = '<plugin filename="gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive">{}</plugin>'


def codes(plugin: str) -> list[tuple[str, str]]:
    text = BOT.replace("PLUGIN", plugin)
    a = analyze(text)
    return [(d.code, text[d.span.start : d.span.end]) for d in a.diagnostics if d.code.startswith("PLUGIN_")]


def test_every_spelling_of_a_system_finds_it():
    for filename in (
        "gz-sim-diff-drive-system",
        "libgz-sim-diff-drive-system.so",
        "gz-sim8-diff-drive-system",
        "ignition-gazebo-diff-drive-system",
        "libignition-gazebo6-diff-drive-system.so",
    ):
        assert key(filename) == "gz-sim-diff-drive-system", filename
        assert lookup(filename, "ignition::gazebo::systems::DiffDrive") is not None
        assert lookup(filename, "gz::sim::systems::DiffDrive") is not None
    assert lookup("gz-sim-diff-drive-system", "my::OtherPlugin") is None  # not the class the library registers
    assert lookup("libmy_plugin.so") is None


def test_a_correct_plugin_is_quiet():
    body = "<left_joint>left_wheel_joint</left_joint><right_joint>right_wheel_joint</right_joint><wheel_radius>0.3</wheel_radius>"
    assert codes(DIFF.format(body)) == []


def test_unknown_parameter_with_the_nearest_name_as_fix():
    text = BOT.replace("PLUGIN", DIFF.format("<wheel_radus>0.3</wheel_radus>"))
    (d,) = [d for d in analyze(text).diagnostics if d.code == "PLUGIN_PARAMETER_UNKNOWN"]
    assert "<wheel_radius>" in d.message
    assert [text[f.span.start : f.span.end] for f in d.fixes] == ["wheel_radus", "wheel_radus"]  # start and end tags
    assert {f.new_text for f in d.fixes} == {"wheel_radius"}


def test_a_name_the_model_lacks():
    text = BOT.replace(
        "PLUGIN", DIFF.format("<left_joint>left_wheel_joint</left_joint><right_joint>right_wheel_jont</right_joint>")
    )
    (d,) = [d for d in analyze(text).diagnostics if d.code == "PLUGIN_REFERENCE_INVALID"]
    assert text[d.span.start : d.span.end] == "right_wheel_jont"
    assert d.fixes[0].new_text == "right_wheel_joint"


JOINTS = "<left_joint>left_wheel_joint</left_joint><right_joint>right_wheel_joint</right_joint>"


def test_a_value_not_of_its_type():
    assert codes(DIFF.format(JOINTS + "<wheel_separation>wide</wheel_separation>")) == [
        ("PLUGIN_PARAMETER_INVALID", "wide")
    ]
    assert codes(DIFF.format(JOINTS + "<wheel_separation>1.2</wheel_separation>")) == []


def test_diff_drive_without_its_left_joint():
    """DiffDrive returns from every step while it found no left (right) joint: without <left_joint>
    the robot never moves, and the check says so."""
    found = codes(DIFF.format("<right_joint>right_wheel_joint</right_joint>"))
    assert [c for c, _ in found] == ["PLUGIN_PARAMETER_MISSING"]
    text = BOT.replace("PLUGIN", DIFF.format("<right_joint>right_wheel_joint</right_joint>"))
    (d,) = [d for d in analyze(text).diagnostics if d.code == "PLUGIN_PARAMETER_MISSING"]
    assert "<left_joint>" in d.message


def test_a_required_parameter_missing():
    thruster = '<plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster"><topic>t</topic></plugin>'
    assert [c for c, _ in codes(thruster)] == ["PLUGIN_PARAMETER_MISSING"]
    given = '<plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster"><joint_name>left_wheel_joint</joint_name></plugin>'
    assert codes(given) == []


def test_quiet_where_nothing_is_known():
    assert codes('<plugin filename="libmy_plugin.so" name="my::Plugin"><anything>1</anything></plugin>') == []
    # a namespaced element, a substitution, the children of a parameter
    assert (
        codes(
            DIFF.format(
                "<gz:extra>1</gz:extra><left_joint>$(arg j)</left_joint><right_joint>$(arg k)</right_joint>"
                "<wheel_radius>${r}</wheel_radius>"
            )
        )
        == []
    )
    # a plugin reading names decided at run time (hydrodynamics builds them): no unknown parameter
    assert (
        codes(
            '<plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics"><link_name>base</link_name><xDotU>1</xDotU></plugin>'
        )
        == []
    )


def test_a_model_with_an_include_may_have_the_joint():
    text = BOT.replace(
        "PLUGIN", "<include><uri>model://wheels</uri></include>" + DIFF.format("<left_joint>wheels::hub</left_joint>")
    )
    assert [d for d in analyze(text).diagnostics if d.code == "PLUGIN_REFERENCE_INVALID"] == []


def test_nested_model_joints_by_scoped_name():
    nested = '<model name="arm"><link name="a"/><link name="b"/><joint name="elbow" type="fixed"><parent>a</parent><child>b</child></joint></model>'
    jpc = '<plugin filename="gz-sim-joint-position-controller-system" name="gz::sim::systems::JointPositionController"><joint_name>{}</joint_name></plugin>'
    assert codes(nested + jpc.format("arm::elbow")) == []
    assert [c for c, _ in codes(nested + jpc.format("arm::elbw"))] == ["PLUGIN_REFERENCE_INVALID"]


def test_a_document_without_plugin_never_reads_the_catalogue():
    import subprocess
    import sys

    code = (
        "from sdformat_lsp.semantics.analysis import analyze; import sys;"
        'analyze(\'<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>\');'
        "print('sdformat_lsp.plugins.catalogue' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_a_urdf_gazebo_block():
    inertial = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
    text = f"""<?xml version="1.0"?>
<robot name="r">
  <link name="base">{inertial}</link>
  <link name="wheel">{inertial}</link>
  <joint name="wheel_joint" type="continuous"><parent link="base"/><child link="wheel"/></joint>
  <gazebo>
    <plugin name="dd" filename="libgazebo_ros_diff_drive.so">
      <leftJoint>wheel_joint</leftJoint>
      <rightJoint>whel_joint</rightJoint>
      <wheelSeparaton>0.3</wheelSeparaton>
      <rosDebugLevel>na</rosDebugLevel>
    </plugin>
  </gazebo>
</robot>
"""
    found = [
        (d.code, text[d.span.start : d.span.end]) for d in analyze(text).diagnostics if d.code.startswith("PLUGIN_")
    ]
    assert sorted(found) == [("PLUGIN_PARAMETER_UNKNOWN", "wheelSeparaton"), ("PLUGIN_REFERENCE_INVALID", "whel_joint")]


def test_one_mistake_written_in_several_plugins_is_one_warning():
    """gz-sim's quadcopter worlds give <motorSpeedPubTopic> to each of four MulticopterMotorModel plugins, which
    do not read it: one warning at the first, the three others related; another mistake stays its own."""
    body = JOINTS + "<wheel_radus>0.3</wheel_radus>"
    text = BOT.replace(
        "PLUGIN", DIFF.format(body) + DIFF.format(body) + DIFF.format(JOINTS + "<odom_frame_id>o</odom_frame_id>")
    )
    found = [d for d in analyze(text).diagnostics if d.code == "PLUGIN_PARAMETER_UNKNOWN"]
    assert [text[d.span.start : d.span.end] for d in found] == ["wheel_radus", "odom_frame_id"]
    first = found[0]
    assert first.span.start == text.index("wheel_radus") and "in 1 more place" in first.message
    assert [text[r.span.start : r.span.end] for r in first.related] == ["wheel_radus"]
    assert first.related[0].span.start == text.index("wheel_radus", text.index("</plugin>"))
    assert {f.new_text for f in first.fixes} == {"wheel_radius"}  # the first place keeps its quick fix
