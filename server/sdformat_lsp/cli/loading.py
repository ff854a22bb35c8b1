"""Reading a file from disk into an analysis, for every subcommand that needs one."""

from __future__ import annotations

from ..files import FileRefused, read_file
from ..semantics import Analysis, Options, analyze
from ..xml import decode_source


def load_file(path: str, options: Options) -> Analysis:
    """Read and analyse one file; anything that is not a readable regular file within
    ``options.max_document_bytes`` (a FIFO, a device, a directory, a huge file) becomes
    one FILE_READ error at once, before reading (see ``files.read_file``)."""
    try:
        data = read_file(path, options.max_document_bytes)
    except FileRefused as exc:
        return unreadable(path, exc.reason)
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
