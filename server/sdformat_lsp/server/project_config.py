"""The configuration file in the server: per document, per workspace folder, reread on change.

The loading and validation live in :mod:`sdformat_lsp.config` (shared with
the command line); this module only decides when to read, keeps the
results for the analysis threads and tells the user, once per problem,
when a file cannot be used (the documents below it are analysed without it).
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Callable

from ..config import CONFIG_NAMES, ConfigCache, ConfigError, ProjectConfig
from ..interface.registry import describe_parsers

log = logging.getLogger(__name__)

CONFIG_GLOBS = tuple(f"**/{name}" for name in CONFIG_NAMES)


class ProjectConfigs:
    """Configurations by directory, safe to read from analysis threads."""

    def __init__(self, report: Callable[[str], None] | None = None) -> None:
        self._cache = ConfigCache()
        self._lock = threading.Lock()
        self._reported: set[str] = set()
        self._report = report or (lambda message: None)

    def for_path(self, path: str | None) -> ProjectConfig:
        """The configuration of the document at ``path`` (none for a document without a path)."""
        if path is None:
            return ProjectConfig()
        try:
            with self._lock:
                return self._cache.lookup(os.path.dirname(os.path.abspath(path)))
        except ConfigError as exc:
            self._problem(exc)
            return ProjectConfig()

    def scan_folders(self, folders: list[str]) -> None:
        """At start: say which configuration each workspace folder has (and report broken ones)."""
        for folder in folders:
            cfg = self.for_path(os.path.join(folder, "_"))
            if cfg.path:
                log.info("configuration for %s: %s", folder, cfg.path)
            if cfg.model_parsers:
                log.info("model parsers of %s: %s", cfg.path, describe_parsers(cfg.model_parsers, cfg.path or ""))

    def is_config(self, path: str) -> bool:
        return os.path.basename(path) in CONFIG_NAMES

    def invalidate(self) -> None:
        """A configuration file changed, appeared or went: read everything again when asked."""
        with self._lock:
            self._cache.clear()
            self._reported.clear()

    def _problem(self, exc: ConfigError) -> None:
        message = f"sdformat-lsp configuration error: {exc}; the documents below it are checked without it"
        with self._lock:
            if message in self._reported:
                return
            self._reported.add(message)
        log.warning("%s", message)
        self._report(message)


def show_error(server, message: str) -> None:
    """Tell the user (from any thread) of a problem to fix outside the document, such as a bad configuration."""
    from lsprotocol import types

    loop = getattr(server, "loop", None)
    if loop is None or loop.is_closed():
        return
    loop.call_soon_threadsafe(
        server.window_show_message, types.ShowMessageParams(type=types.MessageType.Error, message=message)
    )


__all__ = ["CONFIG_GLOBS", "ProjectConfigs", "show_error"]
