"""The configuration file: found upward (nearest wins), its settings, flags over it, bad files."""

from __future__ import annotations

import json

import pytest

from sdformat_lsp.config import ConfigCache, ConfigError, find_config, load_config

from .util import BROKEN, VALID, WARNS, check

WORLD = '<sdf version="1.8"><world name="w"><include><uri>model://arm</uri></include></world></sdf>\n'


def write(root, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def codes(out: str) -> dict[str, list[tuple[str, str]]]:
    return {f["path"]: [(d["code"], d["severity"]) for d in f["diagnostics"]] for f in json.loads(out)["files"]}


def test_nearest_configuration_wins_and_pyproject_without_our_table_is_skipped(tmp_path, capsys):
    write(
        tmp_path,
        {
            "pyproject.toml": '[tool.sdformat-lsp]\nfail-on = "warning"\n',
            "a/pyproject.toml": '[project]\nname = "a"\n',  # not ours: the search goes on upward
            "a/w.sdf": WARNS,
            "b/sdformat-lsp.toml": '[severity]\nUNUSED_SUPPRESSION = "info"\n',  # nearest: fail-on of the root does not apply
            "b/w.sdf": WARNS,
        },
    )
    assert find_config(str(tmp_path / "a")) == str(tmp_path / "pyproject.toml")
    assert find_config(str(tmp_path / "b")) == str(tmp_path / "b" / "sdformat-lsp.toml")
    code, out, _ = check(capsys, "--format", "json", "--severity", "hint", "a/w.sdf", cwd=tmp_path)
    assert code == 1 and codes(out)["a/w.sdf"] == [("UNUSED_SUPPRESSION", "warning")]
    code, out, _ = check(capsys, "--format", "json", "--severity", "hint", "b/w.sdf", cwd=tmp_path)
    assert code == 0 and codes(out)["b/w.sdf"] == [("UNUSED_SUPPRESSION", "info")]


def test_dedicated_file_wins_over_pyproject_in_the_same_directory(tmp_path):
    write(
        tmp_path,
        {"pyproject.toml": '[tool.sdformat-lsp]\nfail-on = "warning"\n', "sdformat-lsp.toml": 'fail-on = "error"\n'},
    )
    assert load_config(find_config(str(tmp_path))).fail_on == "error"


def test_resource_paths_are_relative_to_the_configuration_file(tmp_path, capsys):
    write(
        tmp_path,
        {
            "repo/sdformat-lsp.toml": 'resource-paths = ["third_party"]\n',
            "repo/third_party/arm/model.config": '<model><name>arm</name><sdf version="1.8">model.sdf</sdf></model>',
            "repo/third_party/arm/model.sdf": VALID,
            "repo/worlds/w.sdf": WORLD,
        },
    )
    code, out, _ = check(capsys, "--format", "json", "repo/worlds/w.sdf", cwd=tmp_path)
    assert code == 0, out
    code, out, _ = check(capsys, "--format", "json", "--no-config", "repo/worlds/w.sdf", cwd=tmp_path)
    assert code == 1 and ("URI_LOOKUP", "error") in codes(out)["repo/worlds/w.sdf"]


def test_excludes_are_relative_to_the_configuration_file(tmp_path, capsys):
    write(
        tmp_path,
        {
            "repo/sdformat-lsp.toml": 'exclude = ["generated/**", "*.bak.sdf"]\n',
            "repo/generated/x.sdf": BROKEN,
            "repo/y.bak.sdf": BROKEN,
            "repo/ok.sdf": VALID,
            "repo/sub/generated/z.sdf": BROKEN,
        },
    )
    code, out, _ = check(capsys, "--format", "json", "repo", cwd=tmp_path)
    assert list(codes(out)) == ["repo/ok.sdf", "repo/sub/generated/z.sdf"]  # generated/** is anchored at the file


def test_severity_overrides_including_off(tmp_path, capsys):
    write(tmp_path, {"sdformat-lsp.toml": '[severity]\nFRAME_ATTACHED_TO_INVALID = "off"\n', "bad.sdf": BROKEN})
    code, out, _ = check(capsys, "--format", "json", "bad.sdf", cwd=tmp_path)
    assert code == 0 and codes(out)["bad.sdf"] == []
    (tmp_path / "sdformat-lsp.toml").write_text('severity = { FRAME_ATTACHED_TO_INVALID = "warning" }\n')
    code, out, _ = check(capsys, "--format", "json", "bad.sdf", cwd=tmp_path)
    assert code == 0 and codes(out)["bad.sdf"] == [("FRAME_ATTACHED_TO_INVALID", "warning")]


def test_flags_override_the_configuration(tmp_path, capsys):
    write(
        tmp_path,
        {
            "sdformat-lsp.toml": 'fail-on = "warning"\n',
            "w.sdf": WARNS,
            "other.toml": '[severity]\nUNUSED_SUPPRESSION = "off"\n',
        },
    )
    assert check(capsys, "w.sdf", cwd=tmp_path)[0] == 1
    assert check(capsys, "--fail-on", "error", "w.sdf", cwd=tmp_path)[0] == 0
    assert check(capsys, "--no-config", "w.sdf", cwd=tmp_path)[0] == 0
    code, out, _ = check(capsys, "--config", "other.toml", "--format", "json", "w.sdf", cwd=tmp_path)
    assert code == 0 and codes(out)["w.sdf"] == []


@pytest.mark.parametrize(
    "text, line, key, words",
    [
        ('fail-on = "warning"\nexcludes = ["x"]\n', 2, "excludes", "did you mean exclude"),
        ('\n\nresource-paths = "models"\n', 3, "resource-paths", "list of strings"),
        ('fail-on = "never"\n', 1, "fail-on", '"error" or "warning"'),
        (
            '[severity]\n\nMODEL_WITHOUT_LNK = "off"\n',
            3,
            "severity.MODEL_WITHOUT_LNK",
            "did you mean MODEL_WITHOUT_LINK",
        ),
        ('[severity]\nMODEL_WITHOUT_LINK = "silent"\n', 2, "severity.MODEL_WITHOUT_LINK", "off"),
        ('exclude = ["a"\nfail-on = 1\n', 2, None, "not valid TOML"),
    ],
)
def test_a_bad_configuration_is_one_message_naming_file_line_and_key_and_exit_2(
    tmp_path, capsys, text, line, key, words
):
    write(tmp_path, {"sdformat-lsp.toml": text, "ok.sdf": VALID})
    code, out, err = check(capsys, "ok.sdf", cwd=tmp_path)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    where = f"{tmp_path / 'sdformat-lsp.toml'}:{line}: " + (f"{key}: " if key else "")
    assert lines[0].startswith("sdformat-lsp: configuration error: " + where), lines[0]
    assert words in lines[0]


def test_a_bad_pyproject_table_is_located_too(tmp_path, capsys):
    write(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "x"\n\n[tool.sdformat-lsp]\nfail-on = "warning"\n\n[tool.sdformat-lsp.severity]\nNOPE = "off"\n',
            "ok.sdf": VALID,
        },
    )
    with pytest.raises(ConfigError) as exc:
        load_config(str(tmp_path / "pyproject.toml"))
    assert exc.value.line == 8 and exc.value.key == "severity.NOPE"
    assert check(capsys, "ok.sdf", cwd=tmp_path)[0] == 2


def test_cache_rereads_a_changed_file(tmp_path):
    write(tmp_path, {"sdformat-lsp.toml": 'fail-on = "warning"\n'})
    cache = ConfigCache()
    assert cache.lookup(str(tmp_path)).fail_on == "warning"
    import os

    (tmp_path / "sdformat-lsp.toml").write_text('fail-on = "error"  \n')
    os.utime(tmp_path / "sdformat-lsp.toml", ns=(1, 1))
    assert cache.lookup(str(tmp_path)).fail_on == "error"


def test_a_special_file_as_configuration_is_refused_without_reading_it(tmp_path, capsys):
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "fifo.toml")
    write(tmp_path, {"ok.sdf": VALID})
    code, out, err = check(capsys, "--config", "fifo.toml", "ok.sdf", cwd=tmp_path)
    assert code == 2 and "fifo.toml: is not a regular file" in err
