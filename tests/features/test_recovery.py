"""Recovery while typing (issue 11): a new element cut short anywhere (after '<', inside the tag
name, inside an attribute value, before '>', unclosed) gives one error at the place of the mistake;
every other diagnostic, hover and definition stays what it is on the intact document."""

from __future__ import annotations

from pathlib import Path

import pytest

from sdformat_lsp.semantics import analyze

from .recovery_cases import PLACES, cases, compare

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.sdf")) + sorted((ROOT / "tests" / "lsp" / "fixtures").glob("*.sdf"))
CONFORMANCE = ROOT.parent / "shared" / "conformance" / "files"


def _check(path: Path, limit: int | None = None) -> tuple[int, list[str]]:
    text = path.read_text()
    intact = analyze(text, str(path))
    if any(d.code == "XML_ERROR" and d.is_error for d in intact.diagnostics):
        return 0, []  # not well formed to begin with: there is no intact document to compare with
    checked, failures = 0, []
    for case in cases(text):
        checked += 1
        problems = compare(text, case, intact, str(path))
        if problems:
            failures.append(f"{path.name} {case.place} {case.typed!r} at {case.at}: {problems[0]}")
        if limit is not None and checked >= limit:
            break
    return checked, failures


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_typing_an_element_anywhere_in_the_examples(path):
    checked, failures = _check(path)
    assert checked >= 5
    assert not failures, "\n".join(failures[:10])


def test_every_place_is_covered():
    text = (ROOT / "examples" / "arm.sdf").read_text()
    assert {c.place for c in cases(text)} == set(PLACES)


def test_typing_an_element_in_conformance_documents():
    if not CONFORMANCE.is_dir():
        pytest.skip("../shared/conformance is not available")
    files = sorted(CONFORMANCE.rglob("*.sdf"))[::9]  # a fixed sample: the whole set is `python -m ...` below
    total, failures = 0, []
    for path in files:
        checked, bad = _check(path, limit=40)
        total += checked
        failures += bad
    assert total > 300
    assert not failures, f"{len(failures)} of {total}:\n" + "\n".join(failures[:10])


def test_a_long_document_cut_short_in_the_middle_keeps_hover_below():
    """The Neovim report: an unclosed <link name="new"> typed in a model; hover and definition below still work."""
    text = (ROOT / "examples" / "arm.sdf").read_text()
    at = text.index('    <joint name="shoulder"')
    broken = text[:at] + '    <link name="new">\n' + text[at:]
    a = analyze(broken)
    errors = [d for d in a.diagnostics if d.is_error]
    assert len(errors) == 1 and broken[errors[0].span.start : errors[0].span.end] == "link"
    assert not [d for d in a.diagnostics if not d.is_error]
    from sdformat_lsp.features.definition import definition

    ref = broken.index("<child>forearm") + len("<child>") + 2
    (loc,) = definition(a, ref)
    assert broken[loc.span.start : loc.span.end] == "forearm"


NESTED = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="outer">
    <link name="base"/>
    <model name="inner">
      <link name="l"/>
      <model name="deepest">
        <link name="d"/>
      </model>
    </model>
    <joint name="j" type="fixed">
      <parent>base</parent>
      <child>inner::l</child>
    </joint>
  </model>
</sdf>
"""


def test_an_unclosed_element_inside_one_of_its_tag_does_not_take_the_enclosing_end_tag():
    """A <model> typed unclosed in a model whose later siblings hold models: XML gives the new model the
    enclosing model's end tag; the indentation says it is the new one that is unclosed."""
    at = NESTED.index('    <model name="inner">')
    broken = NESTED[:at] + '    <model name="new">\n' + NESTED[at:]
    a = analyze(broken)
    errors = [d for d in a.diagnostics if d.is_error]
    assert len(errors) == 1 and errors[0].span.start == broken.index('model name="new"')
    assert [d for d in a.diagnostics if not d.is_error] == []
    from sdformat_lsp.features.definition import definition

    ref = broken.index("<child>inner::l") + len("<child>") + 1
    (loc,) = definition(a, ref)
    assert broken[loc.span.start : loc.span.end] == "inner"


def test_a_well_formed_document_is_never_judged_by_its_indentation():
    """End tags indented like an outer element of their tag still close the innermost one when the
    document is well formed (only an unbalanced document is scanned again by indentation)."""
    odd = NESTED.replace("      </model>\n    </model>", "    </model>\n      </model>")
    assert odd != NESTED
    a = analyze(odd)
    assert not [d for d in a.diagnostics if d.is_error]
    inner = a.xml.root.children[0].children[1]
    assert inner.get("name") == "inner" and inner.closed and [c.get("name") for c in inner.children] == ["l", "deepest"]
