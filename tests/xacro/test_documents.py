"""xacro documents checked through their expansion: every diagnostic where the user wrote it (check,
the analysis), libraries, arguments, and the jobs that take xacro (convert, graph)."""

from __future__ import annotations

import json
import os

import pytest

from sdformat_lsp.cli import main
from sdformat_lsp.semantics import Options, analyze

INERTIAL = '<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'

WHEEL = f"""<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="wheel_radius" value="0.1"/>
  <xacro:macro name="wheel" params="prefix parent *origin">
    <link name="${{prefix}}_wheel">
      {INERTIAL}
      <visual><geometry><cylinder radius="${{wheel_radius}}" length="0.05"/></geometry></visual>
    </link>
    <joint name="${{prefix}}_wheel_joint" type="continuous">
      <xacro:insert_block name="origin"/>
      <parent link="${{parent}}"/>
      <child link="${{prefix}}_wheel"/>
      <axis xyz="0 1 0"/>
      <limit effort="1" velocity="${{-1}}"/>
    </joint>
  </xacro:macro>
</robot>
"""

ROBOT = f"""<?xml version="1.0"?>
<robot name="rover" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="$(find rover_description)/urdf/wheel.xacro"/>
  <xacro:arg name="base" default="chassis"/>
  <link name="$(arg base)">
    {INERTIAL}
  </link>
  <xacro:wheel prefix="left" parent="chassis"><origin xyz="0 0.2 0"/></xacro:wheel>
  <xacro:wheel prefix="right" parent="chasis"><origin xyz="0 -0.2 0"/></xacro:wheel>
</robot>
"""


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A ROS package in a repository: rover_description/urdf/{robot.urdf.xacro, wheel.xacro}."""
    from sdformat_lsp import packages

    packages.forget_crawls()
    for var in ("ROS_PACKAGE_PATH", "AMENT_PREFIX_PATH"):
        monkeypatch.delenv(var, raising=False)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    pkg = repo / "rover_description"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "package.xml").write_text("<package format='3'><name>rover_description</name></package>")
    (pkg / "urdf" / "wheel.xacro").write_text(WHEEL)
    (pkg / "urdf" / "robot.urdf.xacro").write_text(ROBOT)
    yield pkg
    packages.forget_crawls()


def check_json(capsys, *args: str) -> tuple[int, dict]:
    code = main(["check", "--format", "json", *args])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


def items(report: dict, name: str) -> list[dict]:
    return next(f for f in report["files"] if f["path"].endswith(name))["diagnostics"]


def test_a_misspelt_link_passed_to_a_macro_is_an_error_on_it_at_the_call(package, capsys):
    code, report = check_json(capsys, str(package))
    assert code == 1
    robot = items(report, "robot.urdf.xacro")
    errors = [d for d in robot if d["severity"] == "error"]
    assert len(errors) == 1, robot
    e = errors[0]
    text = ROBOT.splitlines()
    line = next(i for i, row in enumerate(text) if 'parent="chasis"' in row)
    assert e["range"]["start"]["line"] == line
    assert text[line][e["range"]["start"]["character"] : e["range"]["end"]["character"]] == "chasis"
    assert "chasis" in e["message"]
    assert any("call of macro 'wheel'" in r["message"] for r in e.get("related", [])), e
    # the library of macros is no error by itself (it is checked through the file that includes it)
    assert [d for d in items(report, "wheel.xacro") if d["severity"] in ("error", "warning")] == []


def test_a_mistake_in_an_included_macro_is_shown_at_the_call_with_its_place(package):
    bad = WHEEL.replace('<axis xyz="0 1 0"/>', '<axis xyz="0 1 0"/><dynamics damping="-1"/>').replace(
        'velocity="${-1}"', 'velocity="1"'
    )
    (package / "urdf" / "wheel.xacro").write_text(bad.replace('type="continuous"', 'type="continous"'))
    text = ROBOT.replace("chasis", "chassis")
    a = analyze(text, str(package / "urdf" / "robot.urdf.xacro"))
    errors = [d for d in a.diagnostics if d.is_error]
    assert errors, a.diagnostics
    for d in errors:
        assert d.path is None  # shown in this document: at the call
        assert text[d.span.start : d.span.end].startswith("xacro:wheel"), (d, text[d.span.start : d.span.end])
        true = d.related[0]
        assert true.path == str(package / "urdf" / "wheel.xacro")
        assert bad.replace('type="continuous"', 'type="continous"')[true.span.start : true.span.end] == "continous"
    # once per cause: two calls of the macro, one diagnostic for its one mistake
    assert len({(d.code, d.message) for d in errors}) == len(errors)


def test_xacro_arguments_from_the_command_line_and_the_configuration(package, capsys):
    robot = package / "urdf" / "robot.urdf.xacro"
    robot.write_text(ROBOT.replace("chasis", "chassis"))
    code, report = check_json(capsys, str(robot))
    assert code == 0, report
    code, report = check_json(capsys, str(robot), "--xacro-arg", "base:=body")
    assert code == 1 and any("chassis" in d["message"] for d in items(report, "robot.urdf.xacro"))
    (package / "sdformat-lsp.toml").write_text('[xacro]\nbase = "body"\n')
    code, _ = check_json(capsys, str(robot))
    assert code == 1
    code, _ = check_json(capsys, str(robot), "--xacro-arg", "base:=chassis")  # the command line wins
    assert code == 0


SDF_XACRO = """<?xml version="1.0"?>
<sdf version="1.9" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="box_model" params="name frame">
    <model name="${name}">
      <link name="body"/>
      <frame name="f" attached_to="${frame}"/>
    </model>
  </xacro:macro>
  <world name="w">
    <xacro:box_model name="a" frame="body"/>
    <xacro:box_model name="b" frame="bdoy"/>
  </world>
