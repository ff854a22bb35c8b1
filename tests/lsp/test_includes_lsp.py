"""Model composition over LSP: document links, the include hover, inc:: names, the file boundary, and staying current.

Each test builds its own workspace in ``tmp_path`` (model directories with
a model.config), so files can be changed on disk without touching the
fixtures.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Callable

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import Session, completion_items, find, pos

GRIPPER = """<?xml version="1.0"?>
<sdf version="1.12">
  <model name="gripper">
    <link name="palm"/>
    <frame name="tip" attached_to="palm">
      <pose relative_to="palm">0 0 0.1 0 0 0</pose>
    </frame>
  </model>
</sdf>
"""

FINGER = """<?xml version="1.0"?>
<sdf version="1.12">
  <model name="finger">
    <link name="knuckle"/>
    <frame name="nail" attached_to="knuckle"/>
  </model>
</sdf>
"""

ROBOT = """<?xml version="1.0"?>
<sdf version="1.12">
  <model name="robot">
    <link name="base"/>
    <include>
      <uri>model://gripper</uri>
      <name>hand</name>
      <pose relative_to="base">0 0 1 0 0 0</pose>
    </include>
    <include merge="true">
      <uri>model://finger</uri>
    </include>
    <frame name="grasp" attached_to="hand::tip"/>
    <frame name="pad" attached_to="nail"/>
  </model>
</sdf>
"""


def model_dir(models: Path, name: str, text: str) -> Path:
    d = models / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "model.config").write_text(
        f'<?xml version="1.0"?>\n<model><name>{name}</name><sdf version="1.12">model.sdf</sdf></model>\n',
        encoding="utf-8",
    )
    (d / "model.sdf").write_text(text, encoding="utf-8")
    return d / "model.sdf"


class Workspace:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.models = root / "models"
        self.gripper = model_dir(self.models, "gripper", GRIPPER)
        self.finger = model_dir(self.models, "finger", FINGER)
        self.robot = root / "robot.sdf"
        self.robot.write_text(ROBOT, encoding="utf-8")
        self.uri = self.robot.as_uri()


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)


async def start(lsp: LanguageClient, editor: str, ws: Workspace, open_robot: bool = True, **kw) -> Session:
    s = await Session.start(lsp, editor, init_options={"resourcePaths": [str(ws.models)]}, **kw)
    if open_robot:
        s.open(ws.uri, ROBOT)
    return s


def td(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def file_range(text: str, needle: str, encoding: str, word: str | None = None) -> types.Range:
    start = find(text, needle) + (needle.index(word) if word else 0)
    return types.Range(start=pos(text, start, encoding), end=pos(text, start + len(word or needle), encoding))


async def eventually(
    s: Session, uri: str, check: Callable[[list[types.Diagnostic]], bool], timeout: float = 10.0
) -> list[types.Diagnostic]:
    """The document's diagnostics once ``check`` holds (push: the latest published; pull: pulled again)."""
    deadline = time.monotonic() + timeout
    diags: list[types.Diagnostic] = []
    while time.monotonic() < deadline:
        if s.pull:
            diags = await s.diagnostics(uri)
        else:
            published = [p for p in s.client.published if p.uri == uri]  # type: ignore[attr-defined]
            diags = list(published[-1].diagnostics) if published else []
            if not published:
                await asyncio.sleep(0.01)
                continue
        if check(diags):
            return diags
        await asyncio.sleep(0.02)
    raise AssertionError(f"diagnostics of {uri} never satisfied the check; last: {diags}")


def on_uri(s: Session, uri: str) -> Callable[[list[types.Diagnostic]], bool]:
    """An error on the <uri> of the gripper include."""
    target = s.span_of(uri, "model://gripper")
    return lambda diags: any(d.range == target and d.severity == types.DiagnosticSeverity.Error for d in diags)


def clean(diags: list[types.Diagnostic]) -> bool:
    return diags == []


# -- document links -----------------------------------------------------------------------


