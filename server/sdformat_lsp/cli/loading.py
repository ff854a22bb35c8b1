"""Reading a file from disk into an analysis, for every subcommand that needs one.

Only regular files within the size limit are read (``files.read_file``: a
FIFO, a device or a directory is refused before a byte is read). A file with
NUL bytes is binary (XML cannot contain NUL): one diagnostic, not a flood.
"""

from __future__ import annotations

import functools
from typing import Callable, TypeVar

from ..collector_pause import collector_paused
from ..files import FileRefused, read_file
from ..semantics import Analysis, Options, analyze
from ..xml import decode_source

BINARY_PROBE = 8192  # bytes looked at for NUL


Command = TypeVar("Command", bound=Callable[..., int])


def one_document(command: Command) -> Command:
    """A command over one document runs with the cyclic collector paused to its end: the analysis is
    built under the pause (semantics.analysis), so all of it sits in the youngest generation when the
    collector resumes, and the first allocation after that starts a pass over every object of it that
    finds nothing (analyses hold no cycles; 197 ms of a 100,000-line world's check). ``check`` pauses
    per file instead (it may read thousands)."""

    @functools.wraps(command)
    def run(*args, **kwargs):  # type: ignore[no-untyped-def]
        with collector_paused():
            return command(*args, **kwargs)

    return run  # type: ignore[return-value]


def configured_parsers(path: str) -> tuple[tuple[str, str], ...]:
    """The ``[model-parsers]`` of the configuration file nearest ``path`` (none when it is broken:
    `check` reports a broken configuration; `graph` and `print` draw and print without it)."""
    import os

    from ..config import ConfigCache, ConfigError

    try:
        return ConfigCache().lookup(os.path.dirname(os.path.abspath(path))).model_parsers
    except (ConfigError, OSError):
        return ()


def load_file(path: str, options: Options, data: bytes | None = None) -> Analysis:
    """Read (unless ``data`` is given, as for standard input) and analyse one file; anything
    that is not a readable regular file within ``options.max_document_bytes`` (a FIFO, a
    device, a directory, a huge file) becomes one FILE_READ error at once, before reading
    (see ``files.read_file``)."""
    if data is None:
        try:
            data = read_file(path, options.max_document_bytes)
        except FileRefused as exc:
            return unreadable(path, exc.reason)
    if b"\x00" in data[:BINARY_PROBE]:
        return unreadable(path, "it is a binary file (it contains NUL bytes), not XML text")
    text, problems = decode_source(data)
    del data  # the caller's copy, if any, is its own: ours would sit beside the analysis of a 100 MB file
    return analyze(text, path, options, extra=problems)


def project_options(path: str | None, options: Options) -> Options:
    """``options`` with what the configuration says for the document at ``path`` (``package-paths``,
    ``[xacro]``), for the subcommands other than ``check``, which reads the whole configuration; a broken
    configuration file adds nothing here and is reported by ``check``."""
    import os
    from dataclasses import replace

    from ..config import ConfigError, find_config, load_config

    found = find_config(os.path.dirname(os.path.abspath(path)) if path and path != "-" else os.getcwd())
    if found is None:
        return options
    try:
        cfg = load_config(found)
    except ConfigError:
        return options
    return replace(
        options, package_paths=cfg.package_paths, xacro_args={**cfg.xacro_args, **(options.xacro_args or {})}
    )


def package_paths_for(path: str | None) -> tuple[str, ...]:
    """The configuration's ``package-paths`` for the document at ``path`` (see :func:`project_options`)."""
    return project_options(path, Options()).package_paths


def expanded(analysis: Analysis) -> Analysis | None:
    """What a job (convert, print, graph, inertial-stats) works on: a xacro document's expansion
    (None for a library of macros, which expands to nothing, or a document xacro fails to expand), any
    other document itself."""
    facts = analysis.xacro
    if facts is None:
        return analysis
    return facts.expanded if facts.expansion.ok else None  # type: ignore[attr-defined]


def xacro_arguments(items: list[str] | None) -> dict[str, str]:
    """``NAME:=VALUE`` items (``--xacro-arg``, ``xacro``'s own mappings) as a dictionary; an item without
    ``:=`` or without a name is left out, as ROS's xacro leaves out what is not a mapping."""
    out: dict[str, str] = {}
    for item in items or ():
        name, sep, value = item.partition(":=")
        if sep and name.strip():
            out[name.strip()] = value.strip()
    return out


def unreadable(path: str | None, reason: str) -> Analysis:
    """An analysis of nothing whose one diagnostic says why ``path`` could not be read."""
    from ..diagnostics import error
    from ..semantics.analysis import Analysis as A
    from ..text import Span
    from ..xml import parse

    result = A(text="", path=path, xml=parse(""))
    result.diagnostics = [error("FILE_READ", f"cannot read {path or 'standard input'}: {reason}", Span(0, 0))]
    return result


def error_lines(analysis: Analysis, skip=None) -> list[str]:
    """Every error (but those ``skip`` says to leave out), in document order (the document's own first),
    as ``path:line:col: error[CODE] message``."""
    from ..diagnostics import Severity
    from ..text import UTF32

    errors = sorted(
        (d for d in analysis.diagnostics if d.severity == Severity.ERROR and not (skip and skip(d))),
        key=lambda d: (d.path is not None, d.span.start),
    )
    out = []
    for d in errors:
        where = (
            analysis if d.path is None or d.path == analysis.path else (analysis.included_analysis(d.path) or analysis)
        )
        line, col = where.lines.position(min(d.span.start, len(where.text)), UTF32)
        out.append(f"{d.path or analysis.path}:{line + 1}:{col + 1}: error[{d.code}] {d.message}")
    return out


def first_error(analysis: Analysis, skip=None) -> str | None:
    """What stops a job that needs a sound document (print, graph, inertial-stats): the first
    error (but those ``skip`` says to leave out), as ``path:line:col: message``; None when there is none."""
    from ..diagnostics import Severity
    from ..text import UTF32

    errors = [d for d in analysis.diagnostics if d.severity == Severity.ERROR and not (skip and skip(d))]
    if not errors:
        return None
    d = min(errors, key=lambda d: (d.path is not None, d.span.start))
    where = analysis if d.path is None or d.path == analysis.path else (analysis.included_analysis(d.path) or analysis)
    line, col = where.lines.position(min(d.span.start, len(where.text)), UTF32)
    return f"{d.path or analysis.path}:{line + 1}:{col + 1}: {d.message}"