</sdf>
"""


def test_an_sdf_xacro_is_checked_as_sdformat(tmp_path):
    path = tmp_path / "world.sdf.xacro"
    a = analyze(SDF_XACRO, str(path))
    errors = [d for d in a.diagnostics if d.is_error]
    assert len(errors) == 1, a.diagnostics
    assert SDF_XACRO[errors[0].span.start : errors[0].span.end] == "bdoy"
    assert a.xacro is not None and a.xacro.expanded.xml.root.tag == "sdf"


def test_convert_and_graph_take_the_expansion(package, capsys, tmp_path):
    robot = package / "urdf" / "robot.urdf.xacro"
    robot.write_text(ROBOT.replace("chasis", "chassis"))
    out = tmp_path / "rover.sdf"
    assert main(["convert", "--to", "sdf", str(robot), "-o", str(out)]) == 0
    sdf = out.read_text()
    assert all(f'<link name="{n}">' in sdf for n in ("chassis", "left_wheel", "right_wheel")), sdf
    capsys.readouterr()
    assert main(["graph", str(robot)]) == 0
    assert "left_wheel" in capsys.readouterr().out
    # a library expands to nothing: nothing is written, and it says so
    assert main(["convert", "--to", "sdf", str(package / "urdf" / "wheel.xacro"), "-o", str(tmp_path / "x.sdf")]) == 1
    assert "library" in capsys.readouterr().err and not (tmp_path / "x.sdf").exists()


def test_check_finds_xacro_files_in_directories(package, capsys):
    code, report = check_json(capsys, str(package))
    names = sorted(os.path.basename(f["path"]) for f in report["files"])
    assert names == ["robot.urdf.xacro", "wheel.xacro"]


def test_xacro_own_errors_are_located(tmp_path):
    text = (
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n  <link name="${undefined_thing}"/>\n</robot>\n'
    )
    a = analyze(text, str(tmp_path / "r.urdf.xacro"))
    errs = [d for d in a.diagnostics if d.is_error]
    assert errs and all(d.path is None for d in errs)
    assert "undefined_thing" in text[errs[0].span.start : errs[0].span.end + 20]


def test_expansion_is_not_done_for_a_urdf_file(tmp_path):
    text = '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:property name="a" value="1"/><link name="l"/></robot>'
    a = analyze(text, str(tmp_path / "r.urdf"))
    assert a.xacro is None and any(d.code == "URDF_XACRO_LEFTOVER" for d in a.diagnostics)
    assert analyze(text, str(tmp_path / "r.xml")).xacro is not None


def test_the_frame_view_of_a_xacro_robot_places_names_where_they_are_written(package):
    from sdformat_lsp.features.frame_view import frame_view

    text = ROBOT.replace("chasis", "chassis")
    path = str(package / "urdf" / "robot.urdf.xacro")
    view = frame_view(analyze(text, path))
    assert view is not None
    by_name = {e.name: e for e in view.frames}
    assert {"chassis", "left_wheel", "right_wheel", "left_wheel_joint"} <= set(by_name)
    chassis = by_name["chassis"]
    assert chassis.path is None and text[chassis.span.start : chassis.span.end] == "$(arg base)"
    wheel = by_name["left_wheel"]  # made by the macro: its name is written in the library
    assert wheel.path == str(package / "urdf" / "wheel.xacro")
    assert WHEEL[wheel.span.start : wheel.span.end] == "${prefix}_wheel"
    assert by_name["right_wheel"].pose is not None and abs(by_name["right_wheel"].pose.p[1] + 0.2) < 1e-9


def test_an_open_document_depends_on_the_files_its_expansion_read(package):
    a = analyze(ROBOT, str(package / "urdf" / "robot.urdf.xacro"))
    assert str(package / "urdf" / "wheel.xacro") in a.xacro.files
    # the editor's unsaved text of an included file is what the expansion reads
    edited = WHEEL.replace('${prefix}_wheel"', '${prefix}_tyre"', 1)
    opened = {str(package / "urdf" / "wheel.xacro"): (edited, 1)}
    b = analyze(ROBOT, str(package / "urdf" / "robot.urdf.xacro"), Options(open_documents=opened.get))
    assert "left_tyre" in b.xacro.expansion.text and "left_tyre" not in a.xacro.expansion.text


# -- editor features in xacro documents --------------------------------------------------------------------


def _analysis(package, text=None):
    path = package / "urdf" / "robot.urdf.xacro"
    text = text if text is not None else path.read_text()
    return analyze(text, str(path)), text


def test_definition_and_references_of_a_macro_across_files(package):
    from sdformat_lsp.features import definition, references

    a, text = _analysis(package)
    at = text.index("<xacro:wheel") + len("<xacro:wh")
    [loc] = definition(a, at)
    assert loc.path == str(package / "urdf" / "wheel.xacro") and WHEEL[loc.span.start : loc.span.end] == "wheel"
    found = references(a, at)
    calls = [loc for loc in found if loc.path is None]
    assert len(calls) == 2 and all(text[loc.span.start : loc.span.end] == "xacro:wheel" for loc in calls)


def test_definition_of_a_link_through_a_macro_argument(package):
    from sdformat_lsp.features import definition, hover, references

    text = ROBOT.replace("chasis", "chassis")
    a, _ = _analysis(package, text)
    at = text.index('parent="chassis"') + len('parent="ch')
    [loc] = definition(a, at)
    assert loc.path is None and text[loc.span.start : loc.span.end] == "$(arg base)"  # <link name="$(arg base)">
    assert len([loc for loc in references(a, at) if loc.path is None]) >= 2
    h = hover(a, text.index('prefix="right"') + len('prefix="r'))
    assert h is None or "link" in h.text  # a prefix is part of names, never a crash
    # on a link made by the macro, its pose in the root link's frame
    h = hover(a, text.index('parent="chassis"><origin xyz="0 -0.2') + len('parent="c'))
    assert h is not None and "`chassis`" in h.text and "root link" in h.text


def test_hover_on_a_property_an_argument_and_a_macro_call(package):
    from sdformat_lsp.features import hover

    a, text = _analysis(package)
    h = hover(a, text.index("<xacro:wheel") + 8)
    assert h is not None and "`prefix`" in h.text and "`parent`" in h.text and "wheel.xacro" in h.text
    h = hover(a, text.index("$(arg base)") + 7)
    assert h is not None and "argument" in h.text and "`chassis`" in h.text
    lib = analyze(WHEEL, str(package / "urdf" / "wheel.xacro"))
    h = hover(lib, WHEEL.index("${wheel_radius}") + 4)
    assert h is not None and "`0.1`" in h.text


def test_completion_of_macros_parameters_properties_and_links(package):
    from sdformat_lsp.features import complete

    text = ROBOT.replace('  <xacro:wheel prefix="left"', '  <xacro:wh\n  <xacro:wheel prefix="left"', 1)
    a, _ = _analysis(package, text)
    labels = [i.label for i in complete(a, text.index("<xacro:wh\n") + len("<xacro:wh")).items]
    assert "wheel" in labels and "include" in labels and "property" in labels
    text = ROBOT.replace('<xacro:wheel prefix="left" ', '<xacro:wheel prefix="left" pa', 1)
    a, _ = _analysis(package, text)
    labels = [i.label for i in complete(a, text.index('prefix="left" pa') + len('prefix="left" pa')).items]
    assert labels == ["parent"]
    text = ROBOT.replace('<link name="$(arg base)">', '<link name="${wheel_r}">', 1)
    a, _ = _analysis(package, text)
    labels = [i.label for i in complete(a, text.index("${wheel_r") + len("${wheel_r")).items]
    assert "wheel_radius" in labels
    text = ROBOT.replace('parent="chasis"', 'parent="chassis"').replace(
        "</robot>", '<joint name="x" type="fixed"><parent link="ch"/></joint>\n</robot>'
    )
    a, _ = _analysis(package, text)
    labels = [i.label for i in complete(a, text.index('<parent link="ch') + len('<parent link="ch')).items]
    assert "chassis" in labels and "left_wheel" in labels


def test_document_symbols_of_a_library(package):
    from sdformat_lsp.features import document_symbols

    lib = analyze(WHEEL, str(package / "urdf" / "wheel.xacro"))
    assert [(s.name, s.kind) for s in document_symbols(lib)] == [("wheel_radius", "property"), ("wheel", "macro")]


def test_rename_a_macro_across_included_files(package):
    from sdformat_lsp.features import RenameError, prepare_rename, rename, rename_refusal

    a, text = _analysis(package)
    at = text.index("<xacro:wheel") + len("<xacro:wh")
    span = prepare_rename(a, at)
    assert span is not None and text[span.start : span.end] == "wheel"
    edits = rename(a, at, "tyre")
    here = [e for e in edits if e.path is None]
    there = [e for e in edits if e.path == str(package / "urdf" / "wheel.xacro")]
    assert len(here) == 2 and all(text[e.span.start : e.span.end] == "wheel" for e in here)
    assert len(there) == 1 and WHEEL[there[0].span.start : there[0].span.end] == "wheel"
    with pytest.raises(RenameError):
        rename(a, at, "not a name")
    # an argument: its definition and every $(arg) naming it
    at = text.index('name="base"') + len('name="b')
    spans = sorted((e.span.start, e.span.end) for e in rename(a, at, "body"))
    assert [text[s:e] for s, e in spans] == ["base", "base"]
    assert prepare_rename(a, text.index("<robot") + 2) is None
    rename_refusal(a, text.index("<robot") + 2)  # answers (or not) without raising anything but a refusal


def test_hover_on_an_expression_gives_its_value_in_the_expansion(package):
    from sdformat_lsp.features import hover

    (package / "urdf" / "robot.urdf.xacro").write_text(ROBOT.replace("chasis", "chassis"))
    lib = str(package / "urdf" / "wheel.xacro")
    a, text = _analysis(package)
    # the library's analysis has no call: its expressions are not evaluated there
    lib_analysis = analyze(WHEEL, lib)
    h = hover(lib_analysis, WHEEL.index("${prefix}_wheel") + 4)
    assert h is not None and "Not evaluated" in h.text or "macro" in h.text
    text2 = ROBOT.replace("chasis", "chassis").replace(
        '<link name="$(arg base)">',
        '<link name="$(arg base)"><visual><geometry><box size="${2 * 0.25} 1 1"/></geometry></visual>',
        1,
    )
    a, _ = _analysis(package, text2)
    h = hover(a, text2.index("${2 * 0.25}") + 4)
    assert h is not None and "`0.5 1 1`" in h.text, h


def test_completion_of_links_in_a_macro_argument_that_becomes_a_link(package):
    from sdformat_lsp.features import complete

    text = ROBOT.replace('parent="chasis"', 'parent="ch"')
    a, _ = _analysis(package, text)
    at = text.index('parent="ch"') + len('parent="ch')
    result = complete(a, at)
    assert "chassis" in [i.label for i in result.items] and result.replace_span.start == at - 2


def test_check_frames_lists_the_frames_of_the_expansion(package, capsys):
    robot = package / "urdf" / "robot.urdf.xacro"
    robot.write_text(ROBOT.replace("chasis", "chassis"))
    code, report = check_json(capsys, "--frames", str(robot))
    names = {f["name"] for f in report["files"][0]["frames"]}
    assert code == 0 and {"chassis", "left_wheel", "right_wheel"} <= names


def test_a_mistake_in_a_macro_body_is_one_diagnostic_whatever_the_calls(tmp_path):
    text = f"""<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base">{INERTIAL}</link>
  <xacro:macro name="leg" params="n">
    <link name="leg${{n}}">{INERTIAL}</link>
    <joint name="j${{n}}" type="revolute"><parent link="base"/><child link="leg${{n}}"/><axis xyz="0 0 1"/></joint>
  </xacro:macro>
  <xacro:leg n="1"/>
  <xacro:leg n="2"/>
  <xacro:leg n="3"/>
