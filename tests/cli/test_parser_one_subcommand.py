"""The parser built for the subcommand typed reads every command line as the whole parser does.

`cli.build_parser(command)` builds only that subcommand's parser (start-up: the other
subcommands' modules are not imported). On each command line below, both parsers must give the
same arguments, or the same exit status and the same text on standard output and error (help,
usage, errors).
"""

from __future__ import annotations

import contextlib
import io

import pytest

from sdformat_lsp.cli import SUBCOMMANDS, build_parser

LINES = [
    ["check", "a.sdf"],
    ["check", "a.sdf", "b.world", "--format", "json", "-j", "2"],
    ["check", "--format", "nope", "a.sdf"],
    ["check", "a.sdf", "--bogus"],
    ["check", "a.sdf", "extra", "--frames", "--nonsense=1"],
    ["check"],
    ["check", "--help"],
    ["check", "-h", "a.sdf"],
    ["check", "--version"],
    ["convert", "--help"],
    ["convert"],
    ["convert", "a.urdf", "--bogus"],
    ["format", "--help"],
    ["format", "a.sdf", "--check"],
    ["format", "--indent", "x", "a.sdf"],
    ["graph", "--help"],
    ["graph", "a.sdf", "--format", "dot"],
    ["inertial-stats", "--help"],
    ["inertial-stats", "a.sdf", "--json"],
    ["print", "--help"],
    ["print", "a.sdf", "--unknown"],
    ["serve", "--help"],
    ["serve", "--tcp", "2087"],
    ["serve", "--tcp"],
    ["serve", "x"],
]


def _outcome(parser, argv: list[str]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            result = ("args", vars(parser.parse_args(argv)))
        except SystemExit as e:
            result = ("exit", e.code)
    return result, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", LINES, ids=lambda a: " ".join(a) or "nothing")
def test_the_one_subcommand_parser_reads_the_line_as_the_whole_parser(argv, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert argv[0] in SUBCOMMANDS
    assert _outcome(build_parser(argv[0]), argv) == _outcome(build_parser(), argv)


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["chek", "a.sdf"], ["--bogus"], []], ids=str)
def test_lines_not_starting_with_a_subcommand_get_the_whole_parser(argv, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    whole = _outcome(build_parser(), argv)
    assert _outcome(build_parser(argv[0] if argv else None), argv) == whole
    if argv[:1] == ["--help"]:
        assert all(name in whole[1] for name in SUBCOMMANDS)  # every subcommand listed