async def test_document_links_go_to_the_model_files(lsp: LanguageClient, editor: str, ws: Workspace):
    s = await start(lsp, editor, ws, open_robot=False)
    text = ROBOT.replace("</model>\n</sdf>", "  <include><uri>model://nowhere</uri></include>\n  </model>\n</sdf>")
    s.open(ws.uri, text)
    links = await s.client.text_document_document_link_async(types.DocumentLinkParams(text_document=td(ws.uri)))
    assert [(l.range, l.target) for l in links] == [
        (s.span_of(ws.uri, "model://gripper"), ws.gripper.as_uri()),
        (s.span_of(ws.uri, "model://finger"), ws.finger.as_uri()),
    ]  # model://nowhere does not resolve: no link
    if editor == "visual-studio-code":  # it declares tooltipSupport
        assert "model.config" in links[0].tooltip
    else:
        assert links[0].tooltip is None


async def test_no_links_without_includes_that_resolve(lsp: LanguageClient, editor: str, ws: Workspace):
    empty = ws.root / "empty"
    empty.mkdir()
    s = await Session.start(
        lsp, editor, workspace=empty
    )  # no resourcePaths, no model directories: model:// finds nothing
    s.open(ws.uri, ROBOT)
    assert await s.client.text_document_document_link_async(types.DocumentLinkParams(text_document=td(ws.uri))) is None


# -- hover, completion, definition, references --------------------------------------------


async def test_hover_on_an_include(lsp: LanguageClient, editor: str, ws: Workspace):
    s = await start(lsp, editor, ws)
    hover = await s.client.text_document_hover_async(
        types.HoverParams(text_document=td(ws.uri), position=s.at(ws.uri, "model://gripper", delta=4))
    )
    assert hover is not None and hover.range == s.span_of(ws.uri, "model://gripper")
    text = hover.contents.value
    assert f"File: `{ws.gripper}`" in text
    assert f"found in the search directory `{ws.models}`" in text
    assert "Model `hand` (named `gripper` in its file" in text
    assert "`hand::tip` (frame): xyz `0 0 1.1`" in text
    merged = await s.client.text_document_hover_async(
        types.HoverParams(text_document=td(ws.uri), position=s.at(ws.uri, "<include merge", delta=3))
    )
    assert "`nail` (frame)" in merged.contents.value and "_merged__" not in merged.contents.value


async def test_hover_on_an_unresolved_include_says_where_it_looked(lsp: LanguageClient, editor: str, ws: Workspace):
    empty = ws.root / "empty"
    empty.mkdir()
    s = await Session.start(lsp, editor, init_options={"resourcePaths": [str(ws.root / "elsewhere")]}, workspace=empty)
    s.open(ws.uri, ROBOT)
    hover = await s.client.text_document_hover_async(
        types.HoverParams(text_document=td(ws.uri), position=s.at(ws.uri, "model://gripper", delta=4))
    )
    assert "Not found." in hover.contents.value and f"`{ws.root / 'elsewhere'}`" in hover.contents.value


async def test_completion_offers_included_names(lsp: LanguageClient, editor: str, ws: Workspace):
    s = await start(lsp, editor, ws)
    result = await s.client.text_document_completion_async(
        types.CompletionParams(text_document=td(ws.uri), position=s.at(ws.uri, "hand::tip"))
    )
    labels = {i.label for i in completion_items(result)}
    assert {"hand", "hand::palm", "hand::tip", "hand::__model__", "knuckle", "nail", "base"} <= labels
    assert not any("_merged__" in label for label in labels)
    item = next(i for i in completion_items(result) if i.label == "hand::tip")
    assert item.text_edit.range == s.span_of(ws.uri, "hand::tip")


