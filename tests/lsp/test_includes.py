"""resourcePaths end to end: model:// includes, locations in included files, re-checks on save."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import FIXTURES, Session, find, fixture_text, fixture_uri, pos

URI = fixture_uri("with_include.sdf")
TEXT = fixture_text("with_include.sdf")
MODEL = FIXTURES / "models" / "gripper" / "model.sdf"


def td(uri: str = URI) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def test_without_resource_paths_the_uri_is_not_found(lsp: LanguageClient, editor: str, tmp_path: Path):
    s = await Session.start(lsp, editor, workspace=tmp_path)  # a workspace without model directories
    s.open(URI, TEXT)
    diags = await s.diagnostics(URI)
    lookup = next(d for d in diags if d.code == "URI_LOOKUP")
    assert lookup.range == s.span_of(URI, "model://gripper")
    if editor == "visual-studio-code":
        assert lookup.code_description.href == "http://sdformat.org/tutorials?tut=composition_proposal"


async def test_relative_resource_paths_resolve_against_the_workspace(lsp: LanguageClient, editor: str):
    s = await Session.start(lsp, editor, init_options={"sdformat": {"resourcePaths": ["models"]}})
    s.open(URI, TEXT)
    assert await s.diagnostics(URI) == []
    # go to definition lands in the included file, at the exact name
    result = await s.client.text_document_definition_async(
        types.DefinitionParams(text_document=td(), position=s.at(URI, "tip", within="hand::"))
    )
    model_text = MODEL.read_text(encoding="utf-8")
    tip = find(model_text, "tip")
    assert result == [
        types.Location(
            uri=MODEL.as_uri(),
            range=types.Range(start=pos(model_text, tip, s.encoding), end=pos(model_text, tip + 3, s.encoding)),
        )
    ]


async def test_resource_paths_from_did_change_configuration(lsp: LanguageClient, editor: str, tmp_path: Path):
    s = await Session.start(lsp, editor, configuration={}, workspace=tmp_path)
    s.open(URI, TEXT)
    assert any(d.code == "URI_LOOKUP" for d in await s.diagnostics(URI))
    s.client.set_configuration({"resourcePaths": [str(FIXTURES / "models")]}, section="sdformat")
    s.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    if s.pull:
        assert await s.diagnostics(URI) == []
    else:
        for _ in range(500):
            last = [p for p in s.client.published if p.uri == URI][-1]
            if not last.diagnostics:
                break
            await asyncio.sleep(0.01)
        assert list(last.diagnostics) == [] and last.version == 1


async def test_saving_an_included_file_rechecks_its_includers(lsp: LanguageClient, editor: str, tmp_path: Path):
    models = tmp_path / "models"
    shutil.copytree(FIXTURES / "models", models)
    includer = tmp_path / "robot.sdf"
    includer.write_text(TEXT, encoding="utf-8")
    uri = includer.as_uri()
    s = await Session.start(lsp, editor, init_options={"resourcePaths": [str(models)]})
    s.open(uri, TEXT)
    assert await s.diagnostics(uri) == []
    published = len(s.client.published)

    model = models / "gripper" / "model.sdf"
    broken = model.read_text(encoding="utf-8").replace('attached_to="palm"', 'attached_to="plam"')
    model.write_text(broken, encoding="utf-8")
    s.client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=td(model.as_uri())))

    if not s.pull:
        for _ in range(500):
            if len(s.client.published) > published:
                break
            await asyncio.sleep(0.01)
    diags = await s.diagnostics(uri)
    problem = next(d for d in diags if d.range == s.span_of(uri, "model://gripper"))
    assert problem.severity == types.DiagnosticSeverity.Error
    # the root cause is pointed at inside the included file, in the client's encoding
    related = problem.related_information
    assert related, problem
    inside = [r for r in related if r.location.uri == model.as_uri()]
    plam = find(broken, "plam")
    assert inside and inside[0].location.range == types.Range(
        start=pos(broken, plam, s.encoding), end=pos(broken, plam + 4, s.encoding)
    )


async def test_model_directories_in_the_workspace_are_found_without_configuration(
    lsp: LanguageClient, editor: str, tmp_path: Path
):
    # A repository laid out as Gazebo users lay it out: models/NAME/model.config, worlds elsewhere.
    shutil.copytree(FIXTURES / "models", tmp_path / "models")
    (tmp_path / "worlds").mkdir()
    world = tmp_path / "worlds" / "robot.sdf"
    world.write_text(TEXT, encoding="utf-8")
    s = await Session.start(lsp, editor, workspace=tmp_path)
    s.open(world.as_uri(), TEXT)
    assert await s.diagnostics(world.as_uri()) == []
