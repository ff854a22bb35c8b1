"""Diagnostics end to end: push vs pull, exact ranges, related information, versions."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import Session, find, fixture_text, fixture_uri

BROKEN = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="arm">
    <link name="base"/>
    <link name="upper">
      <pose relative_to="sholder">0 0 0.5 0 0 0</pose>
    </link>
    <joint name="shoulder" type="revolute"><pose relative_to="base">0 0 0.5 0 0 0</pose>
      <parent>base</parent>
      <child>upper</child>
    </joint>
    <frame name="a" attached_to="b"/>
    <frame name="b" attached_to="a"/>
  </model>
</sdf>
"""
URI = "file:///work/broken.sdf"


async def test_one_mechanism_per_client(session: Session):
    """Pull clients get a diagnostic provider and no pushes; push clients the opposite."""
    provider = session.result.capabilities.diagnostic_provider
    session.open(URI, BROKEN)
    diags = await session.diagnostics(URI)
    assert diags
    if session.editor == "neovim":
        assert session.pull
        assert isinstance(provider, types.DiagnosticOptions)
        assert provider.identifier == "sdformat" and provider.workspace_diagnostics is False
        await asyncio.sleep(0.3)
        assert session.client.published == []
    else:
        assert not session.pull
        assert provider is None


async def test_codes_ranges_severity_source(session: Session):
    session.open(URI, BROKEN)
    diags = await session.diagnostics(URI)
    by_code = {d.code: d for d in diags}
    assert set(by_code) == {"POSE_RELATIVE_TO_INVALID", "FRAME_ATTACHED_TO_CYCLE"}
    typo = by_code["POSE_RELATIVE_TO_INVALID"]
    assert typo.range == session.span_of(URI, "sholder")
    assert typo.severity == types.DiagnosticSeverity.Error
    assert typo.source == "sdformat"
    assert "did you mean 'shoulder'" in typo.message
    cycle = by_code["FRAME_ATTACHED_TO_CYCLE"]
    b = find(BROKEN, '"b"', within='<frame name="a"') + 1
    assert cycle.range == session.range(URI, b, b + 1)


async def test_related_information_and_documentation_links(session: Session):
    session.open(URI, BROKEN)
    diags = await session.diagnostics(URI)
    cycle = next(d for d in diags if d.code == "FRAME_ATTACHED_TO_CYCLE")
    # Both clients support relatedInformation.
    assert cycle.related_information is not None
    locs = [(r.location.uri, r.location.range) for r in cycle.related_information]
    a_ref = find(BROKEN, '"b"', within='<frame name="a"') + 1
    b_ref = find(BROKEN, '"a"', within='<frame name="b"') + 1
    assert locs == [(URI, session.range(URI, a_ref, a_ref + 1)), (URI, session.range(URI, b_ref, b_ref + 1))]
    assert [r.message for r in cycle.related_information] == ["frame 'a' attached_to 'b'", "frame 'b' attached_to 'a'"]
    if session.editor == "visual-studio-code":  # declares codeDescriptionSupport
        assert cycle.code_description.href == "http://sdformat.org/tutorials?tut=pose_frame_semantics"
    else:
        assert cycle.code_description is None


async def test_related_information_folded_into_message_when_unsupported(lsp: LanguageClient):
    def no_related(caps: types.ClientCapabilities) -> None:
        caps.text_document.publish_diagnostics.related_information = False

    session = await Session.start(lsp, "visual-studio-code", tweak=no_related)
    session.open(URI, BROKEN)
    diags = await session.diagnostics(URI)
    cycle = next(d for d in diags if d.code == "FRAME_ATTACHED_TO_CYCLE")
    assert cycle.related_information is None
    assert cycle.message.splitlines()[1:] == ["12: frame 'a' attached_to 'b'", "13: frame 'b' attached_to 'a'"]


async def test_valid_document_has_no_diagnostics(session: Session):
    uri = fixture_uri("arm.sdf")
    session.open(uri, fixture_text("arm.sdf"))
    assert await session.diagnostics(uri) == []


async def test_push_carries_the_version_and_close_clears(lsp: LanguageClient):
    session = await Session.start(lsp, "visual-studio-code")
    session.open(URI, BROKEN, version=7)
    published = await session.published(URI, 7)
    assert len(published.diagnostics) == 2
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=URI)))
    cleared = await session.published(URI, None)
    assert list(cleared.diagnostics) == []


async def test_only_the_last_version_is_published(session: Session):
    """Quick edits: the diagnostics that arrive belong to the last version, never to one in between."""
    session.open(URI, BROKEN)
    await session.diagnostics(URI)
    start = find(BROKEN, "sholder")
    current = "sholder"
    for i in range(2, 8):
        name = f"bad{i}"
        session.replace(URI, start, start + len(current), name)
        current = name
    diags = await session.diagnostics(URI)
    typo = next(d for d in diags if d.code == "POSE_RELATIVE_TO_INVALID")
    assert "'bad7'" in typo.message
    assert typo.range == session.range(URI, start, start + len("bad7"))
    await asyncio.sleep(0.4)  # anything late would have arrived by now (debounce is 100 ms)
    versions = [p.version for p in session.client.published if p.uri == URI]
    if not session.pull:
        assert set(versions) <= {1, 7}, versions
        assert versions[-1] == 7
        assert all(
            "'bad7'" in d.message
            for p in session.client.published
            if p.version == 7
            for d in p.diagnostics
            if d.code == "POSE_RELATIVE_TO_INVALID"
        )
    else:
        assert versions == []


