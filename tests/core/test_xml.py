"""The XML layer: exact spans, tolerance of half-typed text, safe parsing."""

import pytest

from sdformat_lsp.diagnostics import Severity
from sdformat_lsp.text import LineIndex
from sdformat_lsp.xml import decode_source, parse


def spanned(text, span):
    return text[span.start : span.end]


def test_spans_of_tags_attributes_and_text():
    text = '<sdf version="1.9">\n  <model name="m é中😀">\n    <pose relative_to=\'F\'> 1 2 3 0 0 0 </pose>\n  </model>\n</sdf>'
    doc = parse(text)
    model = doc.root.child("model")
    assert spanned(text, model.tag_span) == "model"
    name = model.attr("name")
    assert spanned(text, name.name_span) == "name"
    assert spanned(text, name.value_span) == "m é中😀"
    pose = model.child("pose")
    assert spanned(text, pose.attr("relative_to").value_span) == "F"
    assert spanned(text, pose.text_span) == "1 2 3 0 0 0"
    assert not [p for p in doc.problems if p.severity == Severity.ERROR]


def test_positions_in_each_encoding():
    text = 'a😀é<x name="中"/>'
    lines = LineIndex(text)
    off = text.index("中")
    assert lines.position(off, "utf-32") == (0, off)
    assert lines.position(off, "utf-16") == (0, off + 1)  # the emoji is two UTF-16 units
    assert lines.position(off, "utf-8") == (0, len(text[:off].encode()))
    for enc in ("utf-8", "utf-16", "utf-32"):
        line, col = lines.position(off, enc)
        assert lines.offset(line, col, enc) == off


def test_crlf_lines():
    text = "<a>\r\n<b/>\r\n</a>"
    lines = LineIndex(text)
    assert lines.position(text.index("<b"), "utf-16") == (1, 0)


def test_half_typed_attribute_keeps_tree():
    text = '<sdf version="1.8"><model name="m">\n<frame name="F" attached_to="\n</model></sdf>'
    doc = parse(text)
    assert doc.root.child("model").child("frame") is None  # being typed: out of the analysed tree
    frame = doc.element_at(text.index("attached_to"))
    assert frame.tag == "frame" and frame.parent is doc.root.child("model")
    attr = frame.attr("attached_to")
    assert attr is not None and not attr.terminated and attr.value == ""
    assert any(p.code == "XML_ERROR" and p.severity == Severity.ERROR for p in doc.problems)


def test_unclosed_element_is_reported_once_at_its_tag():
    text = '<sdf version="1.8"><model name="m"><link name="L">'
    doc = parse(text)
    errors = [p for p in doc.problems if p.severity == Severity.ERROR]
    assert len(errors) == 1 and text[errors[0].span.start : errors[0].span.end] == "link"
    (link,) = doc.half_typed  # the innermost, being typed
    assert link.get("name") == "L" and link.parent is doc.root.child("model")


def test_tolerated_quirks_are_not_errors():
    text = ' <?xml version="1.0"?>\n<sdf version="1.8"><!-- a -- b --><model name="m"><gz:x/>a & b<link name="L"/></model></sdf>'
    doc = parse(text)
    # '--' in a comment and an undeclared prefix: nothing; white space before the declaration: a hint; a bare '&': a warning
    assert sorted(p.severity for p in doc.problems) == [Severity.WARNING, Severity.HINT], doc.problems
    assert "&" in next(p.message for p in doc.problems if p.severity == Severity.WARNING)


def test_billion_laughs_is_never_expanded():
    ents = "".join(f'<!ENTITY lol{i} "{"&lol%d;" % (i - 1) * 10}">' for i in range(1, 10))
    text = f'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">{ents}]><sdf version="1.8"><model name="&lol9;"/></sdf>'
    doc = parse(text)
    assert doc.has_doctype
    assert doc.root.child("model").get("name") == "&lol9;"
    assert any("never expanded" in p.message for p in doc.problems)


def test_external_entity_is_not_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    text = f'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY s SYSTEM "file://{secret}">]><sdf version="1.8"><model name="&s;"/></sdf>'
    doc = parse(text)
    assert "TOP-SECRET" not in repr([(e.tag, e.attributes and e.get("name"), e.text) for e in doc.iter()])
    assert any(p.code == "XML_ERROR" for p in doc.problems)


def test_invalid_utf8_is_a_diagnostic():
    text, problems = decode_source(b'<sdf version="1.8">\xff\xfe</sdf>')
    assert "\ufffd" in text
    assert problems and problems[0].code == "FILE_READ" and problems[0].span.start == text.index("\ufffd")


def test_scanner_patterns_match_alike_without_possessive_quantifiers():
    """Python 3.10 has no possessive quantifiers: the scanner compiles greedy ones there.
    They must find the same tokens (checked here on the examples and fixtures)."""
    import re
    import sys
    from pathlib import Path

    from sdformat_lsp.xml import scanner

    if sys.version_info < (3, 11):
        import pytest

        pytest.skip("the possessive patterns need Python 3.11+ to compare against")
    root = Path(__file__).resolve().parents[2]
    texts = [
        p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(root.glob("examples/*.sdf")) + sorted(root.glob("tests/lsp/fixtures/*.sdf"))
    ]
    assert texts
    for compiled in (scanner._TOKEN, scanner._TOKEN_ATTR):
        greedy = re.compile(compiled.pattern.replace("*+", "*").replace("++", "+"))
        assert greedy.pattern != compiled.pattern
        for text in texts:
            for start in range(0, len(text), 7):
                a, b = compiled.match(text, start), greedy.match(text, start)
                assert (a and a.groups(), a and a.span()) == (b and b.groups(), b and b.span()), (
                    start,
                    text[start : start + 40],
                )


@pytest.mark.parametrize(
    "written, warned, fixed",
    [
        ("a & b", "&", "a &amp; b"),  # libxml2: just past the '&'
        ("a &del b", "&del", "a &amp;del b"),  # libxml2: past the name, where the ';' was expected
        ("&abc&def", "&abc", "&amp;abc&def"),  # the second '&' is where libxml2 stops reading the first
        ("x &d😀el\ny", "&d😀el", "x &amp;d😀el\ny"),
        ("1 &amp 2", "&amp", "1 &amp; 2"),  # a known entity without its ';': the fix adds the ';'
    ],
)
def test_a_bare_ampersand_is_warned_at_the_ampersand_with_its_fix(written, warned, fixed):
    head = '<sdf version="1.8"><model name="m"><link name="L"/><plugin name="p" filename="f"><v>'
    text = head + written + "</v></plugin></model></sdf>"
    (w, *_) = [p for p in parse(text).problems if p.severity == Severity.WARNING]
    assert text[w.span.start : w.span.end] == warned
    (fix,) = w.fixes
    assert (text[: fix.span.start] + fix.new_text + text[fix.span.end :])[len(head) :].startswith(fixed)


def test_an_ampersand_in_a_start_tag_is_one_error_on_it():
    # nested_without_links_invalid.sdf with '<mo&del': libxml2 says 'attribute name', 'end of start tag' and a
    # missing ';' four characters to the right (on ' name'): one error, at the '&', nothing else
    text = '<sdf version="1.7">\n  <model name="a">\n    <link name="l"/>\n    <mo&del name="b">\n      <fra'
    (p,) = [p for p in parse(text).problems if p.code == "XML_ERROR"]
    assert p.is_error and text[p.span.start : p.span.end] == "&"
