"""URDF files in the editor over LSP: diagnostics, completion of link and joint names, hover in the root
link's frame, symbols, rename; and the Convert to URDF command."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from .conftest import Session, completion_items, find, fixture_text, fixture_uri

ARM = (Path(__file__).resolve().parents[1] / "urdf" / "fixtures" / "arm.urdf").read_text()
URDF_URI = fixture_uri("arm.urdf")  # served from the editor's text: it need not exist on disk


@pytest.fixture
async def urdf(session: Session) -> Session:
    session.open(URDF_URI, ARM)
    return session


def td(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def test_urdf_diagnostics_completion_hover_symbols(urdf: Session):
    assert [d for d in await urdf.diagnostics(URDF_URI) if d.severity == types.DiagnosticSeverity.Error] == []
    start = find(ARM, '<child link="upper_arm"') + len('<child link="')
    urdf.replace(URDF_URI, start, start + len("upper_arm"), "up")
    items = await urdf.client.text_document_completion_async(
        types.CompletionParams(text_document=td(URDF_URI), position=urdf.pos(URDF_URI, start + 2))
    )
    labels = [i.label for i in completion_items(items)]
    assert "upper_arm" in labels and "base_link" in labels and "shoulder" not in labels
    diags = await urdf.diagnostics(URDF_URI)
    assert any("'up'" in d.message for d in diags)  # the joint's child is no link
    urdf.replace(URDF_URI, start, start + 2, "upper_arm")
    p = urdf.at(URDF_URI, "forearm", within='<link name="forearm">')
    hover = await urdf.client.text_document_hover_async(types.HoverParams(text_document=td(URDF_URI), position=p))
    assert "root link `base_link`" in hover.contents.value and "`0 1 1`" in hover.contents.value
    symbols = await urdf.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=td(URDF_URI))
    )
    names = [c.name for c in symbols[0].children]
    assert "shoulder" in names and "forearm" in names


async def test_convert_to_urdf_command(session: Session):
    uri = fixture_uri("arm.sdf")
    session.open(uri, fixture_text("arm.sdf"))
    result = await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="sdformat.server.convertToUrdf", arguments=[uri])
    )
    assert result["errors"] == [] and result["text"].startswith("<?xml") and "<robot" in result["text"]
    session.open(URDF_URI, ARM)
    result = await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="sdformat.server.convertToUrdf", arguments=[URDF_URI])
    )
    assert result["text"] is None and "URDF already" in result["errors"][0]
