"""Physically impossible inertials reach the editor as warnings, with the joint as related information."""

from __future__ import annotations

from lsprotocol import types

from .conftest import Session

URI = "file:///tmp/sdformat-inertial-test/robot.sdf"
DOC = (
    '<sdf version="1.9">\n  <model name="m">\n    <link name="a"/>\n'
    '    <link name="b"><inertial><mass>0</mass></inertial></link>\n'
    '    <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>\n'
    '    <link name="c"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>0</izz></inertia></inertial></link>\n'
    "  </model>\n</sdf>\n"
)


async def test_inertial_warnings_are_published_to_the_editor(session: Session):
    session.open(URI, DOC)
    diags = await session.diagnostics(URI)
    found = {str(d.code): d for d in diags if str(d.code).startswith("LINK_")}
    assert set(found) == {"LINK_MASSLESS_MOVING", "LINK_INERTIA_SINGULAR"}, [(d.code, d.message) for d in diags]
    moving = found["LINK_MASSLESS_MOVING"]
    assert moving.severity == types.DiagnosticSeverity.Warning and moving.range.start.line == 3
    assert moving.related_information and moving.related_information[0].location.range.start.line == 4  # the joint
    assert found["LINK_INERTIA_SINGULAR"].severity == types.DiagnosticSeverity.Warning
