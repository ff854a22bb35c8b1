"""The program: where `sdformat-lsp` (the installed command) and `python -m sdformat_lsp` start.

Why a module of its own rather than ``cli.entry`` itself: the command line's modules are
imported here with the cyclic collector paused, then moved out of its sight (``gc.freeze``).
Importing them makes a few hundred thousand objects (modules, classes, functions, the spec's
tables), all alive until the process ends, and the collector would walk them again and again
while they load: about 20 to 28 collections that find nothing, some 4 ms of the 55 ms a 6-line
model's check takes. The import has to happen under the pause, so the pause cannot live in
the module being imported; and only the program may freeze what is alive (a test or a program
embedding ``sdformat_lsp.cli`` keeps its collector as it was).
"""

from __future__ import annotations

import gc
from collections.abc import Callable  # not typing's: its import is left to the command line's, under the pause


def load() -> Callable[[], int]:
    """Import the command line with the collector paused, freeze what the import made, and give
    back ``cli.entry``; the collector is as it was before (on, unless someone turned it off)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        from .cli import entry

        gc.freeze()  # alive to the end: never worth a collection's walk
    finally:
        if was_on:
            gc.enable()
    return entry


def main() -> int:
    """Run the program (see ``cli.entry``) and give its exit code."""
    return load()()


__all__ = ["load", "main"]
