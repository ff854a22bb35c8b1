"""Models of other formats through the interface API: poses as libsdformat resolves them, parsers'
registration, and a parser's error, fault, hang or nonsense reported on the include, never a crash.

The frame-semantics and placement-frame cases mirror libsdformat's test/integration/interface_api.cc
(InterfaceAPI.FrameSemantics, InterfaceAPI.PlacementFrame, NameCollision, MergeIncludeNotSupported)
with fixtures of our own (fixtures/two_pendulums.toml: the shape of its double_pendulum.toml, other
values); the expected poses are composed by hand as that test composes them.
"""

from __future__ import annotations

import textwrap
import threading
from pathlib import Path

import pytest
from sdformat_lsp.cli import load_file, main
from sdformat_lsp.config import ConfigError, load_config
from sdformat_lsp.diagnostics import Severity
from sdformat_lsp.interface import (
    IncludedFile,
    InterfaceFrame,
    InterfaceJoint,
    InterfaceLink,
    InterfaceModel,
    ParseError,
    registry,
)
from sdformat_lsp.interface.pose import as_transform
from sdformat_lsp.interface.to_model import InterfaceFault, interface_to_model
from sdformat_lsp.model.transform import Transform
from sdformat_lsp.semantics import Options
from sdformat_lsp.semantics.includes.cache import IncludeCache

FIX = Path(__file__).resolve().parent / "fixtures"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "model_parsers"
TOML = ((".toml", "toml_models:parse"),)


@pytest.fixture(autouse=True)
def example_parsers(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES))
    registry.clear()
    yield
    registry.clear()


def load(path, parsers=TOML):
    return load_file(str(path), Options(model_parsers=parsers, include_cache=IncludeCache()))


def frames(a) -> dict[str, dict]:
    return {f["name"]: f for f in a.frames()}


def P(*v) -> Transform:
    return Transform.from_xyzrpy(*v)


def same(pose: list[float], expected: Transform, tol: float = 1e-9) -> bool:
    got = Transform.from_xyzrpy(*pose)
    d = expected.inverse() * got
    return max(abs(c) for c in d.p) <= tol and abs(abs(d.q[0]) - 1.0) <= tol


def errors(a):
    return [d for d in a.diagnostics if d.severity == Severity.ERROR]


# -- libsdformat's InterfaceAPI.FrameSemantics, on our fixture ---------------------------------------


def test_frame_semantics_of_an_included_interface_model():
    a = load(FIX / "frame_semantics.sdf")
    assert errors(a) == []
    f = frames(a)
    model = P(0, 2, 0, 0, 0, 0.1) * P(1, 0, 0.5, 0, 0, 0.2)  # //include/pose relative_to F0
    upper_link, upper_joint = P(0, 0.1, 1.7, -1.2, 0, 0), P(0.002, 0, 0, 0, 0, 0)
    lower_link = P(0.3, 0.8, 1.9, -1.8, 0.1, 0)
    child_model, child_base = P(2.5, 0, 0, 0, 0, 0.5), P(0.7, 0, 0, 0, 0.3, 0)
    child_dp, model_1, dp_lower = P(3, 0.5, 0, 0, 0, -0.2), P(0, 0.2, 0, 0, 0, 0), P(0.2, 0.9, 2.2, -2.1, 0, 0)
    expected = {
        "F1": (model, "two_pendulums::base"),
        "F2": (model * upper_link, "two_pendulums::upper_link"),
        "F3": (model * upper_link * upper_joint, "two_pendulums::upper_link"),
        "F4": (model * P(0, 1.5, 0, 0, 0, 0.4), "two_pendulums::base"),
        "F5": (model * child_model, "two_pendulums::child_model::base_link"),
        "F6": (model * child_model * child_base, "two_pendulums::child_model::base_link"),
        "F7": (model * child_dp * model_1, "two_pendulums::child_dp::model_1::lower_link"),
        "F8": (model * child_dp * model_1 * dp_lower, "two_pendulums::child_dp::model_1::lower_link"),
        "F9": (
            model * child_dp * model_1 * dp_lower * P(0, 0.005, 0, 0.3, 0, 0),
            "two_pendulums::child_dp::model_1::lower_link",
        ),
        "F10": (model * lower_link * P(0, 0, 0.7, 0.1, 0, 0), "two_pendulums::lower_link"),
    }
    for name, (pose, body) in expected.items():
        assert same(f[name]["pose"], pose), name
        assert same(f[name + "_attach"]["pose"], pose), name
        assert f[name + "_attach"]["attached_to"] == body, name
    # F0 relative to the model: the inverse of the include's pose
    assert same(f["two_pendulums"]["pose"], model)
    assert same(f["two_pendulums::lower_joint"]["pose"], model * lower_link * P(0, 0.003, 0, 0, 0.2, 0))


