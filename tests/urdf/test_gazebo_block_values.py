"""Values in a URDF's <gazebo> blocks are SDFormat once libsdformat copies them into the link, joint or
model (issue 24): a colour of 0-255 components in a <light> (osrf/subt) is one error on the value,
in the URDF text, as the same value in an .sdf is. Plugin contents stay free-form. Each fixture's
verdict is checked against libsdformat 12 (``../shared/oracle``) when it is there."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from sdformat_lsp.semantics import analyze

FIX = Path(__file__).resolve().parent / "fixtures"
CASES = {"gazebo_block_values.urdf": ["220 210 175 1"], "gazebo_block_values_fixed.urdf": []}


def _errors(path: Path) -> list[str]:
    text = path.read_text()
    return [text[d.span.start : d.span.end] for d in analyze(text, str(path)).diagnostics if d.is_error]


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_bad_value_in_a_gazebo_block_is_an_error_on_it(name):
    assert _errors(FIX / name) == CASES[name]


def test_the_message_names_the_type_and_the_consequence():
    path = FIX / "gazebo_block_values.urdf"
    (d,) = [d for d in analyze(path.read_text(), str(path)).diagnostics if d.is_error]
    assert "<diffuse> (color)" in d.message and "between 0 and 1" in d.message and "does not load" in d.message


@pytest.mark.parametrize("name", sorted(CASES))
def test_libsdformat_agrees(name, urdf_oracle):
    out = json.loads(subprocess.run([urdf_oracle, str(FIX / name)], capture_output=True, text=True, timeout=60).stdout)
    assert bool(out["errors"]) == bool(CASES[name]), out["errors"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_libsdformat_main_agrees(name):
    """`gz sdf --check` of libsdformat main: SDF_CHECK names a program printing "Valid." (exit 0) or errors."""
    import os

    checker = os.environ.get("SDF_CHECK")
    if not checker or not os.path.exists(checker):
        pytest.skip("SDF_CHECK does not name libsdformat main's check")
    r = subprocess.run([checker, str(FIX / name)], capture_output=True, text=True, timeout=60)
    assert (r.returncode != 0) == bool(CASES[name]), r.stdout + r.stderr