</robot>
"""
    a = analyze(text, str(tmp_path / "r.urdf.xacro"))
    errors = [d for d in a.diagnostics if d.is_error]
    assert len(errors) == 1, errors  # a revolute joint without <limit>, written once in the macro
    d = errors[0]
    assert text[d.span.start : d.span.end] == "revolute"  # in the macro body, where it is written
    assert sum(1 for r in d.related if r.message.startswith("also, from this call")) == 2


MAST = """
  <link name="mast"/>
  <joint name="mast_joint" type="revolute"><origin xyz="0.1 0 0.3" rpy="0 0.3 1.5"/>
    <parent link="chassis"/><child link="mast"/><axis xyz="0 0 1"/><limit effort="1" velocity="1" lower="0" upper="1"/>
  </joint>
  <link name="camera"/>
  <joint name="camera_joint" type="revolute"><origin xyz="0 0.2 0.05" rpy="0.4 0 0"/>
    <parent link="mast"/><child link="camera"/><axis xyz="0 1 0"/><limit effort="1" velocity="1" lower="0" upper="1"/>
  </joint>
</robot>"""


def test_hover_on_a_link_or_joint_is_the_urdf_documents_hover_of_the_expansion(package):
    """A link's and a joint's hover in a xacro document are those of the same name in the URDF it expands
    to: the pose libsdformat resolves after reading the URDF as SDFormat (composed through the joints),
    not the joint's origin as written."""
    from sdformat_lsp.features import hover

    text = ROBOT.replace("chasis", "chassis").replace("</robot>", MAST)
    a, _ = _analysis(package, text)
    urdf_text = a.xacro.expansion.text
    urdf = analyze(urdf_text, str(package / "urdf" / "robot.urdf"))
    names = ['<link name="camera"', '<joint name="camera_joint"', '<parent link="mast"']
    for written, expanded in [(n, n) for n in names] + [('parent="chassis"', '<parent link="chassis"')]:
        mine = hover(a, text.index(written) + len(written) - 2)
        theirs = hover(urdf, urdf_text.index(expanded) + len(expanded) - 2)
        assert mine is not None and theirs is not None
        assert mine.text == theirs.text, (mine.text, theirs.text)
    camera = hover(a, text.index('<link name="camera"') + 15)
    assert camera is not None and "0.05" not in camera.text  # composed, not camera_joint's origin