def test_the_parser_is_given_the_includes_name_and_static(tmp_path):
    seen: list[IncludedFile] = []

    def parser(file: IncludedFile):
        seen.append(file)
        return InterfaceModel(file.name or "unnamed", "L", links=[InterfaceLink("L")], static=bool(file.static))

    (tmp_path / "m.box").write_text("anything\n")
    (tmp_path / "w.sdf").write_text(
        textwrap.dedent("""\
        <sdf version="1.9"><world name="w">
          <include><uri>m.box</uri><name>box</name><static>true</static></include>
          <include><uri>m.box</uri></include>
        </world></sdf>
        """)
    )
    a = load(tmp_path / "w.sdf", ((".box", parser),))
    assert errors(a) == []
    assert [(s.name, s.static, s.uri) for s in seen] == [("box", True, "m.box"), (None, None, "m.box")]
    assert seen[0].path == str(tmp_path / "m.box") and seen[0].text == "anything\n"
    assert {"box::L", "unnamed::L"} <= set(frames(a))


# -- libsdformat's InterfaceAPI.PlacementFrame -------------------------------------------------------

PLACED = """\
<sdf version="1.8">
  {open}
      <include>
        <uri>placed.test</uri>
        <name>test_model</name>
        <pose>1 0 0 0 0 0</pose>
        <placement_frame>frame_1</placement_frame>
      </include>
      <frame name="test_frame"/>
  {close}
</sdf>
"""


def _placed_parser(file: IncludedFile):
    return InterfaceModel(
        file.name or "m",
        "base_link",
        links=[InterfaceLink("base_link", (0, 1, 0, 0, 0, 0))],
        frames=[InterfaceFrame("frame_1", "__model__", (0, 0, 1, 0, 0, 0))],
    )


@pytest.mark.parametrize(
    "open_, close_, prefix",
    [
        ('<world name="default">', "</world>", ""),
        ('<model name="parent_model">', "</model>", ""),
        ('<world name="default"><model name="parent_model">', "</model></world>", "parent_model::"),
    ],
)
def test_placement_frame_of_an_interface_model(tmp_path, open_, close_, prefix):
    (tmp_path / "placed.test").write_text("x")
    (tmp_path / "w.sdf").write_text(PLACED.format(open=open_, close=close_))
    a = load(tmp_path / "w.sdf", ((".test", _placed_parser),))
    assert errors(a) == []
    f = frames(a)
    # as libsdformat's test: the model frame at 1 0 -1, its frame_1 at 1 0 0 (in the including scope)
    assert same(f[prefix + "test_model"]["pose"], P(1, 0, -1, 0, 0, 0))
    assert same(f[prefix + "test_model::frame_1"]["pose"], P(1, 0, 0, 0, 0, 0))
    assert f[prefix + "test_model::frame_1"]["attached_to"] == prefix + "test_model::base_link"


# -- what comes back from a parser -------------------------------------------------------------------


def _world_including(tmp_path: Path, uri: str, extra: str = "") -> Path:
    (tmp_path / "w.sdf").write_text(
        f'<sdf version="1.9"><world name="w">\n<include {extra}><uri>{uri}</uri></include>\n'
        '<frame name="f" attached_to="m::L"/>\n</world></sdf>\n'
    )
    return tmp_path / "w.sdf"


