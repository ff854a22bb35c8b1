"""Interface models against libsdformat itself: random interface models (nested models, frames attached
to frames, joints, scoped canonical links) included by random worlds and models (//include/pose with
relative_to, placement_frame, <name>), every element named by a frame posed relative to it and one
attached to it; libsdformat (the machine's libsdformat 12, with oracle/iface_oracle.cc registering a
custom parser for the same ".iface" format that iface_format.parse reads) and we must give every such
frame the same pose (1e-9) and the same body, and agree on which documents are in error.

Skips without g++ or libsdformat's development files (scripts/test.sh installs libsdformat-dev)."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from sdformat_lsp.cli import load_file
from sdformat_lsp.diagnostics import Severity
from sdformat_lsp.model.transform import Transform, quat_from_rpy
from sdformat_lsp.semantics import Options
from sdformat_lsp.semantics.includes.cache import IncludeCache

from .iface_format import parse, random_model

HERE = Path(__file__).resolve().parent
CASES = 40


@pytest.fixture(scope="module")
def iface_oracle(tmp_path_factory) -> str:
    if shutil.which("g++") is None or shutil.which("pkg-config") is None:
        pytest.skip("g++ or pkg-config is missing")
    flags = None
    for pkg in ("sdformat12", "sdformat13", "sdformat14"):
        r = subprocess.run(["pkg-config", "--cflags", "--libs", pkg], capture_output=True, text=True)
        if r.returncode == 0:
            flags = r.stdout.split()
            break
    if flags is None:
        pytest.skip("libsdformat's development files are missing")
    out = str(tmp_path_factory.mktemp("iface") / "iface_oracle")
    r = subprocess.run(
        ["g++", "-O1", "-std=c++17", "-o", out, str(HERE / "oracle" / "iface_oracle.cc"), *flags],
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        pytest.skip(f"iface_oracle does not build here: {r.stderr[-500:]}")
    return out


def _document(rng: random.Random, names: list[str]) -> str:
    in_world = rng.random() < 0.5
    placement = f"<placement_frame>{rng.choice(names)}</placement_frame>" if rng.random() < 0.5 else ""
    pose = " ".join(f"{rng.uniform(-1, 1):.3f}" for _ in range(6))
    rel = ' relative_to="F0"' if rng.random() < 0.5 else ""
    refs = "\n".join(
        f'    <frame name="R{i}"><pose relative_to="rb::{n}">0.1 0 0 0 0 0.2</pose></frame>\n'
        f'    <frame name="A{i}" attached_to="rb::{n}"/>'
        for i, n in enumerate(names)
    )
    body = (
        f'    <frame name="F0"><pose>1 0 0.5 0 0.3 0.5</pose></frame>\n'
        f"    <include><uri>robot.iface</uri><name>rb</name><pose{rel}>{pose}</pose>{placement}</include>\n"
        f"{refs}\n"
    )
    if in_world:
        return f'<?xml version="1.0"?>\n<sdf version="1.9">\n  <world name="w">\n{body}  </world>\n</sdf>\n'
    return f'<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="top">\n{body}  </model>\n</sdf>\n'


def _theirs(oracle: str, path: Path) -> tuple[list[str], dict[str, tuple[list[float], str]]]:
    # run beside the file: libsdformat finds the relative <uri> in the working directory
    out = subprocess.run([oracle, path.name], capture_output=True, text=True, timeout=60, cwd=path.parent).stdout
    errors, frames = [], {}
    for line in out.splitlines():
        if line.startswith("error: "):
            errors.append(line)
        elif line.startswith("frame ") and not line.endswith("unresolved"):
            w = line.split()
            frames[w[1]] = ([float(v) for v in w[2:8]], w[8])
    return errors, frames


def _same(a: list[float], b: list[float]) -> bool:
    ta = Transform((a[0], a[1], a[2]), quat_from_rpy(*a[3:]))
    tb = Transform((b[0], b[1], b[2]), quat_from_rpy(*b[3:]))
    d = ta.inverse() * tb
    return max(abs(c) for c in d.p) <= 1e-9 and abs(abs(d.q[0]) - 1) <= 1e-9


def test_random_interface_models_agree_with_libsdformat(iface_oracle, tmp_path):
    agreed = compared = 0
    for case in range(CASES):
        rng = random.Random(case)
        lines, names = random_model(rng, "robot")
        d = tmp_path / f"c{case}"
        d.mkdir()
        (d / "robot.iface").write_text("\n".join(lines) + "\n")
        (d / "main.sdf").write_text(_document(rng, names))
        errors, theirs = _theirs(iface_oracle, d / "main.sdf")
        a = load_file(str(d / "main.sdf"), Options(model_parsers=((".iface", parse),), include_cache=IncludeCache()))
        ours_errors = [x for x in a.diagnostics if x.severity == Severity.ERROR]
        assert bool(errors) == bool(ours_errors), (case, errors, [x.message for x in ours_errors])
        if errors:
            continue
        agreed += 1
        prefix = "top::" if a.graphs is not None and a.graphs.root.kind == "model" else ""
        ours = {f["name"]: f for f in a.frames()}
        for name, (pose, body) in theirs.items():
            if name == "F0":
                continue
            mine = ours[name]
            assert _same(mine["pose"], pose), (case, name, mine["pose"], pose)
            if name.startswith("A"):
                assert mine["attached_to"] == body.removeprefix(prefix) or prefix + mine["attached_to"] == body, (
                    case,
                    name,
                )
            compared += 1
    print(f"interface models vs libsdformat: {agreed} of {CASES} documents valid in both, {compared} frames equal")
    assert agreed >= CASES // 2 and compared > 100
