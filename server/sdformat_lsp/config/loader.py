"""Finding, reading and validating the configuration file.

A configuration problem is one :class:`ConfigError` naming the file, the
line and the key, so that the command line can print one clear message
(and exit 2) and the server can show the same sentence.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from dataclasses import field

from ..codes import CODES
from ..records import record

SDFORMAT_TOML = "sdformat-lsp.toml"
PYPROJECT = "pyproject.toml"
# In one directory the dedicated file wins over pyproject.toml.
CONFIG_NAMES = (SDFORMAT_TOML, PYPROJECT)
TABLE = ("tool", "sdformat-lsp")

LEVELS = ("error", "warning", "info", "hint", "off")
FAIL_LEVELS = ("error", "warning")
KEYS = ("resource-paths", "package-paths", "exclude", "fail-on", "severity", "format", "model-parsers", "xacro")
FORMAT_KEYS = ("indent-width", "indent-style")
INDENT_STYLES = ("space", "tab")
MAX_INDENT_WIDTH = 16


class ConfigError(Exception):
    """A configuration file that cannot be used, located for the user."""

    def __init__(self, path: str, line: int | None, key: str | None, message: str) -> None:
        self.path, self.line, self.key, self.message = path, line, key, message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


@record
class ProjectConfig:
    """One configuration file's settings, paths made absolute."""

    path: str | None = None  # the file read; None: no configuration file
    resource_paths: tuple[str, ...] = ()
    package_paths: tuple[
        str, ...
    ] = ()  # searched first for ROS packages (package://, $(find)): crawled for package.xml
    exclude: tuple[str, ...] = ()  # glob patterns, relative to ``root``
    severity: dict[str, str] = field(default_factory=dict, hash=False)  # code -> error|warning|info|hint|off
    fail_on: str | None = None  # error|warning; None: not set
    # [format]: None where the file does not set the key (the editor's or the default applies)
    indent_width: int | None = None
    indent_style: str | None = None  # "space" | "tab"
    # [model-parsers]: (suffix, "module:function") in the file's order, for included files of other formats
    model_parsers: tuple[tuple[str, str], ...] = ()
    # [xacro]: the values of xacro arguments ($(arg NAME)) for the xacro documents this file configures
    xacro_args: dict[str, str] = field(default_factory=dict, hash=False)

    @property
    def root(self) -> str | None:
        """The directory the file's relative paths and patterns are taken from."""
        return os.path.dirname(self.path) if self.path else None


