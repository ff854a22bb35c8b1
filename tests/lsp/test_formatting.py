"""textDocument/formatting and rangeFormatting over LSP: the formatter's minimal edits."""

from __future__ import annotations

from lsprotocol import types

from sdformat_lsp.formatting import FormatOptions, format_text

from .conftest import Session, apply_edits

URI = "file:///tmp/sdformat-format-test/messy.sdf"
# Non-ASCII before the edits, so that a wrong position encoding would show.
TEXT = (
    '<?xml version="1.0"?>\r\n<sdf version="1.9">\r\n<model name="m😀">   \r\n'
    "      <link name='l'>\r\n   <pose>1 2 3 0 0 0</pose>\r\n      </link>\r\n"
    '<plugin name="p" filename="f">\r\n      <keep>  x </keep>\r\n</plugin>\r\n</model>\r\n</sdf>\r\n'
)
OPTIONS = types.FormattingOptions(tab_size=4, insert_spaces=True)


def td() -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=URI)


async def test_formatting_returns_edits_that_give_the_formatted_text(session: Session):
    session.open(URI, TEXT)
    edits = await session.client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=td(), options=OPTIONS)
    )
    assert edits
    assert all(e.new_text.strip() == "" for e in edits)  # only white space is touched
    result = apply_edits(TEXT, edits, session.encoding)
    assert result == format_text(TEXT, FormatOptions(indent_size=4))
    assert "\r\n        <link name='l'>\r\n" in result and "\r\n      <keep>  x </keep>\r\n" in result


async def test_tabs_and_an_already_formatted_document(session: Session):
    session.open(URI, format_text(TEXT, FormatOptions(use_tabs=True)))
    tabs = types.FormattingOptions(tab_size=8, insert_spaces=False)
    edits = await session.client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=td(), options=tabs)
    )
    assert not edits  # nothing to change: no edits at all


async def test_range_formatting_touches_only_the_lines_asked_for(session: Session):
    session.open(URI, TEXT)
    # Line 4 (0-based): "   <pose>1 2 3 0 0 0</pose>"
    rng = types.Range(start=types.Position(line=4, character=0), end=types.Position(line=4, character=3))
    edits = await session.client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(text_document=td(), range=rng, options=OPTIONS)
    )
    assert edits and {e.range.start.line for e in edits} == {4}
    lines = apply_edits(TEXT, edits, session.encoding).split("\r\n")
    assert lines[4] == "            <pose>1 2 3 0 0 0</pose>"
    assert lines[3] == "      <link name='l'>"  # untouched


async def test_malformed_documents_get_no_edits(session: Session):
    session.open(URI, '<sdf version="1.9">\n<model name="m">\n   <link name="l">\n</model>\n</sdf>\n')
    edits = await session.client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=td(), options=OPTIONS)
    )
    assert not edits


async def test_the_server_offers_both(session: Session):
    caps = session.result.capabilities
    assert caps.document_formatting_provider and caps.document_range_formatting_provider


async def test_the_configuration_files_format_table_wins_over_the_editors_options(lsp, editor: str, tmp_path):
    """Where the project's file sets a key it decides (every editor formats alike); the editor's options fill the rest."""
    messy = '<sdf version="1.9">\n<model name="m">\n<link name="l"/>\n</model>\n</sdf>\n'
    (tmp_path / "tabs").mkdir()
    (tmp_path / "tabs" / "sdformat-lsp.toml").write_text('[format]\nindent-style = "tab"\n')
    (tmp_path / "wide").mkdir()
    (tmp_path / "wide" / "pyproject.toml").write_text("[tool.sdformat-lsp.format]\nindent-width = 3\n")
    (tmp_path / "none").mkdir()
    s = await Session.start(lsp, editor)

    async def formatted(folder: str, options: types.FormattingOptions) -> str:
        doc = tmp_path / folder / "w.sdf"
        doc.write_text(messy)
        s.open(doc.as_uri(), messy)
        edits = await s.client.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=types.TextDocumentIdentifier(uri=doc.as_uri()), options=options
            )
        )
        return apply_edits(messy, edits or [], s.encoding)

    spaces4 = types.FormattingOptions(tab_size=4, insert_spaces=True)
    assert "\n\t\t<link" in await formatted("tabs", spaces4)  # the file's style; the editor's width is moot
    assert "\n      <link" in await formatted(
        "wide", types.FormattingOptions(tab_size=8, insert_spaces=True)
    )  # 3 from the file
    assert "\n\t\t<link" in await formatted(
        "wide", types.FormattingOptions(tab_size=8, insert_spaces=False)
    )  # style unset: the editor's tabs
    assert "\n        <link" in await formatted("none", spaces4)  # no file: the editor's options
    # range formatting reads the same file
    doc = tmp_path / "tabs" / "w.sdf"
    rng = types.Range(start=types.Position(line=2, character=0), end=types.Position(line=2, character=1))
    edits = await s.client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=doc.as_uri()), range=rng, options=spaces4
        )
    )
    assert apply_edits(messy, edits or [], s.encoding).split("\n")[2] == '\t\t<link name="l"/>'
