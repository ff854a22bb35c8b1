"""Features over <include>: document links, the include hover, completion, references and rename at the file boundary."""

from __future__ import annotations

from pathlib import Path

import pytest

from sdformat_lsp.features import (
    Location,
    RenameError,
    complete,
    definition,
    document_links,
    hover,
    offered_frames,
    prepare_rename,
    references,
    rename,
    rename_refusal,
)
from sdformat_lsp.semantics.analysis import Analysis, Options, analyze

from .util import find, find_span, spanned

GRIPPER = """<?xml version="1.0"?>
<sdf version="1.12">
  <model name="gripper">
    <link name="palm"/>
    <frame name="tip" attached_to="palm">
      <pose relative_to="palm">0 0 0.1 0 0 0</pose>
    </frame>
  </model>
</sdf>
"""

ROBOT = """<?xml version="1.0"?>
<sdf version="1.12">
  <model name="robot">
    <link name="base"/>
    <include>
      <uri>model://gripper</uri>
      <name>hand</name>
      <pose relative_to="base">0 0 1 0 0 0</pose>
    </include>
    <include merge="true">
      <uri>parts/gripper</uri>
      <name>flat</name>
      <pose>0 2 0 0 0 0</pose>
    </include>
    <include>
      <uri>model://nowhere</uri>
    </include>
    <frame name="grasp" attached_to="hand::tip"/>
    <frame name="pad" attached_to="tip"/>
    <frame name="new" attached_to="base"/>
  </model>
</sdf>
"""


def _model_dir(root: Path, text: str = GRIPPER, name: str = "gripper") -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "model.config").write_text(
        f'<model><name>{name}</name><sdf version="1.12">model.sdf</sdf></model>', encoding="utf-8"
    )
    (d / "model.sdf").write_text(text, encoding="utf-8")
    return d / "model.sdf"


@pytest.fixture
def robot(tmp_path: Path) -> tuple[Analysis, Path]:
    gripper = _model_dir(tmp_path / "models")
    _model_dir(tmp_path / "parts")
    path = tmp_path / "robot.sdf"
    path.write_text(ROBOT, encoding="utf-8")
    a = analyze(
        ROBOT, str(path), Options(resource_paths=(str(tmp_path / "empty"), str(tmp_path / "models")), schema=False)
    )
    return a, gripper


# -- document links ---------------------------------------------------------------


def test_each_resolved_uri_links_to_the_model_file(robot, tmp_path: Path) -> None:
    a, gripper = robot
    links = document_links(a)
    assert [(spanned(ROBOT, l.span), l.path) for l in links] == [
        ("model://gripper", str(gripper)),
        ("parts/gripper", str(tmp_path / "parts" / "gripper" / "model.sdf")),
    ]  # model://nowhere has no link
    assert "model.config" in links[0].tooltip


def test_a_path_to_a_file_links_to_that_file_and_missing_files_do_not_link(tmp_path: Path) -> None:
    gripper = _model_dir(tmp_path)
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "model.config").write_text(
        '<model><sdf version="1.12">gone.sdf</sdf></model>', encoding="utf-8"
    )
    doc = ROBOT.replace("model://gripper", "gripper/model.sdf").replace("parts/gripper", "broken")
    a = analyze(doc, str(tmp_path / "robot.sdf"), Options(schema=False))
    assert [(spanned(doc, l.span), l.path) for l in document_links(a)] == [("gripper/model.sdf", str(gripper))]
    # without a path nothing is resolved, so nothing links
    assert document_links(analyze(doc, None, Options(schema=False))) == []


# -- hover ------------------------------------------------------------------------


