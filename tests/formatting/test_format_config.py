"""Indentation from the configuration file's [format] table: flags over it, the nearest file per input, bad files."""

from __future__ import annotations

import os
import sys
from io import BytesIO, TextIOWrapper
from pathlib import Path

import pytest

from sdformat_lsp.cli import main
from sdformat_lsp.config import ConfigError, load_config
from sdformat_lsp.formatting import FormatOptions, Indentation, choose_options

MESSY = '<sdf version="1.9">\n<model name="m">\n<link name="l"/>\n</model>\n</sdf>\n'


def indented(unit: str) -> str:
    return f'<sdf version="1.9">\n{unit}<model name="m">\n{unit * 2}<link name="l"/>\n{unit}</model>\n</sdf>\n'


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def fmt(capsys, *args: str, cwd: Path, stdin: str | None = None) -> tuple[int, str, str]:
    old, old_stdin = os.getcwd(), sys.stdin
    try:
        os.chdir(cwd)
        if stdin is not None:
            sys.stdin = TextIOWrapper(BytesIO(stdin.encode()))
        try:
            code = main(["format", *args])
        except SystemExit as exc:
            code = exc.code
    finally:
        os.chdir(old)
        sys.stdin = old_stdin
    out, err = capsys.readouterr()
    return code, out, err


def test_layers_decide_each_key_on_its_own():
    assert choose_options() == FormatOptions(indent_size=2, use_tabs=False)
    assert choose_options(Indentation(width=4), Indentation(width=8, style="tab")) == FormatOptions(4, True)
    assert choose_options(Indentation(style="space"), Indentation(width=3, style="tab")) == FormatOptions(3, False)


def test_the_nearest_configuration_sets_each_files_indentation(tmp_path, capsys):
    write(
        tmp_path,
        {
            "sdformat-lsp.toml": "[format]\nindent-width = 4\n",
            "a/w.sdf": MESSY,
            "b/pyproject.toml": '[project]\nname = "b"\n\n[tool.sdformat-lsp.format]\nindent-style = "tab"\n',
            "b/w.sdf": MESSY,
            "c/sdformat-lsp.toml": 'fail-on = "warning"\n',  # no [format]: two spaces, not the parent's 4
            "c/w.sdf": MESSY,
        },
    )
    code, _, err = fmt(capsys, "a/w.sdf", "b/w.sdf", "c/w.sdf", cwd=tmp_path)
    assert code == 0, err
    assert (tmp_path / "a/w.sdf").read_text() == indented("    ")
    assert (tmp_path / "b/w.sdf").read_text() == indented("\t")
    assert (tmp_path / "c/w.sdf").read_text() == indented("  ")


@pytest.mark.parametrize(
    "config, flags, unit",
    [
        ('[format]\nindent-style = "tab"\n', ["--indent", "3"], "   "),  # --indent N means N spaces
        ("[format]\nindent-width = 4\n", ["--tabs"], "\t"),
        ('[format]\nindent-style = "tab"\n', ["--no-config"], "  "),
        ("[format]\nindent-width = 4\n", [], "    "),
    ],
)
def test_flags_override_the_configuration(tmp_path, capsys, config, flags, unit):
    write(tmp_path, {"sdformat-lsp.toml": config, "w.sdf": MESSY})
    code, _, err = fmt(capsys, *flags, "w.sdf", cwd=tmp_path)
    assert code == 0, err
    assert (tmp_path / "w.sdf").read_text() == indented(unit)


def test_config_flag_and_standard_input_with_its_filename(tmp_path, capsys):
    write(
        tmp_path,
        {"other.toml": "[format]\nindent-width = 3\n", "sub/sdformat-lsp.toml": '[format]\nindent-style = "tab"\n'},
    )
    assert fmt(capsys, "--config", "other.toml", "-", cwd=tmp_path, stdin=MESSY)[1] == indented("   ")
    assert fmt(capsys, "--stdin-filename", "sub/w.sdf", "-", cwd=tmp_path, stdin=MESSY)[1] == indented("\t")
    assert fmt(capsys, "-", cwd=tmp_path, stdin=MESSY)[1] == indented("  ")


@pytest.mark.parametrize(
    "text, line, key, words",
    [
        ("[format]\nindent-width = 0\n", 2, "format.indent-width", "from 1 to 16"),
        ("[format]\nindent-width = true\n", 2, "format.indent-width", "not true"),
        ('[format]\n\nindent-style = "tabs"\n', 3, "format.indent-style", '"space" or "tab"'),
        ("[format]\nindent-widht = 4\n", 2, "format.indent-widht", "did you mean indent-width"),
        ('format = "tabs"\n', 1, "format", "must be a table"),
    ],
)
def test_a_bad_format_table_stops_before_any_file_is_written(tmp_path, capsys, text, line, key, words):
    write(tmp_path, {"ok/w.sdf": MESSY, "bad/sdformat-lsp.toml": text, "bad/w.sdf": MESSY})
    code, out, err = fmt(capsys, "ok/w.sdf", "bad/w.sdf", cwd=tmp_path)
    assert code == 2 and out == ""
    [message] = err.strip().splitlines()
    assert message.startswith(
        f"sdformat-lsp: configuration error: {tmp_path / 'bad' / 'sdformat-lsp.toml'}:{line}: {key}: "
    ), message
    assert words in message
    assert (tmp_path / "ok/w.sdf").read_text() == MESSY  # nothing written, not even the file with a good configuration
    with pytest.raises(ConfigError):
        load_config(str(tmp_path / "bad" / "sdformat-lsp.toml"))


def test_bad_flags_are_usage_errors(tmp_path, capsys):
    write(tmp_path, {"w.sdf": MESSY})
    assert fmt(capsys, "--indent", "0", "w.sdf", cwd=tmp_path)[0] == 2
    assert fmt(capsys, "--stdin-filename", "x.sdf", "w.sdf", cwd=tmp_path)[0] == 2
    assert (tmp_path / "w.sdf").read_text() == MESSY
