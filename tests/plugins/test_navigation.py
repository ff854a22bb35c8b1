"""Plugin parameters in the editor features: a joint named in <left_joint> is a reference to it
(definition, references, highlight, rename, the frame view), and completion and hover inside a
known plugin."""

from __future__ import annotations

import re

from sdformat_lsp.features import complete, definition, hover, references, rename
from sdformat_lsp.features.frame_view import frame_view
from sdformat_lsp.features.highlight import document_highlights
from sdformat_lsp.semantics.analysis import analyze

TEXT = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="bot">
    <link name="base"/>
    <link name="wheel_l"/>
    <model name="arm">
      <link name="a"/>
      <link name="b"/>
      <joint name="elbow" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>
    </model>
    <joint name="left_wheel_joint" type="revolute"><parent>base</parent><child>wheel_l</child><axis><xyz>0 1 0</xyz></axis></joint>
    <plugin filename="gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive">
      <left_joint>left_wheel_joint</left_joint>
      <wheel_radius>0.2</wheel_radius>
    </plugin>
    <plugin filename="gz-sim-joint-position-controller-system" name="gz::sim::systems::JointPositionController">
      <joint_name>left_wheel_joint</joint_name>
      <joint_name>arm::elbow</joint_name>
    </plugin>
  </model>
