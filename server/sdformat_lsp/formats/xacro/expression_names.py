"""The names an expression can use, as ROS's xacro exposes them.

Directly: ``list dict map len str float int bool True False min max round``,
every public name of ``math`` (``pi``, ``sin``, ``radians``, ...), and, with
the deprecation xacro prints, ``sorted range load_yaml abs_filename dotify``.
In the namespace ``python``: those and ``abs all any complex divmod enumerate
filter frozenset hash isinstance issubclass ord repr reversed slice set sum
tuple type zip``. In ``math``: math's names. In ``xacro``: ``load_yaml``,
``abs_filename``, ``dotify``, ``arg``, ``message``, ``warning``, ``error``,
``fatal``, ``print_location``, ``tokenize``.

Functions that could build without bound materialise their input through the
interpreter's bounds; ``vars`` (which would open an object's inside) is
refused.
"""

from __future__ import annotations

import re

from typing import Any, Callable

from .expressions import ExpressionError, Namespace, check_size, materialize, math_functions


class Names(Namespace):
    """A namespace of names (``math``, ``python``, ``xacro``)."""

    def __init__(self, names: dict[str, Any]) -> None:
        self.names = names

    def get_name(self, name: str) -> Any:
        return self.names[name]

    def __repr__(self) -> str:
        return f"<namespace of {len(self.names)} names>"


def _list(items: Any = ()) -> list:
    return materialize(items)


def _tuple(items: Any = ()) -> tuple:
    return tuple(materialize(items))


def _set(items: Any = ()) -> set:
    return set(materialize(items))


def _frozenset(items: Any = ()) -> frozenset:
    return frozenset(materialize(items))


def _sorted(items: Any, **kw: Any) -> list:
    return sorted(materialize(items), **kw)


def _sum(items: Any, start: Any = 0) -> Any:
    total = start
    for x in materialize(items):
        total = check_size(total + x)
    return total


def _dict(*args: Any, **kw: Any) -> dict:
    if args and not isinstance(args[0], dict):
        return dict(materialize(args[0]), **kw)
    return dict(*args, **kw)


def _str(value: Any = "") -> str:
    return check_size(str(value))


def _type(value: Any) -> type:
    """type(x): the one-argument form only (the three-argument form makes classes)."""
    return type(value)


def _vars(*args: Any) -> Any:
    raise ExpressionError("vars() is not available in xacro expressions here")


def tokenize(text: str, sep: str = ",; ", skip_empty: bool = True) -> list[str]:
    """xacro.tokenize: split at any of the separator characters."""
    parts = re.split("[" + re.escape(sep) + "]", text) if sep else [text]
    return [p for p in parts if p] if skip_empty else parts


PLAIN = {
    "list": _list,
    "dict": _dict,
    "map": map,
    "len": len,
    "str": _str,
    "float": float,
    "int": int,
    "bool": bool,
    "True": True,
    "False": False,
    "min": min,
    "max": max,
    "round": round,
}

PYTHON = dict(PLAIN)
PYTHON.update(
    abs=abs,
    all=all,
    any=any,
    complex=complex,
    divmod=divmod,
    enumerate=enumerate,
    filter=filter,
    frozenset=_frozenset,
    hash=hash,
    isinstance=isinstance,
    issubclass=issubclass,
    ord=ord,
    repr=repr,
    reversed=reversed,
    slice=slice,
    set=_set,
    sum=_sum,
    tuple=_tuple,
    type=_type,
    vars=_vars,
    zip=zip,
    sorted=_sorted,
    range=range,
)

# types a call may make (type(x)(...) gives one of these back)
CALLABLE_TYPES = (
    int,
    float,
    str,
    bool,
    list,
    dict,
    tuple,
    set,
    frozenset,
    complex,
    range,
    slice,
    map,
    filter,
    zip,
    enumerate,
    reversed,
)


_STATIC: tuple[dict[str, Any], set[int]] | None = None


def _static() -> tuple[dict[str, Any], set[int]]:
    """The names that are the same for every expansion (made once: the namespaces cannot be
    changed by an expression) and the identities of their functions."""
    global _STATIC
    if _STATIC is None:
        math_names = math_functions()
        table: dict[str, Any] = dict(PLAIN)
        table.update(math_names)
        table["sorted"] = _sorted
        table["range"] = range
        table["python"] = Names(PYTHON)
        table["math"] = Names(math_names)
        allowed: set[int] = set()
        for source in (PYTHON, math_names):
            allowed.update(id(v) for v in source.values() if callable(v))
        allowed.update(id(t) for t in CALLABLE_TYPES)
        allowed.add(id(tokenize))
        _STATIC = (table, allowed)
    return _STATIC


def build(xacro_functions: dict[str, Callable[..., Any]]) -> tuple[dict[str, Any], set[int]]:
    """The table of names and the identities of the functions an expression may call."""
    static_table, static_allowed = _static()
    table = dict(static_table)
    for key in ("load_yaml", "abs_filename", "dotify"):
        if key in xacro_functions:
            table[key] = xacro_functions[key]
    table["xacro"] = Names(dict(xacro_functions, tokenize=tokenize))
    allowed = set(static_allowed)
    allowed.update(id(v) for v in xacro_functions.values() if callable(v))
    return table, allowed