def _read_text(path: str) -> str:
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block the reader: never opened
            raise ConfigError(path, None, None, "is not a regular file")
        with open(path, "rb") as f:
            data = f.read(4 * 1024 * 1024 + 1)
    except OSError as exc:
        raise ConfigError(path, None, None, f"cannot be read: {exc.strerror or exc}") from None
    if len(data) > 4 * 1024 * 1024:
        raise ConfigError(path, None, None, "is larger than 4 MB; this is not a configuration file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(path, None, None, "is not UTF-8 text") from None


def _table_of(path: str, text: str) -> tuple[dict | None, tuple[str, ...]]:
    """The settings table of ``path`` (None: a pyproject.toml without one) and its TOML name."""
    is_pyproject = os.path.basename(path) == PYPROJECT
    if is_pyproject and "sdformat-lsp" not in text:
        return None, TABLE  # most pyproject.toml files: not ours, not worth parsing
    # imported here: most checks find no configuration file to parse, and the start-up is what a check
    # of one small file pays for
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise ConfigError(path, int(m.group(1)) if m else None, None, f"not valid TOML: {msg}") from None
    if not is_pyproject:
        return data, ()
    tool = data.get("tool")
    table = tool.get("sdformat-lsp") if isinstance(tool, dict) else None
    if table is None:
        return None, TABLE
    if not isinstance(table, dict):
        raise ConfigError(path, _line_of(text, (), "tool.sdformat-lsp"), "tool.sdformat-lsp", "must be a table")
    return table, TABLE


def find_config(directory: str) -> str | None:
    """The nearest configuration file at or above ``directory``."""
    d = os.path.abspath(directory)
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(d, name)
            if os.path.isfile(candidate):
                if name == PYPROJECT:
                    try:
                        table, _ = _table_of(candidate, _read_text(candidate))
                    except ConfigError:
                        return candidate  # broken, and may be ours: loading it says why
                    if table is None:
                        continue
                return candidate
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def load_config(path: str) -> ProjectConfig:
    """Read and validate one configuration file; raises :class:`ConfigError`."""
    path = os.path.abspath(path)
    text = _read_text(path)
    table, prefix = _table_of(path, text)
    if table is None:
        return ProjectConfig(path=path)
    base = os.path.dirname(path)
    where = lambda key: _line_of(text, prefix, key)  # noqa: E731 - a local shorthand
    for key in table:
        if key not in KEYS:
            hint = _close(key, KEYS)
            raise ConfigError(path, where(key), key, f"unknown setting{hint}; the settings are {', '.join(KEYS)}")
    resource_paths = tuple(
        os.path.normpath(os.path.join(base, os.path.expanduser(p)))
        for p in _strings(table, "resource-paths", path, where)
    )
    package_paths = tuple(
        os.path.normpath(os.path.join(base, os.path.expanduser(p)))
        for p in _strings(table, "package-paths", path, where)
    )
    exclude = _strings(table, "exclude", path, where)
    fail_on = table.get("fail-on")
    if fail_on is not None and fail_on not in FAIL_LEVELS:
        raise ConfigError(path, where("fail-on"), "fail-on", f'must be "error" or "warning", not {_show(fail_on)}')
    severity: dict[str, str] = {}
    sev = table.get("severity", {})
    if not isinstance(sev, dict):
        raise ConfigError(
            path,
            where("severity"),
            "severity",
            'must be a table of CODE = "error" | "warning" | "info" | "hint" | "off"',
        )
    for code, level in sev.items():
        key = f"severity.{code}"
        if code not in CODES:
            raise ConfigError(
                path,
                where(key),
                key,
                f"{code} is not a diagnostic code{_close(code, list(CODES))} (see docs/diagnostics.md)",
            )
        if level not in LEVELS:
            raise ConfigError(path, where(key), key, f"must be one of {', '.join(LEVELS)}, not {_show(level)}")
        severity[code] = level
    width, style = _format_table(table, path, where)
    xacro_args = _xacro_table(table, path, where)
    return ProjectConfig(
        path=path,
        resource_paths=resource_paths,
        package_paths=package_paths,
        exclude=tuple(exclude),
        severity=severity,
        fail_on=fail_on,
        indent_width=width,
        indent_style=style,
        model_parsers=_parsers_table(table, path, where),
        xacro_args=xacro_args,
    )


def _parsers_table(table: dict, path: str, where) -> tuple[tuple[str, str], ...]:
    """``[model-parsers]``: a file suffix (``".yaml"``) -> ``"module:function"`` (see docs/includes.md)."""
    parsers = table.get("model-parsers", {})
    if not isinstance(parsers, dict):
        raise ConfigError(
            path, where("model-parsers"), "model-parsers", 'must be a table of ".suffix" = "module:function"'
        )
    out = []
    for suffix, target in parsers.items():
        key = f"model-parsers.{suffix}"
        if not isinstance(target, str) or not re.fullmatch(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*", target):
            raise ConfigError(
                path,
                where(key),
                key,
                f'must be "module:function" (a function found on the Python path), not {_show(target)}',
            )
        low = suffix.lower()
        if low.strip(".") in ("sdf", "world"):
            raise ConfigError(
                path, where(key), key, f"{suffix} files are SDFormat: libsdformat never asks a model parser about them"
            )
        if not suffix.strip(". ") or any(ch in suffix for ch in "/\\*?"):
            raise ConfigError(path, where(key), key, 'must be a file suffix such as ".yaml" or ".urdf.xacro"')
        out.append((suffix, target))
    return tuple(out)


def _format_table(table: dict, path: str, where) -> tuple[int | None, str | None]:
    """``[format]``: ``indent-width`` (spaces per level) and ``indent-style`` ("space" or "tab")."""
    fmt = table.get("format", {})
    if not isinstance(fmt, dict):
        raise ConfigError(path, where("format"), "format", "must be a table with indent-width and indent-style")
    for key in fmt:
        if key not in FORMAT_KEYS:
            raise ConfigError(
                path,
                where(f"format.{key}"),
                f"format.{key}",
                f"unknown setting{_close(key, FORMAT_KEYS)}; the format settings are {', '.join(FORMAT_KEYS)}",
            )
    width = fmt.get("indent-width")
    if width is not None and (
        isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= MAX_INDENT_WIDTH
    ):
        raise ConfigError(
            path,
            where("format.indent-width"),
            "format.indent-width",
            f"must be a whole number of spaces from 1 to {MAX_INDENT_WIDTH}, not {_show(width)}",
        )
    style = fmt.get("indent-style")
    if style is not None and style not in INDENT_STYLES:
        raise ConfigError(
            path, where("format.indent-style"), "format.indent-style", f'must be "space" or "tab", not {_show(style)}'
        )
    return width, style


def _xacro_table(table: dict, path: str, where) -> dict[str, str]:
    """``[xacro]``: argument name = value (a string; numbers and booleans are written as xacro reads them)."""
    value = table.get("xacro", {})
    if not isinstance(value, dict):
        raise ConfigError(
            path, where("xacro"), "xacro", "must be a table of argument = value (the values of $(arg NAME))"
        )
    out: dict[str, str] = {}
    for name, v in value.items():
        if isinstance(v, bool):
            out[name] = "true" if v else "false"
        elif isinstance(v, (str, int, float)):
            out[name] = str(v)
        else:
            raise ConfigError(
                path,
                where(f"xacro.{name}"),
                f"xacro.{name}",
                f"must be a string, a number or a boolean, not {_show(v)}",
            )
    return out


def _strings(table: dict, key: str, path: str, where) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(path, where(key), key, f"must be a list of strings, not {_show(value)}")
    return tuple(value)


def _show(value: object) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list" if value and not all(isinstance(v, str) for v in value) else repr(value)
    return repr(value)


def _close(word: str, choices) -> str:
    import difflib

    match = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {match[0]}?)" if match else ""


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")


def _split_key(dotted: str) -> tuple[str, ...]:
    """``tool."sdformat-lsp".x`` -> ("tool", "sdformat-lsp", "x") (quotes dropped)."""
    parts = re.findall(r'"([^"]*)"|\'([^\']*)\'|([^.\s]+)', dotted)
    return tuple(a or b or c for a, b, c in parts)


def _line_of(text: str, prefix: tuple[str, ...], key: str) -> int | None:
    """The line (1-based) where ``key`` (dotted, below table ``prefix``) is written.

    A light scan, enough to point at the line: table headers, ``key =``
    and dotted keys; an inline table points at its own key's line.
    """
    want = prefix + tuple(key.split(".", 1))
    table: tuple[str, ...] = ()
    best: int | None = None
    for number, line in enumerate(text.splitlines(), 1):
        h = _HEADER.match(line)
        if h:
            table = _split_key(h.group(1))
            if table == want and best is None:
                best = number
            continue
        m = re.match(r"^\s*((?:\"[^\"]*\"|'[^']*'|[A-Za-z0-9_.\- ]+?))\s*=", line)
        if not m:
            continue
        full = table + _split_key(m.group(1))
        if full == want:
            return number
        if len(full) < len(want) and want[: len(full)] == full and best is None:
            best = number  # an inline table holding the key
    if best is None and prefix:
        for number, line in enumerate(text.splitlines(), 1):
            h = _HEADER.match(line)
            if h and _split_key(h.group(1))[: len(prefix)] == prefix:
                return number
    return best


class ConfigCache:
    """Configurations by directory, reread when a file changes (by mtime and size).

    ``lookup(directory)`` raises :class:`ConfigError` for a broken file,
    each time it is asked, so that every caller can report it.
    """

    def __init__(self) -> None:
        self._found: dict[str, str | None] = {}
        self._loaded: dict[str, tuple[tuple, ProjectConfig | ConfigError]] = {}

    def clear(self) -> None:
        self._found.clear()
        self._loaded.clear()

    def lookup(self, directory: str) -> ProjectConfig:
        directory = os.path.abspath(directory)
        if directory not in self._found:
            self._found[directory] = find_config(directory)
        path = self._found[directory]
        if path is None:
            return ProjectConfig()
        return self.load(path)

    def load(self, path: str) -> ProjectConfig:
        try:
            st = os.stat(path)
            sig: tuple = (st.st_mtime_ns, st.st_size)
        except OSError:
            sig = ()
        hit = self._loaded.get(path)
        if hit is None or hit[0] != sig:
            try:
                value: ProjectConfig | ConfigError = load_config(path)
            except ConfigError as exc:
                value = exc
            hit = (sig, value)
            self._loaded[path] = hit
        if isinstance(hit[1], ConfigError):
            raise hit[1]
        return hit[1]


__all__ = ["CONFIG_NAMES", "ConfigCache", "ConfigError", "ProjectConfig", "find_config", "load_config"]
