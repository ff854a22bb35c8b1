"""`check model.config`: well-formed, entries naming files and versions that exist, the entry libsdformat uses."""

from __future__ import annotations

import os

import pytest

from sdformat_lsp.cli import main
from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.semantics.includes.resources import model_file, select_entry

MODEL = '<sdf version="{v}"><model name="{name}"><link name="l"/></model></sdf>\n'


def make(tmp_path, config: str, files: dict[str, str]):
    d = tmp_path / "arm"
    d.mkdir()
    (d / "model.config").write_text(config)
    for name, text in files.items():
        (d / name).write_text(text)
    return d


def diags(path):
    a = analyze(open(path).read(), str(path))
    return sorted((d.code, a.lines.line_of(d.span.start) + 1, int(d.severity)) for d in a.diagnostics)


def test_a_good_model_config_is_clean_and_not_read_as_sdformat(tmp_path, capsys):
    d = make(
        tmp_path,
        '<?xml version="1.0"?>\n<model>\n  <name>arm</name>\n  <sdf version="1.6">model.sdf</sdf>\n</model>\n',
        {"model.sdf": MODEL.format(v="1.6", name="arm")},
    )
    assert diags(d / "model.config") == []
    assert main(["check", str(d / "model.config")]) == 0
    assert main(["check", str(d)]) == 0  # found in a directory too


def test_entries_must_name_existing_files_and_versions(tmp_path):
    d = make(
        tmp_path,
        '<model>\n<name>arm</name>\n<sdf version="1.6">model.sdf</sdf>\n<sdf version="1.1">old.sdf</sdf>\n'
        '<sdf version="2.0">model.sdf</sdf>\n<sdf version="1.9">missing.sdf</sdf>\n<sdf version="1.7"></sdf>\n<sdf>model.sdf</sdf>\n</model>\n',
        {"model.sdf": MODEL.format(v="1.6", name="arm"), "old.sdf": MODEL.format(v="1.0", name="arm")},
    )
    assert diags(d / "model.config") == [
        ("ATTRIBUTE_INVALID", 4, 1),  # 1.1 is no SDFormat version
        ("ATTRIBUTE_INVALID", 5, 1),  # 2.0 neither
        ("ATTRIBUTE_MISSING", 8, 2),
        ("ELEMENT_MISSING", 7, 1),
        ("FILE_READ", 6, 1),  # missing.sdf
    ]
    a = analyze((d / "model.config").read_text(), str(d / "model.config"))
    missing = next(x for x in a.diagnostics if x.code == "FILE_READ")
    assert "libsdformat uses" in missing.message  # 1.9 is the best entry: the model cannot be loaded


def test_not_well_formed_or_wrong_root(tmp_path):
    d = make(
        tmp_path,
        "<model><name>arm</name><sdf version='1.6'>model.sdf</sdf>",
        {"model.sdf": MODEL.format(v="1.6", name="arm")},
    )
    assert [c for c, _, _ in diags(d / "model.config")] == ["XML_ERROR"]
    (d / "model.config").write_text('<sdf version="1.6"><model name="arm"/></sdf>')
    [(code, line, sev)] = diags(d / "model.config")
    assert code == "PARSING_ERROR" and sev == 1


@pytest.mark.parametrize(
    "versions, chosen",
    [
        (["1.6", "1.9", "1.7"], 1),  # the highest
        (["1.13", "1.9"], 1),  # newer than the parser: ignored
        (["1.10", "1.9"], 0),  # versions compare as numbers
        ([None, "1.5"], 1),
        ([None, None], 0),  # none has a version: the first
        (["x", "y"], 0),
        (["1.8", "1.8"], 0),  # the first of equals
        ([], None),
    ],
)
def test_the_entry_libsdformat_picks(versions, chosen):
    assert select_entry(versions)[0] == chosen


def test_the_include_loads_the_entry_the_check_calls_used(tmp_path):
    entries = "".join(f'<sdf version="{v}">m{v}.sdf</sdf>' for v in ("1.5", "1.9", "1.7"))
    d = make(
        tmp_path,
        f"<model><name>arm</name>{entries}</model>",
        {f"m{v}.sdf": MODEL.format(v=v, name=f"arm_{v.replace('.', '_')}") for v in ("1.5", "1.9", "1.7")},
    )
    assert model_file(str(d)).path == os.path.join(str(d), "m1.9.sdf")
    world = tmp_path / "w.sdf"
    text = '<sdf version="1.9"><world name="w"><include><uri>model://arm</uri></include></world></sdf>'
    world.write_text(text)
    a = analyze(text, str(world), Options(resource_paths=(str(tmp_path),)))
    assert a.diagnostics == []
    assert a.included_analysis(os.path.join(str(d), "m1.9.sdf")) is not None
    # and the check of the model.config blames exactly that entry when its file goes missing
    os.remove(d / "m1.9.sdf")
    c = analyze((d / "model.config").read_text(), str(d / "model.config"))
    [miss] = [x for x in c.diagnostics if x.code == "FILE_READ"]
    assert "m1.9.sdf" in miss.message and "libsdformat uses" in miss.message
