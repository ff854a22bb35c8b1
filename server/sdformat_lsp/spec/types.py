"""Does a value's text parse as its spec type, the way libsdformat reads it?

``check_value`` mirrors what libsdformat's ``Param`` accepts, so that a
value we call wrong is one ``gz sdf --check`` rejects too. libsdformat is
lenient in places (``std::stoi`` reads ``"1.5"`` as 1, ``std::stoul`` wraps
``"-1"``, vectors ignore extra numbers); ``strict=True`` also reports those,
so an editor can warn about text that is silently dropped.

Facts mirrored from libsdformat (``Param.cc``):

* the text is trimmed; empty text means "use the default" and is not
  checked here (callers decide whether a value is mandatory);
* for every type but string, ``true``/``false`` (any case) read as 1/0;
* bool: ``true``, ``false``, ``1``, ``0``, any case;
* int / unsigned int: ``std::stoi`` / ``std::stoul`` (prefix parse, ``0x``
  hex allowed), double / float: ``std::stod`` / ``std::stof``;
* vector2i, vector2d, vector3, quaternion (roll pitch yaw), time (sec
  nsec): read with ``>>`` from a stream, so the first N numbers count;
* color: 3 or 4 numbers, each within [0, 1];
* pose: 6 finite numbers (7 for ``quat_xyzw``, which the pose checker
  handles; here a pose is always the 6-number form).
"""

from __future__ import annotations

import math
import re
from typing import Callable

__all__ = ["check_value", "KNOWN_TYPES", "scalar_value"]

_WS = " \t\n\v\f\r"
_INT32 = (-(2**31), 2**31 - 1)
_UINT32_MAX = 2**32 - 1
_ULONG_MAX = 2**64 - 1
_FLT_MAX = 3.4028234663852886e38
_FLT_MIN = 1.1754943508222875e-38
_DBL_MIN = 2.2250738585072014e-308

# std::strtod accepts these (after optional white space and sign).
_STRTOD_SPECIAL = re.compile(r"(?i)(infinity|inf|nan(\([0-9a-z_]*\))?)")
_STRTOD_HEX = re.compile(r"(?i)0x([0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(p[+-]?\d+)?")
_STRTOD_DEC = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
# What a C++ stream gathers for a double before converting it, and the
# shape that must then convert completely (else the stream fails).
_STREAM_GATHER = re.compile(r"[+-]?(\d*\.?\d*)([eE][+-]?\d*)?")
_STREAM_DOUBLE = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_STREAM_INT = re.compile(r"[+-]?\d+")


class _Bad(Exception):
    """A value libsdformat rejects; the message is for the user."""


class _OutOfRange(_Bad):
    """A number too large or too small for its C++ type."""


class _Lax(Exception):
    """A value libsdformat accepts only by dropping or wrapping part of it."""


# --------------------------------------------------------------------------
# C library emulation


def _strtod(text: str) -> tuple[float, int]:
    """``std::strtod`` on ``text``: the value and how many characters it used;
    raises _Bad for no number and for out-of-range results (as ``std::stod``)."""
    i = len(text) - len(text.lstrip(_WS))
    j = i
    if j < len(text) and text[j] in "+-":
        j += 1
    sign = -1.0 if text[i:j] == "-" else 1.0
    m = _STRTOD_SPECIAL.match(text, j)
    if m:
        word = m.group(1).lower()
        value = math.nan if word.startswith("nan") else math.inf
        return sign * value, m.end()
    m = _STRTOD_HEX.match(text, j)
    if m:
        mant, _, exp = m.group(0)[2:].lower().partition("p")
        whole, _, frac = mant.partition(".")
        digits = (whole + frac) or "0"
        value = int(digits, 16) * 16.0 ** (-len(frac)) * 2.0 ** int(exp or 0)
        return sign * value, m.end()
    m = _STRTOD_DEC.match(text, j)
    if not m:
        raise _Bad("expected a number")
    value = float(m.group(0))
    if math.isinf(value):
        raise _OutOfRange(f"{text[i : m.end()]} is out of range for a double")
    if 0.0 < value < _DBL_MIN or (value == 0.0 and any(c in "123456789" for c in m.group(1))):
        raise _OutOfRange(f"{text[i : m.end()]} is too small to represent")
    return sign * value, m.end()


_STRTOL_DEC = re.compile(r"([+-]?)([0-9]+)")
_STRTOL_HEX = re.compile(r"([+-]?)0[xX]([0-9a-fA-F]+)")


def _strtol(text: str, *, hex_: bool) -> tuple[int, int]:
    """``std::strtol``/``strtoul`` digits: value (sign applied) and end."""
    m = _STRTOL_HEX.match(text) if hex_ else None
    base = 16
    if m is None:
        m, base = _STRTOL_DEC.match(text), 10
    if m is None:
        raise _Bad("expected a whole number")
    value = int(m.group(2), base)
    return (-value if m.group(1) == "-" else value), m.end()


