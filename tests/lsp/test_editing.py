"""The editing aids over LSP: inlay hints, colours, folding, selection ranges, highlights,
linked tag editing, workspace symbols and the ``sdformat/frames`` request."""

from __future__ import annotations

import math

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import Session, apply_edits, find, fixture_text, fixture_uri

URI = fixture_uri("rover.sdf")
TEXT = fixture_text("rover.sdf")


@pytest.fixture
async def rover(session: Session) -> Session:
    session.open(URI, TEXT)
    return session


def td(uri: str = URI) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def plain(x):
    """A custom request's result as plain JSON data (pygls hands it over as named tuples)."""
    if hasattr(x, "_asdict"):
        x = x._asdict()
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


def key(p: types.Position) -> tuple[int, int]:
    return p.line, p.character


def whole(s: Session) -> types.Range:
    return s.range(URI, 0, len(TEXT))


def after(s: Session, needle: str, nth: int = 0) -> types.Position:
    return s.pos(URI, find(TEXT, needle, nth) + len(needle))


async def hints(s: Session) -> list[types.InlayHint]:
    return (
        await s.client.text_document_inlay_hint_async(types.InlayHintParams(text_document=td(), range=whole(s))) or []
    )


# -- inlay hints ---------------------------------------------------------------------------


async def test_inlay_hints_show_poses_relative_to_the_model_frame(rover: Session):
    found = {key(h.position): h for h in await hints(rover)}
    chassis = found[key(after(rover, "1 0 0 0 0 1.5707963267948966</pose>"))]
    assert chassis.label == "xyz 1 0 0 rpy 0 0 90°"
    assert "link 'chassis'" in str(chassis.tooltip) and "__model__ of model 'rover'" in str(chassis.tooltip)
    # Written relative to the turned chassis, the wheel lands at the model's origin.
    wheel = found[key(after(rover, '<pose relative_to="chassis">0 1 0 0 0 0</pose>'))]
    assert wheel.label == "xyz 0 0 0 rpy 0 0 90°"
    # A visual's pose: where the visual is in the model frame.
    body = found[key(after(rover, "<pose>0 0 0.5 0 0 0</pose>"))]
    assert body.label == "xyz 1 0 0.5 rpy 0 0 90°"
    # Joints and frames without a <pose>: after their start tag.
    axle = found[key(after(rover, '<joint name="axle" type="revolute">'))]
    assert axle.label == "xyz 0 0 0 rpy 0 0 90°"
    mount = found[key(after(rover, '<frame name="sensor_mount" attached_to="chassis"/>'))]
    assert mount.label == "xyz 1 0 0 rpy 0 0 90°"
    assert len(found) == 5


async def test_inlay_hints_in_a_range_only(rover: Session):
    start = find(TEXT, '<link name="wheel">')
    rng = rover.range(URI, start, find(TEXT, "</link>", 1))
    got = await rover.client.text_document_inlay_hint_async(types.InlayHintParams(text_document=td(), range=rng)) or []
    assert [h.label for h in got] == ["xyz 0 0 0 rpy 0 0 90°"]


async def test_inlay_hints_in_radians_and_off_by_settings(lsp: LanguageClient):
    s = await Session.start(lsp, "visual-studio-code", configuration={"inlayHints": {"angles": "radians"}})
    s.open(URI, TEXT)
    labels = [h.label for h in await hints(s)]
    assert "xyz 1 0 0 rpy 0 0 1.5708" in labels
    s.client.set_configuration({"inlayHints": {"enabled": False}}, section="sdformat")
    s.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    for _ in range(100):  # the server pulls the new settings asynchronously
        if not await hints(s):
            break
    assert await hints(s) == []


async def test_inlay_hints_answered_after_a_settings_change_follow_the_new_settings(lsp: LanguageClient):
    """A settings change re-checks every document, and the new analysis waits while the settings are
    fetched: a request made meanwhile answers with the new settings. VS Code loses a refresh that
    comes before the first answer in an editor that just showed the document, so an answer made with
    the old settings stayed on screen (seen in the real VS Code: hints turned off stayed visible)."""
    s = await Session.start(lsp, "visual-studio-code")
    s.open(URI, TEXT)
    assert await hints(s)
    s.client.set_configuration({"inlayHints": {"enabled": False}}, section="sdformat")
    s.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    got = await s.client.text_document_inlay_hint_async(types.InlayHintParams(text_document=td(), range=whole(s)))
    assert not got


# -- colours ---------------------------------------------------------------------------------


