"""Included files open in an editor: ``Options.open_documents`` wins over the disk, and the cache keys on its version."""

from __future__ import annotations

from pathlib import Path

from sdformat_lsp.semantics.analysis import Options, analyze
from sdformat_lsp.semantics.includes.resolver import IncludeCache, signature

GRIPPER = """<?xml version="1.0"?>
<sdf version="1.12">
  <model name="gripper">
    <link name="palm"/>
    <frame name="tip" attached_to="palm"><pose>0 0 0.1 0 0 0</pose></frame>
  </model>
</sdf>
"""

ROBOT = """<sdf version="1.12">
  <model name="robot">
    <link name="base"/>
    <include><uri>model://gripper</uri><name>hand</name></include>
    <frame name="grasp" attached_to="hand::tip"/>
  </model>
</sdf>
"""


def _models(tmp_path: Path) -> tuple[Path, Path]:
    d = tmp_path / "models" / "gripper"
    d.mkdir(parents=True)
    (d / "model.config").write_text(
        '<model><name>gripper</name><sdf version="1.12">model.sdf</sdf></model>', encoding="utf-8"
    )
    (d / "model.sdf").write_text(GRIPPER, encoding="utf-8")
    robot = tmp_path / "robot.sdf"
    robot.write_text(ROBOT, encoding="utf-8")
    return tmp_path / "models", d / "model.sdf"


class Buffers:
    """What an editor has open: path -> (text, version); counts the questions asked."""

    def __init__(self) -> None:
        self.open: dict[str, tuple[str, int]] = {}
        self.asked = 0

    def __call__(self, path: str) -> tuple[str, int] | None:
        self.asked += 1
        return self.open.get(path)


def _errors(a) -> list[str]:
    return [d.code for d in a.diagnostics if d.is_error]


def test_an_open_included_file_is_read_from_the_editor(tmp_path: Path) -> None:
    models, gripper = _models(tmp_path)
    buffers, cache = Buffers(), IncludeCache()
    options = Options(resource_paths=(str(models),), include_cache=cache, open_documents=buffers)
    path = str(tmp_path / "robot.sdf")
    assert _errors(analyze(ROBOT, path, options)) == []
    # unsaved edit: the frame is renamed in the buffer only
    buffers.open[str(gripper)] = (GRIPPER.replace('"tip"', '"tool"'), 1)
    a = analyze(ROBOT, path, options)
    assert _errors(a) == ["FRAME_ATTACHED_TO_INVALID"]
    (rec,) = a.includes
    assert rec.analysis is not None and "tool" in rec.analysis.text and rec.path == str(gripper)
    # the same version is served from the cache; a new version is analysed again
    misses = cache.misses
    assert _errors(analyze(ROBOT, path, options)) == ["FRAME_ATTACHED_TO_INVALID"] and cache.misses == misses
    buffers.open[str(gripper)] = (GRIPPER, 2)
    assert _errors(analyze(ROBOT, path, options)) == [] and cache.misses == misses + 1
    # a broken buffer is reported on the include, like a broken file
    buffers.open[str(gripper)] = (GRIPPER.replace('attached_to="palm"', 'attached_to="plam"'), 3)
    a = analyze(ROBOT, path, options)
    assert "FRAME_ATTACHED_TO_INVALID" in _errors(a)
    assert any(r.path == str(gripper) for d in a.diagnostics for r in d.related)
    # closing the buffer (unsaved edits dropped): the disk again
    del buffers.open[str(gripper)]
    assert _errors(analyze(ROBOT, path, options)) == []


def test_a_version_is_recorded_as_it_was_read(tmp_path: Path) -> None:
    """An edit that arrives while the included file is being analysed must not be taken as analysed."""
    models, gripper = _models(tmp_path)
    broken = GRIPPER.replace('attached_to="palm"', 'attached_to="plam"')
    calls = []

    def editing(path: str):
        if path != str(gripper):
            return None
        calls.append(path)
        # the first question reads version 1 (broken); the fix (version 2) arrives right after
        return (broken, 1) if len(calls) == 1 else (GRIPPER, 2)

    options = Options(resource_paths=(str(models),), include_cache=IncludeCache(), open_documents=editing)
    path = str(tmp_path / "robot.sdf")
    assert "FRAME_ATTACHED_TO_INVALID" in _errors(analyze(ROBOT, path, options))
    # the cache entry carries version 1, so the fixed text is read, not the stale analysis reused
    assert _errors(analyze(ROBOT, path, options)) == []


def test_signatures() -> None:
    assert signature("/nonexistent/x.sdf") == ("/nonexistent/x.sdf", -1, -1)
    assert signature("/x.sdf", lambda p: ("text", 7)) == ("/x.sdf", "open", 7)
    assert signature("/nonexistent/x.sdf", lambda p: None) == ("/nonexistent/x.sdf", -1, -1)


def test_records_say_where_the_file_was_found(tmp_path: Path) -> None:
    models, gripper = _models(tmp_path)
    a = analyze(ROBOT, str(tmp_path / "robot.sdf"), Options(resource_paths=(str(tmp_path / "elsewhere"), str(models))))
    (rec,) = a.includes
    assert rec.lookup is not None and rec.lookup.found_in == str(models)
    assert (
        rec.config is not None
        and rec.config.config == str(gripper.parent / "model.config")
        and rec.config.version == "1.12"
    )
    relative = ROBOT.replace("model://gripper", "models/gripper/model.sdf")
    (rec,) = analyze(relative, str(tmp_path / "robot.sdf"), Options()).includes
    assert rec.lookup.found_in == str(tmp_path) and rec.config is None and rec.path == str(gripper)


def test_invalidate_drops_what_depends_on_a_path_open_or_not(tmp_path: Path) -> None:
    models, gripper = _models(tmp_path)
    buffers, cache = Buffers(), IncludeCache()
    options = Options(resource_paths=(str(models),), include_cache=cache, open_documents=buffers)
    path = str(tmp_path / "robot.sdf")
    analyze(ROBOT, path, options)
    assert len(cache) == 1
    cache.invalidate(str(tmp_path / "unrelated.sdf"))
    assert len(cache) == 1
    cache.invalidate(str(gripper))
    assert len(cache) == 0
    buffers.open[str(gripper)] = (GRIPPER, 1)
    analyze(ROBOT, path, options)
    assert len(cache) == 1
    cache.invalidate(str(gripper))
    assert len(cache) == 0
