"""Texts with ``${expression}`` and ``$(command ...)`` in them, evaluated as xacro does.

A text is cut into pieces: ``$$`` before ``{`` or ``(`` (one ``$`` dropped:
the escape), ``${...}`` (up to the first ``}``), ``$(...)`` (up to the first
``)``), and plain text. The inside of a ``${...}`` or ``$(...)`` is itself
evaluated first (so ``${$(arg n) + 1}`` and ``$(find ${pkg})`` work). A text
that is a single piece keeps the piece's type (a number stays a number);
otherwise the pieces are joined as text.

The commands are roslaunch's substitution args as xacro 2.x reads them:
``$(arg name)``, ``$(find pkg)``, ``$(env VAR)``, ``$(optenv VAR default...)``,
``$(eval python-expression)``, ``$(dirname)``, ``$(cwd)``; a ``$(find)`` in the
value of another command is resolved too.
"""

from __future__ import annotations

import os
import re

from collections.abc import Mapping
from typing import Any, Callable

from .errors import Unresolved, XacroError
from .expressions import ExpressionError, Interpreter, Undefined

_PIECE = re.compile(
    r"(?P<dd>\$\$+[{(])|(?P<expr>\$\{[^}]*\})|(?P<ext>\$\([^)]*\))|(?P<text>[^$]+|\$[^{($]+|\$(?=\n?\Z))"
)

COMMANDS = ("find", "env", "optenv", "dirname", "arg")


