"""Reading a file named by a user or a document, without ever blocking or exhausting memory.

``open()`` on a FIFO waits for a writer forever; ``read()`` on ``/dev/zero``
never ends; a 2 GB "model" named by mistake is read whole. Every layer that
reads a file (the CLI, the server placing related locations, the include
resolver) goes through :func:`read_file`, which looks at what the path is
before opening it, opens without blocking, checks again on the open file (the
path may have been replaced in between), and never reads more than the limit.
"""

from __future__ import annotations

import os
import stat

MB = 1 << 20
# a generated 2.3-million-line world; analysing it peaks under 2 GB (benchmarks/bench_peak.py)
DEFAULT_MAX_BYTES = 100 * MB


class FileRefused(Exception):
    """``path`` was not read; ``reason`` says why in words for the user (no traceback needed)."""

    def __init__(self, path: str, reason: str, kind: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.kind = kind  # "special", "directory", "too-large" or "unreadable"


def special_kind(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def size_text(n: int) -> str:
    return f"{n / MB:.1f} MB" if n >= MB else f"{n:,} bytes"


def too_large_reason(size: int, limit: int) -> str:
    return f"it is {size_text(size)}, more than the maximum document size of {size_text(limit)}; not analysed"


def check_path(path: str) -> os.stat_result:
    """Stat ``path`` (following links) and refuse anything but a regular file, without opening it."""
    try:
        st = os.stat(path)
    except (OSError, ValueError) as exc:
        raise FileRefused(path, _os_reason(exc), "unreadable") from None
    kind = special_kind(st.st_mode)
    if kind is not None:
        raise FileRefused(
            path, f"it is {kind}, not a regular file", "directory" if stat.S_ISDIR(st.st_mode) else "special"
        )
    return st


def read_file(path: str, max_bytes: int | None = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path``; raises :class:`FileRefused` for anything else.

    ``max_bytes`` (None: no limit) refuses larger files before reading them,
    and stops reading a file that grows past it while being read.
    """
    st = check_path(path)
    if max_bytes is not None and st.st_size > max_bytes:
        raise FileRefused(path, too_large_reason(st.st_size, max_bytes), "too-large")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as exc:
        raise FileRefused(path, _os_reason(exc), "unreadable") from None
    try:
        kind = special_kind(os.fstat(fd).st_mode)
        if kind is not None:  # replaced between the stat and the open
            raise FileRefused(path, f"it is {kind}, not a regular file", "special")
        chunks = []
        total = 0
        limit = max_bytes if max_bytes is not None else -1
        while True:
            want = 1 << 20 if limit < 0 else min(1 << 20, limit + 1 - total)
            chunk = os.read(fd, want)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if limit >= 0 and total > limit:
                raise FileRefused(path, too_large_reason(total, limit), "too-large")
        return b"".join(chunks)
    except OSError as exc:
        raise FileRefused(path, _os_reason(exc), "unreadable") from None
    finally:
        os.close(fd)


def _os_reason(exc: BaseException) -> str:
    if isinstance(exc, ValueError):
        return "the path contains a character no file name can hold"
    return getattr(exc, "strerror", None) or str(exc)
