"""ROS packages found without ROS: packages.find_package and package:// through it."""

from __future__ import annotations

import pytest

from sdformat_lsp import packages
from sdformat_lsp.config import load_config
from sdformat_lsp.packages import find_package, resolve_package_uri
from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.semantics.includes.resources import lookup


@pytest.fixture(autouse=True)
def fresh():
    packages.forget_crawls()
    yield
    packages.forget_crawls()


def pkg(directory, name, manifest=None):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "package.xml").write_text(
        manifest or f"<?xml version='1.0'?>\n<package format='3'>\n  <name>{name}</name>\n</package>\n"
    )
    return directory


def test_ros_package_path_is_crawled_as_rospack_does(tmp_path):
    root = tmp_path / "ws"
    pkg(root / "a" / "b" / "dir_of_robot", "robot")  # named by <name>, found at any depth
    pkg(root / "a" / "b" / "dir_of_robot" / "inner", "inner")  # inside a package: never entered
    pkg(root / "ignored" / "p", "hidden_by_catkin_ignore")
    (root / "ignored" / "CATKIN_IGNORE").write_text("")
    pkg(root / "nosub" / "q", "below_nosubdirs")
    (root / "nosub" / "rospack_nosubdirs").write_text("")
    pkg(root / ".hidden" / "r", "in_hidden_dir")
    (root / "dry").mkdir()
    (root / "dry" / "manifest.xml").write_text("<package/>")  # rosbuild: named by its directory
    env = {"ROS_PACKAGE_PATH": str(root)}
    hit = find_package("robot", None, env=env)
    assert hit.path == str(root / "a" / "b" / "dir_of_robot") and hit.source == "ROS_PACKAGE_PATH"
    assert find_package("dry", None, env=env).path == str(root / "dry")
    for missing in ("inner", "hidden_by_catkin_ignore", "below_nosubdirs", "in_hidden_dir", "dir_of_robot"):
        assert find_package(missing, None, env=env).path is None, missing


def test_order_of_the_sources_and_what_was_searched(tmp_path):
    configured = pkg(tmp_path / "cfg" / "x", "shared")
    ros = pkg(tmp_path / "ros" / "x", "shared")
    prefix = tmp_path / "install"
    (prefix / "share" / "shared").mkdir(parents=True)
    (prefix / "share" / "only_ament").mkdir(parents=True)
    env = {"ROS_PACKAGE_PATH": str(tmp_path / "ros"), "AMENT_PREFIX_PATH": str(prefix)}
    assert find_package("shared", None, [str(tmp_path / "cfg")], env).path == str(configured)
    assert find_package("shared", None, [], env).path == str(ros)
    hit = find_package("only_ament", None, [], env)
    assert hit.path == str(prefix / "share" / "only_ament") and hit.source == "AMENT_PREFIX_PATH"
    miss = find_package("absent", None, [str(tmp_path / "cfg")], env)
    assert miss.path is None
    text = miss.message()
    for place in (str(tmp_path / "cfg"), str(tmp_path / "ros"), str(prefix / "share")):
        assert place in text
    assert "package-paths" in text and "ROS_PACKAGE_PATH" in text and "AMENT_PREFIX_PATH" in text


def test_the_documents_repository_is_searched(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    pkg(repo / "src" / "desc", "my_description")
    (repo / "src" / "desc" / "meshes").mkdir()
    (repo / "src" / "desc" / "meshes" / "base.dae").write_text("")
    pkg(repo / "src" / "other", "other_pkg")
    here = repo / "src" / "desc" / "urdf"
    here.mkdir()
    hit = find_package("other_pkg", str(here), env={})
    assert hit.path == str(repo / "src" / "other") and hit.source == "workspace"
    uri = resolve_package_uri("package://my_description/meshes/base.dae", str(here), env={})
    assert uri is not None and uri.path == str(repo / "src" / "desc" / "meshes" / "base.dae")
    missing_file = resolve_package_uri("package://my_description/meshes/none.dae", str(here), env={})
    assert missing_file is not None and missing_file.path is None and "has no meshes/none.dae" in missing_file.message()
    # without .git, the parent of the package the document lies in is the workspace
    ws = tmp_path / "plain"
    pkg(ws / "a", "pkg_a")
    pkg(ws / "b", "pkg_b")
    (ws / "a" / "urdf").mkdir()
    assert find_package("pkg_b", str(ws / "a" / "urdf"), env={}).path == str(ws / "b")


def test_a_crawl_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(packages, "MAX_CRAWL_DIRS", 5)
    root = tmp_path / "many"
    for i in range(10):
        (root / f"d{i}").mkdir(parents=True)
    pkg(root / "zz", "late")
    hit = find_package("late", None, env={"ROS_PACKAGE_PATH": str(root)})
    assert hit.path is None and hit.truncated == (str(root),)
    assert "stopped after" in hit.message()


def test_a_package_added_on_disk_is_found_once_the_crawl_is_stale(tmp_path, monkeypatch):
    root = tmp_path / "ws"
    root.mkdir()
    env = {"ROS_PACKAGE_PATH": str(root)}
    assert find_package("newcomer", None, env=env).path is None
    pkg(root / "n", "newcomer")
    monkeypatch.setattr(packages, "CRAWL_TTL", 0.0)
    assert find_package("newcomer", None, env=env).path == str(root / "n")


def test_bad_names_are_not_found_and_never_raise(tmp_path):
    for name in ("", "a/b", "..", "a\x00b"):
        assert find_package(name, str(tmp_path), env={"ROS_PACKAGE_PATH": str(tmp_path)}).path is None


def test_configuration_package_paths(tmp_path):
    (tmp_path / "sdformat-lsp.toml").write_text('package-paths = ["third_party", "~/ros"]\n')
    cfg = load_config(str(tmp_path / "sdformat-lsp.toml"))
    assert cfg.package_paths[0] == str(tmp_path / "third_party") and cfg.package_paths[1].endswith("/ros")


def test_package_uris_of_includes_and_meshes_use_the_same_lookup(tmp_path):
    third = tmp_path / "third_party"
    model = pkg(third / "deep" / "robot_pkg", "robot_pkg")
    (model / "m").mkdir()
    (model / "m" / "model.sdf").write_text("<sdf version='1.9'><model name='m'><link name='l'/></model></sdf>")
    (model / "m" / "model.config").write_text("<model><sdf version='1.9'>model.sdf</sdf></model>")
    doc = tmp_path / "elsewhere" / "w.sdf"
    doc.parent.mkdir()
    text = "<sdf version='1.9'><world name='w'><include><uri>package://robot_pkg/m</uri></include></world></sdf>"
    errors = [d for d in analyze(text, str(doc), Options(package_paths=(str(third),))).diagnostics if d.severity == 1]
    assert not errors, errors
    missing = analyze(text.replace("robot_pkg", "robot_pgk"), str(doc), Options(package_paths=(str(third),)))
    msgs = [d.message for d in missing.diagnostics if d.code == "URI_LOOKUP"]
    assert len(msgs) == 1 and "package 'robot_pgk' was not found" in msgs[0] and str(third) in msgs[0]
    hit = lookup("package://robot_pkg/m/model.sdf", str(doc.parent), package_paths=(str(third),), env={})
    assert (
        hit.path == str(model / "m" / "model.sdf") and hit.package is not None and hit.package.source == "package-paths"
    )