</sdf>
"""


def _at(text: str, needle: str, delta: int = 1, nth: int = 0) -> int:
    pos = -1
    for _ in range(nth + 1):
        pos = text.index(needle, pos + 1)
    return pos + delta


def _texts(text: str, spans) -> list[tuple[int, str]]:
    return [(s.start, text[s.start : s.end]) for s in spans]


def test_rename_a_joint_renames_it_in_the_plugins():
    a = analyze(TEXT)
    decl = _at(TEXT, '"left_wheel_joint"', 2)
    edits = rename(a, decl, "wheel_joint_l")
    assert [TEXT[e.span.start : e.span.end] for e in edits] == ["left_wheel_joint"] * 3
    assert {e.span.start for e in edits} == {decl - 1, _at(TEXT, "<left_joint>", 12), _at(TEXT, "<joint_name>", 12)}
    # from the plugin parameter too
    assert {e.span.start for e in rename(a, _at(TEXT, "<joint_name>", 14), "x")} == {e.span.start for e in edits}


def test_a_scoped_name_renames_its_segment():
    a = analyze(TEXT)
    edits = rename(a, _at(TEXT, '"elbow"', 2), "wrist")
    assert _texts(TEXT, [e.span for e in edits]) == [
        (_at(TEXT, '"elbow"'), "elbow"),
        (_at(TEXT, "arm::elbow", 5), "elbow"),
    ]
    # the model segment is a reference to the nested model
    assert (_at(TEXT, "arm::elbow", 0), "arm") in _texts(
        TEXT, [e.span for e in rename(a, _at(TEXT, '"arm"', 2), "arm2")]
    )


def test_definition_references_and_highlight_from_a_parameter():
    a = analyze(TEXT)
    off = _at(TEXT, "<left_joint>", 14)
    (loc,) = definition(a, off)
    assert TEXT[loc.span.start : loc.span.end] == "left_wheel_joint" and loc.span.start == _at(
        TEXT, '"left_wheel_joint"'
    )
    assert len(references(a, off)) == 3
    kinds = [h.kind for h in document_highlights(a, off)]
    assert sorted(kinds) == ["read", "read", "write"]


def test_frame_view_lists_plugin_references():
    view = frame_view(analyze(TEXT))
    joint = next(e for e in view.frames if e.name == "left_wheel_joint")
    assert [(r.role, r.by) for r in joint.references] == [
        ("plugin", "<left_joint> of DiffDrive"),
        ("plugin", "<joint_name> of JointPositionController"),
    ]
    base = next(e for e in view.frames if e.name == "base")
    assert [r.role for r in base.references] == ["parent"]


def test_completion_of_joint_names_in_a_parameter():
    text = TEXT.replace("<joint_name>left_wheel_joint</joint_name>", "<joint_name>le</joint_name>")
    off = _at(text, "<joint_name>le", 14)
    found = complete(analyze(text), off)
    assert [i.label for i in found.items] == ["left_wheel_joint", "arm::elbow"]
    assert text[found.replace_span.start : found.replace_span.end] == "le"


def test_completion_of_parameters_not_yet_given():
    text = TEXT.replace("<wheel_radius>0.2</wheel_radius>", "<wheel_radius>0.2</wheel_radius>\n      ")
    off = _at(text, "</wheel_radius>\n      ", 22)
    items = {i.label: i for i in complete(analyze(text), off).items}
    assert "wheel_radius" not in items  # given, and not repeatable
    assert "left_joint" in items  # given, but repeatable
    assert (
        items["odom_publish_frequency"].detail.startswith("double")
        and "default 50" in items["odom_publish_frequency"].detail
    )
    assert items["odom_publish_frequency"].insert_text == "<odom_publish_frequency>${1:50}</odom_publish_frequency>"


def test_completion_of_filename_fills_the_name():
    text = TEXT.replace(
        '<plugin filename="gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive">',
        '<plugin filename="gz-sim-dif">',
    )
    off = _at(text, 'filename="gz-sim-dif', 20)
    found = complete(analyze(text), off)
    item = next(i for i in found.items if i.label == "gz-sim-diff-drive-system")
    assert item.insert_text == 'gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive'
    assert text[found.replace_span.start : found.replace_span.end] == "gz-sim-dif"
    edited = text[: found.replace_span.start] + item.insert_text + text[found.replace_span.end :]
    assert '<plugin filename="gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive">' in edited


def test_hover_on_a_parameter():
    result = hover(analyze(TEXT), _at(TEXT, "<wheel_radius>", 3))
    assert result is not None
    assert "wheel_radius" in result.text and "DiffDrive" in result.text and "double" in result.text
    assert "https://github.com/gazebosim/gz-sim/blob/" in result.text
    # what it does: a link to the exact line of the header's documentation of <wheel_radius>,
    # and one to the line that reads it (upstream's words are linked, never quoted)
    assert re.search(
        r"\[What DiffDrive's documentation says of it\]\(https://github\.com/gazebosim/gz-sim/blob/[0-9a-f]{40}/src/systems/diff_drive/DiffDrive\.hh#L\d+\)",
        result.text,
    )
    assert re.search(
        r"\[The line that reads it\]\(https://github\.com/gazebosim/gz-sim/blob/[0-9a-f]{40}/src/systems/diff_drive/DiffDrive\.cc#L\d+\)",
        result.text,
    )
    on_plugin = hover(analyze(TEXT), _at(TEXT, "gz-sim-diff-drive-system", 3))
    assert on_plugin is not None and "<left_joint>" in on_plugin.text


def test_completion_of_name_lists_the_classes_of_the_library_written():
    text = TEXT.replace('name="gz::sim::systems::DiffDrive"', 'name="gz::"')
    off = _at(text, 'name="gz::', 10)
    labels = [i.label for i in complete(analyze(text), off).items]
    assert labels == ["gz::sim::systems::DiffDrive"]
    text = TEXT.replace(
        '<plugin filename="gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive">',
        '<plugin name="gz::sim::systems::Diff">',
    )
    off = _at(text, 'name="gz::sim::systems::Diff', 28)
    item = next(i for i in complete(analyze(text), off).items if i.label == "gz::sim::systems::DiffDrive")
    assert item.insert_text == 'gz::sim::systems::DiffDrive" filename="gz-sim-diff-drive-system'


def test_frames_answer_carries_the_plugin_references():
    from sdformat_lsp.features.frame_view import frame_json

    view = frame_view(analyze(TEXT))
    joint = next(e for e in view.frames if e.name == "left_wheel_joint")
    answer = frame_json(joint, lambda span, path: (span.start, span.end, path), lambda p: "file://" + p)
    start = _at(TEXT, "<left_joint>", 12)
    assert answer["references"][0] == {
        "location": (start, start + len("left_wheel_joint"), None),
        "role": "plugin",
        "by": "<left_joint> of DiffDrive",
    }


def test_rename_in_a_urdf_renames_the_gazebo_plugin_parameter():
    inertial = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
    text = f"""<robot name="r">
  <link name="base">{inertial}</link>
  <link name="wheel">{inertial}</link>
  <joint name="wheel_joint" type="continuous"><parent link="base"/><child link="wheel"/></joint>
  <gazebo><plugin name="dd" filename="libgazebo_ros_diff_drive.so"><leftJoint>wheel_joint</leftJoint></plugin></gazebo>