async def test_document_colors_and_the_picker_writes_0_to_1(rover: Session):
    colors = await rover.client.text_document_document_color_async(types.DocumentColorParams(text_document=td()))
    got = {key(c.range.start): c for c in colors}
    diffuse = got[key(rover.at(URI, "1 0 0 1"))]
    assert (diffuse.color.red, diffuse.color.green, diffuse.color.blue, diffuse.color.alpha) == (1, 0, 0, 1)
    assert diffuse.range == rover.span_of(URI, "1 0 0 1")
    ambient = got[key(rover.at(URI, "0.5 0.5 0.5<"))]
    assert ambient.color.alpha == 1 and ambient.range == rover.span_of(URI, "0.5 0.5 0.5")
    assert len(colors) == 2
    picked = await rover.client.text_document_color_presentation_async(
        types.ColorPresentationParams(
            text_document=td(), color=types.Color(red=0.2, green=0.4, blue=0.6, alpha=1.0), range=diffuse.range
        )
    )
    edit = picked[0].text_edit
    assert edit is not None and edit.new_text == "0.2 0.4 0.6 1"
    assert "<diffuse>0.2 0.4 0.6 1</diffuse>" in apply_edits(TEXT, [edit], rover.encoding)


# -- folding and selection -------------------------------------------------------------------------


async def test_folding_ranges_for_elements_and_comments(rover: Session):
    folds = await rover.client.text_document_folding_range_async(types.FoldingRangeParams(text_document=td()))
    by_start = {f.start_line: f for f in folds}
    comment = by_start[rover.at(URI, "<!--").line]
    assert comment.kind == types.FoldingRangeKind.Comment and comment.end_line == comment.start_line + 1
    model = by_start[rover.at(URI, '<model name="rover">').line]
    assert model.end_line == rover.at(URI, "</model>").line - 1  # the closing tag stays visible
    # one-line elements do not fold
    assert rover.at(URI, "<geometry><box>").line not in by_start


async def test_selection_ranges_grow_by_xml_structure(rover: Session):
    p = rover.at(URI, "chassis", delta=2, within="<parent>chassis</parent>")
    [sel] = await rover.client.text_document_selection_range_async(
        types.SelectionRangeParams(text_document=td(), positions=[p])
    )
    chain = []
    node = sel
    while node is not None:
        chain.append(node.range)
        node = node.parent
    assert chain[0] == rover.span_of(URI, "chassis", within="<parent>chassis</parent>")
    assert chain[1] == rover.span_of(URI, "<parent>chassis</parent>")
    assert chain[2] == rover.range(URI, find(TEXT, '<joint name="axle"'), find(TEXT, "</joint>") + len("</joint>"))
    assert chain[-1] == rover.range(URI, find(TEXT, "<sdf"), find(TEXT, "</sdf>") + len("</sdf>"))


# -- highlights and linked editing ---------------------------------------------------------------


async def test_document_highlight_marks_every_reference_to_the_frame(rover: Session):
    p = rover.at(URI, "chassis", delta=1, within="<parent>chassis</parent>")
    found = await rover.client.text_document_document_highlight_async(
        types.DocumentHighlightParams(text_document=td(), position=p)
    )
    kinds = {key(h.range.start): h.kind for h in found}
    assert kinds[key(rover.at(URI, "chassis", within='<link name="chassis">'))] == types.DocumentHighlightKind.Write
    for within in ('<pose relative_to="chassis">', "<parent>chassis</parent>", 'attached_to="chassis"'):
        assert kinds[key(rover.at(URI, "chassis", within=within))] == types.DocumentHighlightKind.Read
    assert len(found) == 4


async def test_linked_editing_of_start_and_end_tag_names(rover: Session):
    p = rover.at(URI, "visual", delta=2)
    got = await rover.client.text_document_linked_editing_range_async(
        types.LinkedEditingRangeParams(text_document=td(), position=p)
    )
    assert got is not None
    start = find(TEXT, "<visual") + 1
    end = find(TEXT, "</visual>") + 2
    assert list(got.ranges) == [rover.range(URI, start, start + 6), rover.range(URI, end, end + 6)]
    # from the end tag too; nothing on a name attribute
    p_end = rover.at(URI, "visual", delta=1, within="</visual>")
    again = await rover.client.text_document_linked_editing_range_async(
        types.LinkedEditingRangeParams(text_document=td(), position=p_end)
    )
    assert again is not None and again.ranges == got.ranges
    off = rover.at(URI, "body", delta=1)
    assert (
        await rover.client.text_document_linked_editing_range_async(
            types.LinkedEditingRangeParams(text_document=td(), position=off)
        )
        is None
    )


# -- workspace symbols ---------------------------------------------------------------------------


