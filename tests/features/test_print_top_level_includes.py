"""`print` expands an <include> of a file holding only a <light> (``model://sun``, in nearly every
Gazebo world) or an <actor>, as libsdformat does (parser.cc: the first <model>, else <actor>, else
<light>; the include's <name> renames it and its <pose> replaces the element's). Issue 24."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from sdformat_lsp.convert.to_sdf import urdf_to_sdf
from sdformat_lsp.printing import printed
from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.xml import parse

HERE = Path(__file__).resolve().parent / "top_level_includes"
OPTIONS = Options(resource_paths=(str(HERE / "models"),))


def _printed(version=None) -> str:
    path = HERE / "world.sdf"
    return printed(analyze(path.read_text(), str(path), OPTIONS), version, urdf_to_sdf=urdf_to_sdf)


def test_lights_and_actors_are_expanded_named_and_placed():
    out = _printed()
    world = parse(out).root.child("world")
    assert world.child("include") is None
    lights = {el.get("name"): el for el in world.children_named("light")}
    assert set(lights) == {"sun", "sun2"}
    assert [p.text for p in lights["sun"].children_named("pose")] == ["0 0 10 0 0 0"]  # its own pose, kept
    assert [p.text for p in lights["sun2"].children_named("pose")] == ["1 2 3 0 0 0"]  # the include's, instead
    (actor,) = world.children_named("actor")
    assert actor.get("name") == "bob" and [p.text for p in actor.children_named("pose")] == ["0 0 1 0 0 0"]
    again = analyze(out, str(HERE / "printed.sdf"))
    assert not [d for d in again.diagnostics if d.is_error], again.diagnostics


def test_libsdformat_reads_the_printed_world(oracle, tmp_path):
    printed_file = tmp_path / "printed.sdf"
    printed_file.write_text(_printed("1.9"))
    out = json.loads(subprocess.run([oracle, str(printed_file)], capture_output=True, text=True, timeout=60).stdout)
    assert not out["errors"], out["errors"]


def test_a_world_with_errors_is_printed_with_them_on_stderr(tmp_path):
    """As `gz sdf -p`: the document is printed, an include that found nothing left out as libsdformat
    leaves it, and each error on stderr after it; exit 1 (gz exits 0: docs/deviations.md)."""
    import subprocess
    import sys

    doc = tmp_path / "w.sdf"
    doc.write_text((HERE / "world.sdf").read_text().replace("<uri>model://walker</uri>", "<uri>model://nowhere</uri>"))
    r = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "print", "--resource-path", str(HERE / "models"), str(doc)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 1
    world = parse(r.stdout).root.child("world")
    assert (
        world.child("include") is None and len(world.children_named("light")) == 2 and not world.children_named("actor")
    )
    assert r.stderr.startswith(f"{doc}:") and "error[URI_LOOKUP]" in r.stderr and "model://nowhere" in r.stderr