def _stream_number(text: str, pos: int, integer: bool) -> tuple[float, int]:
    """One ``stream >> double`` (or ``>> int``) from ``pos``: value and new pos."""
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    if integer:
        m = _STREAM_INT.match(text, pos)
        if not m:
            raise _Bad("not a whole number")
        value: float = int(m.group(0))
        if not _INT32[0] <= value <= _INT32[1]:
            raise _OutOfRange(f"{m.group(0)} is out of range")
        return value, m.end()
    m = _STREAM_GATHER.match(text, pos)
    gathered = m.group(0) if m else ""
    if m is None or not gathered or not _STREAM_DOUBLE.fullmatch(gathered):
        raise _Bad("not a number")
    value = float(gathered)
    if math.isinf(value):
        raise _OutOfRange(f"{gathered} is out of range")
    return value, m.end()


# --------------------------------------------------------------------------
# Per-type checks. Each gets the trimmed, non-empty text (true/false already
# mapped for non-string types) and raises _Bad or _Lax.


def _bool(text: str) -> None:
    if text.lower() not in ("true", "false", "1", "0"):
        raise _Bad("expected true or false (1 or 0 also work)")


def _int(text: str) -> None:
    hex_ = text.lower().startswith("0x")
    value, end = _strtol(text, hex_=hex_)
    if not _INT32[0] <= value <= _INT32[1]:
        raise _OutOfRange(f"{text} is out of range for a 32-bit integer")
    if end != len(text):
        raise _Lax(f"expected a whole number; only {text[:end]} is read and {text[end:]!r} is ignored")


def _unsigned(text: str) -> None:
    hex_ = text.lower().startswith("0x")
    value, end = _strtol(text, hex_=hex_)
    if abs(value) > _ULONG_MAX:
        raise _OutOfRange(f"{text} is out of range")
    if value < 0:
        raise _Lax(f"expected a non-negative whole number; {text[:end]} wraps around to a huge value")
    if value > _UINT32_MAX:
        raise _Lax(f"{text[:end]} does not fit in 32 bits and is truncated")
    if end != len(text):
        raise _Lax(f"expected a whole number; only {text[:end]} is read and {text[end:]!r} is ignored")


def _uint64(text: str) -> None:
    m = re.match(r"[+-]?\d+", text)
    if not m:
        raise _Bad("expected a non-negative whole number")
    value = int(m.group(0))
    if abs(value) > _ULONG_MAX:
        raise _OutOfRange(f"{text} is out of range")
    if value < 0:
        raise _Lax(f"expected a non-negative whole number; {m.group(0)} wraps around")
    if m.end() != len(text):
        raise _Lax(f"expected a whole number; {text[m.end() :]!r} is ignored")


def _floating(limit: float, tiny: float, kind: str) -> Callable[[str], None]:
    def check(text: str) -> None:
        value, end = _strtod(text)
        _in_range(value, limit, tiny, text[:end], kind)
        if end != len(text):
            raise _Lax(f"expected a number; only {text[:end]} is read and {text[end:]!r} is ignored")

    return check


def _in_range(value: float, limit: float, tiny: float, shown: str, kind: str) -> None:
    if math.isfinite(value) and abs(value) > limit:
        raise _OutOfRange(f"{shown} is out of range for a {kind}")
    if 0.0 < abs(value) < tiny:
        raise _OutOfRange(f"{shown} is too small to represent as a {kind}")


def _numbers(count: int, labels: str, integer: bool = False) -> Callable[[str], None]:
    what = "whole numbers" if integer else "numbers"

    def check(text: str) -> None:
        pos, got = 0, 0
        while got < count:
            if pos >= len(text) or not text[pos:].strip(_WS):
                raise _Bad(f"expected {count} {what} ({labels}), got {got}")
            try:
                _, pos = _stream_number(text, pos, integer)
            except _OutOfRange as exc:
                raise _OutOfRange(f"{exc} (expected {count} {what}: {labels})") from None
            except _Bad:
                bad = text[pos:].strip(_WS).split()[0]
                if bad.startswith(","):
                    raise _Bad(f"separate the {count} {what} ({labels}) with spaces, not commas") from None
                raise _Bad(
                    f"expected {count} {what} ({labels}); {bad!r} is not a {'whole number' if integer else 'number'}"
                ) from None
            got += 1
        rest = text[pos:].strip(_WS)
        if rest:
            tokens = text.split()
            if len(tokens) > count and all(_is_number(t, integer) for t in tokens):
                raise _Lax(f"expected {count} {what} ({labels}), got {len(tokens)}; the extra ones are ignored")
            raise _Lax(f"expected {count} {what} ({labels}); {rest!r} after them is ignored")

    return check