def test_hover_on_the_include_says_what_it_brings_in(robot, tmp_path: Path) -> None:
    a, gripper = robot
    for where in (
        find(ROBOT, "<include>\n      <uri>model://gripper") + 2,
        find(ROBOT, "model://gripper") + 3,
        find(ROBOT, "<name>hand") + 7,
        find(ROBOT, "<name>hand") + 2,
    ):
        h = hover(a, where)
        assert h is not None
        assert f"File: `{gripper}`" in h.text
        assert f"found in the search directory `{tmp_path / 'models'}`" in h.text
        assert '`<sdf version="1.12">model.sdf</sdf>`' in h.text
        assert "Model `hand` (named `gripper` in its file" in h.text
        assert "- `hand::palm` (link): xyz `0 0 1` rpy `0 0 0`" in h.text
        assert "- `hand::tip` (frame): xyz `0 0 1.1` rpy `0 0 0`" in h.text
        assert "__model__`" not in h.text.split("Frames it offers")[1].split("):", 1)[1]  # no alias rows
    assert spanned(ROBOT, hover(a, find(ROBOT, "model://gripper") + 3).span) == "model://gripper"
    assert spanned(ROBOT, hover(a, find(ROBOT, "<name>hand") + 7).span) == "hand"
    assert spanned(ROBOT, hover(a, find(ROBOT, "<include>\n      <uri>model://gripper") + 2).span) == "include"
    plain = hover(a, find(ROBOT, "model://gripper") + 3, markdown=False)
    assert plain is not None and "`" not in plain.text and "hand::tip (frame): xyz 0 0 1.1" in plain.text


def test_hover_on_a_merged_include_names_its_frames_directly(robot, tmp_path: Path) -> None:
    a, _ = robot
    h = hover(a, find(ROBOT, "parts/gripper") + 1)
    assert h is not None
    assert f"found next to this file (relative to `{tmp_path}`)" in h.text
    assert "merged into model `robot`" in h.text
    assert "- `palm` (link): xyz `0 2 0`" in h.text and "- `tip` (frame): xyz `0 2 0.1`" in h.text
    assert "_merged__" not in h.text


def test_the_frame_view_lists_what_a_merged_include_brings_in(robot) -> None:
    """The 3D view and its tree (sdformat/frames) left out everything an <include merge="true"> brings in: PX4's
    x500 (a merge of x500_base) was one frame and no visual. Its links and frames are listed in the model they
    joined, once each, with the poses check --frames gives."""
    from sdformat_lsp.features.frame_view import frame_view

    a, _ = robot
    view = frame_view(a)
    assert view is not None
    names = [e.name for e in view.frames]
    assert names.count("palm") == 1 and names.count("tip") == 1, names
    assert not [n for n in names if n.startswith("_merged__")], names
    by = {e.name: e for e in view.frames}
    assert by["palm"].pose.p == pytest.approx((0, 2, 0)) and by["tip"].pose.p == pytest.approx((0, 2, 0.1))
    assert by["palm"].parent == 0 and by["hand"].kind == "model"  # the nested (not merged) include as before


def test_hover_on_an_unresolved_include_lists_where_it_was_searched(robot, tmp_path: Path) -> None:
    a, _ = robot
    h = hover(a, find(ROBOT, "model://nowhere") + 2)
    assert h is not None
    assert "Not found." in h.text
    assert f"- `{tmp_path / 'empty'}`\n- `{tmp_path / 'models'}`" in h.text
    assert "resourcePaths" in h.text


def test_hover_on_a_big_model_lists_a_handful_with_poses(tmp_path: Path) -> None:
    frames = "\n".join(
        f'    <frame name="f{i:03d}" attached_to="L"><pose>{i} 0 0 0 0 0</pose></frame>' for i in range(100)
    )
    _model_dir(tmp_path, f'<sdf version="1.12"><model name="big"><link name="L"/>\n{frames}\n</model></sdf>', "big")
    doc = '<sdf version="1.12"><world name="w"><include><uri>big</uri></include></world></sdf>'
    a = analyze(doc, str(tmp_path / "w.sdf"), Options(schema=False))
    h = hover(a, find(doc, "<uri>big") + 6)
    assert h is not None
    assert "Frames it offers (101; poses relative to `world`)" in h.text
    assert "- `big::f006` (frame): xyz `6 0 0`" in h.text and "f007` (frame)" not in h.text
    assert "`big::f007`" in h.text and "and 69 more" in h.text  # 8 with poses, 24 names, the rest counted
    assert len(h.text) < 2000


