"""`sdformat-lsp convert`: SDFormat to URDF (and URDF to SDFormat), written atomically."""

from __future__ import annotations

import argparse
import os
import sys

from typing import TYPE_CHECKING

from ..semantics import Options
from .loading import expanded, first_error, load_file, one_document, project_options
from .out_file import write_output

if TYPE_CHECKING:
    from ..convert.to_sdf import SdfConversion
    from ..convert.to_urdf import Conversion


@one_document
def convert_command(args: argparse.Namespace) -> int:
    paths = tuple(os.path.abspath(p) for p in args.resource_path or [])
    loaded = load_file(args.file, project_options(args.file, Options(resource_paths=paths)))
    if loaded.xacro is not None:  # a xacro document is converted from its expansion, never as the template it is
        found = expanded(loaded)
        problem = None if found is not None else first_error(loaded)
        if found is None:
            print(
                f"{problem or args.file + ': a xacro library of macros and properties expands to nothing'} "
                "(cannot convert; nothing written)",
                file=sys.stderr,
            )
            return 1
        analysis = found
    else:
        analysis = loaded
    is_urdf = analysis.xml.root is not None and analysis.xml.root.tag == "robot"
    result: Conversion | SdfConversion
    if args.to == "urdf":
        if is_urdf:
            print(f"{args.file}: already a URDF (use --to sdf to convert it to SDFormat)", file=sys.stderr)
            return 1
        from ..convert import UrdfOptions, sdf_to_urdf  # here, not at start-up: `check` never needs the converter

        options = UrdfOptions(
            model=args.model,
            name_separator=args.name_separator,  # '__' unless asked
            lossy=args.lossy,
            mesh_uri=args.mesh_uri,
            frames=not args.no_frames,
            resource_paths=paths,
            package_paths=analysis.options.package_paths if analysis.options is not None else (),
        )
        result = sdf_to_urdf(analysis, options)
    else:
        from ..convert.to_sdf import SdfOptions, urdf_to_sdf

        if not is_urdf:
            print(f"{args.file}: not a URDF (its root is not <robot>)", file=sys.stderr)
            return 1
        template = _xacro_markup(analysis.xml.root)
        if template is not None:  # never the unexpanded template: its macros and ${...} are not URDF
            print(
                f"{args.file}: {template}: this is a xacro template; expand it first (sdformat-lsp xacro {args.file} "
                "-o robot.urdf), then convert the URDF (nothing written)",
                file=sys.stderr,
            )
            return 1
        result = urdf_to_sdf(analysis, SdfOptions(lump=not args.no_lump))
    for w in result.warnings:
        print(f"{args.file}: warning: {w}", file=sys.stderr)
    errors = list(result.errors)
    if result.text is None or errors:
        for e in errors:
            print(f"{args.file}: error: {e}", file=sys.stderr)
        print("nothing written", file=sys.stderr)
        return 1
    return write_output(result.text, args.output)


def _xacro_markup(root) -> str | None:
    """What shows that ``root`` is a xacro template still to be expanded (an element of the xacro
    namespace, or a ``${...}``/``$(...)`` substitution), or None. The namespace declaration alone is
    not: xacro's own output keeps it."""
    for el in root.iter():
        if el.tag.startswith("xacro:"):
            return f"<{el.tag}> is xacro markup"
        for name, a in el.attributes.items():
            if "${" in a.value or "$(" in a.value:
                return f'{name}="{a.value}" holds a xacro substitution'
        if not el.children and ("${" in el.text or "$(" in el.text):
            return f"<{el.tag}>{el.text.strip()}</{el.tag}> holds a xacro substitution"
    return None


def register(sub) -> None:
    c = sub.add_parser(
        "convert",
        help="convert an SDFormat model to URDF (--to urdf) or a URDF to SDFormat (--to sdf)",
        description="Convert with the same kinematics: every URDF joint origin is the SDFormat joint frame in its "
        "parent link's frame. Exit 1 and write nothing when the model cannot be converted.",
    )
    c.add_argument("file", metavar="FILE")
    c.add_argument("--to", choices=("urdf", "sdf"), required=True, help="the format to write")
    c.add_argument("-o", "--output", metavar="OUT", help="write here (atomically) instead of to standard output")
    c.add_argument(
        "--model", metavar="NAME", help="the model of a world to convert (needed when the world has several)"
    )
    c.add_argument(
        "--resource-path", action="append", metavar="DIR", help="a directory searched for model:// URIs (repeatable)"
    )
    c.add_argument(
        "--name-separator",
        metavar="SEP",
        default="__",
        help="join a nested model's name to its links' and joints' names with SEP (default: __, since libsdformat "
        "14.1 and later refuse '::' in URDF names; '::' keeps the scope as written)",
    )
    c.add_argument(
        "--lossy",
        action="store_true",
        help="convert what URDF cannot express to the nearest thing (with a warning) instead of refusing",
    )
    c.add_argument(
        "--mesh-uri",
        choices=("package", "file", "keep"),
        default="package",
        help="mesh URIs: model://NAME/... as package://NAME/... (default), file:// paths found on the resource path, or as written",
    )
    c.add_argument(
        "--no-frames",
        action="store_true",
        help="leave <frame>s out (by default they become massless links on fixed joints)",
    )
    c.add_argument(
        "--no-lump",
        action="store_true",
        help="--to sdf: keep every link instead of lumping fixed joints as libsdformat does",
    )
    c.set_defaults(run=convert_command)
