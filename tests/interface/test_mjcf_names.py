"""Names an MJCF model refers to but does not define (formats/mjcf/names.py): each one MuJoCo
refuses to compile (checked with the ``mujoco`` package when installed) is one error at the value
written, with the nearest name of its kind; a model MuJoCo compiles gets none."""

from __future__ import annotations

import re

import pytest
from sdformat_lsp.cli import load_file
from sdformat_lsp.diagnostics import Severity
from sdformat_lsp.semantics import Options
from sdformat_lsp.semantics.includes.cache import IncludeCache

VALID = """<mujoco model="arm">
  <asset>
    <texture name="grid" builtin="checker" width="8" height="8" rgb1="0 0 0" rgb2="1 1 1"/>
    <material name="red" texture="grid"/>
    <mesh name="box_mesh" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/>
  </asset>
  <worldbody>
    <body name="upper">
      <joint name="shoulder"/>
      <geom name="upper_geom" size=".1" material="red"/>
      <site name="tip"/>
      <body name="lower" pos="0 0 1">
        <joint name="elbow"/>
        <geom name="lower_geom" type="mesh" mesh="box_mesh"/>
        <geom name="wrap" type="cylinder" size=".05 .1"/>
        <site name="wrist"/>
      </body>
    </body>
    <camera name="cam" mode="targetbody" target="lower"/>
  </worldbody>
  <tendon>
    <fixed name="coupled"><joint joint="shoulder" coef="1"/><joint joint="elbow" coef="-1"/></fixed>
    <spatial name="rope"><site site="tip"/><geom geom="wrap" sidesite="wrist"/><site site="wrist"/></spatial>
  </tendon>
  <actuator>
    <motor name="drive" joint="shoulder"/>
    <motor name="pull" tendon="coupled"/>
    <motor name="push" site="tip" refsite="wrist" gear="1 0 0 0 0 0"/>
  </actuator>
  <sensor>
    <touch site="tip"/>
    <jointpos joint="elbow"/>
    <actuatorfrc actuator="drive"/>
    <framepos objtype="body" objname="lower" reftype="site" refname="tip"/>
  </sensor>
  <equality>
    <weld body1="lower" body2="world"/>
    <joint joint1="shoulder" joint2="elbow"/>
    <tendon tendon1="coupled"/>
  </equality>
  <contact>
    <exclude body1="upper" body2="lower"/>
    <pair geom1="upper_geom" geom2="lower_geom"/>
  </contact>
</mujoco>
"""

# (the text in VALID, what it becomes, the name we must suggest)
MISTAKES = [
    ('<motor name="drive" joint="shoulder"/>', '<motor name="drive" joint="shouldr"/>', "shoulder"),
    ('<motor name="pull" tendon="coupled"/>', '<motor name="pull" tendon="couple"/>', "coupled"),
    ('refsite="wrist"', 'refsite="wrsit"', "wrist"),
    ('<touch site="tip"/>', '<touch site="tpi"/>', "tip"),
    ('<jointpos joint="elbow"/>', '<jointpos joint="elbw"/>', "elbow"),
    ('<actuatorfrc actuator="drive"/>', '<actuatorfrc actuator="driv"/>', "drive"),
    ('objname="lower"', 'objname="lowr"', "lower"),
    ('refname="tip"', 'refname="tipp"', "tip"),
    ('<weld body1="lower"', '<weld body1="lowe"', "lower"),
    ('joint2="elbow"', 'joint2="elbo"', "elbow"),
    ('tendon1="coupled"', 'tendon1="coupld"', "coupled"),
    ('<exclude body1="upper"', '<exclude body1="uper"', "upper"),
    ('geom2="lower_geom"', 'geom2="lowergeom"', "lower_geom"),
    ('<joint joint="elbow" coef="-1"/>', '<joint joint="elbov" coef="-1"/>', "elbow"),
    ('sidesite="wrist"', 'sidesite="wirst"', "wrist"),
    ('<geom geom="wrap"', '<geom geom="wrapp"', "wrap"),
    ('material="red"', 'material="rde"', "red"),
    ('mesh="box_mesh"', 'mesh="boxmesh"', "box_mesh"),
    ('texture="grid"', 'texture="gird"', "grid"),
    ('target="lower"', 'target="lover"', "lower"),
]


