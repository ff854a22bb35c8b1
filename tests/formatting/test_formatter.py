"""The formatter keeps meaning: every file of ../shared/conformance and examples/ analyses the same
(diagnostics, resolved poses, every element, attribute and value) before and after, and it is idempotent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sdformat_lsp.formatting import FormatOptions, FormatRefused, apply_edits, format_edits, format_text
from sdformat_lsp.semantics import analyze
from sdformat_lsp.xml import decode_source, parse

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"


def corpus(shared: bool) -> list[Path]:
    files = sorted(p for p in (ROOT / "examples").iterdir() if p.suffix in (".sdf", ".world", ".urdf"))
    files += sorted(p for p in (ROOT / "tests").rglob("*") if p.suffix in (".sdf", ".world") and "fixtures" in p.parts)
    if shared:
        files += sorted(p for p in (SHARED / "conformance").rglob("*") if p.suffix in (".sdf", ".world", ".urdf"))
    return files


def structure(text: str) -> list:
    """Every element with its attributes (in order, with their values) and, for leaves, its exact text."""
    doc = parse(text)
    if doc.root is None:
        return []
    return [
        (el.tag, [(a.name, a.value) for a in el.attributes.values()], None if el.children else el.text)
        for el in doc.root.iter()
    ]


def meaning(text: str, path: str) -> tuple:
    a = analyze(text, path)
    diagnostics = sorted((d.code, d.severity, d.message, d.path or "") for d in a.diagnostics)
    return diagnostics, a.frames(), structure(text)


@pytest.mark.parametrize(
    "options", [FormatOptions(), FormatOptions(indent_size=4), FormatOptions(use_tabs=True)], ids=["2", "4", "tabs"]
)
def test_examples_and_fixtures_keep_their_meaning(options):
    checked = 0
    for path in corpus(shared=False):
        text, _ = decode_source(path.read_bytes())
        try:
            formatted = format_text(text, options)
        except FormatRefused:
            continue  # broken on purpose
        assert meaning(formatted, str(path)) == meaning(text, str(path)), path
        assert format_text(formatted, options) == formatted, f"not idempotent: {path}"
        checked += 1
    assert checked >= 10


def test_conformance_files_keep_their_meaning(shared):
    checked = changed = refused = 0
    for path in corpus(shared=True):
        text, problems = decode_source(path.read_bytes())
        if problems:
            continue
        try:
            formatted = format_text(text)
        except FormatRefused:
            refused += 1
            continue
        changed += formatted != text
        assert meaning(formatted, str(path)) == meaning(text, str(path)), path
        assert format_text(formatted) == formatted, f"not idempotent: {path}"
        checked += 1
    assert checked > 200 and changed > 10, (checked, changed, refused)


MESSY = (
    '<?xml version="1.0"?>\n'
    "<!-- a comment\n   over lines -->\n"
    '<sdf version="1.9">\n'
    "<?some-pi data ?>\n"
    "<model name='m'>  \n"
    '        <link name="a"><pose relative_to = "x">1 2 3   0 0 0</pose></link>\n'
    "\n\n"
    '   <frame name="x"\n'
    '          attached_to="a"/>\n'
    "  <plugin name='p' filename='f'>\n"
    "          <x>   keep </x>\n"
    "              <y/>\n"
    "  </plugin>\n"
    "<gz:ext>\n   <inner/>\n</gz:ext>\n"
    "<description><![CDATA[\n  raw <not/> markup ]]></description>\n"
    "<static>\n  true\n</static>\n"
    "</model>\n"
    "</sdf>"
)


def test_what_is_kept_and_what_changes():
    out = format_text(MESSY)
    assert out.split("\n") == [
        '<?xml version="1.0"?>',
        "<!-- a comment",
        "   over lines -->",
        '<sdf version="1.9">',
        "  <?some-pi data ?>",
        "  <model name='m'>",
        '    <link name="a"><pose relative_to = "x">1 2 3   0 0 0</pose></link>',
        "",
        "",
        '    <frame name="x"',
        '          attached_to="a"/>',
        "    <plugin name='p' filename='f'>",
        "          <x>   keep </x>",
        "              <y/>",
        "  </plugin>",
        "    <gz:ext>",
        "   <inner/>",
        "</gz:ext>",
        "    <description><![CDATA[",
        "  raw <not/> markup ]]></description>",
        "    <static>",
        "  true",
        "</static>",
        "  </model>",
        "</sdf>",
    ]
    assert not out.endswith("\n")  # no final newline added


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_endings_and_the_final_newline_are_kept(newline):
    text = MESSY.replace("\n", newline) + newline
    out = format_text(text)
    assert out.endswith("</sdf>" + newline)
    assert re.sub(r"\r\n|\r|\n", "", out) == re.sub(r"\r\n|\r|\n", "", format_text(MESSY))
    assert out.count(newline) == text.count(newline)


def test_edits_are_minimal_and_ranges_select_lines():
    edits = format_edits(MESSY)
    assert all(not e.new_text.strip() for e in edits)
    assert all(not MESSY[e.start : e.end].strip() for e in edits)  # only white space is replaced
    assert apply_edits(MESSY, edits) == format_text(MESSY)
    # Line 6 is the <link> line: only its indentation changes.
    only = format_edits(MESSY, lines=(6, 6))
    assert len(only) == 1 and MESSY[: only[0].start].count("\n") == 6 and only[0].new_text == "    "


@pytest.mark.parametrize(
    "text",
    [
        '<sdf version="1.9">\n<model name="m">\n<link name="l">\n</model>\n</sdf>\n',
        '<sdf version="1.9">\n<model name="m"\n',
        "",
        '<sdf version="1.9"><model name="a"></sdf>',
    ],
)
def test_malformed_documents_are_refused_with_a_location(text):
    with pytest.raises(FormatRefused) as info:
        format_text(text)
    assert info.value.diagnostic.message.startswith("cannot format")
    assert 0 <= info.value.diagnostic.span.start <= len(text)


def test_the_xml_verdict_is_the_analysis_verdict():
    """What the XML layer accepts (extra roots, which libsdformat ignores) is formatted; what it refuses is not."""
    extra = '<sdf version="1.9">\n<model name="a"/>\n</sdf>\n<sdf/>\n'
    assert not [p for p in parse(extra).problems if p.is_error]
    assert format_text(extra) == '<sdf version="1.9">\n  <model name="a"/>\n</sdf>\n<sdf/>\n'
    late = '<!-- c -->\n<?xml version="1.0"?>\n<sdf version="1.9"><model name="a"/></sdf>\n'
    if [p for p in parse(late).problems if p.is_error]:
        with pytest.raises(FormatRefused):
            format_text(late)
    else:
        format_text(late)
