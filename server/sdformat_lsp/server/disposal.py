"""Freeing a replaced analysis in slices, between the messages of the event loop.

When a document's full analysis is replaced, the old one, every element, node and
span of it, is freed at the moment its last reference goes. In CPython that is one
cascade of deallocations in C that no other thread and no coroutine can interrupt:
on gz-sim's ``3k_shapes.sdf`` (263,000 objects) 10-14 ms, measured 52 times in one
run of ``benchmarks/bench_lsp.py``, and a hover that arrived meanwhile waited for
all of it (p95 21 ms right after an edit, against 4 ms otherwise). Dropping it in
a worker thread would not help: the cascade holds the interpreter lock throughout.

A :class:`Graveyard` takes the replaced objects instead, and frees them in slices of
about a millisecond, a few milliseconds apart (``loop.call_later``), so the loop reads
and answers requests between two slices. It never changes an object; it only holds references
and lets them go in a chosen order, so objects still in use (parts the new analysis
shares with the old one, the include cache's analyses) are merely released:

1. *Expand* the objects estimated to hold the largest share of the whole first (each
   of an object's n references is given 1/n of its share), taking the references each
   holds (``gc.get_referents``), up to :data:`EXPAND_LIMIT` objects. Only objects that
   can hold others are expanded (those the cyclic collector tracks: not strings,
   numbers, or tuples of them), and never classes, modules or functions: they are
   shared by the whole program.
2. *Release the expanded objects* and the atoms found (strings, numbers): each is
   freed on its own, since the graveyard still holds everything it refers to. Further
   references to an expanded object are let go before, or it would be freed last and
   take all it refers to with it.
3. *Release the frontier*, the containers found but not expanded, largest share
   first, a few at a time: each frees the part below it that nothing else holds. On
   ``3k_shapes.sdf`` the largest piece took 1.2 ms of the single cascade's 13.

How many frontier objects a slice releases adapts to what the last release cost
(from one, doubling while cheap, at most :data:`MAX_BATCH`), so a slice stays near its
budget whatever the shape of what is freed.
"""

from __future__ import annotations

import asyncio
import gc
import time
import traceback
import types
from collections import deque
from typing import Any

SLICE_SECONDS = 0.001  # the longest a slice should hold the event loop
# Between two slices: a request takes several turns of the loop (read, handler, reply), and a slice
# run at every turn (call_soon) added a millisecond to each, 4-5 ms to a hover right after an edit
# on 3k_shapes (p50 5.3 ms against 1.3 without the graveyard, same minute); at most one slice
# now falls within a request. 3k_shapes' analysis is freed in about 80 ms, the 100k-line world's in 0.4 s.
SLICE_GAP = 0.004
EXPAND_LIMIT = 2000  # objects expanded per burial: ~2 ms in all, and a frontier wide enough to cut a world's tree
SIFT_CHUNK = 1024  # objects looked at between two looks at the clock while sifting
MAX_BATCH = 64  # frontier objects released at once, at most: a batch is timed only after it is released
_NEVER_EXPANDED = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.CodeType,
    types.FrameType,
)


