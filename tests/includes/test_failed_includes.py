"""A failed include is one diagnostic on the include; references into what it brings are not judged (issue 24).

``fixtures/failed/top.sdf`` (Drake's interface_api_test/top.sdf, reduced) names links of three includes:
a URDF whose links have no mass (libsdformat leaves them out when it converts the file, so the model
has no link), an SDFormat model with an error of its own, and a clean model. libsdformat 12 reports
MODEL_WITHOUT_LINK and the hand's joint, then every reference into them again, with the graph errors
that follow (38 errors, ``test_the_oracle_refuses_it_too``); we say each include's error once, naming
the links left out and why, and judge only the reference into the clean include.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from sdformat_lsp.cli import load_file
from sdformat_lsp.semantics import Options
from sdformat_lsp.semantics.includes.resolver import IncludeCache
from sdformat_lsp.semantics.includes.resources import ENV_VARS

FIX = Path(__file__).resolve().parent / "fixtures" / "failed"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)


def test_references_into_failed_includes_are_not_judged_whatever_the_format():
    a = load_file(str(FIX / "top.sdf"), Options(include_cache=IncludeCache()))
    said = [(d.code, a.text[d.span.start : d.span.end]) for d in a.diagnostics if d.is_error]
    assert said == [
        ("MODEL_WITHOUT_LINK", "arm.urdf"),
        ("JOINT_CHILD_LINK_INVALID", "hand.sdf"),
        ("FRAME_ATTACHED_TO_INVALID", "clean::bse"),
    ], said
    urdf = a.diagnostics[0]
    assert "leaves out URDF links without a positive mass" in urdf.message and "'L1'" in urdf.message
    assert [(r.path, r.message.split(":")[0]) for r in urdf.related] == [
        (str(FIX / "arm.urdf"), "link 'L1' has no <inertial>")
    ]
    assert "did you mean 'clean::base'" in a.diagnostics[-1].message  # a clean include: its names are all there


def test_the_oracle_refuses_it_too(oracle):
    out = json.loads(
        subprocess.run([oracle, "--check", str(FIX / "top.sdf")], capture_output=True, text=True, timeout=60).stdout
    )
    codes = {e["code"] for e in out["errors"]}
    assert (
        out["check"]["ign_sdf_check_valid"] is False
        and {"MODEL_WITHOUT_LINK", "JOINT_CHILD_LINK_INVALID", "FRAME_ATTACHED_TO_INVALID"} <= codes
    )