def test_libraries_of_materials_and_gazebo_blocks_are_checked_through_their_includer(tmp_path):
    """husky's decorations.urdf.xacro (materials and a macro) and tiago's gazebo.urdf.xacro (a <gazebo> block
    reading a property its includer defines) are made to be included: no diagnostic of their own, whereas a
    robot reading an undefined property, or a library with a malformed expression, still gets its error."""
    head = '<?xml version="1.0"?>\n<robot name="{}" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
    decorations = (
        head.format("husky_decorations")
        + '  <material name="dark_grey"><color rgba="0.2 0.2 0.2 1"/></material>\n'
        + '  <xacro:macro name="decorate"><link name="top_plate"/></xacro:macro>\n</robot>\n'
    )
    gazebo = (
        head.format("tiago")
        + '  <gazebo>\n    <xacro:if value="${is_multiple}"><static>false</static></xacro:if>\n  </gazebo>\n'
        + '  <gazebo reference="base_link"><material>Gazebo/Grey</material></gazebo>\n</robot>\n'
    )
    robot = (
        head.format("r") + f'  <link name="base">{INERTIAL}</link>\n  <link name="${{undefined_name}}"/>\n</robot>\n'
    )
    bad = (
        head.format("tiago")
        + '  <gazebo><xacro:if value="${1 +}"><static>false</static></xacro:if></gazebo>\n</robot>\n'
    )
    said = {}
    for name, text in {"decorations": decorations, "gazebo": gazebo, "robot": robot, "bad": bad}.items():
        path = tmp_path / f"{name}.urdf.xacro"
        path.write_text(text)
        said[name] = [d.code for d in analyze(text, str(path), Options()).diagnostics if d.is_error]
    assert said["decorations"] == [] and said["gazebo"] == []
    assert said["robot"] == ["XACRO_ERROR"] and said["bad"] == ["XACRO_ERROR"]