class _Burial:
    """One object being freed: its expansion so far, then what is left to release."""

    __slots__ = ("buckets", "lowest", "rest", "atoms", "expanded", "seen", "frontier", "batch")

    def __init__(self, obj: object) -> None:
        # what is still to expand, by the share of the whole it is estimated to hold: bucket k, about 2**-k
        self.buckets: list[list[object]] = [[obj]]
        self.lowest = 0  # no bucket below this one holds anything
        self.rest: list[object] = []  # found, able to hold others, not expanded
        self.atoms: list[object] = []  # found, holding no others (strings, numbers): each frees only itself
        self.expanded: list[object] = []  # released all at once after the expansion: each frees only itself
        self.seen: set[int] = set()  # ids of the expanded objects (held in ``expanded``, so never reused)
        self.frontier: list[object] | None = None  # set when the expansion is over
        self.batch = 1  # frontier objects released at a time (adapted to their cost: the first are the largest)

    def step(self, deadline: float) -> bool:
        """Work until ``deadline`` (perf_counter); True when everything is released."""
        if self.frontier is None:
            if not self._expand(deadline) or not self._sift(deadline):
                return False
            self.frontier, self.rest = self.rest, []
            self.expanded.clear()  # each frees only itself: the frontier holds all they referred to
            self.seen.clear()
            self.atoms.clear()
            return False  # the release of the expanded objects was this slice's work
        frontier = self.frontier
        while frontier:
            n = self.batch
            started = time.perf_counter()
            del frontier[-n:]
            now = time.perf_counter()
            cost = now - started
            if cost > SLICE_SECONDS / 4:
                self.batch = max(1, n // 2)
            elif cost < SLICE_SECONDS / 32:
                self.batch = min(MAX_BATCH, n * 2)
            if now >= deadline:
                break
        return not frontier

    def _expand(self, deadline: float) -> bool:
        """Largest estimated share first, until the limit: True when the frontier is made."""
        buckets, expanded, seen = self.buckets, self.expanded, self.seen
        rest = self.rest
        lowest = self.lowest
        while len(expanded) < EXPAND_LIMIT:
            while lowest < len(buckets) and not buckets[lowest]:
                lowest += 1
            if lowest == len(buckets):
                break
            obj = buckets[lowest].pop()
            if id(obj) in seen:
                continue  # one more reference to an expanded object: ``expanded`` holds it until its turn
            if not gc.is_tracked(obj):
                self.atoms.append(obj)
                continue
            if isinstance(obj, _NEVER_EXPANDED):
                rest.append(obj)
                continue
            seen.add(id(obj))
            expanded.append(obj)
            refs = gc.get_referents(obj)
            # each of n references gets about 1/n of the object's share: 2**-bucket
            share = lowest + len(refs).bit_length()
            while len(buckets) <= share:
                buckets.append([])
            buckets[share].extend(refs)
            del obj, refs
            if len(expanded) % 64 == 0 and time.perf_counter() >= deadline:
                self.lowest = lowest
                return False
        self.lowest = len(buckets)
        return True

    def _sift(self, deadline: float) -> bool:
        """Move what was found but not expanded to ``rest``, without the further references to expanded
        objects: one left to the end would free its object after what it refers to had gone, all of it
        at once. True when done."""
        buckets, seen, rest, atoms = self.buckets, self.seen, self.rest, self.atoms
        tracked = gc.is_tracked
        while buckets:
            bucket = buckets[-1]
            while bucket:
                chunk = bucket[-SIFT_CHUNK:]
                del bucket[-SIFT_CHUNK:]
                rest.extend([obj for obj in chunk if id(obj) not in seen and tracked(obj)])
                atoms.extend([obj for obj in chunk if not tracked(obj)])  # released with the expanded ones
                del chunk  # frees nothing: ``expanded`` holds the objects left out
                if time.perf_counter() >= deadline:
                    return False
            buckets.pop()
        return True


class Graveyard:
    """Objects let go a slice at a time on the running event loop (see the module's docstring)."""

    def __init__(self) -> None:
        self._burials: deque[_Burial] = deque()
        self._scheduled = False
        self.slices = 0  # slices run so far (for tests and logs)

    def bury(self, *objects: Any) -> None:
        """Take these objects; the caller then drops its own references. Without a running event loop
        they are let go at once, as the caller's ``del`` would."""
        objs = tuple(o for o in objects if o is not None)
        if not objs:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._burials.append(_Burial(objs))
        if not self._scheduled:
            self._scheduled = True
            loop.call_later(SLICE_GAP, self._slice)

    @property
    def pending(self) -> int:
        """Burials not finished yet."""
        return len(self._burials)

    def drain(self) -> None:
        """Let everything go now (shutting down; tests)."""
        while self._burials:
            burial = self._burials[0]
            while not burial.step(float("inf")):
                pass
            self._burials.popleft()

    def _slice(self) -> None:
        self._scheduled = False
        self.slices += 1
        deadline = time.perf_counter() + SLICE_SECONDS
        while self._burials:
            burial = self._burials[0]
            if not burial.step(deadline):
                break
            self._burials.popleft()
            if time.perf_counter() >= deadline:
                break
        if self._burials:
            self._scheduled = True
            asyncio.get_running_loop().call_later(SLICE_GAP, self._slice)


def remains_of(exc: BaseException) -> list[dict[str, object]]:
    """What the frames an exception went through still hold (a cancelled analysis's half-built tree,
    graphs and model among their locals), taken out of the frames so that they can be buried.

    Otherwise they go when the exception does, in one cascade on the thread that drops it: a watchdog
    thread in the server saw the event loop wait 30-40 ms (median 34) for each background analysis of
    3k_shapes.sdf stopped by a new edit, the worker freeing it while holding the interpreter. The frame
    that handles ``exc`` is left out: it is still running."""
    held: list[dict[str, object]] = []
    tb = exc.__traceback__
    first = tb
    tb = tb.tb_next if tb is not None else None
    while tb is not None:
        held.append(dict(tb.tb_frame.f_locals))
        tb = tb.tb_next
    if first is not None:
        traceback.clear_frames(first)  # the finished frames let their locals go: ``held`` has them
    return held


def free_here(holder: list[Any]) -> None:
    """Free what ``holder`` holds in this (worker) thread, a slice at a time, handing the interpreter to
    the other threads between slices (``time.sleep(0)``): dropped at once, a stopped analysis of
    3k_shapes.sdf held it 30-40 ms while the event loop waited. ``holder`` is emptied first, so that
    nothing but the burial holds it."""
    burial = _Burial(tuple(holder))
    holder.clear()
    while not burial.step(time.perf_counter() + SLICE_SECONDS):
        time.sleep(0)
