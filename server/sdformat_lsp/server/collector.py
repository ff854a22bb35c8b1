"""The cyclic garbage collector and the analyses the server keeps.

A full analysis of a 100,000-line world is some 600,000 objects, built with the
collector paused (``semantics.analysis``). Left to itself, the collector then
walks all of them two or three times (a young pass, a middle one, a full one:
0.3 to 2 s in all on that world), on whatever runs next: the first edit after
opening a file, or the request that waited for the analysis. Those walks find
nothing: analyses hold no reference cycles (``tests/core/test_memory.py``), so
reference counting frees a replaced one whole.

So each full analysis is moved out of the collector's sight (``gc.freeze``) as
soon as it is built, before the collector runs again. Freezing takes everything
alive at that moment, and a reference cycle that became garbage just before
would then never be collected (the reason freezing was once removed: analyses
had cycles then, and 25 edits of a large world left 3 GB). Here nothing stays
frozen for good: once the server has been idle for ``IDLE_SWEEP`` seconds
after a freeze, everything is handed back (``gc.unfreeze``), collected in one
full pass, and frozen again. Memory is therefore bounded as without freezing,
and the full pass, one instead of two or three per analysis, falls when nobody
is waiting.

Growth shortens the wait: when the memory in use has more than doubled since
the last sweep, the sweep comes after ``GROWTH_QUIET`` seconds of quiet instead;
only past ``HARD_GROWTH`` times does it run at once, whatever is waiting. The
full pass holds the interpreter throughout (0.3-0.45 s on 3k_shapes.sdf), and
memory doubles without any garbage at all whenever a large document's old and
new analyses are alive at once (an edit's): swept at once, it fell on the edits
a user was typing (bench_lsp: an edit's diagnostics once 0.3-0.4 s late, for
some 600 objects collected).

Growth is measured by the blocks the interpreter's allocator holds
(``sys.getallocatedblocks``: a walk over its arenas, a tenth of a millisecond),
not by counting the frozen objects (``gc.get_freeze_count`` walks every one of
them, 30-90 ms on 3k_shapes.sdf, holding the interpreter: a hover that arrived
meanwhile waited that long). Frozen garbage is allocated blocks, so blocks that
more than doubled since the last sweep bound memory as the frozen count did.
"""

from __future__ import annotations

import asyncio
import gc
import sys

IDLE_SWEEP = 10.0  # seconds without edits or requests after a freeze before the full pass
GROWTH_QUIET = 1.0  # the same wait once the memory in use has doubled since the last sweep
HARD_GROWTH = 4  # the memory in use this many times the last sweep's: the sweep runs at once
_FLOOR = 400_000  # allocated blocks (an idle server holds ~200,000) below which growth never forces a sweep (a small document)


def _size() -> int:
    """What growth is measured in: the allocator's blocks in use (constant time in the number of objects);
    the frozen objects where the allocator does not count (an interpreter run without pymalloc)."""
    return sys.getallocatedblocks() or gc.get_freeze_count()


class Collector:
    def __init__(self, idle: float = IDLE_SWEEP) -> None:
        self.idle = idle
        self._baseline = 0  # _size() after the last sweep (or at the first check)
        self._pending = False  # frozen since the last sweep
        self._grown = False  # the memory in use has doubled since the last sweep (set by check)
        self._timer: asyncio.TimerHandle | None = None
        self.sweeps = 0

    def keep(self, check: bool = True) -> None:
        """A full analysis has just been built (any thread; call it while the collector is paused, so
        that no pass runs over the new objects first): freeze what is alive. ``check=False``: the growth
        is checked later, by :meth:`check` (the server, once the diagnostics are out)."""
        self.freeze()
        if check:
            self.check()

    def freeze(self) -> None:
        """Freeze what is alive (any thread): given as ``collector_paused(then=...)`` by the server's work
        over large analyses (a full run, stopped or not; an incremental step; the lookups made after a run),
        so that what such work built and left alive never meets the collector's young pass all at once."""
        gc.freeze()  # constant time: the generations are moved whole
        self._pending = True

    def check(self) -> None:
        """Measure the memory in use (allocated blocks; any thread): more than doubled since the last sweep,
        the next quiet period that arms (:meth:`activity`) is ``GROWTH_QUIET``; past ``HARD_GROWTH`` times,
        sweep now. The server asks after publishing an analysis, then re-arms."""
        count = _size()
        if not self._baseline:
            self._baseline = count
        if count > max(HARD_GROWTH * self._baseline, _FLOOR):
            self.sweep()
        elif count > max(2 * self._baseline, _FLOOR):
            self._grown = True

    def activity(self) -> None:
        """An edit, a request, a check (event loop): the sweep waits for ``idle`` seconds of quiet from now,
        ``GROWTH_QUIET`` once the memory has doubled."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._pending:
            quiet = min(self.idle, GROWTH_QUIET) if self._grown else self.idle
            self._timer = asyncio.get_running_loop().call_later(quiet, self._when_idle)

    def _when_idle(self) -> None:
        self._timer = None
        if self._pending:
            self.sweep()

    def sweep(self) -> None:
        """Hand every frozen object back to the collector, collect, and freeze what is still alive."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._baseline = _size()
        self._pending = self._grown = False
        self.sweeps += 1

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
