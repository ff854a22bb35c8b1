"""xacro documents over LSP: diagnostics at the call, rename across the included file, and an edit of
the included library re-checking the open document that includes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from .conftest import Session

INERTIAL = '<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
LIB = f"""<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="wheel" params="prefix parent">
    <link name="${{prefix}}_wheel">{INERTIAL}</link>
    <joint name="${{prefix}}_joint" type="continuous"><parent link="${{parent}}"/><child link="${{prefix}}_wheel"/></joint>
  </xacro:macro>
</robot>
"""
TOP = f"""<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="lib.xacro"/>
  <link name="chassis">{INERTIAL}</link>
  <xacro:wheel prefix="left" parent="chassis"/>
  <xacro:wheel prefix="right" parent="chasis"/>
</robot>
"""


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "lib.xacro").write_text(LIB)
    (tmp_path / "robot.urdf.xacro").write_text(TOP)
    return tmp_path / "robot.urdf.xacro", tmp_path / "lib.xacro"


async def test_xacro_document_over_lsp(session: Session, files):
    top, lib = files
    uri, lib_uri = top.as_uri(), lib.as_uri()
    session.open(uri, TOP)
    errors = [d for d in await session.diagnostics(uri) if d.severity == types.DiagnosticSeverity.Error]
    assert len(errors) == 1 and errors[0].range == session.span_of(uri, "chasis")
    assert errors[0].related_information and "call of macro 'wheel'" in errors[0].related_information[0].message
    # the frame tree of the expansion, each frame where its name is written
    got = await session.client.protocol.send_request_async("sdformat/frames", {"textDocument": {"uri": uri}})
    frames = {f["name"]: f for f in got["frames"]} if isinstance(got, dict) else {f.name: f for f in got.frames}
    assert {"chassis", "left_wheel", "right_wheel"} <= set(frames)
    left = frames["left_wheel"]
    location = left["location"] if isinstance(left, dict) else left.location
    assert (location["uri"] if isinstance(location, dict) else location.uri) == lib_uri
    # rename the macro at a call: both calls here and the definition in lib.xacro
    pos = session.at(uri, "wheel", within='<xacro:wheel prefix="left"')
    edit = await session.client.text_document_rename_async(
        types.RenameParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos, new_name="tyre")
    )
    changes = {c.text_document.uri: c.edits for c in edit.document_changes} if edit.document_changes else edit.changes
    assert len(changes[uri]) == 2 and len(changes[lib_uri]) == 1
    # the library opened and edited: the document that includes it is checked again with the new text
    session.open(lib_uri, LIB)
    await session.diagnostics(lib_uri)
    start = LIB.index('<parent link="${parent}"/>')
    session.replace(lib_uri, start, start + len('<parent link="${parent}"/>'), '<parent link="chassis"/>')
    for _ in range(100):
        errors = [d for d in await session.diagnostics(uri) if d.severity == types.DiagnosticSeverity.Error]
        if not errors:
            break
        import asyncio

        await asyncio.sleep(0.05)
    assert errors == []


BROKEN = f"""<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="lib.xacro"/>
  <link name="chassis">{INERTIAL}</link>
  <link name="mast">{INERTIAL}</link>
  <joint name="mast_joint" type="revolute"><origin xyz="0.1 0 ${{mast_height}}" rpy="0 0.3 1.5"/>
    <parent link="chassis"/><child link="mast"/><axis xyz="0 0 1"/><limit effort="1" velocity="1"/></joint>
  <xacro:wheel prefix="left" parent="chassis"/>
  <xacro:whe
</robot>
"""


async def test_a_broken_xacro_document_over_lsp(session: Session, files):
    """Half-typed (a macro call being typed) and with an unknown property: the error is on the property,
    completion offers the macro, definition reaches the library, hover on a link says its pose."""
    top, lib = files
    uri = top.as_uri()
    session.open(uri, BROKEN)
    diagnostics = await session.diagnostics(uri)
    assert any(d.range == session.span_of(uri, "mast_height") for d in diagnostics), diagnostics
    ident = types.TextDocumentIdentifier(uri=uri)
    got = await session.client.text_document_completion_async(
        types.CompletionParams(text_document=ident, position=session.at(uri, "<xacro:whe", delta=len("<xacro:whe")))
    )
    items = got.items if isinstance(got, types.CompletionList) else got or []
    assert "wheel" in {i.label for i in items}
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=ident, position=session.at(uri, "wheel", within="<xacro:wheel prefix"))
    )
    found = found if isinstance(found, list) else [found]
    assert found and all(loc.uri == lib.as_uri() for loc in found)
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=ident, position=session.at(uri, "chassis", within='<parent link="chassis"'))
    )
    assert hover is not None and "chassis" in str(hover.contents)