async def test_workspace_symbols_cover_files_not_open(session: Session):
    found = await session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="sensor_mount"))
    assert found, "found in rover.sdf, which is not open"
    [s] = [s for s in found if s.name == "sensor_mount"]
    assert s.kind == types.SymbolKind.Field and s.container_name == "rover"
    assert s.location.uri == URI
    text_line = TEXT.splitlines()[s.location.range.start.line]
    assert 'name="sensor_mount"' in text_line
    links = await session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="chassis"))
    assert any(x.name == "chassis" and x.kind == types.SymbolKind.Class for x in links)
    # a file opened with unsaved edits is indexed from the editor's text
    session.open(URI, TEXT.replace("sensor_mount", "camera_mount"))
    edited = await session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="camera_mount"))
    assert [x.name for x in edited] == ["camera_mount"]


# -- sdformat/frames -----------------------------------------------------------------------------


async def test_frames_request_gives_resolved_frames_axes_and_geometry(rover: Session):
    got = await rover.client.protocol.send_request_async("sdformat/frames", {"textDocument": {"uri": URI}})
    data = plain(got)
    frames = {f["name"]: f for f in data["frames"]}
    assert data["root"]["kind"] == "model" and data["root"]["name"] == "rover"
    wheel = frames["wheel"]
    assert wheel["kind"] == "link" and wheel["attachedTo"] == "wheel"
    assert all(abs(a - b) < 1e-9 for a, b in zip(wheel["pose"]["xyz"], (0, 0, 0)))
    assert abs(wheel["pose"]["rpy"][2] - math.pi / 2) < 1e-9
    axle = frames["axle"]
    assert axle["joint"]["parent"] == "chassis" and axle["joint"]["child"] == "wheel"
    [axis] = axle["joint"]["axes"]
    assert all(abs(a - b) < 1e-9 for a, b in zip(axis, (-1, 0, 0)))  # (0 1 0) in the joint frame, turned by 90 degrees
    [body] = frames["chassis"]["visuals"]
    assert body["shape"] == "box" and body["size"] == [1, 2, 0.5] and body["color"] == [1, 0, 0, 1]
    assert all(abs(a - b) < 1e-9 for a, b in zip(body["pose"]["xyz"], (1, 0, 0.5)))
    [tyre] = frames["wheel"]["visuals"]
    assert tyre["shape"] == "cylinder" and tyre["size"] == [0.3, 0.1]
    mount = frames["sensor_mount"]
    assert mount["attachedTo"] == "chassis" and mount["parent"] == frames["rover"]["id"] == 0  # the root entry
    assert mount["location"]["uri"] == URI


async def test_frames_request_with_joint_positions_moves_the_child(rover: Session):
    from sdformat_lsp.model.transform import Transform

    params = {"textDocument": {"uri": URI}, "jointPositions": {"axle": math.pi / 2, "no::pe": 3}}
    data = plain(await rover.client.protocol.send_request_async("sdformat/frames", params))
    frames = {f["name"]: f for f in data["frames"]}
    axle = frames["axle"]["joint"]
    assert axle["position"] == [math.pi / 2] and axle["mimic"] == [None]
    assert axle["limits"] == [{"lower": -1e16, "upper": 1e16, "effort": -1.0, "velocity": -1.0}]
    # the wheel turns a quarter about the axle (-x in the root frame) through the joint at its origin
    turn = Transform((0.0, 0.0, 0.0), (math.cos(math.pi / 4), -math.sin(math.pi / 4), 0.0, 0.0))
    want = turn * Transform.from_xyzrpy(0, 0, 0, 0, 0, math.pi / 2)
    got = frames["wheel"]["pose"]["quaternion"]
    assert all(abs(a - b) < 1e-9 for a, b in zip(got, want.quat_xyzw)), got
    assert (
        frames["chassis"]["pose"]
        == plain(await rover.client.protocol.send_request_async("sdformat/frames", {"textDocument": {"uri": URI}}))[
            "frames"
        ][frames["chassis"]["id"]]["pose"]
    )


def test_inlay_hint_settings_are_parsed_and_bad_values_reported():
    from sdformat_lsp.server.settings import merge, parse

    assert merge(parse({"inlayHints": {"enabled": False, "angles": "radians"}})).inlay_hints is False
    assert merge(parse({"sdformat": {"inlayHints": {"angles": "radians"}}})).inlay_degrees is False
    assert merge(parse({})).inlay_hints is True and merge(parse({})).inlay_degrees is True
    bad = parse({"inlayHints": {"enabled": "yes", "angles": "gradians"}})
    assert merge(bad).inlay_hints is True and merge(bad).inlay_degrees is True
    assert any("inlayHints.enabled" in p for p in bad.problems) and any("gradians" in p for p in bad.problems)
