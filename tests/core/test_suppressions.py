"""Suppression comments: next line, file-wide, unused and malformed ones, included files, severities."""

from __future__ import annotations

from sdformat_lsp.semantics import Options, analyze

HEAD = '<sdf version="1.8">\n<model name="m">\n  <link name="l"/>\n'
TAIL = "</model>\n</sdf>\n"


def codes(text: str, **options) -> list[tuple[str, int]]:
    a = analyze(text, "/tmp/x/m.sdf", Options(**options))
    return sorted((d.code, a.lines.line_of(d.span.start) + 1) for d in a.diagnostics)


def test_disable_next_line_silences_those_codes_on_the_next_line_only():
    text = (
        HEAD
        + (
            "  <!-- sdformat-lsp: disable-next-line FRAME_ATTACHED_TO_INVALID -->\n"
            '  <frame name="a" attached_to="nope"/>\n'
            '  <frame name="b" attached_to="nope"/>\n'
        )
        + TAIL
    )
    assert codes(text) == [("FRAME_ATTACHED_TO_INVALID", 6)]


def test_several_codes_and_file_wide():
    text = (
        HEAD
        + (
            "  <!-- sdformat-lsp: disable-next-line POSE_RELATIVE_TO_INVALID, FRAME_ATTACHED_TO_INVALID -->\n"
            '  <frame name="a" attached_to="nope"><pose relative_to="nope"/></frame>\n'
        )
        + TAIL
    )
    assert codes(text) == []
    text = (
        "<!-- sdformat-lsp: disable FRAME_ATTACHED_TO_INVALID -->\n"
        + HEAD
        + ('  <frame name="a" attached_to="nope"/>\n  <frame name="b" attached_to="nope"/>\n')
        + TAIL
    )
    assert codes(text) == []


def test_unused_suppressions_are_reported_with_a_fix_that_removes_them():
    text = (
        HEAD
        + '  <!-- sdformat-lsp: disable-next-line FRAME_ATTACHED_TO_INVALID,DUPLICATE_NAME -->\n  <frame name="a" attached_to="nope"/>\n'
        + TAIL
    )
    a = analyze(text, "/tmp/x/m.sdf")
    [d] = a.diagnostics
    assert d.code == "UNUSED_SUPPRESSION" and "DUPLICATE_NAME" in d.message
    fix = d.fixes[0]
    fixed = text[: fix.span.start] + fix.new_text + text[fix.span.end :]
    assert "disable-next-line FRAME_ATTACHED_TO_INVALID -->" in fixed
    assert [x.code for x in analyze(fixed, "/tmp/x/m.sdf").diagnostics] == []
    text = HEAD + "  <!-- sdformat-lsp: disable NOT_A_CODE -->\n" + TAIL
    [d] = analyze(text, "/tmp/x/m.sdf").diagnostics
    assert d.code == "UNUSED_SUPPRESSION" and "not a diagnostic code" in d.message
    fix = d.fixes[0]
    assert text[: fix.span.start] + fix.new_text + text[fix.span.end :] == HEAD + TAIL  # the whole line goes
    # the unused report itself can be switched off for a file
    text = (
        HEAD
        + "  <!-- sdformat-lsp: disable UNUSED_SUPPRESSION -->\n  <!-- sdformat-lsp: disable DUPLICATE_NAME -->\n"
        + TAIL
    )
    assert codes(text) == []


def test_malformed_directives_are_reported_and_other_comments_ignored():
    text = (
        HEAD
        + "  <!-- sdformat-lsp: disabel FOO -->\n  <!-- sdformat-lsp: disable -->\n  <!-- just a comment about sdformat-lsp -->\n"
        + TAIL
    )
    assert codes(text) == [("SUPPRESSION_INVALID", 4), ("SUPPRESSION_INVALID", 5)]


def test_severity_overrides_apply_after_suppressions():
    text = HEAD + '  <frame name="a" attached_to="nope"/>\n' + TAIL
    a = analyze(text, "/tmp/x/m.sdf", Options(severity={"FRAME_ATTACHED_TO_INVALID": "hint"}))
    assert [(d.code, int(d.severity)) for d in a.diagnostics] == [("FRAME_ATTACHED_TO_INVALID", 4)]
    assert codes(text, severity={"FRAME_ATTACHED_TO_INVALID": "off"}) == []
    # a suppression of a code switched off still counts as used
    text = (
        HEAD
        + '  <!-- sdformat-lsp: disable-next-line FRAME_ATTACHED_TO_INVALID -->\n  <frame name="a" attached_to="nope"/>\n'
        + TAIL
    )
    assert codes(text, severity={"FRAME_ATTACHED_TO_INVALID": "off"}) == []


def test_suppressions_can_be_turned_off():
    text = (
        HEAD
        + '  <!-- sdformat-lsp: disable-next-line FRAME_ATTACHED_TO_INVALID -->\n  <frame name="a" attached_to="nope"/>\n'
        + TAIL
    )
    assert codes(text, suppressions=False) == [("FRAME_ATTACHED_TO_INVALID", 5)]


def test_a_comment_inside_an_included_file_silences_what_lies_there(tmp_path):
    inner = tmp_path / "inner.sdf"
    inner.write_text(
        '<sdf version="1.8">\n<model name="inner">\n  <link name="l"/>\n'
        "  <!-- sdformat-lsp: disable-next-line FRAME_ATTACHED_TO_INVALID -->\n"
        '  <frame name="f" attached_to="nope"/>\n</model>\n</sdf>\n'
    )
    world = tmp_path / "w.sdf"
    text = '<sdf version="1.8"><world name="w"><include><uri>inner.sdf</uri></include></world></sdf>\n'
    world.write_text(text)
    a = analyze(text, str(world))
    assert [d.code for d in a.diagnostics if d.severity == 1] == []
    unsuppressed = tmp_path / "plain.sdf"
    unsuppressed.write_text(inner.read_text().replace("disable-next-line", "no"))
    plain = text.replace("inner.sdf", "plain.sdf")
    assert [d.code for d in analyze(plain, str(world)).diagnostics if d.severity == 1] == ["FRAME_ATTACHED_TO_INVALID"]
    b = analyze(inner.read_text(), str(inner))
    assert b.diagnostics == []