</robot>
"""
    a = analyze(text, "/tmp/r.urdf")
    edits = rename(a, _at(text, '"wheel_joint"', 2), "wj")
    assert sorted(e.span.start for e in edits) == [_at(text, '"wheel_joint"'), _at(text, "<leftJoint>", 11)]
    result = hover(a, _at(text, "<leftJoint>", 3))
    assert result is not None and "gazebo_ros_diff_drive" in result.text


GUI_WORLD = """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <gui>
      <plugin filename="MinimalScene" name="3D View">
        <engine>ogre2</engine>
      </plugin>
    </gui>
  </world>
</sdf>
"""


def test_hover_on_a_gui_plugins_parameter_links_its_lines():
    result = hover(analyze(GUI_WORLD), _at(GUI_WORLD, "<engine>", 3))
    assert result is not None and "MinimalScene" in result.text
    assert re.search(
        r"\[What MinimalScene's documentation says of it\]\(https://github\.com/gazebosim/gz-gui/blob/[0-9a-f]{40}/src/plugins/minimal_scene/MinimalScene\.hh#L\d+\)",
        result.text,
    )
    assert re.search(
        r"\[The line that reads it\]\(https://github\.com/gazebosim/gz-gui/blob/[0-9a-f]{40}/src/plugins/minimal_scene/MinimalScene\.cc#L\d+\)",
        result.text,
    )


CLASSIC_MODEL = """<?xml version="1.0"?>
<sdf version="1.6">
  <model name="plane">
    <link name="wing"/>
    <joint name="aileron" type="revolute"><parent>wing</parent><child>flap</child><axis><xyz>0 1 0</xyz></axis></joint>
    <link name="flap"/>
    <plugin name="lift" filename="libLiftDragPlugin.so">
      <link_name>wing</link_name>
      <control_joint_name>aileron</control_joint_name>
      <cp>0 0 0</cp>
    </plugin>
  </model>
</sdf>
"""


def test_a_gazebo_classic_plugin_is_known_by_its_library():
    result = hover(analyze(CLASSIC_MODEL), _at(CLASSIC_MODEL, "<cp>", 2))
    assert result is not None and "LiftDragPlugin" in result.text and "vector3" in result.text
    # linked at the release's tag of gazebo-classic
    assert re.search(
        r"\(https://github\.com/gazebosim/gazebo-classic/blob/gazebo11_[\d.]+/plugins/LiftDragPlugin\.cc#L\d+\)",
        result.text,
    )
    # the joint and link its parameters name are references: renaming the joint renames it there
    off = _at(CLASSIC_MODEL, 'joint name="aileron"', 13)
    edits = rename(analyze(CLASSIC_MODEL), off, "elevon")
    assert edits is not None
    starts = sorted(e.span.start for e in edits)
    assert CLASSIC_MODEL.index("<control_joint_name>aileron") + len("<control_joint_name>") in starts


def test_the_reference_at_a_place_is_found_from_the_plugin_around_it_alone(monkeypatch):
    """Hover and definition ask for the plugin reference at one place: at every offset it is the one the
    whole document's references give, found without searching the text for every <plugin> (which cost
    1.9 ms a request on gz-sim's 3k_shapes.sdf, outside any plugin too)."""
    from sdformat_lsp.queries import plugins as queries
    from sdformat_lsp.semantics.checks import plugins as checks

    a = analyze(TEXT)
    refs = checks.plugin_references(a.xml)
    expected = {}
    for ref in refs:
        for span, _el in ref.parts:
            for offset in range(span.start, span.end + 1):
                expected.setdefault(offset, (span, TEXT[span.start : span.end]))

    def whole_text_search(xml):
        raise AssertionError("the whole text was searched for plugins")

    monkeypatch.setattr(checks, "plugin_uses", whole_text_search)
    found = {}
    for offset in range(len(TEXT) + 1):
        got = queries.plugin_reference_at(a, offset)
        if got is not None:
            found[offset] = (got[0], got[1])
    assert found == expected
    assert _texts(TEXT, sorted({s for s, _t in found.values()}, key=lambda s: s.start)) == [
        (_at(TEXT, "<left_joint>", 12), "left_wheel_joint"),
        (_at(TEXT, "<joint_name>", 12), "left_wheel_joint"),
        (_at(TEXT, "<joint_name>", 12, 1), "arm"),
        (_at(TEXT, "<joint_name>", 17, 1), "elbow"),
    ]
