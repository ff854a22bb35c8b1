"""The one bounded memo for values read from short texts (numbers, vectors, parsed expressions).

A robot repeats "0", "0 0 0" and "${wheel_radius}" thousands of times; reading
each distinct text once saves a conversion that costs more than a lookup. Such
a memo lives as long as the process, so it must not grow with every document
ever opened: when full it is emptied and fills again with what the documents
of the moment use (cheaper than an LRU's bookkeeping on every hit, and right
for texts that recur within a document, not across hours).

A ``TextMemo`` is a ``dict``: ``get`` is the C lookup. ``keep`` stores a
value, emptying the memo first when it holds ``limit`` entries. A memo shared
by analyses running in several threads needs no lock: a lookup is one
operation, and a value is the same whoever computed it; read it with one
``get`` (never ``in`` then ``[]``, between which another thread may empty it).
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class TextMemo(dict[K, V]):
    """A dict that empties itself when it reaches ``limit`` entries (see the module)."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


__all__ = ["TextMemo"]
