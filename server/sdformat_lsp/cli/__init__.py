"""`sdformat-lsp`: the command line.

One module per subcommand (``check``, ``convert``, ``serve``, ...). Each exposes
``register(subparsers)``, which adds its parser and sets ``run`` (a function of
the parsed arguments returning the exit code) as the parser default. The
package is a thin shell: reading files, calling the analysis and printing.
"""

from __future__ import annotations

import argparse
import io
import os
import sys

from importlib import import_module
from typing import Any

from .. import __version__
from . import lifetime
from .loading import load_file

__all__ = ["build_parser", "entry", "load_file", "main"]

# The subcommands as typed, in the order `--help` lists them; each is registered by the module
# of this package of the same name ('-' written '_').
SUBCOMMANDS = ("check", "convert", "format", "graph", "inertial-stats", "print", "serve", "view", "xacro")


def _module(command: str):
    return import_module(f"{__name__}.{command.replace('-', '_')}")


def terminal_columns() -> int:
    """The width of the terminal, as ``shutil.get_terminal_size`` finds it (``COLUMNS``, else
    the terminal on standard output, else 80), without importing shutil, which imports
    bz2, lzma and fnmatch: 2 ms of every run, a few per cent of a small file's check."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter with the width argparse gives it by default (the terminal's
    less 2), found by :func:`terminal_columns`: argparse makes a formatter for every
    argument it adds, so its own default would import shutil on every run."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, terminal_columns() - 2 if width is None else width)


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser with :class:`HelpFormatter`; the subcommands' parsers are of this class too
    (``add_subparsers`` makes them of the class of the parser it is called on)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of the command line; given ``command``, the subcommand the arguments start
    with, only that subcommand's parser is built (and only its module imported).

    Why that is the same parser for those arguments: argparse hands everything after the
    subcommand's name to the subcommand's parser alone, and the top-level parser itself only
    prints its usage (for arguments nobody recognised), which lists the subcommands by this
    metavar, the text argparse writes from their names.
    """
    parser = ArgumentParser(prog="sdformat-lsp", description="SDFormat language server and checker")
    parser.add_argument("--version", action="version", version=f"sdformat-lsp {__version__}")
    if command in SUBCOMMANDS:
        sub = parser.add_subparsers(dest="command", metavar="{" + ",".join(SUBCOMMANDS) + "}")
        _module(command).register(sub)
    else:
        sub = parser.add_subparsers(dest="command")
        for name in SUBCOMMANDS:
            _module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    if run is None:  # no subcommand: serve over stdio, as editors start us
        return _module("serve").run(argparse.Namespace(tcp=None))
    return run(args)


# The exit code when the reader of our output went away (`check | head`): 128 + SIGPIPE, what
# the shell reports for a program that signal ended, which is how C tools leave in that case.
EXIT_CLOSED_PIPE = 141


def entry() -> int:
    """The program (`sdformat-lsp`, `python -m sdformat_lsp`): ``main``, then exit.

    When a subcommand kept its results (``lifetime.keep_until_exit``), the
    output is flushed and the process ends without tearing down what it built;
    otherwise (serve, errors) the exit code is returned for the usual exit.
    A closed output (the reader of a pipe went away, or the program started with
    no standard output at all) ends the program quietly, never with a traceback.
    """
    lifetime.KEPT = []
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # started with the descriptor closed (`>&-`): written nowhere
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))
    for stream in (sys.stdout, sys.stderr):
        # what a document holds is printed as it is, and it can hold what no output encoding
        # can: a lone surrogate from a reference such as &#xD800; (libxml2 reports it), quoted
        # in a message. Written escaped, not a traceback.
        try:
            if isinstance(stream, io.TextIOWrapper):
                stream.reconfigure(errors="backslashreplace")
        except (ValueError, OSError):
            pass  # not a text stream of our own (replaced or closed)
    try:
        code = main()
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        _quiet_closed_outputs()
        os._exit(EXIT_CLOSED_PIPE)
    if lifetime.KEPT:
        os._exit(code)
    return code


def _quiet_closed_outputs() -> None:
    """Point standard output and error at the null device, so that nothing the interpreter
    still holds in their buffers is written (and reported as broken) on the way out."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(null, stream.fileno())
        except (AttributeError, OSError, ValueError):
            pass
