"""Modules the server imports on first use, not at start.

The server answers ``initialize`` and the first diagnostics before anyone asks for a hover, a
conversion or a frame view, and importing the features and the converters costs about a fifth of
the start (``python -X importtime -m sdformat_lsp``; lsprotocol's types are most of the rest): they
are imported when a request first needs them, after the first diagnostics went out.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """Stands for the module ``name``: the first attribute read imports it (the import system's lock
    makes that safe from any thread), later reads go to the module."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name}{' (imported)' if self._module else ''}>"
