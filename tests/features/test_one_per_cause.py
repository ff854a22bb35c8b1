"""One diagnostic per distinct cause, with the others as related locations (issue 24).

* a missing model included again and again: one error per distinct URI (osrf/subt: 459 for 12 models);
* Gazebo classic's ``<script>Gazebo/WoodPallet</script>``: one error per distinct material name (flocking
  worlds: two per use), saying what gz-sim does with the fix it offers;
* a <visual> and a <collision> sharing a name, link after link: one error, saying that only
  ``gz sdf --check`` compares names across types.

Each fixture's verdict was taken from libsdformat 12 (``../shared/oracle``): ``test_the_oracle_refuses_them``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from sdformat_lsp.cli import load_file
from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.semantics.includes.resolver import IncludeCache
from sdformat_lsp.semantics.includes.resources import ENV_VARS

HERE = Path(__file__).resolve().parent / "causes"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)


def _load(name: str):
    return load_file(str(HERE / name), Options(include_cache=IncludeCache()))


def _lines(a, spans) -> list[int]:
    return [a.lines.position(s.start, "utf-32")[0] + 1 for s in spans]


def test_missing_models_are_one_error_per_uri():
    a = _load("missing_models.world")
    errors = [d for d in a.diagnostics if d.is_error]
    assert [(d.code, a.text[d.span.start : d.span.end]) for d in errors] == [
        ("URI_LOOKUP", "model://tunnel_tile_1"),
        ("URI_LOOKUP", "model://tunnel_tile_5"),
    ], errors
    one, five = errors
    assert "here and in 2 more includes of it" in one.message and _lines(a, [r.span for r in one.related]) == [6, 8]
    assert "here and in 1 more include of it" in five.message and _lines(a, [r.span for r in five.related]) == [9]
    assert "libsdformat refuses the file without it" in one.message and "--resource-path" in one.message


def test_material_scripts_written_as_text_are_one_error_per_name_with_the_fix():
    a = _load("material_scripts.world")
    errors = sorted((d for d in a.diagnostics if d.is_error), key=lambda d: d.span.start)
    assert [len(d.related) for d in errors] == [2, 0], errors
    pallet, grey = errors
    assert "<script>Gazebo/WoodPallet</script>" in pallet.message and "gz sim stops" in pallet.message
    assert "its own copy of Gazebo classic's gazebo.material" in pallet.message
    assert _lines(a, [pallet.span] + [r.span for r in pallet.related]) == [10, 20, 30]
    (fix,) = pallet.fixes
    fixed = a.text[: fix.span.start] + fix.new_text + a.text[fix.span.end :]
    assert (
        "<script><uri>file://media/materials/scripts/gazebo.material</uri><name>Gazebo/WoodPallet</name></script>"
        in fixed
    )
    # fixed there, the other two uses are still one error
    again = [d for d in analyze(fixed, None).diagnostics if "WoodPallet" in d.message]
    assert len(again) == 1 and len(again[0].related) == 1


def test_a_visual_and_a_collision_sharing_a_name_in_every_link_is_one_error():
    a = _load("name_clashes.sdf")
    (d,) = [d for d in a.diagnostics if d.is_error]
    assert d.code == "PARSING_ERROR" and "here and in 2 more places" in d.message
    assert "only the check compares them" in d.message and "rename one of them" in d.message
    # the first link's other 'body', then the other links' pairs
    assert _lines(a, [d.span] + [r.span for r in d.related]) == [7, 6, 12, 17]


def test_the_oracle_refuses_them(oracle):
    for name, codes in [
        ("missing_models.world", {"URI_LOOKUP"}),
        ("material_scripts.world", {"ELEMENT_INVALID", "ELEMENT_MISSING"}),
        ("name_clashes.sdf", {"CHECK_recursiveSiblingUniqueNames"}),
    ]:
        out = subprocess.run([oracle, "--check", str(HERE / name)], capture_output=True, text=True, timeout=60)
        got = json.loads(out.stdout)
        assert got["check"]["ign_sdf_check_valid"] is False and codes <= {e["code"] for e in got["errors"]}, name
