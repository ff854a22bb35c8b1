"""Inertial statistics (sums over links and nested models) and the warnings for impossible inertials."""

from __future__ import annotations

import json
import math
import subprocess
import sys


from sdformat_lsp.model.builder import version_tuple
from sdformat_lsp.semantics import analyze
from sdformat_lsp.semantics.checks.mass_properties import model_statistics

# Two point-like boxes on the x axis, one of them inside a nested model posed and turned by 90 deg about z.
DOC = """<sdf version="1.9">
  <model name="m">
    <link name="a">
      <pose>1 0 0 0 0 0</pose>
      <inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia></inertial>
    </link>
    <model name="inner">
      <pose>-1 0 0 0 0 1.5707963267948966</pose>
      <link name="b">
        <inertial>
          <pose>0 0 0 0 0 0</pose>
          <mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia>
        </inertial>
      </link>
    </model>
  </model>
</sdf>
"""


def stats(text: str):
    a = analyze(text, "/tmp/inertia-test.sdf")
    assert not a.has_errors, a.diagnostics
    return {s.name: s for s in model_statistics(a.graphs, version_tuple(a.version))}


def test_mass_centre_and_inertia_sum_over_links_and_nested_models():
    s = stats(DOC)
    m = s["m"].props
    assert m.mass == 4 and m.links == 2
    assert all(math.isclose(c, e, abs_tol=1e-12) for c, e in zip(m.com, (0, 0, 0)))
    i = m.inertia
    # a: diag(0.1, 0.2, 0.3); b turned 90 deg about z: diag(0.2, 0.1, 0.3); parallel axes: 2 * 1^2 each about y and z.
    assert math.isclose(i[0][0], 0.3, abs_tol=1e-12)
    assert math.isclose(i[1][1], 0.3 + 4.0, abs_tol=1e-12)
    assert math.isclose(i[2][2], 0.6 + 4.0, abs_tol=1e-12)
    assert all(math.isclose(i[r][c], 0.0, abs_tol=1e-12) for r in range(3) for c in range(3) if r != c)
    inner = s["m::inner"].props  # in its own frame: just b
    assert inner.mass == 2 and math.isclose(inner.inertia[0][0], 0.1) and math.isclose(inner.inertia[1][1], 0.2)


def test_an_inertial_offset_moves_the_centre_of_mass():
    doc = DOC.replace("<pose>0 0 0 0 0 0</pose>", "<pose>0 0 0.5 0 0 0</pose>")
    m = stats(doc)["m"].props
    assert math.isclose(m.com[2], 0.25) and math.isclose(m.inertia[0][0], 0.3 + 4 * 0.25 * 0.25)


def test_cli_text_and_json(tmp_path):
    path = tmp_path / "m.sdf"
    path.write_text(DOC)
    run = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "inertial-stats", "--format", "json", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    models = {m["model"]: m for m in json.loads(run.stdout)["files"][0]["models"]}
    assert models["m"]["mass"] == 4 and models["m"]["links"] == 2 and math.isclose(models["m"]["inertia"]["iyy"], 4.3)
    text = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "inertial-stats", str(path)], capture_output=True, text=True, timeout=60
    )
    assert "model 'm': 2 link(s)" in text.stdout and "total mass: 4" in text.stdout
    (tmp_path / "bad.sdf").write_text(
        '<sdf version="1.9"><model name="m"><link name="l"><pose>1 2</pose></link></model></sdf>'
    )
    bad = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "inertial-stats", str(tmp_path / "bad.sdf")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 1 and bad.stdout == "" and "bad.sdf:1:" in bad.stderr and bad.stderr.count("\n") == 1


def warnings_of(body: str, static: str = "") -> list:
    text = f'<sdf version="1.9"><model name="m">{static}{body}</model></sdf>'
    return [d for d in analyze(text, "/tmp/w.sdf").diagnostics if d.code.startswith("LINK_")]


MOVING = '<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>'


def test_a_massless_moving_link_is_a_warning_pointing_at_the_joint():
    found = warnings_of('<link name="a"/><link name="b"><inertial><mass>0</mass></inertial></link>' + MOVING)
    assert [(d.code, d.severity.name) for d in found] == [("LINK_MASSLESS_MOVING", "WARNING")]
    assert "joint 'j'" in found[0].message and found[0].related
    # fixed joints, and static models, are fine
    assert not warnings_of(
        '<link name="a"/><link name="b"><inertial><mass>0</mass></inertial></link>'
        + MOVING.replace("revolute", "fixed")
    )
    assert not warnings_of(
        '<link name="a"/><link name="b"><inertial><mass>0</mass></inertial></link>' + MOVING, "<static>true</static>"
    )


def test_a_model_without_mass_and_a_singular_inertia():
    found = warnings_of('<link name="a"><inertial><mass>0</mass></inertial></link>')
    assert [d.code for d in found] == ["LINK_MASS_NOT_POSITIVE"]
    singular = warnings_of(
        '<link name="a"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>0</izz></inertia></inertial></link>'
    )
    assert [d.code for d in singular] == ["LINK_INERTIA_SINGULAR"] and singular[0].severity.name == "WARNING"
    # negative mass and the triangle inequality stay libsdformat's errors, not repeated as warnings
    neg = warnings_of('<link name="a"><inertial><mass>-1</mass></inertial></link>')
    assert [(d.code, d.severity.name) for d in neg] == [("LINK_INERTIA_INVALID", "ERROR")]
    tri = warnings_of(
        '<link name="a"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>3</izz></inertia></inertial></link>'
    )
    assert [(d.code, d.severity.name) for d in tri] == [("LINK_INERTIA_INVALID", "ERROR")]


def test_examples_have_no_inertial_warnings():
    from pathlib import Path

    for path in Path(__file__).resolve().parents[2].joinpath("examples").glob("*.sdf"):
        diags = analyze(path.read_text(), str(path)).diagnostics
        assert not [
            d for d in diags if d.code in ("LINK_MASSLESS_MOVING", "LINK_MASS_NOT_POSITIVE", "LINK_INERTIA_SINGULAR")
        ], path


def test_check_reports_the_warnings_and_still_exits_0(tmp_path):
    path = tmp_path / "w.sdf"
    path.write_text(
        f'<sdf version="1.9"><model name="m"><link name="a"/><link name="b"><inertial><mass>0</mass></inertial></link>{MOVING}</model></sdf>'
    )
    run = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "check", str(path)], capture_output=True, text=True, timeout=60
    )
    assert (
        run.returncode == 0
        and "warning[LINK_MASSLESS_MOVING]" in run.stdout
        and "note: joint 'j' moves link 'b'" in run.stdout
    )
