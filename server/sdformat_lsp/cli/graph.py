"""`sdformat-lsp graph`: print a document's frame graphs as Graphviz DOT or Mermaid.

The graphs come from ``features.graph_export``; this module picks one and prints it.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..semantics import Options
from .loading import configured_parsers, expanded, first_error, load_file, one_document, project_options


# The kinds features.graph_export draws (imported when a graph is drawn: check never needs it).
KINDS = ("attached-to", "relative-to", "kinematic")


@one_document
def graph_command(args: argparse.Namespace) -> int:
    from ..features.graph_export import frame_graph, scope_names, to_dot, to_mermaid

    options = project_options(
        args.file,
        Options(
            resource_paths=tuple(os.path.abspath(p) for p in args.resource_path or []),
            model_parsers=configured_parsers(args.file),
        ),
    )
    loaded = load_file(args.file, options)
    problem = first_error(loaded)
    a = expanded(loaded) or loaded  # a xacro document: its expansion
    if problem is not None or a.graphs is None:
        print(f"{problem or args.file + ': no model or world to draw'} (cannot draw the graph)", file=sys.stderr)
        return 1
    try:
        g = frame_graph(a.graphs, args.kind, args.scope)
    except KeyError:
        names = scope_names(a.graphs)
        print(f"{args.file}: no nested model '{args.scope}'; scopes: {', '.join(names) or '(none)'}", file=sys.stderr)
        return 1
    sys.stdout.write(to_dot(g) if args.format == "dot" else to_mermaid(g))
    return 0


def register(sub) -> None:
    c = sub.add_parser(
        "graph",
        help="print the frame graphs (attached-to, relative-to) or the kinematic tree as DOT or Mermaid",
        description="Print a model's or world's frame-attached-to graph, pose-relative-to graph or link-joint tree.",
    )
    c.add_argument("file", metavar="FILE")
    c.add_argument("--kind", choices=KINDS, default="attached-to", help="which graph (default attached-to)")
    c.add_argument("--format", choices=("dot", "mermaid"), default="dot", help="Graphviz DOT (default) or Mermaid")
    c.add_argument("--scope", metavar="NAME", help="only this nested model (outer::inner) and what it holds")
    c.add_argument(
        "--resource-path",
        action="append",
        metavar="DIR",
        help="a directory searched for model:// includes (repeatable)",
    )
    c.set_defaults(run=graph_command)
