"""Reading a file from disk into an analysis, for every subcommand that needs one."""

from __future__ import annotations

from pathlib import Path

from ..semantics import Analysis, Options, analyze
from ..xml import decode_source


def load_file(path: str, options: Options) -> Analysis:
    """Read and analyse one file; unreadable files become a diagnostic."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return unreadable(path, exc.strerror or str(exc))
    text, problems = decode_source(data)
    return analyze(text, path, options, extra=problems)


def unreadable(path: str, reason: str) -> Analysis:
    """An analysis of nothing whose one diagnostic says why ``path`` could not be read."""
    from ..diagnostics import error
    from ..semantics.analysis import Analysis as A
    from ..text import Span
    from ..xml import parse

    result = A(text="", path=path, xml=parse(""))
    result.diagnostics = [error("FILE_READ", f"cannot read {path}: {reason}", Span(0, 0))]
    return result
