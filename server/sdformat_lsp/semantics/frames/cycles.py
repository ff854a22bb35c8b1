"""Cycles of the frame graphs, where each node has at most one successor: linear walks.

:func:`find_cycles` takes any successor function; :func:`edge_cycles` is the same search
over one of the two graphs, reading the nodes' weak edges directly, for the checks that
run it on every node of a document; ``cycle_from`` is the cycle one node's chain runs into.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Callable

from .vertices import FrameNode


def find_cycles(nodes: list[FrameNode], step: Callable[[FrameNode], FrameNode | None]) -> list[list[FrameNode]]:
    """Every cycle of a graph where each node has at most one successor, in O(n)."""
    state: dict[int, int] = {}  # 1 on the current walk, 2 finished
    cycles: list[list[FrameNode]] = []
    for start in nodes:
        if id(start) in state:
            continue
        path: list[FrameNode] = []
        index: dict[int, int] = {}
        cur: FrameNode | None = start
        while cur is not None and id(cur) not in state:
            state[id(cur)] = 1
            index[id(cur)] = len(path)
            path.append(cur)
            cur = step(cur)
        if cur is not None and state.get(id(cur)) == 1:
            cycles.append(path[index[id(cur)] :])
        for n in path:
            state[id(n)] = 2
    return cycles


def edge_cycles(nodes: list[FrameNode], edge: str) -> list[list[FrameNode]]:
    """:func:`find_cycles` over one of the two graphs (``edge``: 'attached_to' or 'relative_to'),
    the same cycles in the same order. Run on every node of a document by the checks, so it reads
    the node's weak edge directly instead of through the property, and keeps one table: the index
    on the walk in progress, or -1 once a node's walk is finished (its cycle, if any, found)."""
    get = attrgetter("_" + edge)
    state: dict[int, int] = {}
    cycles: list[list[FrameNode]] = []
    for start in nodes:
        if id(start) in state:
            continue
        path: list[FrameNode] = []
        cur: FrameNode | None = start
        while cur is not None:
            on = state.get(id(cur))
            if on is not None:
                if on >= 0:
                    cycles.append(path[on:])
                break
            state[id(cur)] = len(path)
            path.append(cur)
            r = get(cur)
            cur = r() if r is not None else None
        for n in path:
            state[id(n)] = -1
    return cycles


def cycle_from(node: FrameNode, step: Callable[[FrameNode], FrameNode | None]) -> list[FrameNode] | None:
    """The cycle reached from ``node`` by following ``step``, if any."""
    order: dict[int, int] = {}
    path: list[FrameNode] = []
    cur: FrameNode | None = node
    while cur is not None:
        if id(cur) in order:
            return path[order[id(cur)] :]
        order[id(cur)] = len(path)
        path.append(cur)
        cur = step(cur)
    return None