async def test_definition_and_references_reach_into_the_included_file(lsp: LanguageClient, editor: str, ws: Workspace):
    s = await start(lsp, editor, ws)
    tip = file_range(GRIPPER, '"tip"', s.encoding, "tip")
    result = await s.client.text_document_definition_async(
        types.DefinitionParams(text_document=td(ws.uri), position=s.at(ws.uri, "tip", within="hand::"))
    )
    assert result == [types.Location(uri=ws.gripper.as_uri(), range=tip)]
    nail = await s.client.text_document_definition_async(
        types.DefinitionParams(text_document=td(ws.uri), position=s.at(ws.uri, "nail", delta=1))
    )
    assert nail == [types.Location(uri=ws.finger.as_uri(), range=file_range(FINGER, '"nail"', s.encoding, "nail"))]
    refs = await s.client.text_document_references_async(
        types.ReferenceParams(
            text_document=td(ws.uri),
            position=s.at(ws.uri, "tip", within="hand::"),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert list(refs) == [
        types.Location(uri=ws.gripper.as_uri(), range=tip),
        types.Location(uri=ws.uri, range=s.span_of(ws.uri, "tip", within="hand::")),
    ]


async def test_rename_across_the_file_boundary_is_refused_with_the_file(
    lsp: LanguageClient, editor: str, ws: Workspace
):
    s = await start(lsp, editor, ws)
    p = s.at(ws.uri, "tip", within="hand::")
    message = f"'hand::tip' is defined in {ws.gripper}; open that file to rename it"
    with pytest.raises(JsonRpcException) as info:
        await s.client.text_document_rename_async(
            types.RenameParams(text_document=td(ws.uri), position=p, new_name="finger_tip")
        )
    assert info.value.code == types.LSPErrorCodes.RequestFailed and info.value.message == message
    with pytest.raises(JsonRpcException) as info:
        await s.client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=td(ws.uri), position=p)
        )
    assert info.value.code == types.LSPErrorCodes.RequestFailed and info.value.message == message
    # the include's own name is this file's to rename
    prepared = await s.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=td(ws.uri), position=s.at(ws.uri, "hand", within="<name>"))
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder) and prepared.placeholder == "hand"


# -- staying current ----------------------------------------------------------------------------


async def test_editing_an_open_included_file_rechecks_its_includer(lsp: LanguageClient, editor: str, ws: Workspace):
    s = await start(lsp, editor, ws)
    assert await s.diagnostics(ws.uri) == []
    model_uri = ws.gripper.as_uri()
    s.open(model_uri, GRIPPER)
    assert await s.diagnostics(model_uri) == []
    # an unsaved typo in the included file: the includer reports it on its <uri>
    at = find(GRIPPER, 'attached_to="palm"') + len('attached_to="')
    s.replace(model_uri, at, at + 4, "plam")
    broken = s.texts[model_uri]
    diags = await eventually(s, ws.uri, on_uri(s, ws.uri))
    problem = next(d for d in diags if d.range == s.span_of(ws.uri, "model://gripper"))
    assert "plam" in problem.message
    if editor == "visual-studio-code":  # related information points into the buffer's text
        plam = find(broken, "plam")
        assert any(
            r.location.uri == model_uri
            and r.location.range
            == types.Range(start=pos(broken, plam, s.encoding), end=pos(broken, plam + 4, s.encoding))
            for r in problem.related_information
        )
    assert ws.gripper.read_text(encoding="utf-8") == GRIPPER  # nothing was saved
    # fixed in the buffer: the diagnostic goes away
    s.replace(model_uri, at, at + 4, "palm")
    await eventually(s, ws.uri, clean)
    # broken again, then closed without saving: the includer reads the disk again
    s.replace(model_uri, at, at + 4, "plam")
    await eventually(s, ws.uri, on_uri(s, ws.uri))
    s.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=td(model_uri)))
    await eventually(s, ws.uri, clean)


async def test_opening_an_included_file_with_other_text_rechecks_its_includer(
    lsp: LanguageClient, editor: str, ws: Workspace
):
    s = await start(lsp, editor, ws)
    assert await s.diagnostics(ws.uri) == []
    # e.g. an editor restoring an unsaved buffer: its text, not the disk's, counts
    s.open(ws.gripper.as_uri(), GRIPPER.replace('attached_to="palm"', 'attached_to="plam"'))
    await eventually(s, ws.uri, on_uri(s, ws.uri))


