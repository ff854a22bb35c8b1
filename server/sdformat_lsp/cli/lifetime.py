"""What the command line keeps alive until the process ends, and why.

Freeing a big document's analysis object by object takes about a tenth of a
check's time, and nobody waits for it: when running as the program
(``cli.entry``), the analyses of a check are kept here and the process ends
with ``os._exit`` once the output is flushed, without walking them. Called
in-process (tests, embedding: ``cli.main``), nothing is kept and everything is
freed as usual.

What is kept is also moved out of the cyclic collector's sight (``gc.freeze``):
an analysis is built with the collector paused, so its hundreds of thousands of
objects would all sit in the youngest generation, and the first collection
after it (triggered by printing the diagnostics) would walk every one of them,
then again in each older generation: a fifth to a third of a big file's check.
They are alive to the end anyway, and analyses hold no reference cycles, so
there is nothing in them for the collector to find.
"""

from __future__ import annotations

import gc

# Set to a list by ``cli.entry`` (the program); None: not the program, keep nothing.
KEPT: list | None = None


def keep_until_exit(obj: object) -> None:
    """Hold ``obj`` until the process ends, when running as the program."""
    if KEPT is not None:
        KEPT.append(obj)
        gc.freeze()
