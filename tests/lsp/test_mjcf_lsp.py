"""An MJCF (MuJoCo) document in the editor over LSP: go from a name an attribute writes (an actuator's
joint, an equality's joints, a sensor's site, a geom's or a geom class's material, a childclass) to the
element defining it, into an included file too; every use of it; hover; rename in every place."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from .conftest import Session, fixture_text, fixture_uri

URI = fixture_uri("mjcf/gripper.xml")
TEXT = fixture_text("mjcf/gripper.xml")
MATERIALS = Path(fixture_uri("mjcf/materials.xml")[len("file://") :])


def td(uri: str = URI) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def _locations(result) -> list[types.Location]:
    if result is None:
        return []
    return list(result) if isinstance(result, list) else [result]


@pytest.fixture
async def gripper(session: Session) -> Session:
    session.open(URI, TEXT)
    return session


async def test_an_mjcf_document_has_no_error_and_its_names_lead_to_their_definitions(gripper: Session):
    assert [d for d in await gripper.diagnostics(URI) if d.severity == types.DiagnosticSeverity.Error] == []
    cases = [
        ('joint="left_slide"', "left_slide", '<joint name="left_slide"/>'),  # an actuator's joint
        ('joint2="right_slide"', "right_slide", '<joint name="right_slide"/>'),  # an equality's second joint
        ('objname="grasp"', "grasp", '<site name="grasp"'),  # a sensor's object, as its objtype says
        ('childclass="finger"', "finger", '<default class="finger">'),  # a class, at its <default>
    ]
    for within, name, declared in cases:
        p = gripper.at(URI, name, within=within)
        (loc,) = _locations(
            await gripper.client.text_document_definition_async(types.DefinitionParams(text_document=td(), position=p))
        )
        assert loc.uri == URI and loc.range == gripper.span_of(URI, name, within=declared), within
    # a material written in a geom class, defined in the included file
    p = gripper.at(URI, "steel", within='material="steel"')
    with pytest.raises(Exception, match="materials.xml"):  # said at prepareRename already, naming the file
        await gripper.client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=td(), position=p)
        )
    (loc,) = _locations(
        await gripper.client.text_document_definition_async(types.DefinitionParams(text_document=td(), position=p))
    )
    assert loc.uri == MATERIALS.as_uri()
    included = MATERIALS.read_text()
    start = included.index('name="steel"') + len('name="')
    assert loc.range.start == types.Position(
        line=included.count("\n", 0, start), character=start - included.rfind("\n", 0, start) - 1
    )


async def test_references_hover_and_rename_of_mjcf_names(gripper: Session):
    p = gripper.at(URI, "left_slide", within='<joint name="left_slide"/>')
    refs = await gripper.client.text_document_references_async(
        types.ReferenceParams(text_document=td(), position=p, context=types.ReferenceContext(include_declaration=True))
    )
    assert sorted((r.range.start.line, r.range.start.character) for r in refs) == sorted(
        (
            gripper.span_of(URI, "left_slide", within=w).start.line,
            gripper.span_of(URI, "left_slide", within=w).start.character,
        )
        for w in ('<joint name="left_slide"/>', 'joint1="left_slide"', 'joint="left_slide"')
    )
    # a class: its <default> and both childclass attributes
    p = gripper.at(URI, "finger", within='<default class="finger">')
    refs = await gripper.client.text_document_references_async(
        types.ReferenceParams(text_document=td(), position=p, context=types.ReferenceContext(include_declaration=False))
    )
    assert len(refs) == 2
    # hover on the sensor's site: the pose MuJoCo gives it (palm at z 0.5, the site 0.06 below)
    hover = await gripper.client.text_document_hover_async(
        types.HoverParams(text_document=td(), position=gripper.at(URI, "grasp", within='objname="grasp"'))
    )
    text = hover.contents.value if isinstance(hover.contents, types.MarkupContent) else str(hover.contents)
    assert "grasp" in text and "0.44" in text
    assert hover.range == gripper.span_of(URI, "grasp", within='objname="grasp"')
    # hover on a material: where it is defined
    hover = await gripper.client.text_document_hover_async(
        types.HoverParams(text_document=td(), position=gripper.at(URI, "rubber", within='material="rubber"'))
    )
    text = hover.contents.value if isinstance(hover.contents, types.MarkupContent) else str(hover.contents)
    assert "material" in text and "materials.xml" in text
    # hover on a childclass: what the class gives
    hover = await gripper.client.text_document_hover_async(
        types.HoverParams(text_document=td(), position=gripper.at(URI, "finger", within='childclass="finger"'))
    )
    text = hover.contents.value if isinstance(hover.contents, types.MarkupContent) else str(hover.contents)
    assert "axis, range, type" in text and "material, size, type" in text and "main" in text
    # rename the joint at the actuator: its definition, the equality and the actuator
    p = gripper.at(URI, "left_slide", within='joint="left_slide"')
    prepared = await gripper.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=td(), position=p)
    )
    assert prepared is not None
    edit = await gripper.client.text_document_rename_async(
        types.RenameParams(text_document=td(), position=p, new_name="left_finger_slide")
    )
    changes = {c.text_document.uri: c.edits for c in edit.document_changes} if edit.document_changes else edit.changes
    assert len(changes[URI]) == 3 and all(e.new_text == "left_finger_slide" for e in changes[URI])
    # a name taken by another joint is refused, with why
    with pytest.raises(Exception, match="already named 'right_slide'"):
        await gripper.client.text_document_rename_async(
            types.RenameParams(text_document=td(), position=p, new_name="right_slide")
        )
    # a material also written in the included file is not renamed from here
    p = gripper.at(URI, "steel", within='material="steel"')
    with pytest.raises(Exception, match="materials.xml"):  # said at prepareRename already, naming the file
        await gripper.client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=td(), position=p)
        )
    with pytest.raises(Exception, match="included file"):
        await gripper.client.text_document_rename_async(
            types.RenameParams(text_document=td(), position=p, new_name="iron")
        )
