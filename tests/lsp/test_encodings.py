"""Position encodings: negotiation and every conversion, with é (2 UTF-8 bytes), 中 (3) and 😀 (4 bytes, 2 UTF-16 units)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import Session, apply_edits, completion_items, edits_for, find, fixture_text, fixture_uri

ENCODINGS = ["utf-8", "utf-16", "utf-32"]
URI = fixture_uri("unicode.sdf")
TEXT = fixture_text("unicode.sdf")


@pytest.mark.parametrize(
    "offered,expected",
    [
        (None, "utf-16"),
        (["utf-8"], "utf-8"),
        (["utf-32"], "utf-32"),
        (["utf-32", "utf-8", "utf-16"], "utf-32"),
        (["utf-16", "utf-8"], "utf-16"),
        (["latin-1", "utf-8"], "utf-8"),
        (["latin-1"], "utf-16"),
    ],
)
async def test_negotiation_picks_the_first_offered_that_we_support(lsp: LanguageClient, offered, expected):
    def offer(caps: types.ClientCapabilities) -> None:
        caps.general = types.GeneralClientCapabilities(position_encodings=offered)

    session = await Session.start(lsp, "visual-studio-code", tweak=offer)
    assert session.result.capabilities.position_encoding == expected


@pytest.fixture(params=ENCODINGS)
async def usession(lsp: LanguageClient, editor: str, request) -> Session:
    session = await Session.start(lsp, editor, encodings=[request.param])
    assert session.encoding == request.param
    session.open(URI, TEXT)
    return session


async def test_diagnostic_range_after_wide_characters(usession: Session):
    diags = await usession.diagnostics(URI)
    start = find(TEXT, "nöpe😀")
    assert [(d.code, d.range) for d in diags] == [
        ("POSE_RELATIVE_TO_INVALID", usession.range(URI, start, start + len("nöpe😀")))
    ]
    # the character offsets really differ between encodings
    expected_char = {"utf-8": 54, "utf-16": 49, "utf-32": 48}[usession.encoding]
    assert diags[0].range.start.character == expected_char


async def test_incremental_edits_after_wide_characters(usession: Session):
    await usession.diagnostics(URI)
    comment = find(TEXT, "😀中é-->")
    usession.replace(URI, comment + 3, comment + 3, "ü😀")  # grow the comment before the reference
    diags = await usession.diagnostics(URI)
    start = find(usession.texts[URI], "nöpe😀")
    assert [d.range for d in diags] == [usession.range(URI, start, start + len("nöpe😀"))]
    usession.replace(URI, start, start + len("nöpe😀"), "bras_é中😀")  # now it names the link
    assert await usession.diagnostics(URI) == []
    assert usession.texts[URI].count("bras_é中😀") == 4


NAME = "bras_é中😀"


def _td() -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=URI)


async def test_features_after_wide_characters(usession: Session):
    s = usession
    decl = find(TEXT, NAME)
    ref = find(TEXT, NAME, within='<link name="main">')  # after <!--é中😀--> on the same line
    attached = find(TEXT, NAME, within='<frame name="f😀"')
    end = ref + len(NAME)  # the cursor right after the emoji

    hover = await s.client.text_document_hover_async(types.HoverParams(text_document=_td(), position=s.pos(URI, end)))
    assert hover.range == s.range(URI, ref, end)

    definition = await s.client.text_document_definition_async(
        types.DefinitionParams(text_document=_td(), position=s.pos(URI, end - 1))
    )
    assert [d.range for d in definition] == [s.range(URI, decl, decl + len(NAME))]

    refs = await s.client.text_document_references_async(
        types.ReferenceParams(
            text_document=_td(), position=s.pos(URI, ref + 6), context=types.ReferenceContext(include_declaration=True)
        )
    )
    assert [r.range for r in refs] == [s.range(URI, x, x + len(NAME)) for x in (decl, ref, attached)]

    completion = await s.client.text_document_completion_async(
        types.CompletionParams(text_document=_td(), position=s.pos(URI, end))
    )
    item = next(i for i in completion_items(completion) if i.label == NAME)
    assert item.text_edit.range == s.range(URI, ref, end)

    edit = await s.client.text_document_rename_async(
        types.RenameParams(text_document=_td(), position=s.pos(URI, end), new_name="avant_😀bras")
    )
    renamed = apply_edits(TEXT, edits_for(edit, URI), s.encoding)
    assert renamed == TEXT.replace(NAME, "avant_😀bras")

    symbols = await s.client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=_td()))
    link = next(c for c in symbols[0].children if c.name == NAME)
    assert link.selection_range == s.range(URI, decl, decl + len(NAME))
