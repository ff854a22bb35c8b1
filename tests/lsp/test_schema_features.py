"""Schema completion and hover over LSP: snippets for clients that take them, plain text for the others."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import Session, completion_items, find

URI = "file:///schema_features/robot.sdf"
TEXT = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="robot_é">
    <link name="base_中"/>
    <link name="arm">
      <li
    </link>
    <joint name="j" type="fixed"><parent>base_中</parent><child>arm</child></joint>
  </model>
</sdf>
"""


def td() -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=URI)


async def _complete(s: Session, offset: int) -> list[types.CompletionItem]:
    result = await s.client.text_document_completion_async(
        types.CompletionParams(text_document=td(), position=s.pos(URI, offset))
    )
    assert result is not None
    return completion_items(result)


async def test_half_typed_element_completes_as_a_snippet(session: Session):
    session.open(URI, TEXT)
    cursor = find(TEXT, "<li\n") + 3
    items = {i.label: i for i in await _complete(session, cursor)}
    assert {"visual", "collision", "inertial", "sensor"} <= set(items)
    visual = items["visual"]
    assert visual.kind == types.CompletionItemKind.Property
    assert visual.insert_text_format == types.InsertTextFormat.Snippet
    assert visual.text_edit.range == session.range(URI, cursor - 2, cursor)  # the typed name, after '<'
    assert visual.text_edit.new_text.startswith('visual name="$1">')
    assert "<geometry>" in visual.text_edit.new_text


async def test_plain_text_for_clients_without_snippets(lsp: LanguageClient):
    def no_snippets(caps: types.ClientCapabilities) -> None:
        caps.text_document.completion.completion_item.snippet_support = False

    s = await Session.start(lsp, "visual-studio-code", tweak=no_snippets)
    s.open(URI, TEXT)
    cursor = find(TEXT, "<li\n") + 3
    items = {i.label: i for i in await _complete(s, cursor)}
    visual = items["visual"]
    assert visual.insert_text_format in (None, types.InsertTextFormat.PlainText)
    assert "$" not in visual.text_edit.new_text
    assert visual.text_edit.new_text.startswith('visual name="">')
    # attribute values: a joint's type
    text = s.texts[URI]
    at = find(text, 'type="fixed"') + len('type="')
    values = [i.label for i in await _complete(s, at)]
    assert values[:2] == ["revolute", "prismatic"] and "fixed" in values


async def test_attribute_names_and_frame_names_keep_priority(session: Session):
    session.open(URI, TEXT)
    text = TEXT
    at = find(text, '<joint name="j" ') + len('<joint name="j" ')
    items = await _complete(session, at)
    # on the written name 'type': it may be replaced by a name not yet written, and only the name is
    assert [i.label for i in items] == ["type"]
    assert items[0].text_edit.new_text == "type" and items[0].text_edit.range == session.range(URI, at, at + 4)
    assert items[0].insert_text_format != types.InsertTextFormat.Snippet
    at = find(text, "<parent>") + len("<parent>")
    items = await _complete(session, at)
    assert {"base_中", "arm"} <= {i.label for i in items}
    assert all(i.insert_text_format != types.InsertTextFormat.Snippet for i in items)


async def test_hover_on_a_tag_name_links_the_specification(session: Session):
    session.open(URI, TEXT)
    at = find(TEXT, "<joint") + 2
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=td(), position=session.pos(URI, at))
    )
    assert hover is not None
    assert "http://sdformat.org/spec?ver=1.9&elem=joint" in hover.contents.value
    start = find(TEXT, "<joint") + 1
    assert hover.range == session.range(URI, start, start + len("joint"))
