"""Text output, as compilers print it.

``path:line:col: severity[CODE] message``, then the source line with a
caret range under the span and each related location indented. Colour
only on a terminal (see check._color). With several files and
``--frames``, each file's frames follow under its own heading. A summary
line counting every severity goes to standard error.
"""

from __future__ import annotations

import sys

from .report import Item, Place, display_path

_COLORS = {
    "error": "\033[1;31m",
    "warning": "\033[1;33m",
    "info": "\033[1;36m",
    "hint": "\033[1;34m",
    "note": "\033[1;32m",
}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def _paint(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{_RESET}" if color and style else text


def _where(p: Place, fallback: str, cwd: str, own: bool) -> str:
    path = fallback if own else display_path(p.path, cwd)
    return f"{path}:{p.start[0] + 1}:{p.start[1] + 1}"


def snippet(p: Place, color: bool, style: str) -> list[str]:
    """The start line with carets under the span (to the line's end for a span over several lines)."""
    if not p.source and p.start == (0, 0) and p.end == (0, 0):
        return []
    src = p.source.replace("\t", " ")
    start = min(p.start[1], len(src))
    end = p.end[1] if p.end[0] == p.start[0] else len(src)
    width = max(1, min(end, len(src)) - start)
    number = str(p.start[0] + 1)
    gutter = " " * len(number)
    return [
        f"  {_paint(number, _DIM, color)} | {src}",
        f"  {gutter} | {' ' * start}{_paint('^' * width, style, color)}",
    ]


def format_item(item: Item, display: str, cwd: str, color: bool) -> list[str]:
    style = _COLORS.get(item.severity_name, "")
    where = _where(item.place, display, cwd, not item.in_other_file)
    lines = [
        f"{_paint(where + ':', _BOLD, color)} {_paint(f'{item.severity_name}[{item.code}]', style, color)} {item.message}"
    ]
    lines += snippet(item.place, color, style)
    for n in item.related:
        lines.append(
            f"    {_where(n.place, display, cwd, not n.in_other_file)}: {_paint('note', _COLORS['note'], color)}: {n.message}"
        )
    return lines


def write(run, out) -> None:
    several = len(run.results) > 1
    for r in run.results:
        for item in r.items:
            out.write("\n".join(format_item(item, r.display, run.cwd, run.color)) + "\n")
        if run.frames and r.frames is not None:
            if several:
                out.write(_paint(f"{r.display}:", _BOLD, run.color) + "\n")
            for f in r.frames:
                pose = " ".join(f"{v:.6g}" for v in f["pose"]) if f["pose"] is not None else "unresolved"
                out.write(f"  {f['kind']:5} {f['name']}: [{pose}] attached to {f['attached_to']}\n")
    print(summary(run), file=sys.stderr)


def summary(run) -> str:
    c = run.counts
    n = len(run.results)
    parts = [
        f"{c['error']} error{'s' * (c['error'] != 1)}",
        f"{c['warning']} warning{'s' * (c['warning'] != 1)}",
        f"{c['info']} info",
        f"{c['hint']} hint{'s' * (c['hint'] != 1)}",
    ]
    hidden = [f"{v} {k}" for k, v in run.hidden.items() if v]
    tail = f" ({', '.join(hidden)} not shown: use --severity to see them)" if hidden else ""
    return f"{n} file{'s' * (n != 1)} checked: {', '.join(parts)}{tail}"


__all__ = ["format_item", "snippet", "summary", "write"]
