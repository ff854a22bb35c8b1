"""Position encodings: negotiation and every conversion, with é (2 UTF-8 bytes), 中 (3) and 😀 (4 bytes, 2 UTF-16 units)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import Session, find, fixture_text, fixture_uri

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
    assert [(d.code, d.range) for d in diags] == [("POSE_RELATIVE_TO_INVALID", usession.range(URI, start, start + len("nöpe😀")))]
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
