"""GitHub Actions workflow commands: one annotation line per diagnostic.

``::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE::message``;
warnings are ``::warning``, information and hints ``::notice``. Lines and
columns are 1-based, columns in characters; the end column is the last
character's (inclusive). Values are escaped as the runner's toolkit does.
"""

from __future__ import annotations

from .report import display_path

COMMANDS = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def annotation(item, display: str, cwd: str) -> str:
    p = item.place
    path = display_path(p.path, cwd) if item.in_other_file else display
    props = [
        f"file={escape_property(path)}",
        f"line={p.start[0] + 1}",
        f"col={p.start[1] + 1}",
        f"endLine={p.end[0] + 1}",
        f"endColumn={max(p.end[1], p.start[1] + 1) if p.end[0] == p.start[0] else max(1, p.end[1])}",
        f"title={escape_property(item.code)}",
    ]
    message = item.message
    for n in item.related:
        np = n.place
        npath = display_path(np.path, cwd) if n.in_other_file else display
        message += f"\n{npath}:{np.start[0] + 1}:{np.start[1] + 1}: {n.message}"
    return f"::{COMMANDS[item.severity_name]} {','.join(props)}::{escape_data(message)}"


def write(run, out) -> None:
    for r in run.results:
        for item in r.items:
            out.write(annotation(item, r.display, run.cwd) + "\n")


__all__ = ["annotation", "escape_data", "escape_property", "write"]
