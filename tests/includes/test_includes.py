"""<include>: URI lookup, model.config, nested and merged includes, placement frames, errors, caching."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import pytest

from sdformat_lsp.cli import load_file, main
from sdformat_lsp.diagnostics import Severity
from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.semantics.includes.resolver import MAX_DEPTH, IncludeCache
from sdformat_lsp.semantics.includes.resources import ENV_VARS, lookup, model_file

FIX = Path(__file__).resolve().parent / "fixtures"
MODELS = FIX / "models"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    """No search path or Fuel cache leaks in from the machine running the tests."""
    for var in (*ENV_VARS, "ROS_PACKAGE_PATH", "AMENT_PREFIX_PATH", "GZ_FUEL_CACHE_PATH", "IGN_FUEL_CACHE_PATH"):
        monkeypatch.delenv(var, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def run(path: Path | str, *resource_paths: Path | str, cache: IncludeCache | None = None):
    options = Options(resource_paths=tuple(str(p) for p in resource_paths), include_cache=cache or IncludeCache())
    return load_file(str(path), options)


def run_text(tmp_path: Path, text: str, *resource_paths, name: str = "main.sdf", cache: IncludeCache | None = None):
    path = tmp_path / name
    path.write_text(text)
    return run(path, *resource_paths, cache=cache)


def errors(a):
    return [d for d in a.diagnostics if d.severity == Severity.ERROR]


def frames(a) -> dict[str, dict]:
    return {f["name"]: f for f in a.frames()}


def close(a, b, tol=1e-9):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def world(body: str, version: str = "1.9") -> str:
    return f'<?xml version="1.0"?>\n<sdf version="{version}">\n  <world name="w">\n{body}\n  </world>\n</sdf>\n'


def model(body: str, version: str = "1.9", name: str = "top") -> str:
    return f'<?xml version="1.0"?>\n<sdf version="{version}">\n  <model name="{name}">\n{body}\n  </model>\n</sdf>\n'


def span_text(a, d) -> str:
    return a.text[d.span.start : d.span.end]


# -- URI lookup ---------------------------------------------------------------


def test_model_uri_with_resource_path(tmp_path):
    a = run_text(tmp_path, world("<include><uri>model://arm</uri><pose>1 0 0 0 0 0</pose></include>"), MODELS)
    assert not errors(a), errors(a)
    f = frames(a)
    assert close(f["arm"]["pose"], [1, 0, 0, 0, 0, 0])
    assert f["arm::body"]["attached_to"] == "arm::body"
    assert close(f["arm::gripper_mount"]["pose"], [1.5, 0, 1, 0, 0, math.pi / 2])
    rec = a.includes[0]
    assert rec.path == str(MODELS / "arm" / "arm.sdf")
    assert rec.target == str(MODELS / "arm")
    assert rec.analysis is not None and rec.analysis.path == rec.path
    assert rec.model is not None and rec.model.name == "arm" and rec.model.from_include is rec.include


def test_model_uri_with_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("GZ_SIM_RESOURCE_PATH", os.pathsep.join([str(tmp_path / "nothing"), str(MODELS)]))
    a = run_text(tmp_path, world("<include><uri>model://wheel</uri></include>"))
    assert not errors(a), errors(a)
    assert "wheel::rim" in frames(a)


def test_model_uri_with_sub_path_and_plain_name(tmp_path):
    a = run_text(
        tmp_path, world("<include><uri>model://arm/arm.sdf</uri></include><include><uri>wheel</uri></include>"), MODELS
    )
    assert not errors(a), errors(a)
    assert {"arm::body", "wheel::rim"} <= set(frames(a))


def test_missing_model_names_every_directory_searched(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    text = world("<include><uri>model://no_such_model</uri></include>")
    a = run_text(tmp_path, text, MODELS, other)
    (d,) = errors(a)
    assert d.code == "URI_LOOKUP"
    assert span_text(a, d) == "model://no_such_model"
    assert str(MODELS) in d.message and str(other) in d.message
    assert d.data["searched"] == [str(MODELS), str(other)]


def test_missing_model_without_any_search_path_says_how_to_add_one(tmp_path):
    a = run_text(tmp_path, world("<include><uri>model://arm</uri></include>"))
    (d,) = errors(a)
    # the editor's setting and the command line's option: the message is read in both
    assert d.code == "URI_LOOKUP" and "resourcePaths setting" in d.message and "--resource-path" in d.message


def test_plain_name_is_looked_up_next_to_the_file_first(tmp_path):
    shutil.copytree(MODELS / "wheel", tmp_path / "arm")  # a local 'arm' that is really a wheel
    a = run_text(tmp_path, world("<include><uri>arm</uri></include>"), MODELS)
    assert not errors(a), errors(a)
    assert "wheel::rim" in frames(a)


def test_relative_includes_resolve_next_to_the_file_that_wrote_them():
    a = run(FIX / "relative" / "top.sdf")
    assert not errors(a), errors(a)
    f = frames(a)
    assert close(f["mid::leaf"]["pose"], [1, 2, 3, 0, 0, 0])
    assert f["tip"]["attached_to"] == "mid::leaf::link"


def test_file_and_absolute_uris(tmp_path):
    leaf = FIX / "relative" / "sub" / "leaf.sdf"
    a = run_text(
        tmp_path,
        world(
            f"<include><uri>file://{leaf}</uri><name>a</name></include><include><uri>{leaf}</uri><name>b</name></include>"
        ),
    )
    assert not errors(a), errors(a)
    assert {"a::link", "b::link"} <= set(frames(a))


def test_package_uris(monkeypatch, tmp_path):
    prefix = tmp_path / "install"
    share = prefix / "share" / "robots"
    share.mkdir(parents=True)
    shutil.copytree(MODELS / "wheel", share / "wheel")
    monkeypatch.setenv("AMENT_PREFIX_PATH", str(prefix))
    a = run_text(tmp_path, world("<include><uri>package://robots/wheel</uri></include>"))
    assert not errors(a), errors(a)
    monkeypatch.delenv("AMENT_PREFIX_PATH")
    src = tmp_path / "src"
    shutil.copytree(MODELS, src / "group" / "robots_dir")
    # as rospack: the entry is crawled for package.xml, and the package's name is its <name>
    (src / "group" / "robots_dir" / "package.xml").write_text("<package format='3'><name>robots</name></package>")
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(src))
    a = run_text(tmp_path, world("<include><uri>package://robots/arm/arm.sdf</uri></include>"))
    assert not errors(a), errors(a)
    a = run_text(tmp_path, world("<include><uri>package://nothing/arm</uri></include>"))
    assert [d.code for d in errors(a)] == ["URI_LOOKUP"]
    # a package that is not found says where it was looked for
    assert "package 'nothing' was not found" in errors(a)[0].message and str(src) in errors(a)[0].message


# -- Fuel -----------------------------------------------------------------------


FUEL = "https://fuel.gazebosim.org/1.0/OpenRobotics/models/Wheel"


def test_fuel_uri_not_cached_is_information_not_error(tmp_path):
    a = run_text(tmp_path, world(f"<include><uri>{FUEL}</uri></include>"))
    assert not errors(a)
    (d,) = [d for d in a.diagnostics if d.code == "URI_REMOTE"]
    assert d.severity == Severity.INFORMATION
    assert span_text(a, d) == FUEL
    assert "not in the local Fuel cache" in d.message


def test_fuel_uri_from_the_local_cache(clean_env, tmp_path):
    base = clean_env / ".gz" / "fuel" / "fuel.gazebosim.org" / "openrobotics" / "models" / "wheel"
    for version, z in (("1", 1), ("2", 2), ("10", 10)):
        d = base / version
        shutil.copytree(MODELS / "wheel", d)
        (d / "wheel.sdf").write_text((d / "wheel.sdf").read_text().replace("0 0 0.2 0 0 0", f"0 0 {z} 0 0 0"))
    a = run_text(tmp_path, world(f"<include><uri>{FUEL}</uri></include>"))
    assert not errors(a), a.diagnostics
    assert close(frames(a)["wheel::rim"]["pose"], [0, 0, 10, 0, 0, 0])  # newest version
    a = run_text(tmp_path, world(f"<include><uri>{FUEL}/2</uri></include>"))
    assert close(frames(a)["wheel::rim"]["pose"], [0, 0, 2, 0, 0, 0])
    a = run_text(tmp_path, world(f"<include><uri>{FUEL}/7</uri></include>"))
    assert not errors(a) and [d.code for d in a.diagnostics] == ["URI_REMOTE"]


def test_fuel_uri_from_the_old_ignition_cache(clean_env, tmp_path):
    d = clean_env / ".ignition" / "fuel" / "fuel.ignitionrobotics.org" / "openrobotics" / "models" / "wheel" / "3"
    shutil.copytree(MODELS / "wheel", d)
    lk = lookup(FUEL, None)
    assert lk.path == str(d) and not lk.remote


# -- model.config -------------------------------------------------------------


def test_model_config_picks_the_newest_supported_version():
    mf = model_file(str(MODELS / "versions"))
    assert mf.path == str(MODELS / "versions" / "new.sdf") and mf.version == "1.9"
    assert any("2.0" in p.message and p.severity == "warning" for p in mf.problems)


def test_model_config_without_versions_uses_the_first_entry(tmp_path):
    a = run_text(tmp_path, world("<include><uri>model://noversion</uri></include>"), MODELS)
    assert not errors(a)
    assert "first::link" in frames(a)
    (w,) = [d for d in a.diagnostics if d.severity == Severity.WARNING]
    assert "version" in w.message and span_text(a, w) == "model://noversion"


@pytest.mark.parametrize(
    "name, words",
    [("noconfig", "no model.config"), ("badconfig", "cannot be read"), ("empty_config", "no <sdf> entry")],
)
def test_unusable_model_directories(tmp_path, name, words):
    a = run_text(tmp_path, world(f"<include><uri>model://{name}</uri></include>"), MODELS)
    (d,) = errors(a)
    assert d.code == "URI_LOOKUP" and words in d.message
    assert span_text(a, d) == f"model://{name}"


def test_model_config_naming_a_missing_file(tmp_path):
    m = tmp_path / "models" / "ghost"
    m.mkdir(parents=True)
    (m / "model.config").write_text('<model><name>ghost</name><sdf version="1.9">ghost.sdf</sdf></model>')
    a = run_text(tmp_path, world("<include><uri>model://ghost</uri></include>"), tmp_path / "models")
    (d,) = errors(a)
    assert d.code == "FILE_READ" and "ghost.sdf" in d.message


# -- errors in included files ---------------------------------------------------


def test_errors_of_an_included_file_appear_once_on_the_include(tmp_path):
    a = run_text(tmp_path, world("<include><uri>model://broken</uri></include>"), MODELS)
    (d,) = errors(a)
    assert span_text(a, d) == "model://broken"
    assert d.path is None
    assert "2 errors" in d.message and "amr" in d.message
    assert d.code == "JOINT_CHILD_LINK_INVALID"
    broken = str(MODELS / "broken" / "model.sdf")
    assert d.related and all(r.path == broken for r in d.related)
    sub = a.included_analysis(broken)
    assert sub is not None and sub.text[d.related[0].span.start : d.related[0].span.end] == "amr"


def test_many_includes_of_a_broken_model_one_diagnostic_each(tmp_path):
    body = "\n".join(f"<include><uri>model://broken</uri><name>b{i}</name></include>" for i in range(5))
    a = run_text(tmp_path, world(body), MODELS)
    assert len(errors(a)) == 5
    assert len({d.span for d in errors(a)}) == 5


def test_errors_two_includes_deep_point_at_the_root_cause(tmp_path):
    models = tmp_path / "models"
    shutil.copytree(MODELS, models)
    wheel = models / "wheel" / "wheel.sdf"
    wheel.write_text(wheel.read_text().replace('attached_to="rim"', 'attached_to="rimm"'))
    a = run_text(tmp_path, world("<include><uri>model://cart</uri></include>"), models)
    (d,) = errors(a)
    assert span_text(a, d) == "model://cart"
    assert "rimm" in d.message and "wheel.sdf" in d.message
    assert d.related[0].path == str(wheel)
    assert any(r.path == str(models / "cart" / "cart.sdf") for r in d.related)


def test_included_entities_are_not_reported_as_if_local(tmp_path):
    """The included model's own problems show up once (on the include) and never at its offsets here."""
    a = run_text(tmp_path, model("<link name='l'/><include><uri>model://broken</uri></include>"), MODELS)
    assert len(errors(a)) == 1
    assert all(d.path is None for d in a.diagnostics)