async def test_watched_file_changes_recheck_includers(lsp: LanguageClient, editor: str, ws: Workspace):
    s = await start(lsp, editor, ws, open_robot=False)
    text = ROBOT.replace(
        "</model>\n</sdf>", "  <include><uri>model://later</uri><name>later</name></include>\n  </model>\n</sdf>"
    )
    s.open(ws.uri, text)
    later = s.span_of(ws.uri, "model://later")
    diags = await s.diagnostics(ws.uri)
    assert [d.code for d in diags] == ["URI_LOOKUP"] and diags[0].range == later
    # a file changed on disk (by git, another tool...): reported by the client's watcher
    ws.gripper.write_text(GRIPPER.replace('attached_to="palm"', 'attached_to="plam"'), encoding="utf-8")
    s.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=ws.gripper.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    await eventually(s, ws.uri, on_uri(s, ws.uri))
    # a model directory created in a search directory resolves the include that was not found
    model_dir(ws.models, "later", FINGER.replace('name="finger"', 'name="later"'))
    s.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(uri=(ws.models / "later" / "model.config").as_uri(), type=types.FileChangeType.Created),
                types.FileEvent(uri=(ws.models / "later" / "model.sdf").as_uri(), type=types.FileChangeType.Created),
            ]
        )
    )
    await eventually(s, ws.uri, lambda ds: all(d.range != later for d in ds))
    # and the gripper repaired on disk
    ws.gripper.write_text(GRIPPER, encoding="utf-8")
    s.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=ws.gripper.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    await eventually(s, ws.uri, clean)


async def test_file_watchers_are_registered_for_clients_that_allow_it(lsp: LanguageClient, editor: str, ws: Workspace):
    s = await start(lsp, editor, ws)
    await s.diagnostics(ws.uri)
    registrations = s.client.registrations  # type: ignore[attr-defined]
    if editor == "visual-studio-code":  # workspace.didChangeWatchedFiles.dynamicRegistration: true
        deadline = time.monotonic() + 5
        while not registrations and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        (reg,) = registrations
        assert reg.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        globs = [w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in reg.register_options["watchers"]]
        assert globs == [
            "**/*.sdf",
            "**/*.world",
            "**/*.urdf",
            "**/*.xacro",
            "**/*.xml",
            "**/model.config",
            "**/sdformat-lsp.toml",
            "**/pyproject.toml",
        ]
    else:  # Neovim 0.11 on Linux declares dynamicRegistration: false
        await asyncio.sleep(0.2)
        assert registrations == []


async def test_an_edit_after_an_included_file_changed_is_checked_against_the_new_file(
    lsp: LanguageClient, editor: str, ws: Workspace
):
    """Edits of a document with includes are checked incrementally (semantics/incremental.py), from the
    last result; an included file changed on disk makes that result stale: the next check reads it again,
    and so does every edit after it."""
    s = await start(lsp, editor, ws, open_robot=False)
    if s.pull:
        pytest.skip("the published versions tell the checks apart")
    text = ROBOT.replace('<include merge="true">\n      <uri>model://finger</uri>\n    </include>\n', "")
    text = text.replace('    <frame name="pad" attached_to="nail"/>\n', "")
    s.open(ws.uri, text)
    value = s.texts[ws.uri].index("0 0 1 0 0 0")

    async def published(version: int) -> list[types.Diagnostic]:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            got = [p for p in s.client.published if p.uri == ws.uri and p.version == version]  # type: ignore[attr-defined]
            if got:
                return list(got[-1].diagnostics)
            await asyncio.sleep(0.01)
        raise AssertionError(f"version {version} never published")

    def changed(path: Path) -> None:
        s.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=path.as_uri(), type=types.FileChangeType.Changed)]
            )
        )

    assert await published(1) == []
    assert await published(s.replace(ws.uri, value, value + 1, "2")) == []  # a pose value: incremental
    ws.gripper.write_text(GRIPPER.replace('attached_to="palm"', 'attached_to="plam"'), encoding="utf-8")
    changed(ws.gripper)
    await eventually(s, ws.uri, on_uri(s, ws.uri))
    for digit in "345":  # each edit after it: the gripper as it is now
        assert on_uri(s, ws.uri)(await published(s.replace(ws.uri, value, value + 1, digit)))
    ws.gripper.write_text(GRIPPER, encoding="utf-8")
    changed(ws.gripper)
    await eventually(s, ws.uri, clean)
    assert await published(s.replace(ws.uri, value, value + 1, "6")) == []
