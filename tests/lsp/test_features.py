"""The editor features over LSP: hover, definition, references, rename, completion, symbols, code actions."""

from __future__ import annotations

import pytest
from lsprotocol import types
import pytest_lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import Session, apply_edits, completion_items, edits_for, find, fixture_text, fixture_uri

URI = fixture_uri("arm.sdf")
TEXT = fixture_text("arm.sdf")


@pytest.fixture
async def arm(session: Session) -> Session:
    session.open(URI, TEXT)
    return session


def td(uri: str = URI) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def name_range(s: Session, name: str, kind: str) -> types.Range:
    """The range of the name value in ``<kind name="name"``."""
    start = find(s.texts[URI], f'<{kind} name="{name}"') + len(f'<{kind} name="')
    return s.range(URI, start, start + len(name))


# -- hover --------------------------------------------------------------------------------


async def test_hover_on_a_reference(arm: Session):
    p = arm.at(URI, "shoulder", delta=2, within='<link name="upper">')
    hover = await arm.client.text_document_hover_async(types.HoverParams(text_document=td(), position=p))
    assert hover is not None
    assert hover.contents.kind == types.MarkupKind.Markdown  # both clients take markdown
    assert "shoulder" in hover.contents.value
    assert hover.range == arm.span_of(URI, "shoulder", within='<link name="upper">')


async def test_hover_plaintext_for_clients_without_markdown(lsp: LanguageClient):
    def plain(caps: types.ClientCapabilities) -> None:
        caps.text_document.hover.content_format = [types.MarkupKind.PlainText]

    s = await Session.start(lsp, "visual-studio-code", tweak=plain)
    s.open(URI, TEXT)
    hover = await s.client.text_document_hover_async(
        types.HoverParams(text_document=td(), position=s.at(URI, "upper", within="<child>"))
    )
    assert hover.contents.kind == types.MarkupKind.PlainText
    assert "**" not in hover.contents.value and "`" not in hover.contents.value


async def test_hover_nowhere_is_none(arm: Session):
    assert (
        await arm.client.text_document_hover_async(types.HoverParams(text_document=td(), position=types.Position(0, 2)))
        is None
    )


# -- definition and references ------------------------------------------------------------


async def test_definition(arm: Session):
    result = await arm.client.text_document_definition_async(
        types.DefinitionParams(text_document=td(), position=arm.at(URI, "upper", delta=1, within="<child>"))
    )
    assert result == [types.Location(uri=URI, range=name_range(arm, "upper", "link"))]
    nothing = await arm.client.text_document_definition_async(
        types.DefinitionParams(text_document=td(), position=types.Position(0, 0))
    )
    assert not nothing


@pytest.mark.parametrize("include_declaration", [True, False])
async def test_references(arm: Session, include_declaration: bool):
    result = await arm.client.text_document_references_async(
        types.ReferenceParams(
            text_document=td(),
            position=name_range(arm, "upper", "link").start,
            context=types.ReferenceContext(include_declaration=include_declaration),
        )
    )
    text = arm.texts[URI]
    expected = [
        arm.span_of(URI, "upper", within="<child>"),
        arm.span_of(URI, "upper", within="attached_to"),
        arm.span_of(URI, "upper", within='relative_to="upper"'),
    ]
    if include_declaration:
        expected.insert(0, name_range(arm, "upper", "link"))
    assert [loc.range for loc in result] == expected
    assert {loc.uri for loc in result} == {URI}
    assert text == TEXT


# -- rename ----------------------------------------------------------------------------------


async def test_prepare_rename_and_rename(arm: Session):
    p = arm.at(URI, "upper", delta=2, within="<child>")
    prepared = await arm.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=td(), position=p)
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder)
    assert prepared.range == arm.span_of(URI, "upper", within="<child>") and prepared.placeholder == "upper"
    edit = await arm.client.text_document_rename_async(
        types.RenameParams(text_document=td(), position=p, new_name="forearm")
    )
    if arm.editor == "visual-studio-code":  # documentChanges: versioned, so a stale edit is refused by the client
        assert edit.document_changes[0].text_document.version == 1
    else:
        assert edit.document_changes is None and URI in edit.changes
    renamed = apply_edits(TEXT, edits_for(edit, URI), arm.encoding)
    assert renamed == TEXT.replace('"upper"', '"forearm"').replace(">upper<", ">forearm<")
    assert "upper" not in renamed


