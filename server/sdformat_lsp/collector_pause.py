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

What a paused block built and left alive has never been seen by the collector: the generation
every new object joins holds all of it when the collector resumes, and the first allocation
after that, in any thread, starts a young pass over it (100-145 ms of the interpreter after an
incremental check of 3k_shapes.sdf, with the features' requests waiting), then a middle and a
full one as it ages. ``collector_paused(then=...)``: ``then()`` is called as the collector
resumes (the language server freezes what is alive: ``server/collector.py``), once for every
block that asked, however many blocks overlapped.
"""

from __future__ import annotations

import gc
import threading
from typing import Callable

_lock = threading.Lock()
_pauses = 0  # blocks running now inside collector_paused()
_was_enabled = False
_on_resume: list[Callable[[], None]] = []  # what the blocks that ended ask of the resumption


class collector_paused:
    """``with collector_paused():`` no cyclic collection runs in the block (counted with the other
    blocks running at once, in any thread). ``then``: called when the collector resumes, after this
    block and every block overlapping it have ended (under the pause's lock: it must not pause)."""

    __slots__ = ("then",)

    def __init__(self, then: Callable[[], None] | None = None) -> None:
        self.then = then

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
            if self.then is not None and self.then not in _on_resume:
                _on_resume.append(self.then)
            if _pauses == 0:
                thens = _on_resume[:]
                _on_resume.clear()
                try:
                    for then in thens:
                        then()
                finally:  # a fault in one never leaves the collector off
                    if _was_enabled:
                        gc.enable()
