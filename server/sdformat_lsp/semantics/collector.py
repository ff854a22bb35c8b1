"""Pausing Python's cyclic garbage collector around work over a large analysis.

An analysis of a large world holds millions of objects and makes no reference cycles; a
pass of the collector, triggered by the many small tuples pose math allocates, visits all of
them. ``analyze`` pauses the collector while it runs; the jobs that walk a finished analysis
(printing, statistics, graphs) use this to do the same, with the same shared count.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    from . import analysis  # imported here: analysis imports the modules that use this one

    analysis._pause_collector()
    try:
        yield
    finally:
        analysis._resume_collector()
