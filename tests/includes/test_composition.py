"""Frames of composed models as libsdformat resolves them (issue 10, classes A-G; issue 9, classes 5 and 6).

Each fixture in ``fixtures/composition`` is a minimal case; the table says
what libsdformat (main branch, by its source) reports and which link each
frame is attached to, as ``check --frames`` prints them. The same files are
compared with libsdformat 12 when the oracle can be built
(``test_fixtures_agree_with_libsdformat``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from sdformat_lsp.cli import load_file
from sdformat_lsp.diagnostics import Severity
from sdformat_lsp.semantics import Options
from sdformat_lsp.semantics.includes.resolver import IncludeCache
from sdformat_lsp.semantics.includes.resources import ENV_VARS

ROOT = Path(__file__).resolve().parents[2]
FIX = Path(__file__).resolve().parent / "fixtures" / "composition"
MODELS = FIX / "models"

# file -> (error codes, {frame as check --frames names it: the link it is attached to})
CASES = {
    # A. a model nested in a static model is not static: its own canonical link, or MODEL_WITHOUT_LINK
    "a_nested_in_static.sdf": (
        (),
        {"inner": "inner::L", "inner::F": "inner::L", "G": "inner::L", "__model__": "__model__"},
    ),
    "a_nested_without_link.sdf": (("MODEL_WITHOUT_LINK",), {}),
    "a_include_static_shelf.sdf": (
        (),
        {
            "room::shelf::book": "room::shelf::book::cover",
            "room::shelf::book::spine": "room::shelf::book::cover",
            "on_book": "room::shelf::book::cover",
            "room::shelf": "room::shelf::__model__",
        },
    ),
    "a_include_static_false.sdf": (("MODEL_WITHOUT_LINK",), {}),
    "a_include_static_true.sdf": ((), {"movable_empty::F": "movable_empty::__model__"}),
    # B. static wins over canonical_link
    "b_static_canonical.sdf": ((), {"F": "__model__"}),
    "b_static_canonical_joint.sdf": ((), {"m": "m::__model__"}),
    # a nested model's canonical_link may name a frame: libsdformat's graph attaches the model to it
    "b_nested_canonical_frame.sdf": ((), {"n": "n::L", "n::G": "n::L"}),
    # C. no link: the canonical link of the first nested model, static or not
    "c_first_nested_static.sdf": ((), {"F": "s::L", "__model__": "s::L", "s": "s::__model__"}),
    # D. a merged model's canonical link counts the links of its own merges, in element order
    "d_merge_chain.sdf": ((), {"F": "AL", "__model__": "AL", "AF": "AL"}),
    "d_merge_chain_joint.sdf": (("JOINT_PARENT_SAME_AS_CHILD",), {"F": "AL"}),
    # E. merged names collide with the including model's names
    "e_merged_link_vs_frame.sdf": (("DUPLICATE_NAME",), {}),
    "e_merged_model_vs_model.sdf": (("DUPLICATE_NAME",), {}),
    # F. parent/child links of joints are checked in top-level models only
    "f_nested_joint_inline.sdf": ((), {"wrapper::inner::A": "wrapper::inner::L"}),
    "f_nested_include.sdf": ((), {"wrapper::same_link::B": "wrapper::same_link::L"}),
    "f_top_include.sdf": (("JOINT_PARENT_SAME_AS_CHILD",), {}),
    # G. element order: an inline model before an include, an include before an inline model inside a merged model
    "g_inline_before_include.sdf": ((), {"__model__": "n::NL", "F": "n::NL"}),
    "g_merged_include_first.sdf": ((), {"__model__": "a::AL", "F": "a::AL"}),
    # issue 9 class 5: a joint parent libsdformat checks only at the top level
    "c5_iris_nested.sdf": ((), {"vehicle::iris": "vehicle::iris::base_link"}),
    "c5_iris_top.sdf": (("JOINT_PARENT_LINK_INVALID",), {}),
    # issue 9 class 6: where a merge may go
    "c6_merge_at_top.sdf": (("MERGE_INCLUDE_UNSUPPORTED",), {}),
    "c6_merge_in_nested.sdf": ((), {"n::AF": "n::AL", "n::F": "n::AL", "n": "n::NL"}),
    # SDFormat 1.10 merges into worlds; a world takes no links: the merge is the one problem, nothing downstream
    "c6_world_merge_links.sdf": (("MERGE_INCLUDE_UNSUPPORTED",), {}),
    # an include's <static> overrides the model's before libsdformat loads it, merged or not, nested or not;
    # merged joints are checked again in the top-level model they joined (static_pair: static, a joint L1 -> F
    # valid alone; movable_pair: the same, not static, JOINT_PARENT_SAME_AS_CHILD alone)
    "s_merge_static_false.sdf": (("JOINT_PARENT_SAME_AS_CHILD",), {"F": "L1"}),
    "s_merge_static_true.sdf": (("JOINT_PARENT_SAME_AS_CHILD",), {"F": "L1"}),
    "s_merge_static_true_nested.sdf": ((), {"n::F": "n::L1"}),
    "s_model_static_false.sdf": ((), {"static_pair::F": "static_pair::L1"}),
    "s_nested_static_false.sdf": ((), {"wrapper::static_pair::F": "wrapper::static_pair::L1"}),
    "s_top_static_false.sdf": (("JOINT_PARENT_SAME_AS_CHILD",), {"static_pair::F": "static_pair::L1"}),
    "s_top_static_true.sdf": ((), {"movable_pair::F": "movable_pair::__model__"}),
}
# libsdformat 12 reads SDFormat 1.9 at most and refuses every merge into a world
NOT_FOR_THE_ORACLE = {"c6_world_merge_links.sdf"}
REALISTIC = FIX / "realistic"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)


def run(name: str):
    return load_file(str(FIX / name), Options(resource_paths=(str(MODELS),), include_cache=IncludeCache()))


@pytest.mark.parametrize("name", sorted(CASES))
def test_verdict_and_attached_links(name):
    codes, attached = CASES[name]
    a = run(name)
    assert sorted({d.code for d in a.diagnostics if d.is_error}) == sorted(codes), [
        (d.code, d.message) for d in a.diagnostics
    ]
    frames = {f["name"]: f["attached_to"] for f in a.frames()}
    for frame, link in attached.items():
        assert frames.get(frame) == link, (frame, frames)


def test_every_fixture_is_in_the_table():
    assert sorted(p.name for p in FIX.glob("*.sdf")) == sorted(CASES)


def test_nested_only_problems_are_said_not_refused():
    """What libsdformat loads but cannot be right: a warning inline, an information on the include."""
    a = run("f_nested_joint_inline.sdf")
    (w,) = [d for d in a.diagnostics if d.code == "JOINT_PARENT_SAME_AS_CHILD"]
    assert w.severity == Severity.WARNING and "only in top-level models" in w.message
    a = run("f_nested_include.sdf")
    (i,) = [d for d in a.diagnostics if d.code == "JOINT_PARENT_SAME_AS_CHILD"]
    assert i.severity == Severity.INFORMATION and "model.sdf" in i.message and i.related
    a = run("c5_iris_nested.sdf")
    (i,) = [d for d in a.diagnostics if d.code == "JOINT_PARENT_LINK_INVALID"]
    assert i.severity == Severity.INFORMATION


def test_static_override_is_reported_on_the_include():
    a = run("a_include_static_false.sdf")
    (d,) = [d for d in a.diagnostics if d.is_error]
    assert a.text[d.span.start : d.span.end] == "static" and "<static>false</static>" in d.message


def test_static_override_errors_say_the_include_made_them():
    """The included file is valid alone: the error is the include's, and it says which <static> made it."""
    a = run("s_top_static_false.sdf")
    (d,) = [d for d in a.diagnostics if d.is_error]
    assert "with this include's <static>false</static>" in d.message
    a = run("s_merge_static_true.sdf")
    (d,) = [d for d in a.diagnostics if d.is_error]
    assert a.text[d.span.start : d.span.end] == "model://movable_pair" and "static" in d.message
    assert d.related and d.related[0].path.endswith("movable_pair/model.sdf")
    assert not load_file(str(MODELS / "static_pair" / "model.sdf"), Options()).has_errors


