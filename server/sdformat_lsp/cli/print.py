"""`sdformat-lsp print`: the document as the analysis sees it (``gz sdf -p``).

Includes expanded and placed, converted to the newest SDFormat (or ``--version``), with
``--resolve-poses`` and ``--degrees``; computed by ``printing``, printed here. A document with
errors is printed as ``gz sdf -p`` prints it, with its errors on stderr after it (exit 1);
one that cannot be read as SDFormat at all is one error and no output.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..semantics import Options
from ..semantics.analysis import CONVERTS_FROM
from ..text import UTF32, LineIndex
from .loading import configured_parsers, error_lines, expanded, first_error, load_file, one_document, project_options


def urdf_to_sdf(sub):
    """The URDF converter, imported only when a document includes a URDF."""
    from ..convert.to_sdf import urdf_to_sdf as convert

    return convert(sub)


@one_document
def print_command(args: argparse.Namespace) -> int:
    from ..printing import PrintRefused, printed  # here: check never needs it

    options = project_options(
        args.file,
        Options(
            resource_paths=tuple(os.path.abspath(p) for p in args.resource_path or []),
            model_parsers=configured_parsers(args.file),
        ),
    )
    loaded = load_file(args.file, options)
    problem = first_error(loaded, skip=_converted_here)
    if problem is not None and (loaded.xacro is not None or not _printable(loaded)):
        print(f"{problem} (cannot print the document)", file=sys.stderr)
        return 1
    a = expanded(loaded)  # a xacro document: its expansion
    if a is None:
        print(
            f"{args.file}: a xacro library of macros and properties expands to nothing: print a file that uses it",
            file=sys.stderr,
        )
        return 1
    try:
        out = printed(a, args.version, args.resolve_poses, args.degrees, urdf_to_sdf=urdf_to_sdf)
    except PrintRefused as exc:
        text = a.text
        where = args.file
        if exc.path:
            sub = a.included_analysis(exc.path)
            text, where = (sub.text if sub is not None else ""), exc.path
        line, col = LineIndex(text).position(min(exc.span.start, len(text)), UTF32)
        print(f"{where}:{line + 1}:{col + 1}: {exc.message}", file=sys.stderr)
        return 1
    sys.stdout.write(out)
    if (args.version or "").strip() != "1.0" and any(_converted_here(d) for d in loaded.diagnostics):
        sys.stdout.flush()
        print(
            f"{args.file}: converted from SDFormat 1.0 by libsdformat's 1_0.convert rules, which libsdformat "
            "itself no longer applies (docs/deviations.md)",
            file=sys.stderr,
        )
    if problem is None:
        return 0
    # As `gz sdf -p`: the document libsdformat built is printed, and its errors go to stderr after it.
    # gz exits 0 even then (sdf_main.cc drops cmdPrint's result); we exit 1 (docs/deviations.md).
    sys.stdout.flush()
    for message in error_lines(a, skip=_converted_here):
        print(message, file=sys.stderr)
    return 1


# Errors after which there is no document to print: libsdformat builds no element tree (the file
# cannot be read, is not XML, or its version cannot be converted).
FATAL = frozenset({"FILE_READ", "XML_ERROR", "CONVERSION_ERROR"})


def _printable(a) -> bool:
    """Whether a document with errors is printed anyway, as `gz sdf -p` prints it."""
    if a.graphs is None or a.xml.root is None or a.xml.root.tag != "sdf":
        return False
    return not any(d.code in FATAL and d.is_error and not _converted_here(d) for d in a.diagnostics)


def _converted_here(d) -> bool:
    """The error on a 1.0 document, which libsdformat no longer converts and print converts by its rules."""
    return d.code == "CONVERSION_ERROR" and bool(d.data.get(CONVERTS_FROM))


def register(sub) -> None:
    c = sub.add_parser(
        "print",
        help="print the document as the analysis sees it: includes expanded, converted to the newest version",
        description="Print the document with its includes expanded (named and placed as libsdformat places them), "
        "converted to the newest SDFormat or --version.",
    )
    c.add_argument("file", metavar="FILE")
    c.add_argument("--version", metavar="V", help="the SDFormat version to write (default: the newest, 1.12)")
    c.add_argument(
        "--resolve-poses",
        action="store_true",
        help="write every link, joint, frame and model pose relative to its model's frame",
    )
    c.add_argument("--degrees", action="store_true", help="write angles in degrees")
    c.add_argument(
        "--resource-path",
        action="append",
        metavar="DIR",
        help="a directory searched for model:// includes (repeatable)",
    )
    c.set_defaults(run=print_command)
