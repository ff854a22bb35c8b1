"""Typed server settings and where they come from.

Clients hand settings over in three ways: ``initializationOptions``, the
``sdformat`` section of ``workspace/configuration`` and the ``settings`` of
``workspace/didChangeConfiguration``. All three go through ``parse`` so a
setting means the same thing whichever way it arrives, and a bad value is
reported (not silently ignored) and replaced by its default.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..files import DEFAULT_MAX_BYTES, MB

SECTION = "sdformat"

DEFAULT_DEBOUNCE_MS = 100
MAX_DEBOUNCE_MS = 10_000


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the user can configure, with its default."""

    resource_paths: tuple[str, ...] = ()
    debounce_ms: int = DEFAULT_DEBOUNCE_MS
    max_document_mb: float = DEFAULT_MAX_BYTES / MB  # 0: no limit
    inlay_hints: bool = True  # inlayHints.enabled: resolved poses after each <pose>
    inlay_degrees: bool = True  # inlayHints.angles: "degrees" (default) or "radians"

    @property
    def max_document_bytes(self) -> int | None:
        return None if self.max_document_mb <= 0 else int(self.max_document_mb * MB)

    @property
    def debounce_seconds(self) -> float:
        return self.debounce_ms / 1000.0


@dataclass(frozen=True, slots=True)
class Parsed:
    """The recognised keys of one settings object, and what was wrong with it."""

    values: dict[str, Any] = field(default_factory=dict)
    problems: tuple[str, ...] = ()


def _section(raw: Any) -> Mapping[str, Any] | None:
    """The settings mapping: either ``raw`` itself or ``raw["sdformat"]``."""
    if not isinstance(raw, Mapping):
        return None
    nested = raw.get(SECTION)
    if isinstance(nested, Mapping):
        return nested
    return raw


def parse(raw: Any, *, base_dir: str | None = None) -> Parsed:
    """Read the known keys of a settings object; unknown keys are ignored.

    ``raw`` may be flat (``{"resourcePaths": [...]}``) or nested under
    ``"sdformat"``. Relative resource paths are taken relative to
    ``base_dir`` (the workspace root) and ``~`` is expanded, because the
    server's working directory is an accident of how the editor started it.
    """
    section = _section(raw)
    if section is None:
        if raw is None:
            return Parsed()
        return Parsed(problems=(f"settings must be an object, not {type(raw).__name__}",))
    values: dict[str, Any] = {}
    problems: list[str] = []

    if "resourcePaths" in section:
        paths = section["resourcePaths"]
        if isinstance(paths, str):
            paths = [paths]
        if isinstance(paths, (list, tuple)):
            out: list[str] = []
            for p in paths:
                if not isinstance(p, str) or not p.strip():
                    problems.append(f"resourcePaths: ignoring {p!r} (not a non-empty string)")
                    continue
                p = os.path.expanduser(p.strip())
                if not os.path.isabs(p) and base_dir:
                    p = os.path.join(base_dir, p)
                p = os.path.normpath(p)
                if p not in out:
                    out.append(p)
            values["resource_paths"] = tuple(out)
        elif paths is not None:
            problems.append(f"resourcePaths must be a list of directories, not {type(paths).__name__}")

    if "debounceMs" in section:
        ms = section["debounceMs"]
        if isinstance(ms, bool) or not isinstance(ms, (int, float)) or ms != ms:
            if ms is not None:
                problems.append(f"debounceMs must be a number of milliseconds, not {ms!r}; using {DEFAULT_DEBOUNCE_MS}")
        elif ms < 0:
            problems.append(f"debounceMs cannot be negative ({ms}); using 0")
            values["debounce_ms"] = 0
        else:
            if ms > MAX_DEBOUNCE_MS:
                problems.append(f"debounceMs {ms} is too long; using {MAX_DEBOUNCE_MS}")
            values["debounce_ms"] = int(round(min(ms, MAX_DEBOUNCE_MS)))

    if "maxDocumentSizeMB" in section:
        mb = section["maxDocumentSizeMB"]
        if isinstance(mb, bool) or not isinstance(mb, (int, float)) or mb != mb or mb < 0:
            if mb is not None:
                problems.append(
                    f"maxDocumentSizeMB must be a number of megabytes (0: no limit), not {mb!r}; using {DEFAULT_MAX_BYTES // MB}"
                )
        else:
            values["max_document_mb"] = float(mb)

    if "inlayHints" in section:
        _inlay_hints(section["inlayHints"], values, problems)

    return Parsed(values, tuple(problems))


ANGLE_UNITS = ("degrees", "radians")


def _inlay_hints(raw: Any, values: dict[str, Any], problems: list[str]) -> None:
    """``inlayHints``: ``{"enabled": bool, "angles": "degrees" | "radians"}`` (either key may be absent)."""
    if raw is None:
        return
    if isinstance(raw, bool):  # a shorthand some clients' users will write
        values["inlay_hints"] = raw
        return
    if not isinstance(raw, Mapping):
        problems.append(f"inlayHints must be an object, not {type(raw).__name__}")
        return
    enabled = raw.get("enabled")
    if isinstance(enabled, bool):
        values["inlay_hints"] = enabled
    elif enabled is not None:
        problems.append(f"inlayHints.enabled must be true or false, not {enabled!r}")
    angles = raw.get("angles")
    if angles in ANGLE_UNITS:
        values["inlay_degrees"] = angles == "degrees"
    elif angles is not None:
        problems.append(f"inlayHints.angles must be one of {', '.join(ANGLE_UNITS)}, not {angles!r}; using degrees")


def merge(*layers: Parsed) -> Settings:
    """Later layers override earlier ones key by key."""
    values: dict[str, Any] = {}
    for layer in layers:
        values.update(layer.values)
    return Settings(**values)