def test_a_parse_error_is_one_error_on_the_include_with_the_files_line(tmp_path):
    def parser(file):
        raise ParseError("the joint on this line has no child", line=2)

    (tmp_path / "m.box").write_text("a\nb b b\n")
    a = load(_world_including(tmp_path, "m.box"), ((".box", parser),))
    errs = errors(a)
    assert [d.code for d in errs] == ["MODEL_PARSER_ERROR"]
    d = errs[0]
    assert "the joint on this line has no child" in d.message
    assert a.text[d.span.start : d.span.end] == "m.box"
    (rel,) = d.related
    assert (
        rel.path == str(tmp_path / "m.box")
        and (tmp_path / "m.box").read_text()[rel.span.start : rel.span.end] == "b b b"
    )


def _faulty(kind):
    def parser(file):
        if kind == "raises":
            raise KeyError("links")
        if kind == "string":
            return "a model"
        if kind == "no canonical":
            return InterfaceModel("m", "nope", links=[InterfaceLink("L")])
        if kind == "scoped name":
            return InterfaceModel("m", "L", links=[InterfaceLink("a::L")])
        if kind == "duplicate":
            return InterfaceModel("m", "L", links=[InterfaceLink("L")], frames=[InterfaceFrame("L", "__model__")])
        if kind == "dangling frame":
            return InterfaceModel("m", "L", links=[InterfaceLink("L")], frames=[InterfaceFrame("F", "G")])
        if kind == "cycle":
            return InterfaceModel(
                "m", "L", links=[InterfaceLink("L")], frames=[InterfaceFrame("F", "G"), InterfaceFrame("G", "F")]
            )
        if kind == "bad pose":
            return InterfaceModel("m", "L", links=[InterfaceLink("L", (1, 2, 3))])
        if kind == "nan pose":
            return InterfaceModel("m", "L", links=[InterfaceLink("L", (float("nan"), 0, 0, 0, 0, 0))])
        if kind == "empty name":
            return InterfaceModel("", "L", links=[InterfaceLink("L")])
        if kind == "inconsistent canonical pose":
            return InterfaceModel(
                "m", "L", links=[InterfaceLink("L", (1, 0, 0, 0, 0, 0))], pose_in_canonical_link=(1, 0, 0, 0, 0, 0)
            )
        if kind == "exit":
            raise SystemExit(3)
        raise AssertionError(kind)

    return parser


@pytest.mark.parametrize(
    "kind",
    [
        "raises",
        "string",
        "no canonical",
        "scoped name",
        "duplicate",
        "dangling frame",
        "cycle",
        "bad pose",
        "nan pose",
        "empty name",
        "inconsistent canonical pose",
        "exit",
    ],
)
def test_a_faulty_parser_is_reported_as_its_fault_on_the_include(tmp_path, kind):
    (tmp_path / "m.box").write_text("x")
    a = load(_world_including(tmp_path, "m.box"), ((".box", _faulty(kind)),))
    codes = [d.code for d in errors(a)]
    assert codes == ["MODEL_PARSER_FAULT"], (kind, [d.message for d in errors(a)])
    assert "bug of that parser" in errors(a)[0].message
    # nothing downstream: the frame attached to m::L is not reported as unknown


def test_a_hanging_parser_is_given_up_after_the_time_limit(tmp_path, monkeypatch):
    release = threading.Event()

    def parser(file):
        release.wait(30)

    monkeypatch.setattr(registry, "TIME_LIMIT", 0.2)
    monkeypatch.setattr(registry.run_parsers, "__defaults__", (0.2,))
    (tmp_path / "m.box").write_text("x")
    try:
        a = load(_world_including(tmp_path, "m.box"), ((".box", parser),))
        (d,) = errors(a)
        assert d.code == "MODEL_PARSER_FAULT" and "did not answer" in d.message
    finally:
        release.set()


