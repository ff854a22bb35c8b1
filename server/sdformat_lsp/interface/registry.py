"""Finding model parsers and running them so that no parser can break an analysis.

A parser is a function of one :class:`~sdformat_lsp.interface.IncludedFile`
returning an :class:`~sdformat_lsp.interface.InterfaceModel`, or None to
let the next parser try. They come from two places, tried in this order:

1. the configuration file's ``[model-parsers]`` table (``".yaml" =
   "my_pkg.parsers:read_yaml"``, the module found on the Python path), nearest
   file first, as the shells pass it in ``Options.model_parsers``;
2. the ``sdformat_lsp.model_parsers`` entry points of the installed
   distributions (the entry point's name is the suffix, its value the function).

A parser is tried for a file whose name ends with its suffix (case-insensitive,
``.urdf.xacro`` as well as ``.xacro``), never for ``.sdf`` and ``.world`` files
(libsdformat never asks custom parsers about those). The built-in readers (URDF,
MJCF) come after every registered parser, as libsdformat tries custom parsers
before reading a URDF itself.

:func:`run_parsers` calls them in a thread of its own with a time limit: a
parser that raises :class:`~sdformat_lsp.interface.ParseError` gives one error;
one that raises anything else, does not answer in time, cannot be imported or
returns something else than a model or None is that parser's fault, reported
as such; nothing escapes. Outcomes are remembered by parser, path, text and
include name (bounded), and by the state of the other files the model says it
was read from (``InterfaceModel.files``), so that a slow or hanging parser
costs its time limit once per version of the files, not once per keystroke.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Iterable

from . import IncludedFile, InterfaceModel, ParseError

ENTRY_POINT_GROUP = "sdformat_lsp.model_parsers"
TIME_LIMIT = 10.0  # seconds one parser may take for one file
NEVER = (".sdf", ".world")  # libsdformat reads these itself, whatever is registered
_MEMO_SIZE = 256


@dataclass(frozen=True)
class ModelParser:
    """One registered parser: the suffix it reads, where it was registered, and the function (or its
    ``module:function`` name, imported on first use)."""

    suffix: str
    target: object  # "module:function" or a callable
    origin: str  # "entry point NAME", "PATH", "program"

    @property
    def label(self) -> str:
        t = self.target if isinstance(self.target, str) else getattr(self.target, "__qualname__", repr(self.target))
        return f"{t} for {self.suffix} ({self.origin})"


@dataclass(frozen=True)
class Outcome:
    """What running the parsers gave: a model (and who made it), an error, a fault, or nothing."""

    kind: str  # "model", "error", "fault", "none"
    parser: ModelParser | None = None
    model: InterfaceModel | None = None
    message: str = ""
    line: int | None = None


def normal_suffix(suffix: str) -> str:
    s = suffix.strip().lower()
    return s if s.startswith(".") else "." + s


_entry_points: tuple[ModelParser, ...] | None = None
_entry_lock = threading.Lock()


def entry_point_parsers() -> tuple[ModelParser, ...]:
    """The installed distributions' ``sdformat_lsp.model_parsers`` entry points (read once)."""
    global _entry_points
    with _entry_lock:
        if _entry_points is None:
            found: list[ModelParser] = []
            try:
                from importlib.metadata import entry_points

                eps = entry_points(group=ENTRY_POINT_GROUP)
                for ep in sorted(eps, key=lambda e: (e.name, e.value)):
                    found.append(ModelParser(normal_suffix(ep.name), ep.value, f"entry point {ep.name}"))
            except Exception:  # a broken distribution's metadata must not stop the analysis
                found = []
            _entry_points = tuple(found)
        return _entry_points


def active_parsers(
    configured: Iterable[tuple[str, object]] = (), origin: str = "configuration"
) -> tuple[ModelParser, ...]:
    """The configured parsers (in order), then the entry points."""
    own = tuple(ModelParser(normal_suffix(s), t, origin if isinstance(t, str) else "program") for s, t in configured)
    return own + entry_point_parsers()