def test_not_an_sdformat_file(tmp_path):
    (tmp_path / "robot.toml").write_text("[robot]\nname = 'x'\n")
    a = run_text(tmp_path, world("<include><uri>robot.toml</uri></include>"))
    (d,) = errors(a)
    assert d.code == "FILE_READ" and "model parser" in d.message and "[model-parsers]" in d.message


def test_included_world_is_rejected(tmp_path):
    (tmp_path / "w2.sdf").write_text(world("<frame name='f'/>"))
    a = run_text(tmp_path, world("<include><uri>w2.sdf</uri></include>"))
    (d,) = errors(a)
    assert d.code == "ELEMENT_MISSING" and "<world>" in d.message


def test_light_include_is_accepted_without_frames(tmp_path):
    a = run_text(tmp_path, world("<include><uri>model://lamp</uri></include>"), MODELS)
    assert not errors(a)
    assert set(frames(a)) == {"world"}
    assert a.includes[0].analysis is not None and a.includes[0].model is None


# -- cycles and depth ----------------------------------------------------------------


def test_include_cycle_is_one_diagnostic():
    a = run(FIX / "cycle" / "a.sdf")
    errs = errors(a)
    assert len(errs) == 1
    assert "cycle" in errs[0].message and "a.sdf -> b.sdf -> a.sdf" in errs[0].message
    assert span_text(a, errs[0]) == "b.sdf"