def test_parsers_are_tried_in_order_and_none_lets_the_next_try(tmp_path):
    calls = []

    def first(file):
        calls.append("first")
        return None

    def second(file):
        calls.append("second")
        return InterfaceModel("m", "L", links=[InterfaceLink("L")])

    (tmp_path / "m.box").write_text("x")
    a = load(_world_including(tmp_path, "m.box"), ((".box", first), (".box", second)))
    assert errors(a) == [] and calls == ["first", "second"]
    assert "m::L" in frames(a)


def test_no_parser_for_the_suffix_leaves_the_file_unread_as_before(tmp_path):
    (tmp_path / "m.box").write_text("x")
    a = load(_world_including(tmp_path, "m.box"), ((".other", _faulty("raises")),))
    assert [d.code for d in errors(a)] == ["FILE_READ"]
    assert "[model-parsers]" in errors(a)[0].message


def test_sdf_files_never_go_to_a_parser(tmp_path):
    (tmp_path / "m.sdf").write_text('<sdf version="1.9"><model name="m"><link name="L"/></model></sdf>')
    a = load(_world_including(tmp_path, "m.sdf"), ((".sdf", _faulty("raises")),))
    assert errors(a) == []


def test_merge_include_needs_a_parser_that_supports_it(tmp_path):
    def parser(file):
        return InterfaceModel("m", "L", links=[InterfaceLink("L")], supports_merge=False)

    (tmp_path / "m.box").write_text("x")
    (tmp_path / "w.sdf").write_text(
        '<sdf version="1.9"><model name="top"><include merge="true"><uri>m.box</uri></include>'
        '<link name="own"/></model></sdf>'
    )
    a = load(tmp_path / "w.sdf", ((".box", parser),))
    assert [d.code for d in errors(a)] == ["MERGE_INCLUDE_UNSUPPORTED"]


def test_merge_include_of_an_interface_model(tmp_path):
    def parser(file):
        return InterfaceModel(
            "m",
            "L",
            (1, 0, 0, 0, 0, 0),
            links=[InterfaceLink("L", (0, 0, 1, 0, 0, 0))],
            frames=[InterfaceFrame("F", "__model__", (0, 1, 0, 0, 0, 0))],
            supports_merge=True,
        )

    (tmp_path / "m.box").write_text("x")
    (tmp_path / "w.sdf").write_text(
        '<sdf version="1.9"><model name="top"><include merge="true"><uri>m.box</uri></include>'
        '<frame name="G" attached_to="F"/></model></sdf>'
    )
    a = load(tmp_path / "w.sdf", ((".box", parser),))
    assert errors(a) == []
    f = frames(a)
    assert same(f["L"]["pose"], P(1, 0, 1, 0, 0, 0)) and same(f["G"]["pose"], P(1, 1, 0, 0, 0, 0))
    assert f["G"]["attached_to"] == "L"


# -- poses ---------------------------------------------------------------------------------------------