def load(path):
    return load_file(str(path), Options(include_cache=IncludeCache()))


def unknown(a):
    return [d for d in a.diagnostics if d.code == "MJCF_REFERENCE_UNKNOWN"]


def test_a_model_mujoco_compiles_has_no_unknown_name(tmp_path):
    (tmp_path / "arm.xml").write_text(VALID)
    mujoco = _mujoco()
    if mujoco is not None:
        mujoco.MjModel.from_xml_path(str(tmp_path / "arm.xml"))
    a = load(tmp_path / "arm.xml")
    assert [d for d in a.diagnostics if d.severity <= Severity.WARNING] == []


@pytest.mark.parametrize("old,new,hint", MISTAKES, ids=[m[1] for m in MISTAKES])
def test_an_unknown_name_is_one_error_where_written(tmp_path, old, new, hint):
    assert VALID.count(old) == 1
    text = VALID.replace(old, new)
    (tmp_path / "arm.xml").write_text(text)
    mujoco = _mujoco()
    if mujoco is not None:
        with pytest.raises(ValueError):
            mujoco.MjModel.from_xml_path(str(tmp_path / "arm.xml"))
    a = load(tmp_path / "arm.xml")
    (d,) = [d for d in a.diagnostics if d.severity <= Severity.WARNING]
    assert d.code == "MJCF_REFERENCE_UNKNOWN" and d.severity == Severity.ERROR
    (wrong,) = set(re.findall(r'"([^"]*)"', new)) - set(re.findall(r'"([^"]*)"', old))
    assert a.text[d.span.start : d.span.end] == wrong
    assert f"did you mean '{hint}'?" in d.message and "MuJoCo refuses to compile it" in d.message
    (fix,) = d.fixes
    assert fix.new_text == hint and fix.span == d.span


def test_names_come_through_includes_and_files(tmp_path):
    """A mesh without name is named by its file; names defined in an included file count; an unknown
    name written in an included file is reported on the <include>."""
    (tmp_path / "parts.xml").write_text(
        '<mujocoinclude><body name="hand"><joint name="grip"/><geom size=".1"/></body></mujocoinclude>'
    )
    (tmp_path / "acts.xml").write_text('<mujocoinclude><motor joint="grap"/></mujocoinclude>')
    (tmp_path / "m.xml").write_text(
        '<mujoco>\n  <asset><mesh file="link.stl"/></asset>\n  <worldbody>\n'
        '    <body name="b"><geom type="mesh" mesh="link"/><include file="parts.xml"/></body>\n'
        '  </worldbody>\n  <actuator><motor joint="grip"/><include file="acts.xml"/></actuator>\n'
        '  <equality><weld body1="hand"/></equality>\n</mujoco>\n'
    )
    a = load(tmp_path / "m.xml")
    (d,) = unknown(a)
    assert a.text[d.span.start : d.span.end] == "include" and "(in a file included here)" in d.message
    assert "did you mean 'grip'?" in d.message and d.fixes == ()


def test_generated_names_are_not_judged(tmp_path):
    """<replicate> and friends make names at compile time: a reference to one is not called unknown."""
    (tmp_path / "r.xml").write_text(
        '<mujoco><worldbody><replicate count="2" offset="1 0 0"><body name="leg"><joint name="hip"/>'
        '<geom size=".1"/></body></replicate></worldbody><actuator><motor joint="hip0"/></actuator></mujoco>'
    )
    assert unknown(load(tmp_path / "r.xml")) == []


def _mujoco():
    try:
        import mujoco
    except ImportError:
        return None
    return mujoco