def test_self_include_is_a_cycle():
    a = run(FIX / "cycle" / "self.sdf")
    (d,) = errors(a)
    assert d.code == "INCLUDE_CYCLE" and span_text(a, d) == "self.sdf"


def test_absurd_depth_is_one_diagnostic(tmp_path):
    n = MAX_DEPTH + 8
    for i in range(n):
        inner = f"<include><uri>m{i + 1}.sdf</uri></include>" if i + 1 < n else ""
        (tmp_path / f"m{i}.sdf").write_text(model(f"<link name='l'/>{inner}", name=f"m{i}"))
    a = run(tmp_path / "m0.sdf")
    (d,) = errors(a)
    assert span_text(a, d) == "m1.sdf"
    assert d.data["include_root"]["code"] == "INCLUDE_DEPTH"


# -- scopes, names, poses ----------------------------------------------------------


def test_references_go_down_into_included_models(tmp_path):
    text = model(
        """<include><uri>model://arm</uri><name>left</name></include>
           <frame name="ok" attached_to="left::gripper_mount"/>
           <frame name="bad" attached_to="arm::gripper_mount"/>"""
    )
    a = run_text(tmp_path, text, MODELS)
    (d,) = errors(a)
    assert d.code == "FRAME_ATTACHED_TO_INVALID" and span_text(a, d) == "arm::gripper_mount"
    assert frames(a)["ok"]["attached_to"] == "left::body"


