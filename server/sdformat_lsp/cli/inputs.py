"""Which files `check` reads: named files, directories searched, standard input.

A directory is searched recursively for ``.sdf``, ``.world``, ``.urdf`` and
``.xacro`` files and ``model.config``, skipping hidden entries, excluded paths
(``--exclude`` relative to the working directory, ``exclude`` of the
nearest configuration file relative to that file) and, where git is
present, what ``.gitignore`` ignores. Symbolic links are followed; a link
back to a directory being searched is reported once, not followed.
Problems with a path (missing, special, a loop) become one line each
(an :class:`Input` with ``problem`` set) and never stop the others.
"""

from __future__ import annotations

import errno
import os
import stat
from functools import cached_property
from typing import Callable

from ..config import ProjectConfig, excluded
from ..files import special_kind
from ..records import record

SUFFIXES = (".sdf", ".world", ".urdf", ".xacro")
NAMES = ("model.config",)
STDIN = "-"
# Files a directory can hold that look like robot descriptions but that check does not read;
# counted so that a run which found nothing else can say why.
PASSED_OVER: tuple[
    str, ...
] = ()  # suffixes of files a directory may hold that check does not read (none since .xacro is read)


@record
class Input:
    """One file to check, as found on the command line (or standard input)."""

    path: str | None  # absolute; None: standard input without --stdin-filename
    display: str  # as printed
    stdin: bool = False
    problem: tuple[str, str] | None = None  # (severity name, reason): reported instead of checking


def wanted(name: str) -> bool:
    return name.endswith(SUFFIXES) or name in NAMES


class Collector:
    """Expands the command line's paths into sorted, de-duplicated inputs."""

    def __init__(
        self,
        excludes: list[str],
        config_for: Callable[[str], ProjectConfig],
        cwd: str | None = None,
        use_gitignore: bool = True,
    ) -> None:
        self.cwd = cwd or os.getcwd()
        self.excludes = tuple(excludes)
        self.config_for = config_for
        self.gitignore_wanted = use_gitignore
        self.found: dict[str, Input] = {}
        self.passed_over: dict[str, int] = {}  # suffix -> files a directory held that check does not read (PASSED_OVER)

    @cached_property
    def use_gitignore(self) -> bool:
        """Whether directories are read through git's ignore rules (wanted, and git is there).

        Asked when a directory is walked: a check of files alone does not search the PATH."""
        import shutil

        return self.gitignore_wanted and shutil.which("git") is not None

    def is_excluded(self, path: str) -> bool:
        if excluded(path, self.cwd, self.excludes):
            return True
        cfg = self.config_for(os.path.dirname(path))
        root = cfg.root  # a configuration that excludes is a file read: it has a root
        return bool(cfg.exclude) and root is not None and excluded(path, root, cfg.exclude)

    def add(self, arg: str, stdin_name: str | None = None) -> None:
        if arg == STDIN:
            path = os.path.abspath(stdin_name) if stdin_name else None
            self._put(Input(path, stdin_name or "<stdin>", stdin=True), key=f"\0stdin:{path}")
            return
        path = os.path.abspath(arg)
        try:
            st = os.stat(path)
        except OSError as exc:
            reason = (
                "a symlink loop"
                if exc.errno == errno.ELOOP
                else "no such file or directory"
                if isinstance(exc, FileNotFoundError)
                else (exc.strerror or str(exc)).lower()
            )
            if os.path.islink(path) and isinstance(exc, FileNotFoundError):
                reason = "a broken symbolic link"
            self._put(Input(path, arg, problem=("error", reason)))
            return
        if stat.S_ISDIR(st.st_mode):
            self._walk(path, arg)
        elif self.is_excluded(path):
            return
        else:
            kind = special_kind(st.st_mode)
            self._put(Input(path, arg, problem=("error", f"it is {kind}, not a regular file") if kind else None))

    def _put(self, item: Input, key: str | None = None) -> None:
        """Keep the first of several names for one file (links, a file also inside a named directory)."""
        if key is None:
            key = os.path.realpath(item.path) if item.path else item.display
        self.found.setdefault(key, item)

    def inputs(self) -> list[Input]:
        """Sorted by path (component by component), whatever order they were found in."""
        return sorted(self.found.values(), key=lambda i: tuple(i.display.replace(os.sep, "/").split("/")))

    def _walk(self, top: str, shown: str) -> None:
        ignored = self._git_ignored(top)
        stack: list[tuple[str, str, tuple[str, ...]]] = [(top, shown, (os.path.realpath(top),))]
        while stack:
            directory, disp, ancestors = stack.pop()
            try:
                entries = sorted(os.scandir(directory), key=lambda e: e.name)
            except OSError as exc:
                self._put(
                    Input(
                        directory,
                        disp,
                        problem=("error", f"the directory cannot be read: {(exc.strerror or str(exc)).lower()}"),
                    )
                )
                continue
            for e in entries:
                if e.name.startswith("."):
                    continue
                full = os.path.join(directory, e.name)
                rel_disp = os.path.normpath(os.path.join(disp, e.name))
                if full in ignored or self.is_excluded(full):
                    continue
                try:
                    is_dir = e.is_dir()  # follows links
                except OSError:
                    is_dir = False
                if is_dir:
                    real = os.path.realpath(full)
                    if real in ancestors:
                        self._put(
                            Input(full, rel_disp, problem=("warning", f"a symlink loop back to {real}: not followed")),
                            key=f"\0loop:{full}",
                        )
                        continue
                    stack.append((full, rel_disp, ancestors + (real,)))
                    continue
                if not wanted(e.name):
                    suffix = os.path.splitext(e.name)[1]
                    if suffix in PASSED_OVER:
                        self.passed_over[suffix] = self.passed_over.get(suffix, 0) + 1
                    continue
                try:
                    st = os.stat(full)
                except OSError as exc:
                    broken = isinstance(exc, FileNotFoundError) and e.is_symlink()
                    why = (
                        "a broken symbolic link"
                        if broken
                        else "a symlink loop"
                        if exc.errno == errno.ELOOP
                        else (exc.strerror or str(exc)).lower()
                    )
                    self._put(Input(full, rel_disp, problem=("error", why)))
                    continue
                kind = special_kind(st.st_mode)
                self._put(
                    Input(full, rel_disp, problem=("error", f"it is {kind}, not a regular file") if kind else None)
                )

    def _git_ignored(self, top: str) -> set[str]:
        """Absolute paths (files and directories) below ``top`` that git ignores; empty without git."""
        if not self.use_gitignore:
            return set()
        import subprocess  # only for directories: a check of one file does not pay for importing it

        try:
            r = subprocess.run(
                ["git", "-C", top, "ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z"],
                capture_output=True,
                timeout=60,
            )
        except (OSError, subprocess.SubprocessError):
            return set()
        if r.returncode != 0:
            return set()  # not a git work tree
        out = set()
        for rel in r.stdout.decode("utf-8", "surrogateescape").split("\0"):
            if rel:
                out.add(os.path.normpath(os.path.join(top, rel)))
        return out


__all__ = ["Collector", "Input", "NAMES", "PASSED_OVER", "STDIN", "SUFFIXES", "wanted"]
