"""Texts evaluated as xacro evaluates them: ``${...}`` by the interpreter (a plain name by a
lookup), ``$(...)`` by the substitution commands, with errors placed on the piece of the
text that caused them and, for a value that is one property, where that value was written."""

from __future__ import annotations


from keyword import iskeyword
from typing import Any

from .definitions import Use
from .errors import Unresolved, XacroError
from .expressions import ExpressionError, Interpreter, Undefined
from .nodes import Attr
from ...text_memo import TextMemo
from .properties import Scope
from .source_map import Origin, sub_origin
from .substitution import Context, Located, Substitutions, pieces

_PIECES: TextMemo[str, list] = TextMemo(8192)  # texts cut into pieces: the same texts come back at every call


class TextEvaluation:
    """The evaluation of texts, a part of the expander (which sets these attributes)."""

    context: Context
    subst: Substitutions
    filestack: list[str]
    allowed: set[int]
    uses: list[Use]
    incomplete: bool

    def evaluate(self, text: str, scope: Scope, origin: Origin | None, raw: bool = False) -> tuple[Any, Origin | None]:
        """The value of ``text`` in ``scope`` and, when the text is one ``${name}`` of a property
        known to come from somewhere, that place."""
        if "$" not in text:
            return text, None
        parts = _PIECES.get(text)
        try:
            if parts is None:
                parts = _PIECES.keep(text, pieces(text))
        except Located as exc:
            raise XacroError(exc.message, sub_origin(origin, raw, exc.offset, exc.length)) from None
        results = []
        source: Origin | None = None
        for kind, piece, at in parts:
            if kind == "text":
                results.append(piece)
            elif kind == "dd":
                results.append(piece[1:])
            elif kind == "expr":
                value, source = self._expression(piece[2:-1], scope, origin, raw, at + 2)
                results.append(value)
            else:
                inner, _ = self.evaluate(piece[2:-1], scope, sub_origin(origin, raw, at + 2, len(piece) - 3), raw)
                try:
                    self.context.file = self.filestack[-1] if self.filestack else None
                    results.append(self.subst.command(f"$({inner})"))
                except XacroError as exc:
                    if exc.origin is None:
                        exc.origin = sub_origin(origin, raw, at, len(piece))
                    raise
        if len(results) == 1:
            return results[0], source if len(parts) == 1 else None
        return "".join(map(str, results)), None

    def _expression(
        self, inner: str, scope: Scope, origin: Origin | None, raw: bool, at: int
    ) -> tuple[Any, Origin | None]:
        if "$" in inner:
            text = str(self.evaluate(inner, scope, sub_origin(origin, raw, at, len(inner)), raw)[0])
        else:
            text = inner
        same = text == inner
        name = text.strip()
        plain = name.isidentifier() and not name.startswith("__") and not iskeyword(name)
        try:
            if plain:  # most expressions are one name: looked up without the interpreter
                try:
                    value = scope.get(name)
                except KeyError:
                    raise Undefined(f"name '{name}' is not defined", len(text) - len(text.lstrip()), name) from None
            else:
                value = Interpreter(scope.get, self.allowed).evaluate(text)
        except Undefined as exc:
            # after a first error this one is not reported (Expander.fail): no hint to look for
            hint = "" if self.incomplete else nearest(exc.name or "", scope, self.context.args)
            where = (
                sub_origin(origin, raw and same, at + (exc.offset or 0), len(exc.name or ""))
                if exc.offset is not None
                else sub_origin(origin, raw, at - 2, len(inner) + 3)
            )
            raise Unresolved(f"the property '{exc.name}' is not defined{hint}", where) from None
        except ExpressionError as exc:
            where = sub_origin(origin, raw, at - 2, len(inner) + 3)
            raise XacroError(f"cannot evaluate '${{{inner.strip()}}}': {exc}", where) from None
        source = None
        if plain:
            source = scope.origin_of(name)
            self._use(
                "property", name, sub_origin(origin, raw and same, at + (len(text) - len(text.lstrip())), len(name))
            )
        return value, source

    def _use(self, kind: str, name: str, origin: Origin | None) -> None:
        if origin is not None:
            self.uses.append(Use(kind, name, origin, None))

    def text_value(self, attr: Attr, scope: Scope) -> tuple[Any, Origin | None]:
        return self.evaluate(attr.value, scope, attr.origin, attr.raw)


def nearest(wanted: str, scope: Scope, args: dict[str, str]) -> str:
    """The hint for an undefined name: the nearest property, else the nearest argument."""

    from difflib import get_close_matches  # imported when needed: an error, a pattern

    near = get_close_matches(wanted, sorted(scope.visible_names()), 1, 0.6)
    if near:
        return f"; did you mean '{near[0]}'?"
    near_arg = get_close_matches(wanted, sorted(args), 1, 0.75)
    return f"; did you mean the argument $(arg {near_arg[0]})?" if near_arg else ""