def _is_number(token: str, integer: bool) -> bool:
    pattern = _STREAM_INT if integer else _STREAM_DOUBLE
    return pattern.fullmatch(token) is not None


def _tokens_strtod(text: str, what: str) -> list[float]:
    values = []
    for token in text.split():
        try:
            value = _strtod(token)[0]
        except _OutOfRange:
            raise
        except _Bad:
            raise _Bad(f"expected {what}; {token!r} is not a number") from None
        values.append(value)
    return values


def _color(text: str) -> None:
    what = "3 or 4 numbers from 0 to 1 (r g b [a])"
    for token in text.split():
        try:
            value = _strtod(token)[0]
        except _OutOfRange:
            raise
        except _Bad:
            raise _Bad(f"expected {what}; {token!r} is not a number") from None
        _in_range(value, _FLT_MAX, _FLT_MIN, token, "float")
        if value < 0.0 or value > 1.0:
            raise _Bad(f"color components must lie between 0 and 1; {token} does not")
    count = len(text.split())
    if count not in (3, 4):
        raise _Bad(f"expected {what}, got {count}")
    _lax_tokens(text, "color")


def _pose(text: str) -> None:
    labels = "x y z roll pitch yaw"
    values = _tokens_strtod(text, f"6 numbers ({labels})")
    if not all(math.isfinite(v) for v in values):
        raise _Bad("pose values must be finite (no inf or nan)")
    if len(values) != 6:
        raise _Bad(f"expected 6 numbers ({labels}), got {len(values)}")
    _lax_tokens(text, "pose")


def _lax_tokens(text: str, what: str) -> None:
    for token in text.split():
        end = _strtod(token)[1]
        if end != len(token):
            raise _Lax(f"{token!r} in this {what} is read only as {token[:end]}")


def _char(text: str) -> None:
    if len(text) > 1:
        raise _Lax(f"expected a single character; only {text[0]!r} is read")


def _string(text: str) -> None:
    """Any text is a string."""


_CHECKS: dict[str, Callable[[str], None]] = {
    "bool": _bool,
    "int": _int,
    "unsigned int": _unsigned,
    "uint64_t": _uint64,
    "double": _floating(1.7976931348623157e308, _DBL_MIN, "double"),
    "float": _floating(_FLT_MAX, _FLT_MIN, "float"),
    "char": _char,
    "string": _string,
    "std::string": _string,
    "time": _numbers(2, "seconds nanoseconds", integer=True),
    "sdf::Time": _numbers(2, "seconds nanoseconds", integer=True),
    "angle": _numbers(1, "radians"),
    "color": _color,
    "vector2i": _numbers(2, "x y", integer=True),
    "vector2d": _numbers(2, "x y"),
    "vector3": _numbers(3, "x y z"),
    "quaternion": _numbers(3, "roll pitch yaw"),
    "pose": _pose,
    "Pose": _pose,
}

#: Type names that ``check_value`` understands; others are never flagged.
KNOWN_TYPES = frozenset(_CHECKS)


def check_value(type_name: str, text: str, *, strict: bool = False) -> str | None:
    """None when ``text`` reads as a ``type_name`` value, else what was expected.

    Empty (or all white space) text is accepted: libsdformat substitutes the
    default. With ``strict``, text that libsdformat reads only in part (and
    silently drops or wraps) is reported as well.
    """
    check = _CHECKS.get(type_name)
    if check is None:
        return None
    value = text.strip(_WS)
    if not value:
        return None
    if type_name not in ("string", "std::string", "bool"):
        lowered = value.lower()
        if lowered == "true":
            value = "1"
        elif lowered == "false":
            value = "0"
    try:
        check(value)
    except _Bad as exc:
        return str(exc)
    except _Lax as exc:
        return str(exc) if strict else None
    return None


_SCALARS = frozenset({"int", "unsigned int", "uint64_t", "double", "float"})


def scalar_value(type_name: str, text: str) -> float | None:
    """The number libsdformat reads from a scalar value (for min/max checks);
    None for other types and for text that does not parse."""
    if type_name not in _SCALARS or check_value(type_name, text) is not None:
        return None
    value = text.strip(_WS)
    lowered = value.lower()
    if lowered in ("true", "false"):
        return 1.0 if lowered == "true" else 0.0
    if not value:
        return None
    if type_name in ("double", "float"):
        return _strtod(value)[0]
    if type_name == "uint64_t":
        digits = re.match(r"[+-]?\d+", value)  # there are: check_value accepted the text
        return float(int(digits.group(0))) if digits is not None else None
    return float(_strtol(value, hex_=lowered.startswith("0x"))[0])