def test_included_file_cannot_reach_out(tmp_path):
    (tmp_path / "inner.sdf").write_text(
        model('<link name="l"/><frame name="f" attached_to="outer_frame"/>', name="inner")
    )
    a = run_text(tmp_path, model('<frame name="outer_frame"/><link name="l"/><include><uri>inner.sdf</uri></include>'))
    (d,) = errors(a)
    assert d.code == "FRAME_ATTACHED_TO_INVALID" and span_text(a, d) == "inner.sdf"


def test_include_pose_relative_to_is_resolved_in_the_including_scope(tmp_path):
    text = model(
        """<link name="l"/>
           <frame name="spot"><pose>0 0 5 0 0 0</pose></frame>
           <include><uri>model://wheel</uri><pose relative_to="spot">1 0 0 0 0 0</pose></include>
           <include><uri>model://wheel</uri><name>w2</name><pose relative_to="rim">0 0 0 0 0 0</pose></include>"""
    )
    a = run_text(tmp_path, text, MODELS)
    (d,) = errors(a)
    assert d.code == "POSE_RELATIVE_TO_INVALID" and span_text(a, d) == "rim"
    assert close(frames(a)["wheel::rim"]["pose"], [1, 0, 5.2, 0, 0, 0])


def test_name_override_and_own_pose_kept_without_include_pose(tmp_path):
    a = run_text(tmp_path, world("<include><uri>model://gripper</uri><name>g</name></include>"), MODELS)
    f = frames(a)
    assert close(f["g"]["pose"], [7, 7, 7, 0, 0, 0])
    assert "gripper" not in f


