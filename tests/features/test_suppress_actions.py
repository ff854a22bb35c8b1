"""Quick fixes that insert a suppression comment, and what they must never break."""

from __future__ import annotations

from sdformat_lsp.features.code_actions import code_actions
from sdformat_lsp.semantics import analyze
from sdformat_lsp.text import Span


def apply(text: str, edits) -> str:
    for e in sorted(edits, key=lambda e: e.span.start, reverse=True):
        text = text[: e.span.start] + e.new_text + text[e.span.end :]
    return text


def suppress(text: str, code: str, which: str):
    a = analyze(text, "/tmp/s/m.sdf")
    [d] = [d for d in a.diagnostics if d.code == code]
    actions = [
        x
        for x in code_actions(a, Span(d.span.start, d.span.start))
        if x.diagnostic is d and x.title == f"Suppress {code} {which}"
    ]
    return actions[0] if actions else None


def after(text: str) -> list[str]:
    return [d.code for d in analyze(text, "/tmp/s/m.sdf").diagnostics]


DOC = '<?xml version="1.0"?>\n<sdf version="1.8">\n  <model name="m">\n    <link name="l"/>\n    <frame name="f" attached_to="nope"/>\n  </model>\n</sdf>\n'


def test_on_this_line_inserts_an_indented_comment_before_it():
    action = suppress(DOC, "FRAME_ATTACHED_TO_INVALID", "on this line")
    fixed = apply(DOC, action.edits)
    assert '    <!-- sdformat-lsp: disable-next-line FRAME_ATTACHED_TO_INVALID -->\n    <frame name="f"' in fixed
    assert after(fixed) == []


def test_in_this_file_goes_after_the_xml_declaration():
    action = suppress(DOC, "FRAME_ATTACHED_TO_INVALID", "in this file")
    fixed = apply(DOC, action.edits)
    assert fixed.startswith('<?xml version="1.0"?>\n<!-- sdformat-lsp: disable FRAME_ATTACHED_TO_INVALID -->\n<sdf')
    assert after(fixed) == []
    bare = DOC.split("\n", 1)[1]
    fixed = apply(bare, suppress(bare, "FRAME_ATTACHED_TO_INVALID", "in this file").edits)
    assert fixed.startswith("<!-- sdformat-lsp: disable FRAME_ATTACHED_TO_INVALID -->\n<sdf") and after(fixed) == []


def test_no_line_comment_inside_a_tag_or_a_value():
    inside_tag = DOC.replace('<frame name="f" attached_to="nope"/>', '<frame name="f"\n        attached_to="nope"/>')
    assert suppress(inside_tag, "FRAME_ATTACHED_TO_INVALID", "on this line") is None
    fixed = apply(inside_tag, suppress(inside_tag, "FRAME_ATTACHED_TO_INVALID", "in this file").edits)
    assert after(fixed) == []
    # the joint's child (the diagnostic's place) is a value on a line of its own: a comment there would
    # split the text libsdformat reads (it reads the first text node only)
    in_value = (
        '<sdf version="1.8">\n  <model name="m">\n    <link name="a"/>\n    <joint name="j" type="fixed">\n      <child>\n'
        "        a\n      </child>\n      <parent>a</parent>\n    </joint>\n  </model>\n</sdf>\n"
    )
    a = analyze(in_value, "/tmp/s/m.sdf")
    [d] = [d for d in a.diagnostics if d.code == "JOINT_PARENT_SAME_AS_CHILD"]
    assert a.lines.line_text(a.lines.line_of(d.span.start)).strip() == "a"
    assert suppress(in_value, "JOINT_PARENT_SAME_AS_CHILD", "on this line") is None
    fixed = apply(in_value, suppress(in_value, "JOINT_PARENT_SAME_AS_CHILD", "in this file").edits)
    assert after(fixed) == []


def test_an_existing_comment_is_extended_and_line_endings_kept():
    text = DOC.replace("    <frame", "    <!-- sdformat-lsp: disable-next-line DUPLICATE_NAME -->\n    <frame").replace(
        "\n", "\r\n"
    )
    assert "UNUSED_SUPPRESSION" in after(text)
    fixed = apply(text, suppress(text, "FRAME_ATTACHED_TO_INVALID", "on this line").edits)
    assert "disable-next-line DUPLICATE_NAME,FRAME_ATTACHED_TO_INVALID -->\r\n" in fixed
    assert after(fixed) == ["UNUSED_SUPPRESSION"]  # DUPLICATE_NAME is still unused
    crlf = DOC.replace("\n", "\r\n")
    fixed = apply(crlf, suppress(crlf, "FRAME_ATTACHED_TO_INVALID", "on this line").edits)
    assert "FRAME_ATTACHED_TO_INVALID -->\r\n    <frame" in fixed and "\n" not in fixed.replace("\r\n", "")


def test_suppression_diagnostics_offer_no_suppression():
    text = DOC.replace("<sdf", "<!-- sdformat-lsp: disable DUPLICATE_NAME -->\n<sdf")
    a = analyze(text, "/tmp/s/m.sdf")
    d = next(d for d in a.diagnostics if d.code == "UNUSED_SUPPRESSION")
    titles = [x.title for x in code_actions(a, d.span) if x.diagnostic is d]
    assert titles == ["Remove the unused suppression of DUPLICATE_NAME"]
