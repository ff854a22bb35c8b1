"""Settings from initializationOptions, workspace/configuration and didChangeConfiguration."""

from __future__ import annotations

import asyncio
import time

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import Session, find

URI = "file:///work/config.sdf"
TEXT = '<?xml version="1.0"?>\n<sdf version="1.12">\n  <model name="m">\n    <link name="l"><pose relative_to="nope"/></link>\n  </model>\n</sdf>\n'
SLOW = 1000  # ms: long enough to tell apart from the 100 ms default on a loaded machine


async def _time_to_diagnostics(session: Session) -> float:
    """Seconds from an edit to its diagnostics."""
    at = find(session.texts[URI], "nope")
    t0 = time.monotonic()
    session.replace(URI, at, at + 4, "nop")
    diags = await session.diagnostics(URI)
    assert any("'nop'" in d.message for d in diags)
    return time.monotonic() - t0


@pytest.mark.parametrize("options", [{"debounceMs": SLOW}, {"sdformat": {"debounceMs": SLOW}}], ids=["flat", "nested"])
async def test_initialization_options_set_the_debounce(lsp: LanguageClient, editor: str, options):
    session = await Session.start(lsp, editor, init_options=options)
    session.open(URI, TEXT)
    await session.diagnostics(URI)  # opening does not wait for the debounce
    assert await _time_to_diagnostics(session) >= SLOW / 1000 * 0.9


async def test_default_debounce_is_short(session: Session):
    session.open(URI, TEXT)
    await session.diagnostics(URI)
    assert await _time_to_diagnostics(session) < SLOW / 1000 * 0.9


async def test_bad_settings_are_reported_to_the_client(lsp: LanguageClient, editor: str):
    session = await Session.start(
        lsp, editor, init_options={"sdformat": {"debounceMs": "soon", "resourcePaths": "/models"}}
    )
    message = await session.log_message("debounceMs must be a number")
    assert message.type == types.MessageType.Warning
    session.open(URI, TEXT)
    assert await session.diagnostics(URI)  # still serving, with the default


async def test_workspace_configuration_overrides_initialization_options(lsp: LanguageClient, editor: str):
    session = await Session.start(lsp, editor, init_options={"debounceMs": 0}, configuration={"debounceMs": SLOW})
    session.open(URI, TEXT)
    await session.diagnostics(URI)
    await asyncio.sleep(0.2)  # the server asks for the configuration after `initialized`
    assert await _time_to_diagnostics(session) >= SLOW / 1000 * 0.9


async def test_did_change_configuration_repulls_and_rechecks(lsp: LanguageClient, editor: str):
    session = await Session.start(lsp, editor, configuration={"debounceMs": 0})
    session.open(URI, TEXT)
    first = await session.diagnostics(URI)
    if session.pull:
        report = await session.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
        )
        previous = report.result_id
    published_before = len(session.client.published)

    session.client.set_configuration({"debounceMs": SLOW, "resourcePaths": ["/nowhere"]}, section="sdformat")
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))

    # the open document is checked again under the new settings...
    if session.pull:
        report = await session.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(
                text_document=types.TextDocumentIdentifier(uri=URI), previous_result_id=previous
            )
        )
        assert report.kind == "full" and report.result_id != previous
        assert list(report.items) == first
    else:
        for _ in range(200):
            if len(session.client.published) > published_before:
                break
            await asyncio.sleep(0.01)
        again = session.client.published[-1]
        assert again.version == 1 and list(again.diagnostics) == first
    # ...and the new debounce applies to the next edit
    assert await _time_to_diagnostics(session) >= SLOW / 1000 * 0.9


async def test_did_change_configuration_without_workspace_configuration(lsp: LanguageClient):
    """A client that cannot answer workspace/configuration sends the settings in the notification."""

    def no_configuration(caps: types.ClientCapabilities) -> None:
        caps.workspace.configuration = False

    session = await Session.start(lsp, "neovim", tweak=no_configuration)
    session.open(URI, TEXT)
    await session.diagnostics(URI)
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"sdformat": {"debounceMs": SLOW, "resourcePaths": [3]}})
    )
    await session.log_message("resourcePaths: ignoring 3")
    assert await _time_to_diagnostics(session) >= SLOW / 1000 * 0.9
