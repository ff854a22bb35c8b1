"""`sdformat-lsp format`: re-indent files in place, or check, diff, or filter standard input.

The engine is ``sdformat_lsp.formatting``; this module reads and writes files. A file is
written only when the engine formatted it (a document that is not well-formed XML, or not
UTF-8, is reported and left alone), through a temporary file renamed over it, with its
byte-order mark kept. The indentation of each file is the flags' (``--indent``, ``--tabs``),
else the nearest configuration file's ``[format]`` table, else the one the file is consistently
written with, else two spaces (``formatting/indentation.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from ..config import ConfigCache, ConfigError, load_config
from ..files import FileRefused, read_file
from ..text import UTF32, LineIndex
from .out_file import write_atomically

if TYPE_CHECKING:  # the formatter is imported by the functions that run it: `check` never needs it
    from ..formatting import FormatOptions, FormatRefused, Indentation

_BOM = b"\xef\xbb\xbf"
EXIT_USAGE = 2


def _flags(args: argparse.Namespace) -> Indentation:
    """The command line's say: --tabs, else --indent N (N spaces), else nothing."""
    from ..formatting import Indentation

    if args.tabs:
        return Indentation(width=args.indent, style="tab")
    if args.indent is not None:
        return Indentation(width=args.indent, style="space")
    return Indentation()


def _options_for(args: argparse.Namespace):
    """directory -> the layers that decide its files' indentation: the flags, then the nearest
    configuration file (or --config's); ``_options`` adds the file's own and the default.

    Raises ConfigError for a configuration that cannot be used."""
    from ..formatting import from_config

    flags = _flags(args)
    if args.config:
        fixed = (flags, from_config(load_config(args.config)))
        return lambda directory: fixed
    if args.no_config:
        plain = (flags,)
        return lambda directory: plain
    cache = ConfigCache()
    return lambda directory: (flags, from_config(cache.lookup(directory)))


def _options(layers, text: str) -> FormatOptions:
    """The layers, then the indentation ``text`` is consistently written with, then two spaces."""
    from ..formatting import choose_options, from_text

    return choose_options(*layers, from_text(text))


def _decode(data: bytes) -> tuple[str, bytes]:
    """(text, BOM) of UTF-8 bytes; UnicodeDecodeError otherwise."""
    bom = _BOM if data.startswith(_BOM) else b""
    return data[len(bom) :].decode("utf-8"), bom


def _refusal(name: str, text: str, exc: FormatRefused) -> str:
    line, col = LineIndex(text).position(exc.diagnostic.span.start, UTF32)
    return f"{name}:{line + 1}:{col + 1}: {exc.diagnostic.message}"


def _unified_diff(text: str, formatted: str, name: str):
    import difflib  # only for --diff: check's start-up never pays for it

    return difflib.unified_diff(text.splitlines(True), formatted.splitlines(True), name, name)


def _stdin(args: argparse.Namespace, layers) -> int:
    from ..formatting import FormatRefused, format_text

    data = sys.stdin.buffer.read()
    try:
        text, bom = _decode(data)
        formatted = format_text(text, _options(layers, text))
    except UnicodeDecodeError:
        print("<stdin>: cannot format: the input is not UTF-8", file=sys.stderr)
        return 1
    except FormatRefused as exc:
        print(_refusal("<stdin>", text, exc), file=sys.stderr)
        return 1
    if args.check:
        return 1 if formatted != text else 0
    if args.diff:
        sys.stdout.writelines(_unified_diff(text, formatted, "<stdin>"))
        return 0
    sys.stdout.buffer.write(bom + formatted.encode("utf-8"))
    return 0


def _usage(message: str) -> int:
    print(f"sdformat-lsp format: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def format_command(args: argparse.Namespace) -> int:
    from ..formatting import FormatRefused, format_text

    if args.indent is not None and not 1 <= args.indent <= 16:
        return _usage("--indent must be from 1 to 16")
    if "-" in args.files and args.files != ["-"]:
        return _usage("'-' (standard input) cannot be mixed with files")
    if args.stdin_filename and args.files != ["-"]:
        return _usage("--stdin-filename needs '-' as the only input")
    # Every file's options first: a broken configuration stops the run before any file is written.
    try:
        options_for = _options_for(args)
        if args.files == ["-"]:
            where = os.path.dirname(os.path.abspath(args.stdin_filename)) if args.stdin_filename else os.getcwd()
            return _stdin(args, options_for(where))
        options = [options_for(os.path.dirname(os.path.abspath(path))) for path in args.files]
    except ConfigError as exc:
        print(f"sdformat-lsp: configuration error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    failed = changed = 0
    for path, opts in zip(args.files, options):
        try:
            data = read_file(path, None)  # a regular file, opened without blocking (files.read_file)
            text, bom = _decode(data)
            formatted = format_text(text, _options(opts, text))
        except FileRefused as exc:
            print(f"{path}: cannot read: {exc.reason}", file=sys.stderr)
            failed += 1
            continue
        except UnicodeDecodeError as exc:
            print(f"{path}: cannot format: not UTF-8 (byte offset {exc.start}); save it as UTF-8", file=sys.stderr)
            failed += 1
            continue
        except FormatRefused as exc:
            print(_refusal(path, text, exc), file=sys.stderr)
            failed += 1
            continue
        if formatted == text:
            continue
        changed += 1
        if args.diff:
            sys.stdout.writelines(_unified_diff(text, formatted, path))
        if args.check:
            print(f"would reformat {path}")
        elif not args.diff:
            try:
                write_atomically(path, bom + formatted.encode("utf-8"))
            except OSError as exc:
                print(f"{path}: cannot write: {exc.strerror or exc}", file=sys.stderr)
                failed += 1
                continue
            print(f"reformatted {path}", file=sys.stderr)
    verb = "would be reformatted" if args.check or args.diff else "reformatted"
    print(f"{len(args.files)} file(s): {changed} {verb}, {failed} could not be formatted", file=sys.stderr)
    if failed or (args.check and changed):
        return 1
    return 0


def register(sub) -> None:
    c = sub.add_parser(
        "format",
        help="re-indent SDFormat files in place (--check, --diff, '-' for standard input)",
        description="Re-indent the structure of SDFormat files; values, comments, CDATA, plugin bodies, "
        "attribute order and quoting, line endings and the final newline are kept.",
    )
    c.add_argument(
        "files", nargs="+", metavar="FILE", help="files to format, or '-' to filter standard input to standard output"
    )
    c.add_argument(
        "--check", action="store_true", help="write nothing; list the files that would change and exit 1 if any"
    )
    c.add_argument("--diff", action="store_true", help="write nothing; print a unified diff of the changes")
    c.add_argument(
        "--indent",
        type=int,
        default=None,
        metavar="N",
        help="N spaces per level (default: the configuration's [format], else 2)",
    )
    c.add_argument("--tabs", action="store_true", help="indent with one tab per level (overrides the configuration)")
    c.add_argument(
        "--config", metavar="FILE", help="take [format] from this configuration file instead of the nearest one"
    )
    c.add_argument("--no-config", action="store_true", help="ignore configuration files")
    c.add_argument(
        "--stdin-filename", metavar="PATH", help="with '-': look up the configuration as if the input were at PATH"
    )
    c.set_defaults(run=format_command)