class Context:
    """What substitution args read: the arguments, the package lookup, the environment,
    the current file."""

    def __init__(
        self,
        args: dict[str, str],
        find_package: Callable[[str], str | None] | None,
        environ: Mapping[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        self.args = args
        self.find_package = find_package
        self.environ: Mapping[str, str] = os.environ if environ is None else environ
        self.cwd = cwd or os.getcwd()
        self.file: str | None = None  # the file being processed (for $(dirname))
        self.packages_used: dict[str, str] = {}

    def find(self, name: str) -> str:
        if self.find_package is None:
            raise XacroError(f"package '{name}' not found: no package lookup is configured")
        try:
            path = self.find_package(name)
        except LookupError as exc:
            raise XacroError(str(exc) or f"package '{name}' not found") from None
        except (OSError, ValueError) as exc:  # the lookup could not read the disk
            raise XacroError(f"package '{name}' could not be looked up: {exc}") from None
        if path is None:
            raise XacroError(
                f"package '{name}' not found (searched ROS_PACKAGE_PATH, AMENT_PREFIX_PATH and the "
                "configured package paths)"
            )
        self.packages_used[name] = path
        return path


def pieces(text: str) -> list[tuple[str, str, int]]:
    """The pieces of ``text``: (kind, piece, offset); raises XacroError on a text no piece
    matches (an unclosed ``${``)."""
    out = []
    pos = 0
    n = len(text)
    while pos < n:
        m = _PIECE.match(text, pos)
        if m is None:
            raise Located(f"unclosed or invalid substitution: '{text[pos : pos + 40]}'", pos, len(text) - pos)
        kind = m.lastgroup
        assert kind is not None
        out.append((kind, m.group(), pos))
        pos = m.end()
    return out


class Located(XacroError):
    """An error at an offset in the text being evaluated (mapped to the source when it can be)."""

    def __init__(self, message: str, offset: int, length: int = 1, name: str | None = None) -> None:
        super().__init__(message)
        self.offset = offset
        self.length = length
        self.name = name


def collect_commands(text: str) -> list[str]:
    """The insides of the ``$(...)`` of ``text``, read as roslaunch reads them."""
    found = []
    buf: list[str] = []
    state = "out"
    for c in text:
        if c == "$":
            if state == "out":
                state = "dollar"
            elif state != "dollar":
                raise XacroError(f"a '$' cannot be inside a substitution arg ({text})")
        elif c == "(":
            if state == "dollar":
                state = "paren"
            elif state != "out":
                raise XacroError(f"a '(' cannot be inside a substitution arg ({text})")
        elif c == ")":
            if state == "in":
                found.append("".join(buf))
                buf.clear()
            state = "out"
        elif state == "dollar":
            state = "out"
        elif state == "paren":
            state = "in"
        if state == "in":
            buf.append(c)
    return found


def auto_value(value: str) -> Any:
    """An argument's text as ``$(eval)`` reads it: a number, a boolean, else the text."""
    try:
        return float(value) if "." in value else int(value)
    except ValueError:
        pass
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


class Substitutions:
    """Evaluates ``$(...)`` commands in a :class:`Context`."""

    def __init__(self, context: Context, interpreter_names: dict[str, Any], allowed: set[int]) -> None:
        self.context = context
        self.math_names = interpreter_names
        self.allowed = allowed

    def command(self, whole: str) -> str:
        """The value of ``whole`` (``$(...)``, its inside already evaluated)."""
        if whole == "$(cwd)":
            return os.path.abspath(self.context.cwd)
        if whole.startswith("$(eval ") and whole.endswith(")"):
            return self.eval_command(whole[7:-1])
        resolved = self._run(whole, COMMANDS)
        return self._run(resolved, ("find",))

    def _run(self, text: str, allowed: tuple[str, ...]) -> str:
        for inside in collect_commands(text):
            words = [w for w in inside.split(" ") if w]
            if not words or words[0] not in COMMANDS:
                raise XacroError(
                    f"unknown substitution command '$({inside})'; the commands are "
                    "$(arg), $(find), $(env), $(optenv), $(eval), $(dirname) and $(cwd)"
                )
            command, args = words[0], words[1:]
            if command not in allowed:
                continue
            text = text.replace(f"$({inside})", self._value(command, args, inside))
        return text

    def _value(self, command: str, args: list[str], inside: str) -> str:
        ctx = self.context
        if command == "arg":
            if len(args) != 1:
                raise XacroError(f"$(arg) takes one argument name: $({inside})")
            try:
                return ctx.args[args[0]]
            except KeyError:
                raise Unresolved(
                    f"the argument '{args[0]}' is not defined: declare it with <xacro:arg name=\"{args[0]}\" "
                    f'default="..."/> or pass {args[0]}:=value',
                ) from None
        if command == "find":
            if len(args) != 1:
                raise XacroError(f"$(find) takes one package name: $({inside})")
            return ctx.find(args[0])
        if command == "env":
            if len(args) != 1:
                raise XacroError(f"$(env) takes one variable name: $({inside})")
            try:
                return ctx.environ[args[0]]
            except KeyError:
                raise XacroError(
                    f"the environment variable {args[0]} is not set (use $(optenv) for a default)"
                ) from None
        if command == "optenv":
            if not args:
                raise XacroError(f"$(optenv) needs a variable name: $({inside})")
            return ctx.environ.get(args[0], " ".join(args[1:]))
        # dirname
        if not ctx.file:
            raise XacroError("$(dirname) has no file to take the directory of (the input is not a file)")
        return os.path.abspath(os.path.dirname(ctx.file))

    def eval_command(self, expression: str) -> str:
        if "__" in expression:
            raise XacroError("$(eval ...) may not contain '__'")
        ctx = self.context

        def arg(name: str) -> Any:
            try:
                return auto_value(ctx.args[name])
            except KeyError:
                raise XacroError(f"the argument '{name}' is not defined") from None

        def env(name: str) -> str:
            try:
                return ctx.environ[name]
            except KeyError:
                raise XacroError(f"the environment variable {name} is not set") from None

        def optenv(name: str, default: str = "") -> str:
            return ctx.environ.get(name, default)

        def dirname() -> str:
            return self._value("dirname", [], "dirname")

        functions: dict[str, Any] = dict(self.math_names)
        functions.update(
            true=True,
            false=False,
            arg=arg,
            dirname=dirname,
            env=env,
            optenv=optenv,
            find=ctx.find,
            list=list,
            dict=dict,
            map=map,
            str=str,
            float=float,
            int=int,
        )
        functions["True"] = True
        functions["False"] = False

        def lookup(name: str) -> Any:
            if name in functions:
                return functions[name]
            return auto_value(ctx.args[name])

        allowed = set(self.allowed) | {id(f) for f in (arg, env, optenv, dirname, ctx.find)}
        try:
            return str(Interpreter(lookup, allowed).evaluate(expression))
        except Undefined as exc:
            raise XacroError(f"in $(eval): {exc}") from None
        except ExpressionError as exc:
            raise XacroError(f"in $(eval {expression}): {exc}") from None
