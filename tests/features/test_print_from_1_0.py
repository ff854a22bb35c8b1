"""SDFormat 1.0: libsdformat main refuses it (its 1.0 to 1.2 rules are no longer built in), so check
says so; print converts it by those rules (issue 24), and what it prints reads as the 1.0 file meant."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sdformat_lsp.printing import printed
from sdformat_lsp.printing.from_1_0 import converted_from_1_0
from sdformat_lsp.semantics import analyze

OLD = """<?xml version="1.0"?>
<sdf version="1.0">
  <world name="w">
    <physics type="ode" update_rate="500">
      <gravity xyz="0 0 -9.8"/>
      <ode>
        <solver type="quick" dt="0.002" iters="50" sor="1.3"/>
      </ode>
    </physics>
    <model name="box" static="true">
      <origin pose="1 2 3 0 0 0.5"/>
      <link name="link" gravity="false">
        <origin pose="0 0 1 0 0 0"/>
        <inertial mass="2">
          <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
        </inertial>
        <collision name="c"><geometry><box size="1 1 1"/></geometry></collision>
      </link>
    </model>
  </world>
</sdf>
"""


def test_check_refuses_1_0_as_libsdformat_main_does():
    a = analyze(OLD, "/tmp/old.sdf")
    errors = [d for d in a.diagnostics if d.is_error]
    assert [(d.code, OLD[d.span.start : d.span.end]) for d in errors] == [("CONVERSION_ERROR", "1.0")]
    assert "sdformat-lsp print" in errors[0].message


def test_the_rules_move_attributes_into_elements_as_1_0_convert_says():
    a = analyze(OLD, None)
    text = converted_from_1_0(a.xml.root, OLD)
    assert '<sdf version="1.2">' in text
    # an element's attribute becomes its text, in place; attributes become elements appended in rule order
    assert "<gravity>0 0 -9.8</gravity>" in text and 'xyz="' not in text
    assert "<pose>1 2 3 0 0 0.5</pose>" in text and "<origin" not in text
    assert "<update_rate>500</update_rate>" in text and "<static>true</static>" in text
    assert "<size>1 1 1</size>" in text and "<mass>2</mass>" in text
    b = analyze(text, None)
    assert not [d for d in b.diagnostics if d.is_error], b.diagnostics


def test_printed_as_the_newest_version_keeps_what_1_0_said():
    a = analyze(OLD, None)
    out = printed(a)
    assert '<sdf version="1.12">' in out
    b = analyze(out, None)
    assert not [d for d in b.diagnostics if d.is_error], b.diagnostics
    frames = {f["name"]: f for f in b.frames()}
    assert frames["box"]["pose"] == [1, 2, 3, 0, 0, 0.5]
    # 1.3 to 1.4 and 1.5 to 1.6 applied after 1.0 to 1.2: the physics of the newest version
    assert "<real_time_update_rate>500</real_time_update_rate>" in out and "<max_step_size>0.002</max_step_size>" in out


def test_libsdformat_main_refuses_1_0(tmp_path: Path):
    """With ``$SDF_MAIN_CHECK`` (a ``gz sdf --check`` built on libsdformat main): the refusal is libsdformat's."""
    checker = os.environ.get("SDF_MAIN_CHECK")
    if not checker or not Path(checker).exists():
        pytest.skip("set SDF_MAIN_CHECK to a check program built on libsdformat's main branch")
    path = tmp_path / "old.sdf"
    path.write_text(OLD)
    r = subprocess.run([checker, str(path)], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "Unable to convert from SDF version 1.0" in r.stderr + r.stdout