def test_merged_duplicates_are_reported_once_on_the_include():
    a = run("e_merged_link_vs_frame.sdf")
    (d,) = [d for d in a.diagnostics if d.is_error]
    assert a.text[d.span.start : d.span.end] == "model://b" and "'BL'" in d.message
    assert d.related and a.text[d.related[0].span.start : d.related[0].span.end] == "BL"
    assert "_merged__" not in d.message


def test_merged_entities_are_posed_in_the_model_they_joined():
    """A merged link's pose is relative to the including model, not to the merged model's proxy frame."""
    a = run("d_merge_chain.sdf")
    node = a.root_scope.frames["AL"]
    assert a.pose_in_scope(node).as_list() == pytest.approx([1, 0, 0.24, 0, 0, 0])


def _compare_module():
    spec = importlib.util.spec_from_file_location("sdformat_oracle_composed", ROOT / "scripts" / "oracle_composed.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["sdformat_oracle_composed"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_fixtures_agree_with_libsdformat(oracle):
    mod = _compare_module()
    problems = [
        p for name in sorted(set(CASES) - NOT_FOR_THE_ORACLE) for p in mod.compare(str(FIX / name), oracle, str(MODELS))
    ]
    assert not problems, problems


def _realistic(path: Path):
    return load_file(str(path), Options(resource_paths=(str(REALISTIC / "models"),), include_cache=IncludeCache()))


def test_realistic_library_with_a_drone():
    """Static shelves of books nested in a static room; a PX4-style drone merging a camera and a base that merges its frame."""
    a = _realistic(REALISTIC / "library.world")
    assert not [d for d in a.diagnostics if d.severity <= Severity.WARNING], [
        (d.code, d.message) for d in a.diagnostics
    ]
    frames = {f["name"]: f for f in a.frames()}
    # each book is its own body, though its shelf and the room are static
    assert frames["book_to_scan"]["attached_to"] == "reading_room::shelf_b::book_1::cover"
    assert frames["reading_room::shelf_a::book_2"]["attached_to"] == "reading_room::shelf_a::book_2::cover"
    # merges in element order: the camera comes first, so it carries the drone's model frame
    assert frames["drone"]["attached_to"] == "drone::camera_link"
    assert frames["drone::base_link"]["pose"] == pytest.approx([0, 0, 0.74, 0, 0, 0])
    assert frames["drone::camera_link"]["pose"] == pytest.approx([0.12, 0.03, 0.742, 0, 0, 0])


@pytest.mark.parametrize("name", ["x500_base", "x500", "mono_cam", "x500_mono_cam", "shelf"])
def test_realistic_models_are_valid_alone(name):
    a = _realistic(REALISTIC / "models" / name / "model.sdf")
    assert not a.has_errors, [(d.code, d.message) for d in a.diagnostics]


def test_realistic_documents_agree_with_libsdformat(oracle):
    mod = _compare_module()
    files = [REALISTIC / "library.world", *sorted((REALISTIC / "models").glob("*/model.sdf"))]
    problems = [p for f in files for p in mod.compare(str(f), oracle, str(REALISTIC / "models"))]
    assert not problems, problems


def test_include_hover_never_lists_merge_proxy_frames():
    """The frames a merge brings, through merges of its own too, by their names; never ``_merged__…`` proxies."""
    from sdformat_lsp.features import hover

    a = run("d_merge_chain.sdf")
    offset = a.text.index("model://b")
    text = hover(a, offset, markdown=False).text
    assert "_merged__" not in text
    for name in ("AL", "AF", "BL", "bn"):
        assert name in text, (name, text)


def test_hover_on_a_merged_link_shows_its_pose_in_the_including_model():
    from sdformat_lsp.features.hover import frame_hover_text

    a = run("d_merge_chain.sdf")
    text = frame_hover_text(a, a.root_scope.frames["AL"], markdown=False)
    assert "xyz: 1 0 0.24" in text and "Attached to: AL" in text
    assert "[merged model" in text and "_merged__" not in text
