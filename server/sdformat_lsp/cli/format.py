"""`sdformat-lsp format`: re-indent files in place, or check, diff, or filter standard input.

The engine is ``sdformat_lsp.formatting``; this module reads and writes files. A file is
written only when the engine formatted it (a document that is not well-formed XML, or not
UTF-8, is reported and left alone), through a temporary file renamed over it, with its
byte-order mark kept.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

from ..files import FileRefused, read_file
from ..formatting import FormatOptions, FormatRefused, format_text
from ..text import UTF32, LineIndex

_BOM = b"\xef\xbb\xbf"


def _options(args: argparse.Namespace) -> FormatOptions:
    return FormatOptions(indent_size=args.indent, use_tabs=args.tabs)


def _decode(data: bytes) -> tuple[str, bytes]:
    """(text, BOM) of UTF-8 bytes; UnicodeDecodeError otherwise."""
    bom = _BOM if data.startswith(_BOM) else b""
    return data[len(bom) :].decode("utf-8"), bom


def _refusal(name: str, text: str, exc: FormatRefused) -> str:
    line, col = LineIndex(text).position(exc.diagnostic.span.start, UTF32)
    return f"{name}:{line + 1}:{col + 1}: {exc.diagnostic.message}"


def _write(path: str, data: bytes) -> None:
    """Replace ``path`` by ``data`` at once (a crash leaves the old file or the new one, never half)."""
    directory = os.path.dirname(os.path.abspath(path))
    mode = os.stat(path).st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=".sdformat-format-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _unified_diff(text: str, formatted: str, name: str):
    import difflib  # only for --diff: check's start-up never pays for it

    return difflib.unified_diff(text.splitlines(True), formatted.splitlines(True), name, name)


def _stdin(args: argparse.Namespace) -> int:
    data = sys.stdin.buffer.read()
    try:
        text, bom = _decode(data)
        formatted = format_text(text, _options(args))
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


def format_command(args: argparse.Namespace) -> int:
    if args.files == ["-"]:
        return _stdin(args)
    if "-" in args.files:
        print("sdformat-lsp format: '-' (standard input) cannot be mixed with files", file=sys.stderr)
        return 2
    failed = changed = 0
    for path in args.files:
        try:
            data = read_file(path, None)  # a regular file, opened without blocking (files.read_file)
            text, bom = _decode(data)
            formatted = format_text(text, _options(args))
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
                _write(path, bom + formatted.encode("utf-8"))
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
    c.add_argument("files", nargs="+", metavar="FILE", help="files to format, or '-' to filter standard input to standard output")
    c.add_argument("--check", action="store_true", help="write nothing; list the files that would change and exit 1 if any")
    c.add_argument("--diff", action="store_true", help="write nothing; print a unified diff of the changes")
    c.add_argument("--indent", type=int, default=2, metavar="N", help="spaces per level (default 2)")
    c.add_argument("--tabs", action="store_true", help="indent with one tab per level")
    c.set_defaults(run=format_command)