def test_static_override(tmp_path):
    a = run_text(tmp_path, world("<include><uri>model://wheel</uri><static>true</static></include>"), MODELS)
    assert not errors(a)
    g = a.graphs
    node = g.root.frames["wheel"]
    assert node.static


def test_two_includes_with_the_same_name(tmp_path):
    a = run_text(
        tmp_path,
        world("<include><uri>model://wheel</uri></include>\n<include><uri>model://wheel</uri></include>"),
        MODELS,
    )
    dup = [d for d in errors(a) if d.code == "DUPLICATE_NAME"]
    assert len(dup) == 1 and "<name>" in dup[0].message
    assert dup[0].span.start > a.text.index("</include>")


def test_nested_includes_inside_included_models(tmp_path):
    a = run_text(tmp_path, world("<include><uri>model://cart</uri><pose>10 0 0 0 0 0</pose></include>"), MODELS)
    assert not errors(a), errors(a)
    f = frames(a)
    assert close(f["cart::left::rim"]["pose"], [10, 1, 0.2, 0, 0, 0])
    assert close(f["cart::right::axle"]["pose"], [10, -1, 0.2, 0, 0, 0])
    assert f["cart::left_axle"]["attached_to"] == "cart::left::rim"


# -- placement frames -----------------------------------------------------------------


def test_arm_and_gripper_placement_frame():
    a = run(FIX / "composed" / "arm_and_gripper.sdf")
    assert not errors(a), errors(a)
    f = frames(a)
    assert close(f["gripper::mount_point"]["pose"], f["arm::gripper_mount"]["pose"])
    assert close(f["arm::gripper_mount"]["pose"], [0.5, 0, 1, 0, 0, math.pi / 2])
    # the gripper body is 0.15 above its mount point, which is flipped: it ends up below the arm's mount
    assert close(f["gripper::body"]["pose"][:3], [0.5, 0, 0.85])
    assert f["weld"]["attached_to"] == "gripper::body"


def test_placement_frame_needs_a_pose(tmp_path):
    a = run_text(
        tmp_path,
        model(
            "<link name='l'/><include><uri>model://gripper</uri><placement_frame>mount_point</placement_frame></include>"
        ),
        MODELS,
    )
    (d,) = errors(a)
    assert d.code == "MODEL_PLACEMENT_FRAME_INVALID" and span_text(a, d) == "mount_point"


def test_placement_frame_must_name_a_frame_of_the_included_model(tmp_path):
    a = run_text(
        tmp_path,
        model(
            "<link name='l'/><include><uri>model://gripper</uri><placement_frame>mount_pint</placement_frame><pose/></include>"
        ),
        MODELS,
    )
    (d,) = errors(a)
    assert d.code == "POSE_RELATIVE_TO_INVALID" and span_text(a, d) == "mount_pint" and "mount_point" in d.message


# -- merge ------------------------------------------------------------------------------


def test_merge_into_a_model(tmp_path):
    text = model(
        """<include merge="true"><uri>model://merge_base</uri><pose>0 0 2 0 0 0</pose></include>
           <link name="local"/>
           <frame name="on_mount" attached_to="mount"/>
           <joint name="j" type="fixed"><parent>top</parent><child>local</child></joint>""",
        name="robot",
    )
    a = run_text(tmp_path, text, MODELS)
    assert not errors(a), errors(a)
    f = frames(a)
    assert "base" not in f and "_merged__base__model__" in f
    assert f["_merged__base__model__"]["kind"] == "frame"
    assert close(f["_merged__base__model__"]["pose"], [0, 0, 2, 0, 0, 0])
    assert f["_merged__base__model__"]["attached_to"] == "chassis"
    assert close(f["chassis"]["pose"], [1, 0, 2, 0, 0, 0])
    assert close(f["top"]["pose"], [0, 0, 2.5, 0, 0, 0])
    assert close(f["mount"]["pose"], [0, 0, 2.25, 0, 0, 0])
    assert f["mount"]["attached_to"] == "chassis"
    assert f["on_mount"]["attached_to"] == "chassis"
    assert f["__model__"]["attached_to"] == "chassis"  # merged links come first in document order


