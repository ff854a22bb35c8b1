"""A misspelt or mismatched end tag (``</lnik>`` closing ``<link>``, ``</modelx>``) is one error on the
end tag naming the start tag, with the fix; the rest of the document is analysed as if it were right,
so every other diagnostic is that of the corrected document (issue 24). Nothing cascades: no
"never closed", no MODEL_WITHOUT_LINK for the link the recovery would have dropped, no element
in the wrong place. The fixture's verdict was taken from libsdformat 12 (``../shared/oracle``):
an XML error that stops the file.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from sdformat_lsp.diagnostics import Severity
from sdformat_lsp.semantics import analyze

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "typing"
EXAMPLES = sorted((ROOT / "examples").glob("*.sdf")) + sorted((ROOT / "tests" / "lsp" / "fixtures").glob("*.sdf"))


def _fixed(text: str, fix) -> str:
    return text[: fix.span.start] + fix.new_text + text[fix.span.end :]


@pytest.mark.parametrize("path", EXAMPLES[::3], ids=lambda p: p.name)
def test_a_misspelt_end_tag_is_one_error_and_nothing_cascades(path):
    """Every end tag of a document, misspelt three ways (a letter swapped, added, dropped): one error,
    on the end tag, naming its start tag, whose fix gives back the document; every other
    diagnostic is the intact document's."""
    text = path.read_text()
    intact = analyze(text, str(path))
    if any(d.code == "XML_ERROR" and d.is_error for d in intact.diagnostics):
        pytest.skip("not well formed to begin with")
    ends = [m for m in re.finditer(r"</([A-Za-z_][\w:.-]*)>", text) if len(m.group(1)) >= 3]
    assert ends
    for m in ends[:: max(1, len(ends) // 12)]:
        name = m.group(1)
        for wrong in (name[:1] + name[2] + name[1] + name[3:], name + "x", name[:-1]):
            if wrong == name:
                continue
            typed = text[: m.start(1)] + wrong + text[m.end(1) :]
            a = analyze(typed, str(path))
            xml = [d for d in a.diagnostics if d.code == "XML_ERROR" and d.is_error]
            where = f"</{wrong}> for </{name}> at {m.start()}"
            assert len(xml) == 1, (where, xml)
            (err,) = xml
            assert typed[err.span.start : err.span.end] == wrong and f"<{name}>" in err.message, where
            assert _fixed(typed, err.fixes[0]) == text, where
            others = [d for d in a.diagnostics if d is not err]
            assert _said_without(others) == _said_without(intact.diagnostics), where


def _said_without(diagnostics) -> list[tuple]:
    """What is said, without places: the misspelt name moves what follows by at most one character."""
    return sorted((d.code, int(d.severity), d.message) for d in diagnostics)


def test_the_misspelt_end_tags_fixture():
    text = (HERE / "misspelt_end_tags.sdf").read_text()
    a = analyze(text, str(HERE / "misspelt_end_tags.sdf"))
    assert [(d.severity, text[d.span.start : d.span.end]) for d in a.diagnostics] == [
        (Severity.ERROR, "lnik"),
        (Severity.ERROR, "modelx"),
    ]
    assert "</lnik> does not close <link> (opened on line 5)" in a.diagnostics[0].message


def test_the_oracle_agrees(oracle):
    out = subprocess.run(
        [oracle, "--check", str(HERE / "misspelt_end_tags.sdf")], capture_output=True, text=True, timeout=60
    )
    assert json.loads(out.stdout)["check"]["ign_sdf_check_valid"] is False


@pytest.mark.parametrize(
    "written",
    [
        "<a><b></c></b></a>",  # names of one letter: any name is one edit from them
        '<sdf version="1.9"><model name="m"><link name="l"></lnk></link></model></sdf>',  # a stray end tag before the right one
    ],
)
def test_a_stray_end_tag_is_not_taken_for_a_misspelt_one(written):
    xml = [d for d in analyze(written, None).diagnostics if d.code == "XML_ERROR" and d.is_error]
    assert xml and not any("does not close" in d.message for d in xml), xml
