"""Where each piece of an expansion comes from.

An :class:`Origin` is a place in a source file (the file, a span of code-point
offsets) and the chain of macro calls through which it was copied into the
output. A substituted value also knows where it was written first (``via``:
the macro argument at the call, the property's value), so that a misspelt
link name passed to a macro is found at the call rather than in the macro.

:class:`SourceMap` holds, for the output text, consecutive segments each with
the origin of the most specific node written there (an attribute, a text,
otherwise the element), so that ``origin(offset)`` is one binary search.
"""

from __future__ import annotations

from bisect import bisect_right


class Call:
    """One macro call: the macro's name and where the call is written (tag span)."""

    __slots__ = ("file", "name", "outer", "span")

    def __init__(self, name: str, file: str, span: tuple[int, int], outer: "Call | None") -> None:
        self.name = name
        self.file = file
        self.span = span
        self.outer = outer  # the call the calling element was itself expanded from

    def __repr__(self) -> str:
        return f"Call({self.name!r}, {self.file!r}, {self.span})"


class Origin:
    """A place in a source file, the chain of calls it was expanded through, and for a
    substituted value where that value was written (``via``)."""

    __slots__ = ("call", "file", "span", "via")

    def __init__(self, file: str, span: tuple[int, int], call: Call | None = None, via: "Origin | None" = None) -> None:
        self.file = file
        self.span = span
        self.call = call  # innermost call, or None outside macros
        self.via = via

    def calls(self) -> list[Call]:
        """The chain of calls, innermost first."""
        out = []
        call = self.call
        while call is not None:
            out.append(call)
            call = call.outer
        return out

    @property
    def source(self) -> "Origin":
        """Where the value was first written: ``via`` followed to its end, else this place."""
        origin = self
        while origin.via is not None:
            origin = origin.via
        return origin

    def __repr__(self) -> str:
        via = f", via={self.via!r}" if self.via is not None else ""
        return f"Origin({self.file!r}, {self.span}, calls={[c.name for c in self.calls()]}{via})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Origin)
            and self.file == other.file
            and self.span == other.span
            and self.calls_key() == other.calls_key()
        )

    def __hash__(self) -> int:
        return hash((self.file, self.span))

    def calls_key(self) -> tuple:
        return tuple((c.name, c.file, c.span) for c in self.calls())


class SourceMap:
    """Segments of the output text, each with the origin of what is written there."""

    __slots__ = ("origins", "starts")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.origins: list[Origin | None] = []

    def mark(self, start: int, origin: Origin | None) -> None:
        """From ``start`` on (until the next mark), the output comes from ``origin``."""
        if self.starts and self.starts[-1] == start:
            self.origins[-1] = origin
            return
        self.starts.append(start)
        self.origins.append(origin)

    def origin(self, offset: int) -> Origin | None:
        i = bisect_right(self.starts, offset) - 1
        return self.origins[i] if i >= 0 else None


def sub_origin(origin: Origin | None, raw: bool, offset: int, length: int) -> Origin | None:
    """The part of ``origin`` from ``offset`` (in the value) when the value is the source text."""
    if origin is None or not raw:
        return origin
    start = origin.span[0] + offset
    end = min(origin.span[1], start + max(length, 1))
    return Origin(origin.file, (start, max(end, start)), origin.call)