async def test_rename_refused_with_the_reason(arm: Session):
    p = arm.at(URI, "upper", within="<child>")
    with pytest.raises(JsonRpcException) as info:
        await arm.client.text_document_rename_async(types.RenameParams(text_document=td(), position=p, new_name="base"))
    assert info.value.code == types.LSPErrorCodes.RequestFailed
    assert "already has a link named 'base'" in info.value.message
    with pytest.raises(JsonRpcException) as info:
        await arm.client.text_document_rename_async(
            types.RenameParams(text_document=td(), position=p, new_name="__model__")
        )
    assert "reserved" in info.value.message


async def test_prepare_rename_where_nothing_can_be_renamed(arm: Session):
    assert (
        await arm.client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=td(), position=types.Position(0, 3))
        )
        is None
    )


# -- completion -------------------------------------------------------------------------------


async def test_completion_in_a_half_typed_attribute(arm: Session):
    """``relative_to="`` with nothing after it: the tree is broken, completion still works."""
    at = find(TEXT, 'relative_to="shoulder">0 0 0.5')
    end = find(TEXT, "</pose>", within='<link name="upper">') + len("</pose>")
    arm.replace(URI, at, end, 'relative_to="')
    cursor = at + len('relative_to="')
    result = await arm.client.text_document_completion_async(
        types.CompletionParams(text_document=td(), position=arm.pos(URI, cursor))
    )
    labels = [i.label for i in completion_items(result)]
    assert {"base", "shoulder", "__model__"} <= set(labels)
    assert "upper" not in labels  # a frame is not relative to itself
    for item in completion_items(result):
        assert item.text_edit.range == arm.range(URI, cursor, cursor)
        assert item.text_edit.new_text == item.label
    kinds = {i.label: i.kind for i in result.items}
    assert kinds["base"] == types.CompletionItemKind.Class
    assert kinds["shoulder"] == types.CompletionItemKind.Interface


async def test_completion_replaces_the_whole_word(arm: Session):
    start = find(TEXT, "shoulder", within='<link name="upper">')
    result = await arm.client.text_document_completion_async(
        types.CompletionParams(text_document=td(), position=arm.pos(URI, start + 3))
    )
    item = next(i for i in completion_items(result) if i.label == "shoulder")
    assert item.text_edit.range == arm.range(URI, start, start + len("shoulder"))
    assert next(i for i in result.items if i.label == "__model__").kind == types.CompletionItemKind.Module
    assert "tool" not in [i.label for i in result.items]  # posed relative to upper: it would close a cycle


async def test_completion_details_resolve_lazily_or_come_with_the_list(arm: Session):
    """A client that resolves ``detail`` gets each frame's pose on request; others get it in the list."""
    start = find(TEXT, "shoulder", within='<link name="upper">')
    result = await arm.client.text_document_completion_async(
        types.CompletionParams(text_document=td(), position=arm.pos(URI, start + 3))
    )
    base = next(i for i in completion_items(result) if i.label == "base")
    caps = pytest_lsp.client_capabilities(arm.editor)  # what this session's client declared
    props = caps.text_document.completion.completion_item.resolve_support
    if props is not None and "detail" in (props.properties or []):
        assert not base.detail and base.data
        resolved = await arm.client.completion_item_resolve_async(base)
        assert "attached to" in resolved.detail and "xyz" in resolved.detail
    else:
        assert "attached to" in base.detail and "xyz" in base.detail


async def test_no_completion_outside_references(arm: Session):
    result = await arm.client.text_document_completion_async(
        types.CompletionParams(text_document=td(), position=types.Position(1, 3))
    )
    assert not result or not result.items


# -- document symbols -------------------------------------------------------------------------


async def test_document_symbols_are_hierarchical(arm: Session):
    symbols = await arm.client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=td()))
    assert [(s.name, s.kind) for s in symbols] == [("arm", types.SymbolKind.Module)]
    model = symbols[0]
    assert model.selection_range == name_range(arm, "arm", "model")
    assert model.range.start == arm.at(URI, '<model name="arm"')
    assert [(c.name, c.kind) for c in model.children] == [
        ("base", types.SymbolKind.Class),
        ("shoulder", types.SymbolKind.Interface),
        ("upper", types.SymbolKind.Class),
        ("tool", types.SymbolKind.Field),
    ]
    joint = model.children[1]
    assert joint.selection_range == name_range(arm, "shoulder", "joint")
    assert joint.detail and "base -> upper" in joint.detail


async def test_flat_symbols_for_clients_without_hierarchy(lsp: LanguageClient):
    def flat(caps: types.ClientCapabilities) -> None:
        caps.text_document.document_symbol.hierarchical_document_symbol_support = False

    s = await Session.start(lsp, "neovim", tweak=flat)
    s.open(URI, TEXT)
    symbols = await s.client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=td()))
    assert [(x.name, x.container_name) for x in symbols] == [
        ("arm", None),
        ("base", "arm"),
        ("shoulder", "arm"),
        ("upper", "arm"),
        ("tool", "arm"),
    ]
    assert all(isinstance(x, types.SymbolInformation) for x in symbols)


