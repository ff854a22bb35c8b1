"""SDFormat -> URDF against libsdformat: the URDF it reads has the joint frames and axes of the original.

Both files go through the oracle (libsdformat 12, ../shared/oracle): each
moving joint's frame and axis, seen from the URDF's root link (or the world
when joints hang from it), must be the original's to 1e-7. Skips without
the oracle.
"""

from __future__ import annotations

from pathlib import Path

from oracle_frames import compare, run
from random_trees import random_tree

from sdformat_lsp.convert import UrdfOptions, sdf_to_urdf, urdf_to_sdf
from sdformat_lsp.semantics import Options, analyze

ROOT = Path(__file__).resolve().parents[2]


def _convert(path: Path, options: UrdfOptions | None = None) -> str:
    a = analyze(path.read_text(), str(path), Options())
    result = sdf_to_urdf(a, options or UrdfOptions(name_separator="::"))  # compared with the original by scoped name
    assert result.text is not None, result.errors
    return result.text


def test_random_trees_keep_every_joint_frame_and_axis(urdf_oracle, tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    jobs, moving = [], 0
    for seed in range(25):  # each tree costs two libsdformat runs (URDF, and the SDFormat it converts back to)
        text = random_tree(seed)
        sdf = tmp_path / f"tree_{seed}.sdf"
        sdf.write_text(text)
        urdf = tmp_path / f"tree_{seed}.urdf"
        urdf_text = _convert(sdf)
        urdf.write_text(urdf_text)
        root = None if "<parent>world</parent>" in text else "L0"
        jobs.append((sdf, urdf, root))
        back = urdf_to_sdf(analyze(urdf_text, str(urdf)))  # and back: SDF -> URDF -> SDF keeps the joint frames
        assert back.text is not None, back.errors
        (tmp_path / f"tree_{seed}.back.sdf").write_text(back.text)
        jobs.append((sdf, tmp_path / f"tree_{seed}.back.sdf", root))
        moving += text.count('type="revolute"') + text.count('type="prismatic"') + text.count('type="continuous"')
    with ThreadPoolExecutor(2) as pool:
        problems = [p for found in pool.map(lambda job: compare(urdf_oracle, *job), jobs) for p in found]
    assert moving > 50
    assert not problems, problems[:10]


def _conformance_models(shared: Path):
    import json

    expected = json.loads((shared / "conformance" / "expected.json").read_text())
    search = tuple(str(shared / "conformance" / p) for p in expected["search_path"])
    for name, exp in sorted(expected["files"].items()):
        if not exp["valid"] or not name.endswith((".sdf", ".world")):
            continue
        yield shared / "conformance" / "files" / name, search


def test_conformance_models_keep_every_joint_frame_and_axis(urdf_oracle, shared, tmp_path):
    """Every valid model of libsdformat's test files, converted with --lossy (what URDF lacks made fixed or nearest)."""
    from concurrent.futures import ThreadPoolExecutor

    from sdformat_lsp.convert.flatten import model_names

    jobs, refused = [], []
    for path, search in _conformance_models(shared):
        a = analyze(path.read_text(), str(path), Options(resource_paths=search))
        if a.version is None or a.root_scope is None:
            continue
        world = a.root_scope.kind == "world"
        for model in model_names(a) if world else [None]:
            result = sdf_to_urdf(
                a, UrdfOptions(model=model, resource_paths=search, lossy=True, name_separator="::")
            )  # compared by scoped name
            if result.text is None:
                assert result.errors, path
                refused.append((path.name, result.errors[0]))
                continue
            urdf = tmp_path / f"{len(jobs)}_{path.stem}_{model or 'model'}.urdf"
            urdf.write_text(result.text)
            root = result.robot.links[0].name
            if any(j.type != "fixed" for j in result.robot.joints):  # only moving joints are compared
                jobs.append((path, urdf, None if root == "world" else root, model))
    originals: dict[Path, dict] = {}

    def one(job):
        path, urdf, root, model = job
        data = originals.get(path)
        if data is None:
            data = originals[path] = run(urdf_oracle, str(path))
        if data["errors"]:
            return []  # libsdformat 12 (the oracle) refuses some files newer libsdformat accepts: nothing to compare
        return compare(urdf_oracle, path, urdf, root, model=model, original=data)

    with ThreadPoolExecutor(2) as pool:
        problems = [p for found in pool.map(one, jobs) for p in found]
    assert len(jobs) >= 25, (len(jobs), refused)
    assert not problems, problems[:10]
