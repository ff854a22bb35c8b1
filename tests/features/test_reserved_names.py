"""Reserved names of what is not a frame (issue 24): a world named `world`; a collision, visual,
light, sensor, particle emitter or physics named `world` or `__x__`; `::` in any name from 1.8 on.
libsdformat refuses each file; so do we, once per name, on the name. Each fixture's verdict is
checked against libsdformat 12 (``../shared/oracle``) when it is there."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from sdformat_lsp.semantics import analyze

HERE = Path(__file__).resolve().parent / "reserved"
# fixture -> the names we refuse (in document order)
EXPECTED = {
    "world_named_world.sdf": ["world"],
    "entities.sdf": ["__fast__", "__sun__", "world", "__look__", "__imu__", "__lamp__", "__dust__"],
    "double_colon.sdf": ["a::b"],
    "double_colon_1_7.sdf": [],
}


def _reserved(path: Path) -> list[str]:
    text = path.read_text()
    a = analyze(text, str(path))
    return [text[d.span.start : d.span.end] for d in a.diagnostics if d.code == "RESERVED_NAME" and d.is_error]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reserved_names_are_refused_where_libsdformat_refuses_them(name):
    assert _reserved(HERE / name) == EXPECTED[name]


def test_the_message_says_the_consequence_and_the_fix():
    text = (HERE / "world_named_world.sdf").read_text()
    (d,) = [d for d in analyze(text, "w.sdf").diagnostics if d.code == "RESERVED_NAME"]
    assert "<world>" in d.message and "does not load" in d.message and "rename" in d.message


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_libsdformat_agrees(name, oracle):
    out = json.loads(subprocess.run([oracle, str(HERE / name)], capture_output=True, text=True, timeout=60).stdout)
    theirs = [e for e in out["errors"] if e["code"] == "RESERVED_NAME"]
    assert bool(theirs) == bool(EXPECTED[name]), theirs
    for reserved in EXPECTED[name]:
        if "::" not in reserved:  # '::' is one message for the file, without the name
            assert any(f"[{reserved}]" in e["message"] for e in theirs), (reserved, theirs)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_libsdformat_main_agrees(name):
    """`gz sdf --check` of libsdformat main: SDF_CHECK names a program printing "Valid." (exit 0) or errors."""
    import os

    checker = os.environ.get("SDF_CHECK")
    if not checker or not os.path.exists(checker):
        pytest.skip("SDF_CHECK does not name libsdformat main's check")
    r = subprocess.run([checker, str(HERE / name)], capture_output=True, text=True, timeout=60)
    assert (r.returncode != 0) == bool(EXPECTED[name]), r.stdout + r.stderr
    for reserved in EXPECTED[name]:
        if "::" not in reserved:
            assert f"[{reserved}] is reserved" in r.stdout + r.stderr, reserved


@pytest.mark.parametrize(
    "plugin",
    [
        '<plugin name="gz::sim::systems::Physics" filename="gz-sim-physics-system"/>',
        "<plugin filename='x' name='a::b'><joint_name name=\"j::k\">j</joint_name></plugin>",
    ],
)
def test_names_on_plugins_are_free_and_never_hide_one_elsewhere(plugin):
    """A plugin's name, and any name inside a plugin, is not judged; one on another element
    still is, before the plugin, after it, or with nothing else that looks reserved."""
    for where, expected in (("", []), ("before", ["__c__"]), ("after", ["x::y"])):
        model = '<model name="m"><link name="l"><collision name="__c__"/></link></model>' if where == "before" else ""
        late = '<light name="x::y" type="point"/>' if where == "after" else ""
        text = (
            f'<?xml version="1.0"?>\n<sdf version="1.9">\n<world name="w">\n{model}{plugin}\n{late}</world>\n</sdf>\n'
        )
        a = analyze(text, "w.sdf")
        found = [text[d.span.start : d.span.end] for d in a.diagnostics if d.code == "RESERVED_NAME"]
        assert found == expected, (where, [(d.code, d.message) for d in a.diagnostics])
