"""Where a command's result goes: the file ``-o OUT`` names, or standard output.

One home for what every command that writes a document must get right: the file is written
through a temporary file beside it and renamed (an interrupted or failed write never leaves a
partial file where a good one was), its directory is made when missing, a write that fails is
one message and exit code 1 (never a traceback), and standard output closed early by the
reader (``| head``) ends the program quietly (``cli.entry`` turns the broken pipe into exit 141).
"""

from __future__ import annotations

import os
import sys


def write_atomically(path: str, data: bytes) -> None:
    """Replace ``path`` by ``data`` at once, through a temporary file beside it (a crash leaves the old
    file or the new one, never half). The file keeps its permissions; a new one gets those any program
    creating it would (0o666 less the umask), not the temporary file's 0o600."""
    import tempfile  # here: it imports shutil, which a command writing to stdout never needs

    directory = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=".sdformat-lsp-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_output(text: str, output: str | None) -> int:
    """``text`` to the file ``output`` (made with its directory), or to standard output when
    ``output`` is None or empty; the exit code: 0, or 1 after one message when the file cannot be written."""
    if not output:
        sys.stdout.write(text)  # a closed pipe ends the program quietly (cli.entry)
        return 0
    try:
        directory = os.path.dirname(output)
        if directory:
            os.makedirs(directory, exist_ok=True)
        write_atomically(output, text.encode("utf-8"))
    except OSError as exc:
        print(f"{output}: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
