"""Messages that say the consequence (issue 24): URDF's ``<mass value="500"/>`` in SDFormat is a mass of
1 kg (libsdformat reads an element's value from its text only), and ``inertial-stats`` counts the link
with that mass; an inertia no body can have because ``<ixx>`` is written twice and ``<izz>`` is missing
says so, with the rename as the fix. libsdformat 12 agrees on the verdict (``test_the_oracle_agrees``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sdformat_lsp.semantics import analyze

HERE = Path(__file__).resolve().parent / "causes"


def _fixed(text: str, fix) -> str:
    return text[: fix.span.start] + fix.new_text + text[fix.span.end :]


def test_urdf_mass_syntax_says_the_default_mass_and_fixes_it():
    text = (HERE / "urdf_mass.sdf").read_text()
    a = analyze(text, str(HERE / "urdf_mass.sdf"))
    (w,) = [d for d in a.diagnostics if d.code == "ATTRIBUTE_INCORRECT_TYPE"]
    assert "the link gets libsdformat's default mass of 1 kg instead of 500" in w.message
    assert "<mass>500</mass>" in _fixed(text, w.fixes[0])


def test_an_inertia_with_a_moment_written_twice_says_so_and_fixes_it():
    text = (HERE / "urdf_mass.sdf").read_text()
    a = analyze(text, str(HERE / "urdf_mass.sdf"))
    (e,) = [d for d in a.diagnostics if d.code == "LINK_INERTIA_INVALID"]
    assert "link 'lid'" in e.message and "<ixx> is written twice (libsdformat reads the first copy)" in e.message
    assert "<izz> is missing (libsdformat takes the default 1)" in e.message
    fixed = _fixed(text, e.fixes[0])
    assert "<ixx>0.1</ixx><izz>0.1</izz><iyy>0.1</iyy>" in fixed
    assert not [d for d in analyze(fixed, None).diagnostics if d.code == "LINK_INERTIA_INVALID"]


def test_inertial_stats_counts_the_link_with_the_default_mass(tmp_path):
    path = tmp_path / "crate.sdf"
    path.write_text(
        '<sdf version="1.9"><model name="crate"><link name="box"><inertial><mass value="500"/>'
        "<inertia><ixx>80</ixx><iyy>80</iyy><izz>80</izz></inertia></inertial></link>"
        '<link name="lid"><pose>0 0 1 0 0 0</pose><inertial><mass>2</mass></inertial></link></model></sdf>'
    )
    run = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "inertial-stats", "--format", "json", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    (model,) = json.loads(run.stdout)["files"][0]["models"]
    assert model["mass"] == 3 and model["links"] == 2 and not model.get("links_left_out"), model


def test_the_oracle_agrees(oracle):
    got = json.loads(
        subprocess.run(
            [oracle, "--check", str(HERE / "urdf_mass.sdf")], capture_output=True, text=True, timeout=60
        ).stdout
    )
    assert [e["code"] for e in got["errors"]] == ["LINK_INERTIA_INVALID"] and "lid" in got["errors"][0]["message"]
