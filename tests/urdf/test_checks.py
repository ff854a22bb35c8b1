"""URDF checks that agree with libsdformat: one fixture per class of problem libsdformat refuses.

Each fixture's expected codes are pinned here; with the oracle (libsdformat 12, ../shared/oracle) every
fixture's verdict (loads or not) is compared with libsdformat's.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from oracle_frames import run

from sdformat_lsp.cli import load_file
from sdformat_lsp.semantics import Options

FIX = Path(__file__).resolve().parent / "fixtures" / "checks"

EXPECTED = {
    "valid.urdf": set(),
    "valid_lenient_extension_values.urdf": set(),  # <static>maybe, <selfCollide>perhaps, <mu1>0.5abc: libsdformat reads them
    "inertia_impossible.urdf": {"LINK_INERTIA_INVALID"},
    "inertia_impossible_once_lumped.urdf": {"LINK_INERTIA_INVALID"},
    "names_collide_after_conversion.urdf": {"DUPLICATE_NAME"},
    "joint_parent_lumped_away.urdf": set(),  # a warning: libsdformat 12 refuses it, newer versions read it
    "joint_child_lumped_away.urdf": set(),
    "extension_not_a_number.urdf": {"ELEMENT_INVALID"},
    "extension_not_a_boolean.urdf": {"ELEMENT_INVALID"},
    "unreadable_doctype.urdf": {"FILE_READ"},
    "unreadable_joint_to_itself.urdf": {"JOINT_PARENT_SAME_AS_CHILD"},
    # xacro's output keeps xmlns:xacro; a .urdf file is read as URDF whatever it holds
    "xacro_namespace_only_is_checked.urdf": {"LINK_INERTIA_INVALID"},
    "xacro_leftovers_without_links.urdf": {"PARSING_ERROR"},
    "valid_xacro_leftovers.urdf": set(),
    # '::' in a name of the converted SDFormat 1.11: refused by libsdformat main (14.1+), read by 12
    "scoped_name_link.urdf": {"RESERVED_NAME"},
    "scoped_name_in_gazebo_block.urdf": {"RESERVED_NAME"},
    "valid_scoped_names_in_plugins.urdf": set(),
    # lumping leaves frames named after the joint and the link: refused by libsdformat main, read by 12
    "fixed_joint_named_like_its_child.urdf": {"DUPLICATE_NAME"},
    "frame_on_link_below_massless_link.urdf": {"FRAME_ATTACHED_TO_INVALID"},
    # the frames lumping leaves on a link that a massless link above drops: refused by main, read by 12;
    # reported once, as a consequence of the massless link (semantics/checks/dropped_links.py)
    "lumped_below_massless_link.urdf": {"LINK_INERTIA_INVALID"},
}


# refused by libsdformat 12 (the oracle), read by libsdformat's main branch, which this project follows: warned about
ONLY_12_REFUSES = {
    "joint_parent_lumped_away.urdf": "JOINT_PARENT_LINK_INVALID",
    "joint_child_lumped_away.urdf": "JOINT_CHILD_LINK_INVALID",
}


# read by libsdformat 12 (the oracle), refused by libsdformat's main branch, which this project follows
ONLY_12_ACCEPTS = {
    "scoped_name_link.urdf",
    "scoped_name_in_gazebo_block.urdf",
    "fixed_joint_named_like_its_child.urdf",
    "lumped_below_massless_link.urdf",
}


def errors(name: str) -> set[str]:
    a = load_file(str(FIX / name), Options())
    return {d.code for d in a.diagnostics if d.is_error}


@pytest.mark.parametrize("name", sorted(ONLY_12_REFUSES))
def test_references_to_lumped_links_are_warned_about(name):
    a = load_file(str(FIX / name), Options())
    found = [d for d in a.diagnostics if d.code == "URDF_LUMPED_REFERENCE"]
    assert len(found) == 1 and found[0].data["libsdformat12"] == ONLY_12_REFUSES[name]
    assert not found[0].is_error and "libsdformat 12" in found[0].message


def test_every_fixture_is_pinned():
    assert sorted(p.name for p in FIX.glob("*.urdf")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_errors(name):
    assert errors(name) == EXPECTED[name]


def test_verdicts_agree_with_libsdformat(urdf_oracle):
    disagree = []
    for name in sorted(EXPECTED):
        theirs = run(urdf_oracle, str(FIX / name))["errors"]
        if name in ONLY_12_REFUSES:
            assert ONLY_12_REFUSES[name] in {e["code"] for e in theirs}, (name, theirs)
            continue
        if name in ONLY_12_ACCEPTS:
            assert not theirs, (name, theirs)
            continue
        if bool(theirs) != bool(errors(name)):
            disagree.append((name, [e["code"] for e in theirs]))
    assert not disagree, disagree


def test_verdicts_agree_with_libsdformat_main():
    """With ``$SDF_MAIN_CHECK`` (a program printing "Valid." and exiting 0 when libsdformat main's
    ``gz sdf --check`` accepts the file, such as a build of its ``sdf_check``): every verdict agrees."""
    checker = os.environ.get("SDF_MAIN_CHECK")
    if not checker or not Path(checker).exists():
        pytest.skip("set SDF_MAIN_CHECK to a check program built on libsdformat's main branch")
    disagree = []
    for name in sorted(EXPECTED):
        r = subprocess.run([checker, str(FIX / name)], capture_output=True, text=True, timeout=120)
        if (r.returncode != 0) != bool(errors(name)):
            disagree.append((name, r.returncode))
    assert not disagree, disagree
