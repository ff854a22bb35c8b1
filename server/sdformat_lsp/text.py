"""Offsets, lines and columns.

Everything below the protocol layer speaks in *offsets*: indexes of code
points into the document's Python string. Only at the edge (LSP, CLI) are
offsets turned into (line, character) in the negotiated encoding, so no
layer ever indexes a ``str`` with an LSP ``character``.
"""

from __future__ import annotations

import bisect
import re
from array import array
from itertools import accumulate
from typing import NamedTuple

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"

_NEWLINE = re.compile(r"\r\n|\r|\n")
_plus_one = (1).__add__  # a line's length with its line break


class Span(NamedTuple):
    """A half-open range ``[start, end)`` of code-point offsets."""

    start: int
    end: int

    def contains(self, offset: int) -> bool:
        """Inclusive of the end, so a cursor just after a name still touches it."""
        return self.start <= offset <= self.end


def _units(segment: str, encoding: str) -> int:
    """Length of ``segment`` in code units of ``encoding``."""
    if encoding == UTF32 or segment.isascii():
        return len(segment)
    if encoding == UTF16:
        return len(segment) + sum(1 for ch in segment if ord(ch) > 0xFFFF)
    return len(segment.encode("utf-8", "surrogatepass"))


def _line_starts(text: str) -> array:
    # 8 bytes a line in an array, not 40 in a list of int objects (2 million lines in a 100 MB world)
    if "\r" in text:
        starts = array("q", [0])
        starts.extend(m.end() for m in _NEWLINE.finditer(text))
    else:  # LF only (nearly every file): line lengths summed in C, no match object per line
        starts = array("q", accumulate(map(_plus_one, map(len, text.split("\n"))), initial=0))
        starts.pop()  # the end of the last line is not a line start
    return starts


class LineIndex:
    """Converts between offsets and (line, character) for one text.

    The line starts are found on first use: a check of a file without a
    diagnostic never asks for a position, and finding them costs about 10 ms
    on a 100,000-line world. Finding them twice (two threads asking at once)
    gives the same array, so the lazy step needs no lock.
    """

    __slots__ = ("text", "_starts")

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: array | None = None

    @property
    def starts(self) -> array:
        """The offset at which each line starts (the first is 0)."""
        starts = self._starts
        if starts is None:
            self._starts = starts = _line_starts(self.text)
        return starts

    @starts.setter
    def starts(self, starts: array) -> None:
        self._starts = starts

    def adopt(self, other: "LineIndex") -> None:
        """Take ``other``'s line starts if it has found them and indexes the same text: an analysis built
        from an open document's text need not find them again (16-18 ms on a 113,000-line world)."""
        if self._starts is None and other._starts is not None and other.text == self.text:
            self._starts = other._starts

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1

    def line_text(self, line: int) -> str:
        """The text of ``line`` without its line break."""
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def position(self, offset: int, encoding: str = UTF16) -> tuple[int, int]:
        """0-based (line, character) of ``offset`` in ``encoding`` code units."""
        text = self.text
        offset = max(0, min(offset, len(text)))
        if 0 < offset < len(text) and text[offset] == "\n" and text[offset - 1] == "\r":
            offset -= 1  # inside a CRLF pair: a position there is the end of the line
        line = self.line_of(offset)
        start = self.starts[line]
        return line, _units(text[start:offset], encoding)

    def offset(self, line: int, character: int, encoding: str = UTF16) -> int:
        """Offset of a (line, character) position; clamps past the line's end."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start = self.starts[line]
        content = self.line_text(line)
        if encoding == UTF32 or content.isascii():
            return start + min(max(character, 0), len(content))
        units = 0
        for i, ch in enumerate(content):
            if units >= character:
                return start + i
            units += _units(ch, encoding)
        return start + len(content)

    def range(self, span: Span, encoding: str = UTF16) -> tuple[tuple[int, int], tuple[int, int]]:
        return self.position(span.start, encoding), self.position(span.end, encoding)
