"""Realistic documents of the project's own, one or more per class of issue 9.

Each fixture is written as public model and world repositories write their
files (Fuel includes, legacy 1.4 worlds, sensor-heavy models, Drake-style
namespaced elements, repositories laid out as ``models/NAME/model.config``).
The verdict of each was taken from libsdformat (the oracle, and its main
branch's source where they differ); ``test_verdicts_agree_with_the_oracle``
asks the oracle again when ``SDF_ORACLE`` names it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sdformat_lsp.cli import load_file
from sdformat_lsp.diagnostics import Severity
from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.xml import parse

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MODELS = FIXTURES / "models"


@pytest.fixture(autouse=True)
def hermetic(monkeypatch, tmp_path):
    """No search path or Fuel cache from the machine running the tests."""
    for var in (
        "SDF_PATH",
        "GZ_SIM_RESOURCE_PATH",
        "IGN_GAZEBO_RESOURCE_PATH",
        "GAZEBO_MODEL_PATH",
        "GZ_FUEL_CACHE_PATH",
        "IGN_FUEL_CACHE_PATH",
    ):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def check(path: Path, **options):
    return load_file(str(path), Options(**options))


def shown(a, lowest=Severity.INFORMATION):
    """(code, severity name, line) of what `check` prints at ``lowest`` and above."""
    return [
        (d.code, d.severity.name, a.lines.position(d.span.start, "utf-32")[0] + 1)
        for d in sorted(a.diagnostics, key=lambda d: d.span.start)
        if d.severity <= lowest
    ]


# -- class 1: unavailable includes cascade ---------------------------------------------


def test_unavailable_includes_stay_unknown():
    a = check(FIXTURES / "warehouse_offline.world")
    # one error on the include that cannot be found, one information for every Fuel include offline: nothing downstream
    assert shown(a) == [("URI_REMOTE", "INFORMATION", 21), ("URI_LOOKUP", "ERROR", 55)], shown(a)
    remote = next(d for d in a.diagnostics if d.code == "URI_REMOTE")
    assert len(remote.related) == 5 and remote.message.startswith("6 includes name Fuel models (4 distinct")


def test_a_reference_into_a_missing_include_is_not_judged_but_others_are(tmp_path):
    text = """<sdf version="1.9"><model name="mount">
      <include><name>robot</name><uri>model://not_here</uri></include>
      <link name="plate"/>
      <frame name="lidar" attached_to="robot::base_link"/>
      <frame name="typo" attached_to="plat"/>
      <joint name="j" type="fixed"><parent>plate</parent><child>robot::base_link</child></joint>
    </model></sdf>"""
    p = tmp_path / "mount.sdf"
    p.write_text(text)
    a = check(p)
    codes = [d.code for d in a.diagnostics if d.is_error]
    # the named hole covers robot::*, not a misspelt name of the model's own
    assert sorted(codes) == ["FRAME_ATTACHED_TO_INVALID", "URI_LOOKUP"], a.diagnostics
    assert "did you mean 'plate'?" in next(d.message for d in a.diagnostics if d.code == "FRAME_ATTACHED_TO_INVALID")


def test_a_vehicle_whose_base_model_is_missing_reports_only_the_include(tmp_path):
    lone = tmp_path / "x500_depth.sdf"  # outside any model directory: model://x500_base is nowhere
    shutil.copy(MODELS / "x500_depth" / "model.sdf", lone)
    a = check(lone)
    assert [(d.code, d.severity.name) for d in a.diagnostics if d.severity <= Severity.WARNING] == [
        ("URI_LOOKUP", "ERROR")
    ]


# -- model roots found without configuration --------------------------------------------


def test_model_roots_found_without_configuration():
    a = check(MODELS / "x500_depth" / "model.sdf")
    assert shown(a) == [], shown(a)
    assert a.includes and a.includes[0].target == str(MODELS / "x500_base")


def test_uri_lookup_lists_the_model_root_it_searched(tmp_path):
    d = tmp_path / "models" / "vehicle"
    d.mkdir(parents=True)
    (d / "model.config").write_text('<model><name>vehicle</name><sdf version="1.9">model.sdf</sdf></model>')
    (d / "model.sdf").write_text(
        '<sdf version="1.9"><model name="vehicle"><include><uri>model://frame_kit</uri></include><link name="l"/></model></sdf>'
    )
    a = check(d / "model.sdf", resource_paths=(str(tmp_path / "configured"),))
    lookup = next(x for x in a.diagnostics if x.code == "URI_LOOKUP")
    assert lookup.data["searched"] == [str(tmp_path / "configured"), str(tmp_path / "models")]  # configured first
    assert str(tmp_path / "models") in lookup.message


# -- class 2: every value checked against its type, wherever it is ---------------------


def test_poses_of_visuals_inertials_and_sensors_are_checked():
    a = check(FIXTURES / "sensor_mistakes.sdf")
    poses = [
        (line, d.message)
        for (code, _, line), d in zip(shown(a), sorted(a.diagnostics, key=lambda d: d.span.start))
        if code == "PARAMETER_ERROR"
    ]
    assert [(line, "found 8" in m or "found 5" in m or "found 3" in m) for line, m in poses] == [
        (8, True),
        (12, True),
        (17, True),
    ]


def test_quaternion_and_degree_poses_outside_the_frame_analysis_are_read_right():
    a = check(FIXTURES / "sensor_suite.sdf")
    assert not [d for d in a.diagnostics if d.code == "PARAMETER_ERROR"]


# -- class 3: sensor types -------------------------------------------------------------


def test_unknown_sensor_type_is_an_error_with_a_fix():
    a = check(FIXTURES / "sensor_mistakes.sdf")
    bad = [d for d in a.diagnostics if d.code == "ATTRIBUTE_INVALID"]
    assert len(bad) == 1 and bad[0].is_error and "lidar_3d" in bad[0].message
    assert bad[0].fixes and bad[0].fixes[0].new_text == "lidar"


def test_every_sensor_type_libsdformat_loads_is_accepted():
    a = check(FIXTURES / "sensor_suite.sdf")
    assert shown(a) == [], shown(a)
    # types only libsdformat's main branch knows (after 12) are accepted too: main is the reference
    for kind in ("air_speed", "wide_angle_camera", "boundingbox_camera", "custom"):
        text = (
            f'<sdf version="1.11"><model name="m"><link name="l"><sensor name="s" type="{kind}"/></link></model></sdf>'
        )
        assert not analyze(text, None).has_errors, kind


def test_sensor_without_type_is_an_error():
    text = '<sdf version="1.9"><model name="m"><link name="l"><sensor name="s"/></link></model></sdf>'
    assert [d.code for d in analyze(text, None).diagnostics if d.is_error] == ["ATTRIBUTE_MISSING"]


# -- class 4: XML that libsdformat's parser reads differently ---------------------------


def test_drake_and_gazebo_namespaced_elements_are_read_silently():
    a = check(FIXTURES / "drake_style.sdf")
    assert shown(a, Severity.HINT) == [], shown(a, Severity.HINT)
    plugin = a.xml.root.child("model").child("plugin")
    assert plugin.child("gz::system_priority").text == "10"  # read as written, like libsdformat


def test_text_before_the_root_is_read_with_a_warning():
    a = check(FIXTURES / "text_before_root.sdf")
    assert shown(a) == [("FILE_READ", "WARNING", 1)]
    assert not a.has_errors


@pytest.mark.parametrize("name", ["licence_before_declaration.sdf", "text_then_declaration.sdf"])
def test_a_declaration_after_other_content_is_refused_like_libsdformat(name):
    a = check(FIXTURES / name)
    assert shown(a) == [("FILE_READ", "ERROR", 2)]


def test_text_after_the_root_without_markup_is_refused_and_white_space_before_a_declaration_is_a_hint():
    trailing = parse('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>\nleft over\n')
    assert [(p.code, p.severity.name) for p in trailing.problems] == [("FILE_READ", "ERROR")]
    spaced = parse('\n  <?xml version="1.0"?>\n<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>\n')
    assert [(p.code, p.severity.name) for p in spaced.problems] == [("FILE_READ", "HINT")]


# -- noise on valid documents --------------------------------------------------------------


def test_legacy_world_gets_one_hint_on_its_version():
    a = check(FIXTURES / "legacy_14.world")
    assert shown(a, Severity.HINT) == [("ELEMENT_INCORRECT_TYPE", "HINT", 4)], shown(a, Severity.HINT)
    assert shown(a) == []  # Gazebo loads it as written: nothing in check's default output
    d = a.diagnostics[0]
    assert "4 features newer than its declared version 1.4" in d.message
    assert [a.lines.position(r.span.start, "utf-32")[0] + 1 for r in d.related] == [6, 20, 66, 71]  # in file order
    assert d.fixes[0].new_text == "1.6" and a.text[d.fixes[0].span.start : d.fixes[0].span.end] == "1.4"


def test_repeats_are_reported_only_where_libsdformat_reads_the_first_and_they_differ():
    # legacy_14.world repeats <gravity> (equal), <velocity_decay> (not read by libsdformat's Link), <physics>
    # in a joint and <collision> in a contact sensor (kept and iterated): none of them is reported
    assert not [d for d in check(FIXTURES / "legacy_14.world").diagnostics if d.code == "ELEMENT_INVALID"]
    text = '<sdf version="1.9"><model name="m"><link name="l"><gravity>true</gravity><gravity>false</gravity></link></model></sdf>'
    diags = [d for d in analyze(text, None).diagnostics if d.code == "ELEMENT_INVALID"]
    assert (
        len(diags) == 1
        and diags[0].severity == Severity.WARNING
        and "reads the first <gravity> (true), not this one (false)" in diags[0].message
    )


def test_cameras_of_a_multicamera_are_not_said_to_be_ignored():
    # libsdformat's Sensor reads a <camera> only for the camera types; a multicamera's are all the simulator's
    repeated = [d for d in check(FIXTURES / "stereo_rig.sdf").diagnostics if d.code == "ELEMENT_INVALID"]
    assert [
        (d.severity, check(FIXTURES / "stereo_rig.sdf").lines.position(d.span.start, "utf-32")[0] + 1) for d in repeated
    ] == [(Severity.WARNING, 23)]
    assert "reads the first <camera>" in repeated[0].message


def test_an_unknown_element_repeated_is_one_diagnostic_with_every_place_related():
    a = check(FIXTURES / "classic_habits.sdf")
    unknown = sorted((d for d in a.diagnostics if d.code == "ELEMENT_INCORRECT_TYPE"), key=lambda d: d.span.start)
    assert [(d.severity, len(d.related)) for d in unknown] == [(Severity.WARNING, 3), (Severity.HINT, 3)], unknown
    mu1, frame_id = unknown
    assert "<mu1>" in mu1.message and "did you mean <mu>?" in mu1.message and "3 more places" in mu1.message
    assert [a.lines.position(r.span.start, "utf-32")[0] + 1 for r in mu1.related] == [39, 61, 83]
    # the quick fix renames the first; the rest stay one diagnostic
    fix = mu1.fixes[0]
    fixed = a.text[: fix.span.start] + fix.new_text + a.text[fix.span.end :]
    again = [d for d in analyze(fixed, None).diagnostics if "<mu1>" in d.message]
    assert len(again) == 1 and len(again[0].related) == 2
    assert "gz_frame_id" in frame_id.message and "did you mean" not in frame_id.message


def test_unknown_elements_are_not_said_to_be_skipped():
    a = check(FIXTURES / "sensor_suite.sdf")
    hints = [d for d in a.diagnostics if d.code == "ELEMENT_INCORRECT_TYPE"]
    assert len(hints) == 1 and hints[0].severity == Severity.HINT
    assert (
        "gz_frame_id" in hints[0].message and "keeps it" in hints[0].message and "did you mean" not in hints[0].message
    )


def test_did_you_mean_only_offers_names_that_make_the_reference_valid(tmp_path):
    text = """<sdf version="1.9"><model name="arm">
      <link name="base"/><link name="upper"><pose relative_to="sholder">0 0 0.5 0 0 0</pose></link>
      <joint name="shoulder" type="revolute"><parent>base</parent><child>upper</child><axis><xyz>0 0 1</xyz></axis></joint>
      <frame name="tool" attached_to="tol"/>
    </model></sdf>"""
    msgs = [d.message for d in analyze(text, None).diagnostics if d.is_error]
    # 'shoulder' is posed relative to its child 'upper' (a cycle); 'tool' is the frame itself
    assert len(msgs) == 2 and not any("did you mean" in m for m in msgs), msgs


# -- the verdicts, against libsdformat ----------------------------------------------------

VERDICTS = {
    "warehouse_offline.world": False,  # a model that is not there (and Fuel models libsdformat would download)
    "legacy_14.world": True,
    "sensor_suite.sdf": True,
    "sensor_mistakes.sdf": False,
    "stereo_rig.sdf": True,
    "classic_habits.sdf": True,
    "drake_style.sdf": True,
    "text_before_root.sdf": True,
    "text_then_declaration.sdf": False,
    "licence_before_declaration.sdf": False,
    "models/x500_depth/model.sdf": True,  # libsdformat with GZ_SIM_RESOURCE_PATH=models, as its users set it
    "models/x500_base/model.sdf": True,
}


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_verdicts(name):
    assert (not check(FIXTURES / name).has_errors) == VERDICTS[name]


def test_verdicts_agree_with_the_oracle():
    oracle = os.environ.get("SDF_ORACLE")
    if not oracle or not Path(oracle).exists():
        pytest.skip("SDF_ORACLE does not name libsdformat's oracle (see ../shared/oracle)")
    env = {**os.environ, "GZ_SIM_RESOURCE_PATH": str(MODELS)}
    for name, expected in VERDICTS.items():
        out = subprocess.run(
            [oracle, "--check", str(FIXTURES / name)], capture_output=True, text=True, env=env, timeout=60
        )
        assert json.loads(out.stdout)["check"]["ign_sdf_check_valid"] == expected, name


def test_verdicts_agree_with_libsdformat_main():
    """Against `gz sdf --check` of libsdformat main: SDF_CHECK names a program printing "Valid." (exit 0) or errors."""
    checker = os.environ.get("SDF_CHECK")
    if not checker or not Path(checker).exists():
        pytest.skip("SDF_CHECK does not name libsdformat main's check (see scripts/realworld.py)")
    env = {**os.environ, "GZ_SIM_RESOURCE_PATH": str(MODELS), "SDF_PATH": str(MODELS)}
    for name, expected in VERDICTS.items():
        out = subprocess.run([checker, str(FIXTURES / name)], capture_output=True, text=True, env=env, timeout=60)
        assert (out.returncode == 0) == expected, (name, out.stderr[-500:])


def test_flattened_17_world_lists_the_nested_models_libsdformat_unflattens():
    text = """<sdf version="1.7"><world name="w"><model name="A">
      <frame name="M1::__model__" attached_to="M1::L1"><pose relative_to="__model__">10 0 0 0 0 0</pose></frame>
      <link name="M1::L1"><pose relative_to="M1::__model__">0 0 1 0 0 0</pose></link>
    </model></world></sdf>"""
    frames = {f["name"]: f for f in analyze(text, None).frames()}
    assert frames["A::M1"]["kind"] == "model" and frames["A::M1::__model__"]["kind"] == "model"
    assert frames["A::M1"]["pose"] == frames["A::M1::__model__"]["pose"] and frames["A::M1"]["pose"][0] == 10
    assert frames["A::M1"]["attached_to"] == "A::M1::L1"
    # 1.8 and later read '::' names as written: nothing is added
    assert "A::M1" not in {f["name"] for f in analyze(text.replace('version="1.7"', 'version="1.8"'), None).frames()}
