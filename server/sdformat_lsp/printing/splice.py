"""Splicing text: the small helpers the writer and the conversions share."""

from __future__ import annotations


def escape_text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attr(s: str) -> str:
    return escape_text(s).replace('"', "&quot;")


def indent_of(text: str, at: int) -> str:
    """The white space that starts the line holding offset ``at`` (a walk back over that line only)."""
    start = at
    while start > 0 and text[start - 1] not in "\r\n":
        start -= 1
    end = start
    while end < at and text[end] in " \t":
        end += 1
    return text[start:end]


def line_start(text: str, at: int) -> int:
    """``at`` moved back over the spaces before it, and the line break before them when the line holds nothing else."""
    start = at
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    if start > 0 and text[start - 1] in "\r\n":
        start -= 1
        if start > 0 and text[start - 1 : start + 1] == "\r\n":
            start -= 1
        return start
    return at


def drop_attribute(el, name: str, text: str, repl: list) -> None:
    """The splice removing attribute ``name`` of ``el`` with the white space before it (nothing when absent)."""
    a = el.attr(name)
    if a is not None:
        start = a.span.start
        while start > 0 and text[start - 1] in " \t\r\n":
            start -= 1
        repl.append((start, a.span.end, ""))


__all__ = ["drop_attribute", "escape_attr", "escape_text", "indent_of", "line_start"]