def describe_parsers(configured: Iterable[tuple[str, object]] = (), origin: str = "configuration") -> str:
    """The active parsers in the order they are tried, for the server's log."""
    found = active_parsers(configured, origin)
    tail = "then the built-in xacro (.xacro), URDF (.urdf) and MJCF (<mujoco> root) readers"
    return "; ".join(p.label for p in found) + "; " + tail if found else "none registered; " + tail


def parsers_for(path: str, parsers: Iterable[ModelParser]) -> list[ModelParser]:
    low = path.lower()
    if low.endswith(NEVER):
        return []
    return [p for p in parsers if low.endswith(p.suffix)]


_functions: dict[str, Callable] = {}


def _function(p: ModelParser) -> Callable:
    if callable(p.target):
        return p.target
    name = str(p.target)
    fn = _functions.get(name)
    if fn is None:
        module, _, attr = name.partition(":")
        if not module or not attr:
            raise LookupError(f"'{name}' is not module:function")
        obj: object = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
        if not callable(obj):
            raise LookupError(f"'{name}' is not a function")
        fn = obj
        _functions[name] = fn
    return fn


_memo: OrderedDict[tuple, tuple[Outcome, tuple]] = OrderedDict()


def _states(outcome: Outcome) -> tuple:
    """The modification time and size of every other file the model says it was read from."""
    files = getattr(outcome.model, "files", ()) if outcome.model is not None else ()
    out = []
    for f in files if not isinstance(files, str) else ():
        try:
            st = os.stat(f)
            out.append((f, st.st_mtime_ns, st.st_size))
        except (OSError, TypeError, ValueError):
            out.append((f, -1, -1))
    return tuple(out)


_memo_lock = threading.Lock()


def run_parsers(parsers: Iterable[ModelParser], file: IncludedFile, time_limit: float = TIME_LIMIT) -> Outcome:
    """Ask each parser in turn until one answers with a model, an error or a fault."""
    digest = hashlib.blake2b(file.text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    for p in parsers:
        key = (p.target, file.path, digest, file.name, file.static)
        with _memo_lock:
            kept = _memo.get(key)
        hit = kept[0] if kept is not None and _states(kept[0]) == kept[1] else None
        if hit is None:
            hit = _run_one(p, file, time_limit)
            with _memo_lock:
                _memo[key] = (hit, _states(hit))
                while len(_memo) > _MEMO_SIZE:
                    _memo.popitem(last=False)
        if hit.kind != "none":
            return hit
    return Outcome("none")


def _run_one(p: ModelParser, file: IncludedFile, time_limit: float) -> Outcome:
    try:
        fn = _function(p)
    except Exception as exc:
        return Outcome("fault", p, message=f"cannot be loaded: {type(exc).__name__}: {exc}")
    box: list[Outcome] = []

    def call() -> None:
        try:
            result = fn(file)
        except ParseError as exc:
            line = exc.line if isinstance(exc.line, int) and not isinstance(exc.line, bool) else None
            box.append(Outcome("error", p, message=str(exc.message), line=line))
            return
        except BaseException as exc:  # noqa: BLE001 - anything a parser raises is its fault, reported
            box.append(Outcome("fault", p, message=f"raised {type(exc).__name__}: {exc}"))
            return
        if result is None:
            box.append(Outcome("none", p))
        elif isinstance(result, InterfaceModel):
            box.append(Outcome("model", p, model=result))
        else:
            box.append(Outcome("fault", p, message=f"returned {type(result).__name__}, not an InterfaceModel or None"))

    worker = threading.Thread(target=call, name=f"sdformat-model-parser {p.suffix}", daemon=True)
    worker.start()
    worker.join(time_limit)
    if not box:
        return Outcome(
            "fault", p, message=f"did not answer within {time_limit:g} s (it is left running; the include is not read)"
        )
    return box[0]


def clear() -> None:
    """Forget remembered outcomes and imported functions (tests; a configuration change)."""
    global _entry_points
    with _memo_lock:
        _memo.clear()
    _functions.clear()
    with _entry_lock:
        _entry_points = None