BODY = '<worldbody><body name="b"><joint name="j"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>{}</body></worldbody>'
# (model, whether an element takes the unknown name "nope" from a class): MuJoCo refuses exactly those
INHERITED = [
    (
        '<default><default class="a"><geom material="nope"/></default></default>' + BODY.format('<geom size=".1"/>'),
        False,
    ),
    (
        '<default><default class="a"><geom material="nope"/></default></default>'
        + BODY.format('<body childclass="a"><geom size=".1"/><geom size=".2"/></body>'),
        True,
    ),
    ('<default><geom material="nope"/></default>' + BODY.format('<geom size=".1"/><geom size=".2"/>'), True),
    ('<default><geom material="nope"/></default>' + BODY.format("<site/>"), False),
    (
        '<asset><material name="m"/></asset><default><geom material="nope"/></default>'
        + BODY.format('<geom size=".1" material="m"/>'),
        False,
    ),
    (
        '<default><default class="a"><geom mesh="nope"/><default class="b"><site/></default></default></default>'
        + BODY.format('<geom class="b" size=".1"/>'),
        True,
    ),
    ('<default><site material="nope"/></default>' + BODY.format("<site/>"), True),
    ('<default><material texture="nope"/></default><asset><material name="m"/></asset>' + BODY.format(""), True),
    (
        '<default><tendon material="nope"/></default>'
        + BODY.format('<geom size=".1"/>')
        + '<tendon><fixed><joint joint="j" coef="1"/></fixed></tendon>',
        True,
    ),
    (
        '<default><default class="t"><tendon material="nope"/></default></default>'
        + BODY.format('<geom size=".1"/><site name="s1"/><site name="s2" pos="0 0 1"/>')
        + '<tendon><spatial><site site="s1"/><site site="s2"/></spatial></tendon>',
        False,
    ),
]


@pytest.mark.parametrize("body,refused", INHERITED, ids=[f"case{i}" for i in range(len(INHERITED))])
def test_a_name_a_class_gives_is_judged_where_the_class_writes_it_once_used(tmp_path, body, refused):
    """A <default> class naming an element no element defines: MuJoCo refuses the model only when some
    element takes the name from the class (class, childclass, main, ancestors); one error, on the class."""
    text = f"<mujoco>\n{body}\n</mujoco>\n"
    (tmp_path / "m.xml").write_text(text)
    mujoco = _mujoco()
    if mujoco is not None:
        if refused:
            with pytest.raises(ValueError, match="nope"):
                mujoco.MjModel.from_xml_path(str(tmp_path / "m.xml"))
        else:
            mujoco.MjModel.from_xml_path(str(tmp_path / "m.xml"))
    found = unknown(load(tmp_path / "m.xml"))
    if not refused:
        assert found == []
        return
    (d,) = found
    assert d.span.start == text.index('"nope"') + 1 and d.span.end == d.span.start + 4
    assert "takes it from class" in d.message


def test_navigation_on_a_half_typed_mjcf_document_never_raises():
    """Definition, references, hover and rename anywhere in an MJCF document cut short, with an unclosed
    quote or with a few characters gone: answers or nothing, never an exception (rename: a RenameError)."""
    from pathlib import Path

    from sdformat_lsp import features
    from sdformat_lsp.semantics import analyze

    path = Path(__file__).resolve().parents[1] / "lsp" / "fixtures" / "mjcf" / "gripper.xml"
    full = path.read_text()
    for cut in range(0, len(full), 89):
        for text in (full[:cut], full[:cut] + '"', full[:cut] + full[cut + 5 :]):
            a = analyze(text, str(path), Options())
            for off in range(0, len(text) + 1, 13):
                features.definition(a, off)
                features.references(a, off)
                features.hover(a, off)
                features.prepare_rename(a, off)
                try:
                    features.rename(a, off, "x y")
                except features.RenameError:
                    pass
