"""`sdformat-lsp xacro FILE [name:=value ...] [-o OUT]`: expand a xacro document as ROS's
`xacro` does (a drop-in for launch files and CI), errors located on stderr, exit 1 on error.

The expansion is ``formats.xacro.expand``; this module reads the command line, hands it the
shared package lookup for ``$(find)``, writes the output and the located messages.
"""

from __future__ import annotations

import argparse
import os
import sys

from .out_file import write_output


def _position(path: str, offset: int, cache: dict) -> tuple[int, int]:
    text = cache.get(path)
    if text is None:
        from ..formats.xacro import read_text_file

        try:
            text = read_text_file(path)
        except OSError:
            text = ""
        cache[path] = text
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def package_finder(path: str):
    """$(find name) as every subcommand finds packages (``sdformat_lsp.packages``): the
    configuration's package-paths, ROS_PACKAGE_PATH, AMENT_PREFIX_PATH, the document's
    repository; a package not found raises LookupError naming every place searched."""
    from ..config import ConfigError, find_config, load_config
    from ..packages import find_package

    base = os.path.dirname(os.path.abspath(path))
    found = find_config(base)
    try:
        paths = load_config(found).package_paths if found else ()
    except ConfigError:
        paths = ()  # a broken configuration is check's to report

    def find(name: str) -> str:
        lookup = find_package(name, base_dir=base, package_paths=paths)
        if lookup.path is None:
            raise LookupError(lookup.message())
        return lookup.path

    return find


def xacro_command(args: argparse.Namespace) -> int:
    from ..diagnostics import Severity
    from ..formats.xacro import expand

    mappings: dict[str, str] = {}
    words = [args.file, *args.mappings]  # name:=value may come before the file too, as ROS allows
    files = [w for w in words if ":=" not in w]
    if len(files) != 1:
        print(f"sdformat-lsp xacro: expected exactly one input file, got {len(files)}", file=sys.stderr)
        return 2
    for item in (w for w in words if ":=" in w):
        name, _, value = item.partition(":=")
        name, value = name.strip(), value.strip()
        if name and value and not (len(name) > 1 and name[0] == "_" and name[1] != "_"):
            mappings[name] = value
    path = files[0]
    root = args.root_dir or None
    if root and not os.path.isabs(path):
        path = os.path.join(root, path)
    result = expand(path, args=mappings, find_package=package_finder(path))
    cache: dict = {}
    failed = False
    for d in result.errors:
        where = d.path or path
        line, col = _position(where, d.span.start, cache)
        kind = {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(d.severity, "note")
        failed = failed or d.severity == Severity.ERROR
        if args.quiet and d.severity != Severity.ERROR:
            continue
        print(f"{where}:{line}:{col}: {kind}: {d.message}", file=sys.stderr)
        for r in d.related:
            rline, rcol = _position(r.path or where, r.span.start, cache)
            print(f"  {r.path or where}:{rline}:{rcol}: {r.message}", file=sys.stderr)
    if failed:
        return 1
    if args.deps:
        out_text = " ".join(f for f in result.files[1:])
    else:
        out_text = result.text
    return write_output(out_text, args.output)


def register(sub) -> None:
    c = sub.add_parser(
        "xacro",
        help="expand a xacro document as ROS's xacro does",
        description="Expand a xacro file (name:=value sets an argument) and print the document, as ROS's `xacro` does.",
    )
    c.add_argument("file", metavar="FILE")
    c.add_argument("mappings", nargs="*", metavar="name:=value", help="argument values ($(arg name))")
    c.add_argument("-o", dest="output", metavar="OUT", help="write the output to OUT instead of stdout")
    c.add_argument("--deps", action="store_true", help="print the files the document depends on instead")
    # accepted as ROS's `xacro` accepts them, so that a launch file's command line works unchanged
    c.add_argument("-i", "--inorder", action="store_true", help=argparse.SUPPRESS)
    c.add_argument("-q", dest="quiet", action="store_true", help="do not print warnings")
    c.add_argument("-v", "--verbosity", dest="verbosity", nargs="?", const=2, type=int, help=argparse.SUPPRESS)
    c.add_argument("--root-dir", metavar="DIR", help="resolve relative file names from DIR")
    c.set_defaults(run=xacro_command)
