"""`check --format text|json|sarif|github`, --severity and --fail-on, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sdformat_lsp.codes import CODES

from .util import BROKEN, VALID, WARNS, check, run

DATA = Path(__file__).parent / "data"
CYCLE = '<sdf version="1.8">\n<model name="m">\n  <link name="l"/>\n  <frame name="a" attached_to="b"/>\n  <frame name="b" attached_to="a"/>\n</model>\n</sdf>\n'


@pytest.fixture
def files(tmp_path):
    (tmp_path / "bad.sdf").write_text(BROKEN)
    (tmp_path / "cycle.sdf").write_text(CYCLE)
    (tmp_path / "warn.sdf").write_text(WARNS)
    (tmp_path / "ok.sdf").write_text(VALID)
    (tmp_path / "uni.sdf").write_text(
        '<sdf version="1.8">\n<model name="m"><link name="l"/><frame name="f" attached_to="😀x"/></model>\n</sdf>\n'
    )
    return tmp_path


def test_text_is_compiler_style_with_caret_and_related_locations(files, capsys):
    code, out, err = check(capsys, "--color", "never", "bad.sdf", "cycle.sdf", cwd=files)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("bad.sdf:4:34: error[FRAME_ATTACHED_TO_INVALID] ")
    assert lines[1] == '  4 |     <frame name="f" attached_to="nope"/>'
    assert lines[2] == "    |                                  ^^^^"
    i = next(n for n, line in enumerate(lines) if line.startswith("cycle.sdf:"))
    assert "error[FRAME_ATTACHED_TO_CYCLE]" in lines[i]
    notes = [line for line in lines[i:] if line.startswith("    cycle.sdf:")]
    assert len(notes) == 2 and all(": note: " in n for n in notes)
    assert "\033[" not in out
    assert err.strip() == "2 files checked: 2 errors, 0 warnings, 0 info, 0 hints"


def test_text_columns_count_characters_and_colour_is_opt_in(files):
    r = run("uni.sdf", cwd=files)  # piped: no colour
    assert "\033[" not in r.stdout and "uni.sdf:2:" in r.stdout
    r = run("--color", "always", "bad.sdf", cwd=files)
    assert "\033[1;31merror[FRAME_ATTACHED_TO_INVALID]\033[0m" in r.stdout
    r = run("--color", "auto", "bad.sdf", cwd=files, env={"NO_COLOR": "1"})
    assert "\033[" not in r.stdout


def test_frames_of_several_files_each_under_a_heading(files, capsys):
    code, out, _ = check(capsys, "--color", "never", "--frames", "ok.sdf", "warn.sdf", cwd=files)
    lines = out.splitlines()
    assert "ok.sdf:" in lines and "warn.sdf:" in lines
    ok = lines.index("ok.sdf:")
    assert lines[ok + 1 : ok + 3] == [
        "  model __model__: [0 0 0 0 0 0] attached to l",
        "  link  l: [0 0 0 0 0 0] attached to l",
    ]
    code, out, _ = check(capsys, "--color", "never", "--frames", "ok.sdf", cwd=files)
    assert "ok.sdf:" not in out.splitlines()  # one file: no heading


def test_summary_counts_every_severity_and_says_what_is_hidden(files, capsys):
    code, out, err = check(capsys, "--severity", "error", "warn.sdf", "bad.sdf", cwd=files)
    assert "UNUSED_SUPPRESSION" not in out
    assert (
        err.strip()
        == "2 files checked: 1 error, 1 warning, 0 info, 0 hints (1 warning not shown: use --severity to see them)"
    )


def test_fail_on_and_exit_codes(files, capsys):
    assert check(capsys, "ok.sdf", cwd=files)[0] == 0
    assert check(capsys, "warn.sdf", cwd=files)[0] == 0
    code, out, _ = check(capsys, "--fail-on", "warning", "--severity", "error", "warn.sdf", cwd=files)
    assert code == 1 and "UNUSED_SUPPRESSION" in out  # what fails the run is always printed
    assert check(capsys, "bad.sdf", cwd=files)[0] == 1
    assert check(capsys, "--severity", "error", "--fail-on", "error", "warn.sdf", cwd=files)[0] == 0


def test_json_is_versioned_and_keeps_its_shape(files, capsys):
    code, out, _ = check(capsys, "--format", "json", "bad.sdf", "uni.sdf", cwd=files)
    data = json.loads(out)
    assert data["version"] == 1
    assert data["summary"] == {"files": 2, "error": 2, "warning": 0, "info": 0, "hint": 0}
    d = data["files"][0]["diagnostics"][0]
    assert data["files"][0]["path"] == "bad.sdf" and data["files"][0]["sdf_version"] == "1.8"
    assert d["code"] == "FRAME_ATTACHED_TO_INVALID" and d["severity"] == "error"
    assert d["range"] == {"start": {"line": 3, "character": 33}, "end": {"line": 3, "character": 37}}
    u = data["files"][1]["diagnostics"][0]
    text = (files / "uni.sdf").read_text().splitlines()[1]
    start = text.index("😀")
    assert u["range"]["start"]["character"] == start  # UTF-16 units: the emoji counts 2 from here on
    assert u["range"]["end"]["character"] == start + 3


def _validator():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def test_sarif_validates_against_the_official_schema(files, capsys):
    validator = _validator()
    code, out, _ = check(
        capsys,
        "--format",
        "sarif",
        "--severity",
        "hint",
        "bad.sdf",
        "cycle.sdf",
        "warn.sdf",
        "uni.sdf",
        "missing.sdf",
        cwd=files,
    )
    assert code == 1
    log = json.loads(out)
    errors = sorted(validator.iter_errors(log), key=str)
    assert not errors, "\n".join(e.message for e in errors[:5])
    run_ = log["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules[: len(CODES)]] == list(CODES)
    for r in rules:
        assert r["shortDescription"]["text"] and r["fullDescription"]["text"]
        assert r["helpUri"].endswith("docs/diagnostics.md#" + r["id"].lower())
    results = run_["results"]
    assert {r["ruleId"] for r in results} >= {
        "FRAME_ATTACHED_TO_INVALID",
        "FRAME_ATTACHED_TO_CYCLE",
        "UNUSED_SUPPRESSION",
        "FILE_READ",
    }
    bad = next(r for r in results if r["ruleId"] == "FRAME_ATTACHED_TO_INVALID" and "bad.sdf" in json.dumps(r))
    loc = bad["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "bad.sdf", "uriBaseId": "SRCROOT"}
    assert loc["region"] == {"startLine": 4, "startColumn": 34, "endLine": 4, "endColumn": 38}
    assert rules[bad["ruleIndex"]]["id"] == bad["ruleId"]
    cyc = next(r for r in results if r["ruleId"] == "FRAME_ATTACHED_TO_CYCLE")
    assert len(cyc["relatedLocations"]) == 2 and cyc["relatedLocations"][0]["message"]["text"]
    warn = next(r for r in results if r["ruleId"] == "UNUSED_SUPPRESSION")
    assert warn["level"] == "warning" and bad["level"] == "error"
    assert run_["originalUriBaseIds"]["SRCROOT"]["uri"].endswith("/")


def test_sarif_of_a_clean_run_is_valid_too(files, capsys):
    validator = _validator()
    code, out, _ = check(capsys, "--format", "sarif", "ok.sdf", cwd=files)
    log = json.loads(out)
    assert code == 0 and log["runs"][0]["results"] == []
    assert not list(validator.iter_errors(log))


def test_github_annotations(files, capsys):
    code, out, _ = check(
        capsys, "--format", "github", "--severity", "hint", "bad.sdf", "cycle.sdf", "warn.sdf", cwd=files
    )
    lines = out.splitlines()
    assert lines[0].startswith(
        "::error file=bad.sdf,line=4,col=34,endLine=4,endColumn=37,title=FRAME_ATTACHED_TO_INVALID::"
    )
    assert any(
        line.startswith("::warning file=warn.sdf,line=2,") and "title=UNUSED_SUPPRESSION::" in line for line in lines
    )
    cyc = next(line for line in lines if "FRAME_ATTACHED_TO_CYCLE" in line)
    assert "%0Acycle.sdf:4:" in cyc and "\n" not in cyc  # related locations on the same line, escaped
    assert len(lines) == 3


def test_github_escaping():
    from sdformat_lsp.cli.output_github import escape_data, escape_property

    assert escape_data("50% a\nb\r") == "50%25 a%0Ab%0D"
    assert escape_property("a:b,c") == "a%3Ab%2Cc"