# -- code actions ------------------------------------------------------------------------------

BROKEN_URI = "file:///work/typo.sdf"


async def test_quick_fix_repairs_the_diagnostic(session: Session):
    text = TEXT.replace('relative_to="shoulder"', 'relative_to="sholder"')
    session.open(BROKEN_URI, text)
    diags = await session.diagnostics(BROKEN_URI)
    typo = next(d for d in diags if d.code == "POSE_RELATIVE_TO_INVALID")
    actions = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=td(BROKEN_URI), range=typo.range, context=types.CodeActionContext(diagnostics=[typo])
        )
    )
    assert actions, "expected a quick fix"
    fix = actions[0]
    assert fix.kind == types.CodeActionKind.QuickFix
    assert "shoulder" in fix.title
    assert fix.diagnostics[0].code == typo.code and fix.diagnostics[0].range == typo.range
    fixed = apply_edits(text, edits_for(fix.edit, BROKEN_URI), session.encoding)
    assert fixed == TEXT
    # applying it removes the diagnostic
    session.replace_all(BROKEN_URI, fixed)
    assert await session.diagnostics(BROKEN_URI) == []


async def test_code_actions_respect_only(arm: Session):
    result = await arm.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=td(),
            range=types.Range(start=types.Position(0, 0), end=types.Position(30, 0)),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.Refactor]),
        )
    )
    assert not result


# -- features use the current text, not a stale analysis --------------------------------------


async def test_features_follow_edits_immediately(arm: Session):
    """A request right after an edit (inside the debounce) answers for the edited text."""
    decl = find(TEXT, '<link name="upper"') + len('<link name="')
    arm.replace(URI, decl, decl + len("upper"), "upperarm")
    result = await arm.client.text_document_definition_async(
        types.DefinitionParams(text_document=td(), position=arm.at(URI, "upper", within='relative_to="upper"'))
    )
    assert not result  # 'upper' no longer names anything
    hover = await arm.client.text_document_hover_async(
        types.HoverParams(text_document=td(), position=arm.at(URI, "upperarm"))
    )
    assert hover.range == arm.range(URI, decl, decl + len("upperarm"))


async def test_requests_for_unknown_documents(arm: Session):
    other = td("file:///not/open.sdf")
    assert (
        await arm.client.text_document_hover_async(
            types.HoverParams(text_document=other, position=types.Position(0, 0))
        )
        is None
    )
    assert not await arm.client.text_document_definition_async(
        types.DefinitionParams(text_document=other, position=types.Position(0, 0))
    )
    assert not await arm.client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=other))


async def test_large_completion_lists_are_narrowed_to_the_typed_text(lsp):
    """Over LARGE_COMPLETION frames: the best the typed text can match (those it starts first, in sortText
    order), marked incomplete so the client asks again as the user types on and finds any frame."""
    from sdformat_lsp.server.handlers import LARGE_COMPLETION

    links = "".join(f'<link name="link_{i}"/>' for i in range(600))
    text = f'<sdf version="1.9"><model name="m">{links}<link name="LINK_X"/><link name="a_l_i_n"/>'
    text += '<frame name="F" attached_to="lin"/></model></sdf>'
    s = await Session.start(lsp, "visual-studio-code")

    async def labels_at(typed: str) -> tuple[bool, list[str]]:
        uri = f"file:///large/m_{len(typed)}{typed}.sdf"
        s.open(uri, text.replace('attached_to="lin"', f'attached_to="{typed}"'))
        cursor = text.index('attached_to="') + len('attached_to="') + len(typed)
        result = await s.client.text_document_completion_async(
            types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=s.pos(uri, cursor))
        )
        return result.is_incomplete, [i.label for i in completion_items(result)]

    incomplete, labels = await labels_at("lin")
    assert incomplete and len(labels) == LARGE_COMPLETION
    assert all(label.startswith("link_") for label in labels)  # as typed first: not LINK_X, not a_l_i_n
    incomplete, labels = await labels_at("link_59")
    assert set(labels[:11]) == {"link_59"} | {f"link_59{i}" for i in range(10)}  # then link_459, ...
    incomplete, labels = await labels_at("LINK")
    assert labels[0] == "LINK_X" and len(labels) == LARGE_COMPLETION
    incomplete, labels = await labels_at("lin_x")
    assert set(labels) == {"LINK_X"}  # a subsequence, in any case
    incomplete, labels = await labels_at("")
    assert incomplete and len(labels) == LARGE_COMPLETION and "link_0" in labels
