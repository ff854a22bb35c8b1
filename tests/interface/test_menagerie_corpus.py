"""scripts/menagerie_corpus.py: the layout of MuJoCo Menagerie refuses unsafe paths and stands in for absent meshes.

The stored index of google-deepmind/mujoco_menagerie holds a file named ``$(echo ... >&2).xml``: a
layout must never write it nor hand it to a shell. Meshes a mirror lacks are replaced by a
placeholder MuJoCo loads, so that the model stays comparable with MuJoCo (frames of bodies, sites
and joints do not depend on mesh content).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _script(name: str):
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(REPO / "scripts"))


menagerie = _script("menagerie_corpus")
corpus = _script("corpus")

MODEL = """<mujoco model="arm">
  <compiler meshdir="assets"/>
  <asset><mesh file="base.stl" scale="0.001 0.001 0.001"/><mesh file="link.obj" scale="0.001 0.001 0.001"/></asset>
  <worldbody>
    <body name="base"><geom type="mesh" mesh="base"/>
      <body name="link" pos="0 0 0.1"><joint name="j" axis="0 0 1"/><geom type="mesh" mesh="link"/>
        <site name="tip" pos="0 0 0.2"/></body></body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize(
    "name",
    [
        "$(echo VRP_PWNED_20260805 >&2).xml",
        "arm/`id`.xml",
        "../outside.xml",
        "arm/../../outside.xml",
        "/etc/passwd.xml",
        "arm/a\x07b.xml",
        "arm/a\nb.xml",
        "arm//b.xml",
        "C:/x.xml",
    ],
)
def test_unsafe_paths_are_refused(name):
    assert corpus.refused(name) is not None


@pytest.mark.parametrize(
    "name", ["shadow_dexee/assets/MRH-F-Distal-Visual,00.stl", "aloha/scene.xml", "a b/c+d (1).obj"]
)
def test_ordinary_paths_are_laid_out(name):
    assert corpus.refused(name) is None


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        text=True,
        env={
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t",
        },
    ).stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_mirror_with_a_hostile_name_and_absent_meshes(tmp_path, monkeypatch, capsys):
    src = tmp_path / "src"
    (src / "arm" / "assets").mkdir(parents=True)
    (src / "arm" / "arm.xml").write_text(MODEL)
    (src / "arm" / "assets" / "base.stl").write_bytes(b"solid real mesh the mirror lost\n")
    (src / "arm" / "assets" / "link.obj").write_bytes(b"# another real mesh the mirror lost\n")
    (src / "arm" / "README.md").write_text("not an asset\n")
    hostile = "$(touch PWNED).xml"
    (src / hostile).write_text("<mujoco/>")
    (src / "arm" / "`touch PWNED2`.xml").write_text("<mujoco/>")
    _git(src, "init", "-q")
    _git(src, "add", "-A")
    _git(src, "commit", "-q", "-m", "m")
    commit = _git(src, "rev-parse", "HEAD")
    for mesh in ("base.stl", "link.obj"):  # the mirror lacks these blobs
        sha = _git(src, "rev-parse", f"HEAD:arm/assets/{mesh}")
        (src / ".git" / "objects" / sha[:2] / sha[2:]).unlink()
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "corpus"
    assert menagerie.main(["--mirror", str(src / ".git"), "--commit", commit, "--corpus", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "unsafe paths refused: 2" in printed
    assert "replaced by a placeholder: 2 in 1 models" in printed
    tree = out / "src" / "google-deepmind+mujoco_menagerie"
    laid = sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file())
    assert laid == ["arm/arm.xml", "arm/assets/base.stl", "arm/assets/link.obj"]
    assert not list(tmp_path.rglob("PWNED*"))
    refused = (tree.parent / (tree.name + ".refused.txt")).read_text()
    assert "$(touch PWNED).xml" in refused and "`touch PWNED2`" in refused
    assert (out / "COMMITS.tsv").read_text() == f"google-deepmind/mujoco_menagerie\t{commit}\n"
    mujoco = pytest.importorskip("mujoco")
    model = mujoco.MjModel.from_xml_path(str(tree / "arm" / "arm.xml"))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    assert list(data.site_xpos[0]) == pytest.approx([0.0, 0.0, 0.3])


@pytest.mark.parametrize("suffix", [".stl", ".obj", ".msh"])
def test_each_placeholder_is_a_mesh_mujoco_loads_even_scaled_down(tmp_path, suffix):
    mujoco = pytest.importorskip("mujoco")
    (tmp_path / f"m{suffix}").write_bytes(menagerie.placeholder(suffix))
    (tmp_path / "m.xml").write_text(
        f'<mujoco><asset><mesh file="m{suffix}" scale="0.001 0.001 0.001"/></asset>'
        '<worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>'
    )
    assert mujoco.MjModel.from_xml_path(str(tmp_path / "m.xml")).nmesh == 1


def test_a_directory_of_files_read_one_by_one_is_laid_out_with_the_same_refusals(tmp_path, monkeypatch, capsys):
    """``--from DIR``: files read from the stored index into a directory, hostile names included."""
    src = tmp_path / "read"
    (src / "arm" / "assets").mkdir(parents=True)
    (src / "arm" / "arm.xml").write_text(MODEL)
    (src / "arm" / "assets" / "base.stl").write_bytes(menagerie.placeholder(".stl"))
    (src / "$(touch PWNED).xml").write_text("<mujoco/>")
    (src / "arm" / "a\x07b.xml").write_text("<mujoco/>")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "corpus"
    assert menagerie.main(["--from", str(src), "--commit", "0" * 40, "--corpus", str(out)]) == 0
    assert "unsafe paths refused: 2" in capsys.readouterr().out
    tree = out / "src" / "google-deepmind+mujoco_menagerie"
    assert sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file()) == [
        "arm/arm.xml",
        "arm/assets/base.stl",
    ]
    assert not list(tmp_path.rglob("PWNED"))
    assert (out / "COMMITS.tsv").read_text() == f"google-deepmind/mujoco_menagerie\t{'0' * 40}\n"