def test_offered_frames_include_nested_models(tmp_path: Path) -> None:
    _model_dir(
        tmp_path,
        '<sdf version="1.12"><model name="a"><link name="L"/><model name="n"><link name="K"/></model></model></sdf>',
        "a",
    )
    doc = '<sdf version="1.12"><model name="m"><link name="B"/><include><uri>a</uri><name>x</name></include></model></sdf>'
    a = analyze(doc, str(tmp_path / "m.sdf"), Options(schema=False))
    (rec,) = a.includes
    assert [n for n, _ in offered_frames(a, rec)] == ["x::L", "x::n", "x::n::K"]


# -- completion ---------------------------------------------------------------------


def test_completion_offers_the_included_names_and_the_merged_ones_directly(robot) -> None:
    a, _ = robot
    at = find(ROBOT, 'name="new" attached_to="base"', len('name="new" attached_to="'))
    labels = {i.label for i in complete(a, at).items}
    assert {"hand", "hand::palm", "hand::tip", "hand::__model__"} <= labels
    assert {"palm", "tip"} <= labels  # merged: no prefix
    assert not any("_merged__" in l for l in labels)
    detail = next(i.detail for i in complete(a, at).items if i.label == "hand::tip")
    assert "attached to hand::palm" in detail and "xyz 0 0 1.1" in detail


# -- definition, references, rename ------------------------------------------------------


def test_definition_and_references_of_an_included_frame(robot) -> None:
    a, gripper = robot
    use = find_span(ROBOT, 'attached_to="hand::tip"', "tip")
    decl = Location(str(gripper), find_span(GRIPPER, '"tip"', "tip"))
    assert definition(a, use.start) == [decl]
    assert references(a, use.start) == [decl, Location(None, use)]
    assert references(a, use.start, include_declaration=False) == [Location(None, use)]
    merged = find_span(ROBOT, 'attached_to="tip"', "tip")
    (tip,) = definition(a, merged.start)
    assert tip.path == str(Path(gripper).parents[2] / "parts" / "gripper" / "model.sdf")
    assert references(a, merged.start) == [tip, Location(None, merged)]


def test_rename_stops_at_the_file_boundary_and_says_where_to_go(robot) -> None:
    a, gripper = robot
    use = find_span(ROBOT, 'attached_to="hand::tip"', "tip").start
    assert prepare_rename(a, use) is None
    with pytest.raises(RenameError) as caught:
        rename(a, use, "finger")
    assert caught.value.message == f"'hand::tip' is defined in {gripper}; open that file to rename it"
    assert caught.value.path == str(gripper)
    refusal = rename_refusal(a, use)
    assert refusal is not None and refusal.path == str(gripper)
    # a merged name, the same
    merged = find_span(ROBOT, 'attached_to="tip"', "tip").start
    with pytest.raises(RenameError, match=r"^'tip' is defined in .*parts.gripper.model\.sdf; open that file"):
        rename(a, merged, "finger")
    # the included model is renamed through its <name>, here
    edits = rename(a, find_span(ROBOT, 'attached_to="hand::tip"', "hand").start, "fist")
    assert sorted(spanned(ROBOT, e.span) for e in edits) == ["hand", "hand"]
    assert rename_refusal(a, find_span(ROBOT, 'attached_to="hand::tip"', "hand").start) is None
    # a refusal for other reasons has no path
    other = rename_refusal(a, find(ROBOT, "0 0 1 0 0 0"))
    assert other is not None and other.path is None


def test_an_include_without_name_is_renamed_by_giving_it_one(tmp_path: Path) -> None:
    gripper = _model_dir(tmp_path)
    doc = '<sdf version="1.12"><model name="m"><link name="B"/><include><uri>gripper</uri></include><frame name="f" attached_to="gripper::tip"/></model></sdf>'
    a = analyze(doc, str(tmp_path / "m.sdf"), Options(schema=False))
    with pytest.raises(RenameError) as caught:
        rename(a, find_span(doc, '"gripper::tip"', "gripper").start, "hand")
    assert (
        caught.value.message
        == f"'gripper' is the name the included model has in {gripper}; give its <include> a <name> to rename it in this file"
    )
