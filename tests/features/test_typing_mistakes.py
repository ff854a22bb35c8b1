"""Typing mistakes said where they are, once, with the fix (issue 24).

* an unknown element one edit or transposition away from one its parent reads is a warning
  with the rename as a quick fix; a farther guess, and names nobody reads, stay hints;
  namespaced elements (``drake:``) and plugin contents say nothing;
* a known element written where libsdformat does not read it (``<noise>`` directly in
  ``<air_pressure>``) is a warning naming where it belongs, with the wrap as a quick fix;
(misspelt end tags: test_end_tags.py). The fixtures' verdicts were taken from libsdformat 12 (``../shared/oracle``):
``test_the_oracle_agrees`` asks it again when it can be built.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from sdformat_lsp.diagnostics import Severity
from sdformat_lsp.semantics import analyze
from sdformat_lsp.spelling import one_edit

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "typing"


def _fixed(text: str, fix) -> str:
    return text[: fix.span.start] + fix.new_text + text[fix.span.end :]


def _said(a) -> list[tuple]:
    return [(d.code, d.severity, d.message) for d in a.diagnostics]


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("statik", "static", True),
        ("lnik", "link", True),
        ("modelx", "model", True),
        ("inertal", "inertial", True),
        ("link", "link", False),
        ("frame_id", "frame", False),
        ("lnki", "link", False),
        ("ab", "ba", True),
        ("", "a", True),
    ],
)
def test_one_edit_is_one_insertion_deletion_replacement_or_swap(a, b, expected):
    assert one_edit(a, b) is expected and one_edit(b, a) is expected


def test_typos_and_misplaced_elements_are_warnings_with_their_fix():
    text = (HERE / "wrong_parent.sdf").read_text()
    a = analyze(text, str(HERE / "wrong_parent.sdf"))
    # the motor plugin names a joint this model lacks: tests/plugins judges plugin parameters, not this test
    plugin = [(d.code, text[d.span.start : d.span.end]) for d in a.diagnostics if d.code.startswith("PLUGIN_")]
    assert plugin == [("PLUGIN_REFERENCE_INVALID", "rotor_0_joint")]
    shown = [d for d in a.diagnostics if d.severity <= Severity.INFORMATION and not d.code.startswith("PLUGIN_")]
    assert [(d.code, text[d.span.start : d.span.end]) for d in shown] == [
        ("ELEMENT_INCORRECT_TYPE", "statik"),
        ("ELEMENT_INCORRECT_TYPE", "noise"),
    ], shown
    statik, noise = shown
    assert statik.severity == Severity.WARNING and "did you mean <static>?" in statik.message
    assert "<static>false</static>" in _fixed(text, statik.fixes[0])
    assert (
        noise.severity == Severity.WARNING
        and "it belongs in <air_pressure><pressure>" in noise.message
        and "no effect" in noise.message
    )
    wrapped = _fixed(text, noise.fixes[0])
    assert re.search(r"<pressure><noise type=\"gaussian\">.*?</noise></pressure>", wrapped, re.S)
    # both fixes applied: nothing left to say (the altimeter's noise, in its place, was never in question)
    both = _fixed(wrapped, analyze(wrapped, None).diagnostics[0].fixes[0])
    assert [
        d
        for d in analyze(both, None).diagnostics
        if d.severity <= Severity.INFORMATION and not d.code.startswith("PLUGIN_")
    ] == []


def test_a_far_guess_and_an_unknown_name_stay_hints():
    text = '<sdf version="1.9"><model name="m"><link name="l"/><stattic_mode>1</stattic_mode><my_tool/></model></sdf>'
    unknown = [d for d in analyze(text, None).diagnostics if d.code == "ELEMENT_INCORRECT_TYPE"]
    assert [d.severity for d in unknown] == [Severity.HINT, Severity.HINT], unknown


def test_the_oracle_agrees(oracle):
    """libsdformat 12: the misplaced noise and the typo leave the model valid (main warns about both, as
    unknown elements it copies unread: parser.cc, "not defined in SDF. Copying...")."""
    out = subprocess.run(
        [oracle, "--check", str(HERE / "wrong_parent.sdf")], capture_output=True, text=True, timeout=60
    )
    assert json.loads(out.stdout)["check"]["ign_sdf_check_valid"] is True
