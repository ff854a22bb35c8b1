"""A failure costs one answer, never the session.

Two kinds of tests: hostile input to the real server, and the real server
with faults patched in from outside (``faulty_server.py``): a feature that
raises, a core that raises, a dependency that prints to stdout.
"""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import Session, find, fixture_text, fixture_uri, make_client, server_env

ARM_URI = fixture_uri("arm.sdf")
ARM = fixture_text("arm.sdf")
FAULTY = ClientServerConfig(
    server_command=[sys.executable, str(Path(__file__).with_name("faulty_server.py"))],
    server_env=server_env(),
    client_factory=make_client,
)


@pytest_lsp.fixture(config=FAULTY)
async def faulty(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


def td(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def _still_serving(s: Session) -> None:
    """A healthy document opened now gets correct diagnostics and answers."""
    uri = "file:///work/healthy.sdf"
    text = ARM.replace('relative_to="base"', 'relative_to="bse"')
    s.open(uri, text)
    diags = await s.diagnostics(uri)
    at = find(text, "bse")
    assert [(d.code, d.range) for d in diags] == [("POSE_RELATIVE_TO_INVALID", s.range(uri, at, at + 3))]
    hover = await s.client.text_document_hover_async(
        types.HoverParams(text_document=td(uri), position=s.at(uri, "upper", within="<child>"))
    )
    assert hover is not None


# -- injected faults ------------------------------------------------------------------------


async def test_a_crashing_feature_is_an_error_response(faulty: LanguageClient, editor: str):
    s = await Session.start(faulty, editor)
    uri = "file:///work/crash.sdf"
    text = ARM.replace("<sdf", "<!-- INJECT-FEATURE-CRASH -->\n<sdf")
    s.open(uri, text)
    with pytest.raises(JsonRpcException) as info:
        await s.client.text_document_hover_async(
            types.HoverParams(text_document=td(uri), position=s.at(uri, "upper", within="<child>"))
        )
    assert info.value.code == -32603  # InternalError
    assert re.search(
        r"textDocument/hover failed \(fault F\d+\): ZeroDivisionError: injected hover failure", info.value.message
    )
    logged = await s.log_message("textDocument/hover failed")
    assert logged.type == types.MessageType.Error
    # the same document keeps its diagnostics, and the other features answer
    assert await s.diagnostics(uri) == []
    with pytest.raises(JsonRpcException):
        await s.client.text_document_definition_async(
            types.DefinitionParams(text_document=td(uri), position=types.Position(0, 0))
        )
    await _still_serving(s)


async def test_a_crashing_core_is_one_diagnostic(faulty: LanguageClient, editor: str):
    s = await Session.start(faulty, editor)
    uri = "file:///work/core.sdf"
    s.open(uri, ARM.replace("<sdf", "<!-- INJECT-CORE-CRASH -->\n<sdf"))
    diags = await s.diagnostics(uri)
    assert [d.code for d in diags] == ["INTERNAL_ERROR"]
    assert "RuntimeError: injected core failure" in diags[0].message
    await s.log_message("injected core failure")
    await _still_serving(s)


async def test_stdout_belongs_to_the_protocol(faulty: LanguageClient, editor: str):
    """Writes to stdout (print or fd 1) from inside the server go to stderr, not into the stream."""
    s = await Session.start(faulty, editor)
    uri = "file:///work/noisy.sdf"
    s.open(uri, ARM.replace("<sdf", "<!-- INJECT-STDOUT -->\n<sdf"))
    assert await s.diagnostics(uri) == []
    await _still_serving(s)
    assert faulty.error is None


# -- hostile input to the real server --------------------------------------------------------

HOSTILE = {
    "deep": "<a>" * 50_000,
    "deep-models": '<sdf version="1.12">' + '<model name="m">' * 3000,
    "nul-and-controls": "\x00\x01\x02<sdf\x00 version='1.12'>\x7f",
    "lone-surrogate": '<sdf version="1.12"><!-- \ud800 --><model name="m"><link name="l"/></model></sdf>',
    "long-line": '<sdf version="1.12"><model name="' + "x" * 200_000 + '"><link name="l"/></model></sdf>',
    "not-xml": '{"this": "is json"}',
    "empty": "",
}


async def test_hostile_documents(session: Session):
    failed: dict[str, str] = {}
    for name, text in HOSTILE.items():
        uri = f"file:///work/hostile/{name}.sdf"
        session.open(uri, text)
        diags = await session.diagnostics(uri)
        assert isinstance(diags, list), name
        try:
            await session.client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=td(uri)))
            await session.client.text_document_hover_async(
                types.HoverParams(text_document=td(uri), position=types.Position(0, 1))
            )
        except JsonRpcException as exc:
            failed[name] = exc.message
    assert not failed, failed  # 3000 nested models included: the outline is built without recursion
    await _still_serving(session)


async def test_hostile_positions_and_edits(session: Session):
    uri = ARM_URI
    session.open(uri, ARM)
    far = types.Position(line=10**6, character=10**6)
    # requests beyond the end of the document
    await session.client.text_document_hover_async(types.HoverParams(text_document=td(uri), position=far))
    await session.client.text_document_completion_async(types.CompletionParams(text_document=td(uri), position=far))
    await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=td(uri), position=types.Position(3, 10**6))
    )
    # an edit with a reversed range and one past the end are applied to what they name
    session.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=far, end=far), text="<!-- appended -->\n"
                ),
            ],
        )
    )
    session.versions[uri] = 2
    session.texts[uri] = ARM + "<!-- appended -->\n"
    assert await session.diagnostics(uri) == []
    # changes and closes for documents that are not open are ignored
    session.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri="file:///nope.sdf", version=5),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="x")],
        )
    )
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=td("file:///nope.sdf")))
    await session.log_message("not open")
    # malformed parameters are answered with an error, not a crash
    negative = types.Position(line=0, character=0)
    object.__setattr__(negative, "line", -1)  # bypass lsprotocol's own validation
    with pytest.raises(JsonRpcException):
        await session.client.text_document_hover_async(types.HoverParams(text_document=td(uri), position=negative))
    await _still_serving(session)


async def test_many_quick_requests_on_a_changing_document(session: Session):
    """Edits interleaved with requests: every request is answered, for the text it was made on."""
    session.open(ARM_URI, ARM)
    pending = []
    at = find(ARM, "shoulder", within='<link name="upper">')
    for i in range(20):
        session.replace(ARM_URI, at, at + 1, "S" if i % 2 == 0 else "s")
        pending.append(
            session.client.text_document_hover_async(
                types.HoverParams(text_document=td(ARM_URI), position=session.pos(ARM_URI, at + 2))
            )
        )
    results = await asyncio.gather(*pending)
    assert all(r is not None for r in results)
    diags = await session.diagnostics(ARM_URI)
    assert diags == []  # the last edit restored 'shoulder'