def test_merge_with_placement_frame(tmp_path):
    text = model(
        '<link name="l"/><include merge="true"><uri>model://merge_base</uri><placement_frame>top</placement_frame><pose>5 0 0 0 0 0</pose></include>',
        name="robot",
    )
    a = run_text(tmp_path, text, MODELS)
    assert not errors(a), errors(a)
    f = frames(a)
    assert close(f["top"]["pose"], [5, 0, 0, 0, 0, 0])
    assert close(f["chassis"]["pose"], [6, 0, -0.5, 0, 0, 0])
    assert f["__model__"]["attached_to"] == "l"


def test_merge_into_a_world_rejects_links(tmp_path):
    a = run_text(
        tmp_path, world('<include merge="true"><uri>model://merge_base</uri></include>', version="1.10"), MODELS
    )
    codes = [d.code for d in errors(a)]
    assert codes and set(codes) == {"MERGE_INCLUDE_UNSUPPORTED"}


def test_merge_of_a_light_is_unsupported(tmp_path):
    a = run_text(tmp_path, model('<link name="l"/><include merge="true"><uri>model://lamp</uri></include>'), MODELS)
    assert [d.code for d in errors(a)] == ["MERGE_INCLUDE_UNSUPPORTED"]


def test_merge_in_an_old_version_is_named_once_as_a_newer_feature(tmp_path):
    # libsdformat converts the file to its newest version and merges: nothing is
    # lost, so no warning; the file's one version hint names merge=.
    a = run_text(
        tmp_path, model('<include merge="true"><uri>model://merge_base</uri></include>', version="1.8"), MODELS
    )
    assert not any(d.code == "MERGE_INCLUDE_UNSUPPORTED" for d in a.diagnostics)
    newer = [d for d in a.diagnostics if d.severity == Severity.HINT and "newer than its declared version" in d.message]
    assert len(newer) == 1 and "merge=" in newer[0].message


# -- cache and wiring ---------------------------------------------------------------


def test_cache_reuses_and_notices_changes(tmp_path):
    models = tmp_path / "models"
    shutil.copytree(MODELS, models)
    cache = IncludeCache()
    text = world("<include><uri>model://cart</uri></include>")
    a1 = run_text(tmp_path, text, models, cache=cache)
    assert not errors(a1)
    misses = cache.misses
    a2 = run_text(tmp_path, text, models, cache=cache)
    assert cache.misses == misses and cache.hits > 0
    assert a2.includes[0].analysis is a1.includes[0].analysis
    wheel = models / "wheel" / "wheel.sdf"
    wheel.write_text(wheel.read_text().replace("0 0 0.2 0 0 0", "0 0 0.3 0 0 0   "))  # size changes too
    a3 = run_text(tmp_path, text, models, cache=cache)
    assert close(frames(a3)["cart::left::rim"]["pose"], [0, 1, 0.3, 0, 0, 0])
    # a model that appears later is found (the search directories are dependencies)
    missing = world("<include><uri>model://later</uri></include>")
    (tmp_path / "uses_later.sdf").write_text(
        model("<link name='l'/><include><uri>model://later</uri></include>", name="u")
    )
    b1 = run_text(tmp_path, world("<include><uri>uses_later.sdf</uri></include>"), models, cache=cache, name="w2.sdf")
    assert errors(b1)
    shutil.copytree(models / "wheel", models / "later")
    b2 = run_text(tmp_path, world("<include><uri>uses_later.sdf</uri></include>"), models, cache=cache, name="w2.sdf")
    assert not errors(b2), errors(b2)
    assert missing


