"""`sdformat-lsp serve`: the language server over stdio (the default) or TCP."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    s = sub.add_parser("serve", help="run the language server (the default)")
    s.add_argument("--tcp", metavar="HOST:PORT", help="serve one client over TCP instead of stdio")
    s.add_argument(
        "--log-level",
        choices=("warning", "info", "debug"),
        default="info",
        help="what goes to stderr (debug adds the traceback of every fault, under its fault id)",
    )
    s.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..server import serve  # pygls is only imported when serving

    return serve(getattr(args, "tcp", None), getattr(args, "log_level", "info"))
