"""The page's forward kinematics (viewer/page/kinematics.js, run by node) gives the poses the server gives
(features.frame_view with joint positions) for every joint type, mimic followers and URDF."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

from sdformat_lsp.features.frame_view import frame_json, frame_view
from sdformat_lsp.semantics.analysis import Options, analyze


def _kinematics_tests():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "kinematics_cases", Path(__file__).resolve().parents[1] / "features" / "test_kinematics.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_cases = _kinematics_tests()
URDF, arm = _cases.URDF, _cases.arm

PAGE = Path(__file__).resolve().parents[2] / "server" / "sdformat_lsp" / "viewer" / "page" / "kinematics.js"
RUNNER = """
import { poseFrames } from './kinematics.mjs';
import { readFileSync } from 'node:fs';
const cases = JSON.parse(readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(cases.map((c) => poseFrames(c.frames, c.positions))));
"""

CHAIN = """<sdf version="1.11"><model name="m">
  <link name="a"/><link name="b"><pose>1 0 0 0 0.3 0</pose><visual name="v"><pose>0 0 1 0 0 0</pose>
    <geometry><sphere><radius>1</radius></sphere></geometry></visual></link>
  <link name="c"><pose>2 0 0.5 0.1 0 0</pose></link><link name="d"><pose>2 1 0 0 0 0</pose></link>
  <model name="inner"><pose>3 0 0 0 0 1</pose><link name="e"/></model>
  <frame name="f" attached_to="c"><pose>0 0 1 0 0 0</pose></frame>
  <joint name="ab" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 1 0</xyz></axis></joint>
  <joint name="bc" type="universal"><parent>b</parent><child>c</child><axis><xyz>0 0 1</xyz></axis><axis2><xyz>1 0 0</xyz></axis2></joint>
  <joint name="cd" type="screw"><parent>c</parent><child>d</child><axis><xyz>0 1 0</xyz></axis><screw_thread_pitch>0.3</screw_thread_pitch></joint>
  <joint name="de" type="prismatic"><parent>d</parent><child>inner::e</child>
    <axis><xyz>1 1 0</xyz><mimic joint="ab"><multiplier>-0.5</multiplier><offset>0.1</offset><reference>0.2</reference></mimic></axis></joint>
</model></sdf>"""


def answer(text: str, positions=None) -> list[dict]:
    v = frame_view(analyze(text, None, Options(schema=False)), (), positions)
    assert v is not None
    return [frame_json(e, lambda span, path: None, lambda p: p) for e in v.frames]


def test_the_page_poses_frames_as_the_server_does(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    shutil.copyfile(PAGE, tmp_path / "kinematics.mjs")
    (tmp_path / "run.mjs").write_text(RUNNER)
    cases = [
        (CHAIN, {"ab": 0.7, "bc": [0.4, -1.1], "cd": 2.5, "de": 3.0}),
        (URDF, {"shoulder": -1.2}),
        (arm("revolute2", "<axis><xyz>0 0 1</xyz></axis><axis2><xyz>0 1 0</xyz></axis2>"), {"j": [1.0, 0.5]}),
        (arm("continuous", "<axis><xyz>1 1 1</xyz></axis>"), {"j": 7.0}),
    ]
    payload = [{"frames": answer(text), "positions": pos} for text, pos in cases]
    out = subprocess.run(
        [node, str(tmp_path / "run.mjs")],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=True,
    ).stdout
    page = json.loads(out)
    compared = 0
    for (text, pos), got in zip(cases, page):
        want = answer(text, pos)
        assert [f["name"] for f in got] == [f["name"] for f in want]
        for g, w in zip(got, want):
            items = [(g["pose"], w["pose"])] + [
                (a["pose"], b["pose"]) for a, b in zip(g.get("visuals", []), w.get("visuals", []))
            ]
            for a, b in items:
                if b is None:
                    assert a is None
                    continue
                assert all(abs(x - y) < 1e-9 for x, y in zip(a["xyz"], b["xyz"])), (g["name"], a, b)
                # the same rotation (q and -q are one)
                dot = abs(sum(x * y for x, y in zip(a["quaternion"], b["quaternion"])))
                assert abs(dot - 1) < 1e-9, (g["name"], a, b)
                compared += 1
            if w["kind"] == "joint" and w["joint"]["position"]:
                assert all(abs(x - y) < 1e-12 for x, y in zip(g["joint"]["position"], w["joint"]["position"])), g[
                    "name"
                ]
                assert all(
                    a is None and b is None or all(abs(x - y) < 1e-9 for x, y in zip(a, b))
                    for a, b in zip(g["joint"]["axes"], w["joint"]["axes"])
                ), g["name"]
    assert compared > 20
    assert math.isfinite(compared)
