"""`sdformat-lsp`: the command line.

One module per subcommand (``check``, ``convert``, ``serve``, ...). Each exposes
``register(subparsers)``, which adds its parser and sets ``run`` (a function of
the parsed arguments returning the exit code) as the parser default. The
package is a thin shell: reading files, calling the analysis and printing.
"""

from __future__ import annotations

import argparse
import os
import sys

from .. import __version__
from . import check, convert, graph, inertial_stats, lifetime, serve
from . import format as format_files
from . import print as print_document
from .loading import load_file

__all__ = ["build_parser", "entry", "load_file", "main"]

# The order subcommands are listed in `--help`.
SUBCOMMANDS = (check, convert, format_files, graph, inertial_stats, print_document, serve)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sdformat-lsp", description="SDFormat language server and checker")
    parser.add_argument("--version", action="version", version=f"sdformat-lsp {__version__}")
    sub = parser.add_subparsers(dest="command")
    for module in SUBCOMMANDS:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    if run is None:  # no subcommand: serve over stdio, as editors start us
        return serve.run(argparse.Namespace(tcp=None))
    return run(args)


def entry() -> int:
    """The program (`sdformat-lsp`, `python -m sdformat_lsp`): ``main``, then exit.

    When a subcommand kept its results (``lifetime.keep_until_exit``), the
    output is flushed and the process ends without tearing down what it built;
    otherwise (serve, errors) the exit code is returned for the usual exit.
    """
    lifetime.KEPT = []
    for stream in (sys.stdout, sys.stderr):
        # what a document holds is printed as it is, and it can hold what no output encoding
        # can: a lone surrogate from a reference such as &#xD800; (libxml2 reports it), quoted
        # in a message. Written escaped, not a traceback.
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):
            pass  # not a text stream of our own (replaced or closed)
    code = main()
    if lifetime.KEPT:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            return code  # a closed stdout: let the interpreter report it as it always does
        os._exit(code)
    return code
