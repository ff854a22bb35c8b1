"""Pausing Python's cyclic garbage collector around work over a large analysis: the one home of
the pause, used by ``analyze``, by the xacro processor and by every job that walks a finished
analysis. In the base layer so that every layer above shares the one count: a pause of its own
in one layer would turn the collector back on while another thread's analysis still runs.

An analysis of a large world holds millions of objects and makes no reference cycles; a
pass of the collector, triggered by the many small tuples pose math allocates, visits all of
them. ``analyze`` pauses the collector while it runs; the jobs that walk a finished analysis
(printing, statistics, graphs) and the server, which freezes a finished analysis
(``server/collector.py``), do the same with the same count: the collector runs again when the
last of them ends (the server runs two analyses at once), and only if it was on before.
"""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_pauses = 0  # blocks running now inside collector_paused()
_was_enabled = False


class collector_paused:
    """``with collector_paused():`` no cyclic collection runs in the block (counted with the other
    blocks running at once, in any thread)."""

    __slots__ = ()

    def __enter__(self) -> None:
        global _pauses, _was_enabled
        with _lock:
            if _pauses == 0:
                _was_enabled = gc.isenabled()
                gc.disable()
            _pauses += 1

    def __exit__(self, *exc: object) -> None:
        global _pauses
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()
