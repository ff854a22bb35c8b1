"""The configuration file and suppression comments in the server: per document, reread on change."""

from __future__ import annotations

import asyncio
import time

from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import Session
from .test_includes_lsp import eventually

DOC = '<sdf version="1.8">\n  <model name="m">\n    <link name="l"/>\n    <frame name="f" attached_to="nope"/>\n  </model>\n</sdf>\n'


def codes(diags) -> list[tuple[str, int]]:
    return sorted((str(d.code), int(d.severity)) for d in diags)


def changed(s: Session, path) -> None:
    s.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=path.as_uri(), type=types.FileChangeType.Changed)]
        )
    )


async def test_configuration_file_applies_and_is_reread_when_it_changes(lsp: LanguageClient, editor: str, tmp_path):
    (tmp_path / "proj").mkdir()
    config = tmp_path / "proj" / "sdformat-lsp.toml"
    config.write_text('[severity]\nFRAME_ATTACHED_TO_INVALID = "warning"\n')
    doc = tmp_path / "proj" / "m.sdf"
    doc.write_text(DOC)
    s = await Session.start(lsp, editor)
    s.open(doc.as_uri(), DOC)
    assert codes(await s.diagnostics(doc.as_uri())) == [("FRAME_ATTACHED_TO_INVALID", 2)]
    config.write_text('[severity]\nFRAME_ATTACHED_TO_INVALID = "off"\n')
    changed(s, config)
    await eventually(s, doc.as_uri(), lambda ds: ds == [])
    # the file removed: the default severity again
    config.unlink()
    changed(s, config)
    await eventually(s, doc.as_uri(), lambda ds: codes(ds) == [("FRAME_ATTACHED_TO_INVALID", 1)])


async def test_a_bad_configuration_is_shown_once_and_the_documents_still_checked(
    lsp: LanguageClient, editor: str, tmp_path
):
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.sdformat-lsp]\nfail-on = "warning"\nseverity = { NOPE = "off" }\n')
    doc = tmp_path / "m.sdf"
    doc.write_text(DOC)
    s = await Session.start(lsp, editor)
    s.open(doc.as_uri(), DOC)
    assert codes(await s.diagnostics(doc.as_uri())) == [("FRAME_ATTACHED_TO_INVALID", 1)]
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not s.client.messages:
        await asyncio.sleep(0.02)
    [message] = [m for m in s.client.messages if "configuration error" in m.message]
    assert message.type == types.MessageType.Error
    assert f"{config}:3: severity.NOPE:" in message.message


async def test_suppression_comments_and_their_quick_fix(lsp: LanguageClient, editor: str, tmp_path):
    doc = tmp_path / "m.sdf"
    s = await Session.start(lsp, editor)
    s.open(doc.as_uri(), DOC)
    [diag] = await s.diagnostics(doc.as_uri())
    actions = await s.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=doc.as_uri()),
            range=diag.range,
            context=types.CodeActionContext(diagnostics=[diag]),
        )
    )
    titles = [a.title for a in actions]
    assert (
        "Suppress FRAME_ATTACHED_TO_INVALID on this line" in titles
        and "Suppress FRAME_ATTACHED_TO_INVALID in this file" in titles
    )
    line = next(a for a in actions if a.title.endswith("on this line"))
    [edit] = (
        line.edit.changes[doc.as_uri()]
        if line.edit.changes
        else [e for dc in line.edit.document_changes for e in dc.edits]
    )
    assert edit.range.start == types.Position(3, 0) and edit.new_text.startswith(
        "    <!-- sdformat-lsp: disable-next-line FRAME_ATTACHED_TO_INVALID -->"
    )
    lines = DOC.splitlines(keepends=True)
    s.replace_all(doc.as_uri(), "".join(lines[:3]) + edit.new_text + "".join(lines[3:]))
    assert await s.diagnostics(doc.as_uri()) == []
    # a stale suppression is reported
    s.replace_all(doc.as_uri(), DOC.replace("  <model", "  <!-- sdformat-lsp: disable DUPLICATE_NAME -->\n  <model"))
    assert codes(await s.diagnostics(doc.as_uri())) == [("FRAME_ATTACHED_TO_INVALID", 1), ("UNUSED_SUPPRESSION", 2)]