def test_poses_as_six_numbers_a_matrix_or_a_transform_agree():
    six = as_transform((1, 2, 3, 0.1, -0.4, 2.0))
    r = [list(row) for row in __import__("sdformat_lsp.model.transform", fromlist=["x"]).rotation_matrix(six.q)]
    matrix = [[*r[0], 1], [*r[1], 2], [*r[2], 3], [0, 0, 0, 1]]
    for other in (as_transform(matrix), as_transform(six)):
        d = six.inverse() * other
        assert max(abs(c) for c in d.p) < 1e-12 and abs(abs(d.q[0]) - 1) < 1e-12
    for bad in (
        "1 2 3 4 5 6",
        None,
        (1, 2, 3),
        [[1, 0, 0, 0]] * 4,
        [[2, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
        (1, 2, 3, 4, 5, True),
    ):
        with pytest.raises(ValueError):
            as_transform(bad)


def test_the_model_locates_its_elements_by_line():
    text = "links:\n  base here\n  arm\n"
    m = interface_to_model(
        InterfaceModel(
            "m",
            "base",
            links=[InterfaceLink("base", line=2), InterfaceLink("arm", line=3)],
            joints=[InterfaceJoint("j", "arm", line=99)],
        ),
        text,
    )
    base, arm = m.links
    assert text[base.name_span.start : base.name_span.end] == "base"
    assert text[arm.name_span.start : arm.name_span.end] == "arm"
    assert m.joints[0].name_span.start == 0  # a line past the end: the start of the file
    with pytest.raises(InterfaceFault):
        interface_to_model(InterfaceModel("m", "x"), text)


# -- registration --------------------------------------------------------------------------------------


def test_the_configuration_table_registers_parsers(tmp_path):
    (tmp_path / "sdformat-lsp.toml").write_text('[model-parsers]\n".toml" = "toml_models:parse"\n')
    assert load_config(str(tmp_path / "sdformat-lsp.toml")).model_parsers == ((".toml", "toml_models:parse"),)
    for bad, word in (
        ('".toml" = "no_colon"', "module:function"),
        ('".sdf" = "a:b"', "SDFormat"),
        ('"*" = "a:b"', "suffix"),
        ('".x" = 3', "module:function"),
    ):
        (tmp_path / "sdformat-lsp.toml").write_text(f"[model-parsers]\n{bad}\n")
        with pytest.raises(ConfigError) as exc:
            load_config(str(tmp_path / "sdformat-lsp.toml"))
        assert word in str(exc.value) and exc.value.line == 2


def test_check_and_print_use_the_configured_parsers(tmp_path, capsys):
    for name in ("two_pendulums.toml", "frame_semantics.sdf"):
        (tmp_path / name).write_text((FIX / name).read_text())
    (tmp_path / "sdformat-lsp.toml").write_text('[model-parsers]\n".toml" = "toml_models:parse"\n')
    assert main(["check", "--frames", str(tmp_path / "frame_semantics.sdf")]) == 0
    cap = capsys.readouterr()
    assert "two_pendulums::child_dp::model_1::lower_link" in cap.out and "0 errors" in cap.out + cap.err
    assert main(["print", str(tmp_path / "frame_semantics.sdf")]) == 0
    printed = capsys.readouterr().out
    assert "<uri>two_pendulums.toml</uri>" in printed  # an include of another format stays an include
    (tmp_path / "sdformat-lsp.toml").unlink()
    assert main(["check", str(tmp_path / "frame_semantics.sdf")]) == 1  # without the parser: unreadable
    capsys.readouterr()


def test_entry_points_register_parsers(tmp_path, monkeypatch):
    import importlib.metadata as md

    class EP:
        name, value, group = "box", "toml_models:parse", registry.ENTRY_POINT_GROUP

    def entry_points(group=None):
        return [EP()] if group == registry.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(md, "entry_points", entry_points)
    registry.clear()
    (tmp_path / "m.box").write_text('name = "m"\ncanonical_link = "L"\n[links.L]\npose = "0 0 1 0 0 0"\n')
    a = load(_world_including(tmp_path, "m.box"), ())
    assert errors(a) == []
    assert "m::L" in frames(a)
    assert "toml_models:parse for .box (entry point box)" in registry.describe_parsers()


def test_a_parser_that_cannot_be_imported_is_its_fault(tmp_path):
    (tmp_path / "m.box").write_text("x")
    a = load(_world_including(tmp_path, "m.box"), ((".box", "no_such_module_here:parse"),))
    (d,) = errors(a)
    assert d.code == "MODEL_PARSER_FAULT" and "cannot be loaded" in d.message


def test_outcomes_are_remembered_per_version_of_the_file(tmp_path):
    calls = []

    def parser(file):
        calls.append(file.text)
        return InterfaceModel("m", "L", links=[InterfaceLink("L")])

    (tmp_path / "m.box").write_text("one")
    path = _world_including(tmp_path, "m.box")
    load(path, ((".box", parser),))
    load(path, ((".box", parser),))
    (tmp_path / "m.box").write_text("two!")
    load(path, ((".box", parser),))
    assert calls == ["one", "two!"]


# -- xacro, built in -----------------------------------------------------------------------------------

XACRO = """<?xml version="1.0"?>
<robot name="xbot" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="len" value="0.5"/>
  <xacro:macro name="seg" params="name parent z">
    <link name="${name}">
      <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    </link>
    <joint name="${name}_joint" type="revolute">
      <parent link="${parent}"/>
      <child link="${name}"/>
      <origin xyz="0 0 ${z}" rpy="0 0 ${pi/4}"/>
      <axis xyz="0 1 0"/>
      <limit lower="-1" upper="1" effort="1" velocity="1"/>
    </joint>
  </xacro:macro>
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <xacro:seg name="upper" parent="base" z="${len}"/>
  <xacro:seg name="lower" parent="upper" z="${2*len}"/>
</robot>
"""


def test_an_included_xacro_file_is_expanded_and_its_frames_are_the_including_models(tmp_path):
    from sdformat_lsp.features import definition

    (tmp_path / "robot.urdf.xacro").write_text(XACRO)
    (tmp_path / "w.sdf").write_text(
        '<?xml version="1.0"?>\n<sdf version="1.11">\n  <world name="w">\n'
        "    <include>\n      <uri>robot.urdf.xacro</uri>\n      <name>xb</name>\n      <pose>1 0 0 0 0 0</pose>\n    </include>\n"
        '    <frame name="tip" attached_to="xb::lower"><pose relative_to="xb::lower_joint">0 0 0.1 0 0 0</pose></frame>\n'
        "  </world>\n</sdf>\n"
    )
    a = load(tmp_path / "w.sdf", ())
    assert errors(a) == []
    f = frames(a)
    upper = P(1, 0, 0, 0, 0, 0) * P(0, 0, 0.5, 0, 0, 0.7853981633974483)
    lower = upper * P(0, 0, 1.0, 0, 0, 0.7853981633974483)
    assert same(f["xb::upper"]["pose"], upper) and same(f["xb::lower"]["pose"], lower)
    assert same(f["xb::lower_joint"]["pose"], lower) and f["xb::lower_joint"]["attached_to"] == "xb::lower"
    assert same(f["tip"]["pose"], lower * P(0, 0, 0.1, 0, 0, 0)) and f["tip"]["attached_to"] == "xb::lower"
    # definition: the link written in the macro's call site file, on the line the expansion took it from
    (loc,) = definition(a, a.text.index('xb::lower"') + 5)
    assert loc.path == str(tmp_path / "robot.urdf.xacro")
    assert XACRO[loc.span.start : loc.span.end].startswith("<link name=")


def test_a_xacro_file_that_does_not_expand_is_one_error_at_its_line(tmp_path):
    (tmp_path / "bad.urdf.xacro").write_text(XACRO.replace("${2*len}", "${2*lenx}"))
    a = load(_world_including(tmp_path, "bad.urdf.xacro"), ())
    (d,) = errors(a)
    assert d.code == "MODEL_PARSER_ERROR" and "lenx" in d.message
    (rel,) = d.related
    assert (
        rel.path == str(tmp_path / "bad.urdf.xacro")
        and "lenx" in XACRO.replace("${2*len}", "${2*lenx}")[rel.span.start : rel.span.end]
    )


def test_an_interface_model_named_like_a_sibling_is_a_duplicate_name(tmp_path):
    """libsdformat's InterfaceAPI.NameCollision: the parser's model takes a name the scope has."""
    (tmp_path / "m.box").write_text("x")
    (tmp_path / "w.sdf").write_text(
        '<sdf version="1.9"><world name="w">\n<model name="m"><link name="l"/></model>\n'
        "<include><uri>m.box</uri></include>\n</world></sdf>\n"
    )
    a = load(tmp_path / "w.sdf", ((".box", lambda f: InterfaceModel("m", "L", links=[InterfaceLink("L")])),))
    assert [d.code for d in errors(a)] == ["DUPLICATE_NAME"]
