"""Classes of failure found by an outside fuzz campaign (issue 11), one test each.

Every test here failed before the fix it pins.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sdformat_lsp.diagnostics import Related, Severity, error
from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.text import LineIndex, Span

RELATED_SHOWN = 20  # the cap the issue asks for
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.sdf"))


# -- a NUL (or any character no file name can hold) in an include URI ------------------

BAD_URIS = [
    "model://a&#0;b",
    "a&#0;/model.sdf",
    "package://p&#0;/m.sdf",
    "file:///tmp/x&#0;",
    "/tmp/&#0;",
    "model://a&#xD800;b",
]


@pytest.mark.parametrize("uri", BAD_URIS)
def test_an_include_uri_no_file_can_have_is_an_error_on_the_uri(tmp_path, uri):
    (tmp_path / "models").mkdir()
    text = f'<sdf version="1.9"><world name="w"><include><uri>{uri}</uri></include></world></sdf>'
    doc = tmp_path / "w.sdf"
    doc.write_text(text)
    a = analyze(text, str(doc), Options(resource_paths=(str(tmp_path / "models"),)))
    lookups = [d for d in a.diagnostics if d.code == "URI_LOOKUP"]
    assert len(lookups) == 1 and lookups[0].is_error
    assert "file name" in lookups[0].message
    assert text[lookups[0].span.start : lookups[0].span.end] == uri


def test_cli_json_on_a_nul_in_an_include_uri(tmp_path):
    (tmp_path / "models").mkdir()
    doc = tmp_path / "w.sdf"
    doc.write_text(
        '<sdf version="1.9"><world name="w"><include><uri>package://p&#0;/m.sdf</uri></include></world></sdf>'
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT / "server"))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "sdformat_lsp",
            "check",
            "--format",
            "json",
            "--resource-path",
            str(tmp_path / "models"),
            str(doc),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    codes = [d["code"] for d in json.loads(out.stdout)["files"][0]["diagnostics"]]
    assert "URI_LOOKUP" in codes


# -- positions -------------------------------------------------------------------------


def _inside_crlf(text: str, offset: int) -> bool:
    return 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_no_span_starts_or_ends_between_cr_and_lf(path):
    text = path.read_text().replace("\n", "\r\n")
    cuts = [i for i, ch in enumerate(text) if ch == "<"][::4]
    for cut in cuts:
        for broken in (text[:cut] + text[cut + 1 :], text[:cut] + "<" + text[cut:], text[:cut]):
            for d in analyze(broken).diagnostics:
                assert not _inside_crlf(broken, d.span.start), d
                assert not _inside_crlf(broken, d.span.end), d


def test_a_position_inside_a_crlf_pair_is_the_end_of_its_line():
    lines = LineIndex("ab\r\ncd")
    assert lines.position(3) == (0, 2)
    assert lines.position(2) == (0, 2)
    assert lines.position(4) == (1, 0)


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_xml_errors_land_on_the_same_line_whatever_the_line_ends(eol):
    text = eol.join(
        [
            '<?xml version="1.0"?>',
            '<sdf version="1.9">',
            '<model name="m">',
            '<link name="l"/>',
            "<bad attr=1/>",
            "</model>",
            "</sdf>",
            "",
        ]
    )
    a = analyze(text)
    xml = [d for d in a.diagnostics if d.code == "XML_ERROR" and d.is_error]
    assert len(xml) == 1
    line, col = a.lines.position(xml[0].span.start)
    assert (line, col) == (4, 10), (line, col)


def test_a_less_than_in_text_is_reported_as_such():
    text = '<sdf version="1.9"><model name="m"><link name="l"><sensor name="s" type="camera"><topic>a < b</topic></sensor></link></model></sdf>'
    a = analyze(text)
    xml = [d for d in a.diagnostics if d.code == "XML_ERROR"]
    assert len(xml) == 1
    d = xml[0]
    assert d.severity == Severity.ERROR  # libsdformat (tinyxml2) refuses the file
    assert "'<'" in d.message and "&lt;" in d.message and "'&'" not in d.message
    assert text[d.span.start : d.span.end] == "<"


def test_a_bare_ampersand_is_still_a_warning():
    text = '<sdf version="1.9"><model name="m"><link name="l"><sensor name="s" type="camera"><topic>a & b</topic></sensor></link></model></sdf>'
    xml = [d for d in analyze(text).diagnostics if d.code == "XML_ERROR"]
    assert len(xml) == 1 and xml[0].severity == Severity.WARNING and "'&'" in xml[0].message


# -- related locations are capped --------------------------------------------------------


def cycle(n: int) -> str:
    frames = "".join(f'<frame name="f{i}" attached_to="f{(i + 1) % n}"/>' for i in range(n))
    return f'<sdf version="1.8"><model name="m"><link name="L"/>{frames}</model></sdf>'


def test_a_long_cycle_lists_twenty_places_then_how_many_more():
    a = analyze(cycle(10_000))
    (d,) = [d for d in a.diagnostics if d.code == "FRAME_ATTACHED_TO_CYCLE"]
    assert len(d.related) == RELATED_SHOWN + 1
    assert d.related[-1].message == f"and {10_000 - RELATED_SHOWN} more"
    assert len(d.message) < 500


def test_a_short_list_of_related_places_is_kept_whole():
    related = tuple(Related(Span(i, i + 1), "here") for i in range(RELATED_SHOWN + 1))
    assert error("X", "m", Span(0, 1), related=related).related == related