def test_no_includes_resolved_without_a_path():
    a = analyze(world("<include><uri>model://arm</uri></include>"), None, Options(resource_paths=(str(MODELS),)))
    assert not errors(a) and a.includes == []


def test_check_cli_resource_path(capsys, tmp_path):
    p = tmp_path / "w.sdf"
    p.write_text(world("<include><uri>model://broken</uri></include>"))
    code = main(["check", "--resource-path", str(MODELS), str(p)])
    out = capsys.readouterr().out
    assert code == 1
    assert "model.sdf:8:" in out  # related information positioned in the included file
    p.write_text(world("<include><uri>model://arm</uri></include>"))
    assert main(["check", "--resource-path", str(MODELS), str(p)]) == 0


# -- experimental:params and top-level includes ---------------------------------------

PARAMS_HEAD = '<?xml version="1.0"?>\n<sdf version="1.9" xmlns:experimental="http://sdformat.org/schemas/experimental">\n  <world name="w">\n'


def test_params_add_modify_remove(tmp_path):
    text = (
        PARAMS_HEAD
        + """
    <include>
      <uri>model://merge_base</uri>
      <experimental:params>
        <link element_id="" name="extra" action="add"><pose>0 0 3 0 0 0</pose></link>
        <link element_id="chassis" action="modify"><pose relative_to="top">1 0 0 0 0 0</pose></link>
        <frame element_id="mount" action="remove"/>
      </experimental:params>
    </include>
  </world>
</sdf>
"""
    )
    a = run_text(tmp_path, text, MODELS)
    assert not errors(a), errors(a)
    f = frames(a)
    assert close(f["base::extra"]["pose"], [0, 0, 4, 0, 0, 0])
    assert close(f["base::chassis"]["pose"], [1, 0, 1.5, 0, 0, 0])
    assert "base::mount" not in f


def test_params_problems(tmp_path):
    text = (
        PARAMS_HEAD
        + """
    <include>
      <uri>model://merge_base</uri>
      <experimental:params>
        <foo/>
        <link element_id="nothing" action="modify"/>
        <link element_id="" name="top" action="add"/>
        <link element_id="chassis::" name="x" action="add"/>
        <link element_id="top" action="explode"/>
      </experimental:params>
    </include>
  </world>
</sdf>
"""
    )
    a = run_text(tmp_path, text, MODELS)
    assert [d.code for d in errors(a)] == [
        "ATTRIBUTE_MISSING",
        "ELEMENT_MISSING",
        "DUPLICATE_NAME",
        "ATTRIBUTE_INVALID",
        "ATTRIBUTE_INVALID",
    ]


def test_top_level_include_is_the_files_model(tmp_path):
    a = run_text(
        tmp_path,
        '<?xml version="1.0"?>\n<sdf version="1.9">\n  <include><uri>model://arm</uri><name>renamed</name></include>\n</sdf>\n',
        MODELS,
    )
    assert not errors(a), errors(a)
    assert {"__model__", "body", "gripper_mount"} <= set(frames(a))
    b = run_text(
        tmp_path,
        '<?xml version="1.0"?>\n<sdf version="1.9">\n  <include><uri>model://broken</uri></include>\n</sdf>\n',
        MODELS,
        name="b.sdf",
    )
    (d,) = errors(b)
    assert span_text(b, d) == "model://broken"


def test_include_named_like_a_nested_model(tmp_path):
    a = run_text(
        tmp_path,
        model(
            '<link name="l"/><include><uri>model://wheel</uri></include><model name="wheel"><link name="x"/></model>'
        ),
        MODELS,
    )
    assert [d.code for d in errors(a)] == ["DUPLICATE_NAME"]
    b = run_text(
        tmp_path, model('<link name="wheel"/><include><uri>model://wheel</uri></include>'), MODELS, name="b.sdf"
    )
    assert [d.code for d in errors(b)] == ["DUPLICATE_NAME"]


def test_devices_and_huge_files_are_not_read(tmp_path):
    a = run_text(tmp_path, world("<include><uri>/dev/zero</uri></include>"))
    (d,) = errors(a)
    assert d.code == "FILE_READ" and "regular file" in d.message