async def test_pull_result_ids(lsp: LanguageClient):
    session = await Session.start(lsp, "neovim")
    session.open(URI, BROKEN)
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
    first = await session.client.text_document_diagnostic_async(params)
    assert first.kind == "full" and first.result_id
    again = await session.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=URI), previous_result_id=first.result_id
        )
    )
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    assert again.result_id == first.result_id
    start = find(BROKEN, "sholder")
    session.replace(URI, start, start + len("sholder"), "base")
    fixed = await session.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=URI), previous_result_id=first.result_id
        )
    )
    assert fixed.kind == "full" and fixed.result_id != first.result_id
    assert [d.code for d in fixed.items] == ["FRAME_ATTACHED_TO_CYCLE"]


async def test_pull_waiting_for_a_version_that_changes_is_cancelled(lsp: LanguageClient):
    """A pull made before a change would answer for old text: the server asks for a retry instead."""
    session = await Session.start(lsp, "neovim", init_options={"debounceMs": 300})
    session.open(URI, BROKEN)
    await session.diagnostics(URI)
    start = find(BROKEN, "sholder")
    session.replace(URI, start, start + 1, "S")
    pending = asyncio.ensure_future(
        session.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
        )
    )
    await asyncio.sleep(0.05)
    session.replace(URI, start, start + 1, "T")
    with pytest.raises(Exception) as info:
        await pending
    assert getattr(info.value, "code", None) == types.LSPErrorCodes.ServerCancelled
    assert getattr(info.value, "data", None) == {"retriggerRequest": True}
    diags = await session.diagnostics(URI)
    assert any("'Tholder'" in d.message for d in diags)


async def test_incremental_edits(session: Session):
    uri = fixture_uri("arm.sdf")
    text = fixture_text("arm.sdf")
    session.open(uri, text)
    assert await session.diagnostics(uri) == []
    # 1. a typo inside a reference: delete the 'u' of shoulder
    at = find(text, "shoulder", within='<link name="upper">')
    session.replace(uri, at + 3, at + 4, "")
    diags = await session.diagnostics(uri)
    assert [(d.code, d.range) for d in diags] == [
        ("POSE_RELATIVE_TO_INVALID", session.range(uri, at, at + len("sholder")))
    ]
    # 2. lines inserted above shift the range; two changes in one notification
    t = session.texts[uri]
    typo = find(t, "sholder")
    top = find(t, "<sdf")
    session.change(uri, [(top, top, "<!-- one -->\n<!-- two -->\n"), (typo + 26, typo + 26 + 7, "elbow")])
    diags = await session.diagnostics(uri)
    at = find(session.texts[uri], "elbow")
    assert [(d.code, d.range) for d in diags] == [("POSE_RELATIVE_TO_INVALID", session.range(uri, at, at + 5))]
    assert diags[0].range.start.line == 15
    # 3. a deletion across lines removes the offending link altogether
    t = session.texts[uri]
    session.replace(
        uri, find(t, '    <link name="upper">'), find(t, "</link>", within='<link name="upper">') + len("</link>\n"), ""
    )
    diags = await session.diagnostics(uri)
    t = session.texts[uri]
    child, attached, relative = (
        find(t, "upper", within="<child>"),
        find(t, "upper", within="attached_to"),
        find(t, 'relative_to="upper"') + 13,
    )
    assert [(d.code, d.range) for d in diags] == [
        ("JOINT_CHILD_LINK_INVALID", session.range(uri, child, child + 5)),
        ("FRAME_ATTACHED_TO_INVALID", session.range(uri, attached, attached + 5)),
        ("POSE_RELATIVE_TO_INVALID", session.range(uri, relative, relative + 5)),
    ]
    # 4. a whole-document change still works
    session.replace_all(uri, text)
    assert await session.diagnostics(uri) == []


async def test_line_breaks_follow_lsp_not_python(session: Session):
    """U+2028, U+2029 and NEL are not line breaks in LSP; CR and CRLF are.

    Python's ``splitlines`` disagrees, which would shift every line after them.
    """
    text = BROKEN.replace("<model", "<!-- \u2028 \u2029 \x85 -->\r\n  <model", 1).replace(
        '\n    <link name="upper">', '\r    <link name="upper">'
    )
    session.open(URI, text)
    diags = await session.diagnostics(URI)
    start = find(text, "sholder")
    typo = next(d for d in diags if d.code == "POSE_RELATIVE_TO_INVALID")
    assert typo.range == session.range(URI, start, start + 7)
    assert typo.range.start.line == 6
    session.replace(URI, start, start + 7, "base")
    diags = await session.diagnostics(URI)
    assert [d.code for d in diags] == ["FRAME_ATTACHED_TO_CYCLE"]
