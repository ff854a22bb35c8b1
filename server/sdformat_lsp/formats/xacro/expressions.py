"""The interpreter of xacro's ``${...}`` expressions: Python's expression syntax, walked
over an allow-list, never ``eval``.

ROS's xacro hands the text to Python's ``eval`` with a table of names; we parse
it with ``ast`` and evaluate the nodes ourselves. Only the node types below are
evaluated, only the names the caller's lookup gives are visible, attributes are
read only from namespaces, YAML dictionaries and the listed methods of plain
values, and only functions of the allow-list (and lambdas written in the
expression) can be called: ``${().__class__.__bases__}`` is an error, not a
walk through Python's objects. What could grow without bound is bounded: the
size of numbers (``9**9**9``), of strings and lists (``'a' * 10**12``), the
number of steps of one expression, the depth of nested calls.
"""

from __future__ import annotations

import ast
import math
import operator
import string

from typing import Any, Callable

from ...text_memo import TextMemo

MAX_BITS = 1 << 16  # the largest integer: 65,536 bits (about 20,000 digits)
MAX_LEN = 10_000_000  # the longest string or collection an expression makes
MAX_STEPS = 200_000  # nodes evaluated by one expression (loops in comprehensions; the corpus needs 74)
_CACHE_SIZE = 4096


class ExpressionError(Exception):
    """The expression cannot be evaluated (syntax, a name not allowed, a bound, a Python error)."""

    def __init__(self, message: str, offset: int | None = None, name: str | None = None) -> None:
        super().__init__(message)
        self.offset = offset  # where in the expression text, when known
        self.name = name  # an undefined name, for suggestions


class Undefined(ExpressionError):
    """A name that the lookup does not know."""


class Namespace:
    """Something whose attributes are names: ``math.pi``, ``xacro.load_yaml``, an include's ``ns``.

    ``get`` returns the value or raises KeyError."""

    def get_name(self, name: str) -> Any:  # pragma: no cover - interface
        raise KeyError(name)


class Lambda:
    """A lambda written in an expression: calling it evaluates its body with our interpreter."""

    __slots__ = ("defaults", "env", "interp", "node")

    def __init__(self, node: ast.Lambda, env: dict, defaults: list, interp: "Interpreter") -> None:
        self.node = node
        self.env = env
        self.defaults = defaults
        self.interp = interp

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        params = [a.arg for a in self.node.args.posonlyargs + self.node.args.args]
        if len(args) > len(params):
            raise ExpressionError(f"the lambda takes {len(params)} arguments, {len(args)} given")
        env = dict(self.env)
        env.update(zip(params, args))
        env.update(kwargs)
        missing = [p for p in params if p not in env]
        for p, d in zip(params[len(params) - len(self.defaults) :], self.defaults):
            if p not in env:
                env[p] = d
        missing = [p for p in params if p not in env]
        if missing:
            raise ExpressionError(f"the lambda misses argument(s) {', '.join(missing)}")
        return self.interp.run(self.node.body, env)

    def __repr__(self) -> str:
        return "<lambda>"


def check_size(value: Any) -> Any:
    t = type(value)
    if t is int:
        if value.bit_length() > MAX_BITS:
            raise ExpressionError(f"the number is too large (over {MAX_BITS} bits)")
    elif t in (str, bytes, list, tuple, dict, set, frozenset) or isinstance(value, (str, list, dict, tuple)):
        if len(value) > MAX_LEN:
            raise ExpressionError(f"the value is too long (over {MAX_LEN:,} items)")
    return value


def _int_bits(value: Any) -> int:
    if type(value) is bool:
        return 1
    if isinstance(value, int):
        return value.bit_length()
    return 0


def _mul(a: Any, b: Any) -> Any:
    for seq, n in ((a, b), (b, a)):
        if isinstance(seq, (str, bytes, list, tuple)) and isinstance(n, int):
            if n > 0 and len(seq) * n > MAX_LEN:
                raise ExpressionError(f"the repetition is too long (over {MAX_LEN:,} items)")
    if isinstance(a, int) and isinstance(b, int) and _int_bits(a) + _int_bits(b) > MAX_BITS:
        raise ExpressionError(f"the number is too large (over {MAX_BITS} bits)")
    return a * b


def _pow(a: Any, b: Any, *mod: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int) and not mod and b > 0 and abs(a) > 1:
        if b * _int_bits(a) > MAX_BITS * 2:
            raise ExpressionError(f"the power is too large (over {MAX_BITS} bits)")
    return pow(a, b, *mod)


def _lshift(a: Any, b: Any) -> Any:
    if isinstance(b, int) and b + _int_bits(a) > MAX_BITS:
        raise ExpressionError(f"the number is too large (over {MAX_BITS} bits)")
    return a << b


def _check_format_spec(spec: str) -> None:
    digits = "".join(c if c.isdigit() else " " for c in spec).split()
    if any(len(d) > 5 for d in digits) or any(int(d) > 100_000 for d in digits):
        raise ExpressionError("the format asks for a field too wide")


def _mod(a: Any, b: Any) -> Any:
    if isinstance(a, str):
        # printf-style: field widths are the only thing that can grow the result
        width = 0
        for chunk in a.split("%")[1:]:
            spec = ""
            for c in chunk:
                if c.isalpha() or c == "%":
                    break
                spec += c
            _check_format_spec(spec)
            width += 1
    return a % b


_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: _mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: _mod,
    ast.Pow: _pow,
    ast.LShift: _lshift,
    ast.RShift: operator.rshift,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
    ast.BitAnd: operator.and_,
}

_UNARY: dict[type, Callable[[Any], Any]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
    ast.Not: operator.not_,
    ast.Invert: operator.invert,
}

_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


class SafeFormatter(string.Formatter):
    """``str.format`` without attribute or index walks in the fields, and bounded widths."""

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        if "." in field_name or "[" in field_name:
            raise ExpressionError("format fields may only name arguments (no '.' or '[')")
        return super().get_field(field_name, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> Any:
        _check_format_spec(format_spec)
        return super().format_field(value, format_spec)


_FORMATTER = SafeFormatter()


def _str_format(s: str, *args: Any, **kwargs: Any) -> str:
    return check_size(_FORMATTER.vformat(s, args, kwargs))


def _str_replace(s: str, old: str, new: str, count: int = -1) -> str:
    n = s.count(old) if count < 0 else min(count, s.count(old))
    if len(s) + n * (len(new) - len(old)) > MAX_LEN or (not old and len(s) * len(new) > MAX_LEN):
        raise ExpressionError(f"the replacement is too long (over {MAX_LEN:,} characters)")
    return s.replace(old, new, count)


def _str_join(sep: str, items: Any) -> str:
    items = materialize(items)
    total = sum(len(x) for x in items if isinstance(x, str)) + len(sep) * len(items)
    if total > MAX_LEN:
        raise ExpressionError(f"the joined text is too long (over {MAX_LEN:,} characters)")
    return sep.join(items)


def _padded(method: str) -> Callable[..., str]:
    def pad(s: str, width: int, *args: Any) -> str:
        if isinstance(width, int) and width > MAX_LEN:
            raise ExpressionError(f"the width is too large (over {MAX_LEN:,})")
        return getattr(s, method)(width, *args)

    return pad


def _expandtabs(s: str, tabsize: int = 8) -> str:
    if tabsize * s.count("\t") > MAX_LEN:
        raise ExpressionError("the text is too long")
    return s.expandtabs(tabsize)


_STR_METHODS: dict[str, Any] = {
    name: getattr(str, name)
    for name in (
        "capitalize casefold count endswith find index isalnum isalpha isascii isdecimal isdigit "
        "isidentifier islower isnumeric isspace istitle isupper lower lstrip partition removeprefix "
        "removesuffix rfind rindex rpartition rsplit rstrip split splitlines startswith strip swapcase "
        "title upper"
    ).split()
    if hasattr(str, name)
}
_STR_METHODS.update(
    format=_str_format,
    replace=_str_replace,
    join=_str_join,
    center=_padded("center"),
    ljust=_padded("ljust"),
    rjust=_padded("rjust"),
    zfill=_padded("zfill"),
    expandtabs=_expandtabs,
)
_SEQ_METHODS = {"count", "index"}
# Python's eval lets a document change a list or dictionary it holds (real robots append to a
# property's list); the sizes are checked after each call
_LIST_METHODS = {"append", "extend", "insert", "pop", "remove", "sort", "reverse", "clear", "copy"}
_DICT_METHODS = {"get", "keys", "values", "items", "copy", "update", "setdefault", "pop", "clear"}
_NUMBER_ATTRS = {"real", "imag", "conjugate", "is_integer", "bit_length", "numerator", "denominator"}


def materialize(items: Any) -> list:
    if isinstance(items, range) and len(items) > MAX_LEN:
        raise ExpressionError(f"the range is too long (over {MAX_LEN:,} items)")
    out = []
    for x in items:
        out.append(x)
        if len(out) > MAX_LEN:
            raise ExpressionError(f"the collection is too long (over {MAX_LEN:,} items)")
    return out


class Interpreter:
    """Evaluates expression texts with names from ``lookup`` (raising KeyError for unknown
    ones) and calls from ``callables`` (the identities of the functions allowed)."""

    def __init__(self, lookup: Callable[[str], Any], allowed: set[int]) -> None:
        self.lookup = lookup
        self.allowed = allowed
        self.steps = 0

    # parsing, cached by text: the same expressions are evaluated at every macro call
    _cache: TextMemo[str, Any] = TextMemo(_CACHE_SIZE)

    @classmethod
    def parse(cls, text: str) -> ast.expr:
        tree = cls._cache.get(text)
        if tree is None:
            try:
                tree = ast.parse(text.strip(), "<expression>", "eval").body
            except SyntaxError as exc:
                raise ExpressionError(f"invalid expression: {exc.msg}", (exc.offset or 1) - 1) from None
            except (RecursionError, MemoryError, ValueError) as exc:
                raise ExpressionError(f"invalid expression: {type(exc).__name__}") from None
            for node in ast.walk(tree):
                if isinstance(node, ast.Name) and node.id.startswith("__"):
                    raise ExpressionError(f"the name '{node.id}' is not allowed", node.col_offset)
                if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                    raise ExpressionError(f"the attribute '{node.attr}' is not allowed", node.col_offset)
            cls._cache.keep(text, tree)
        return tree

    def evaluate(self, text: str) -> Any:
        tree = self.parse(text)
        self.steps = 0
        lead = len(text) - len(text.lstrip())
        try:
            return self.run(tree, None)
        except ExpressionError as exc:
            if exc.offset is not None:
                exc.offset += lead
            raise
        except RecursionError:
            raise ExpressionError("the expression recurses too deeply") from None
        except MemoryError:
            raise ExpressionError("the expression needs too much memory") from None
        except (ArithmeticError, TypeError, ValueError, KeyError, IndexError, AttributeError, StopIteration) as exc:
            raise ExpressionError(f"{type(exc).__name__}: {exc}") from None

    # -- the walk ------------------------------------------------------------------------------
    _methods: dict[type, Callable[..., Any]] = {}

    def run(self, node: ast.AST, env: dict | None) -> Any:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise ExpressionError(f"the expression takes too many steps (over {MAX_STEPS:,})")
        method = self._methods.get(type(node))
        if method is None:
            method = getattr(Interpreter, "e_" + type(node).__name__, None)
            if method is None:
                raise ExpressionError(
                    f"{type(node).__name__} is not allowed in a xacro expression", getattr(node, "col_offset", None)
                )
            self._methods[type(node)] = method
        return method(self, node, env)

    def e_Constant(self, node: ast.Constant, env: dict | None) -> Any:
        return node.value

    def e_Name(self, node: ast.Name, env: dict | None) -> Any:
        if env is not None and node.id in env:
            return env[node.id]
        try:
            return self.lookup(node.id)
        except KeyError:
            raise Undefined(f"name '{node.id}' is not defined", node.col_offset, node.id) from None

    def e_BinOp(self, node: ast.BinOp, env: dict | None) -> Any:
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise ExpressionError(f"the operator {type(node.op).__name__} is not allowed", node.col_offset)
        return check_size(op(self.run(node.left, env), self.run(node.right, env)))

    def e_UnaryOp(self, node: ast.UnaryOp, env: dict | None) -> Any:
        return _UNARY[type(node.op)](self.run(node.operand, env))

    def e_BoolOp(self, node: ast.BoolOp, env: dict | None) -> Any:
        value: Any = None
        if isinstance(node.op, ast.And):
            for v in node.values:
                value = self.run(v, env)
                if not value:
                    return value
            return value
        for v in node.values:
            value = self.run(v, env)
            if value:
                return value
        return value

    def e_Compare(self, node: ast.Compare, env: dict | None) -> Any:
        left = self.run(node.left, env)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.run(right_node, env)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True

    def e_IfExp(self, node: ast.IfExp, env: dict | None) -> Any:
        return self.run(node.body if self.run(node.test, env) else node.orelse, env)

    def _items(self, elts: list, env: dict | None) -> list:
        out: list = []
        for e in elts:
            if isinstance(e, ast.Starred):
                out.extend(materialize(self.run(e.value, env)))
            else:
                out.append(self.run(e, env))
        return check_size(out)

    def e_List(self, node: ast.List, env: dict | None) -> Any:
        return self._items(node.elts, env)

    def e_Tuple(self, node: ast.Tuple, env: dict | None) -> Any:
        return tuple(self._items(node.elts, env))

    def e_Set(self, node: ast.Set, env: dict | None) -> Any:
        return set(self._items(node.elts, env))

    def e_Dict(self, node: ast.Dict, env: dict | None) -> Any:
        out: dict = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                out.update(self.run(v, env))
            else:
                out[self.run(k, env)] = self.run(v, env)
        return out

    def e_JoinedStr(self, node: ast.JoinedStr, env: dict | None) -> Any:
        return check_size("".join(str(self.run(v, env)) for v in node.values))

    def e_FormattedValue(self, node: ast.FormattedValue, env: dict | None) -> Any:
        value = self.run(node.value, env)
        if node.conversion == ord("r"):
            value = repr(value)
        elif node.conversion == ord("a"):
            value = ascii(value)
        elif node.conversion == ord("s"):
            value = str(value)
        spec = self.run(node.format_spec, env) if node.format_spec is not None else ""
        _check_format_spec(spec)
        return format(value, spec)

    def e_Subscript(self, node: ast.Subscript, env: dict | None) -> Any:
        value = self.run(node.value, env)
        index = self.run(node.slice, env)
        if isinstance(value, Namespace):
            try:
                return value.get_name(index)
            except KeyError:
                raise Undefined(f"name '{index}' is not defined", node.col_offset, str(index)) from None
        if not isinstance(value, (str, bytes, list, tuple, dict, range)):
            raise ExpressionError(f"a {type(value).__name__} cannot be indexed", node.col_offset)
        return value[index]

    def e_Slice(self, node: ast.Slice, env: dict | None) -> Any:
        return slice(
            None if node.lower is None else self.run(node.lower, env),
            None if node.upper is None else self.run(node.upper, env),
            None if node.step is None else self.run(node.step, env),
        )

    def e_Index(self, node: Any, env: dict | None) -> Any:  # Python 3.8 form, kept for safety
        return self.run(node.value, env)

    def e_Attribute(self, node: ast.Attribute, env: dict | None) -> Any:
        value = self.run(node.value, env)
        name = node.attr
        if isinstance(value, Namespace):
            try:
                return value.get_name(name)
            except KeyError:
                raise Undefined(f"name '{name}' is not defined", node.col_offset, name) from None
        if isinstance(value, dict) and hasattr(value, "dotted") and not hasattr(dict, name):
            try:
                return value.dotted(name)
            except KeyError:
                raise ExpressionError(f"the YAML dictionary has no key '{name}'", node.col_offset) from None
        if isinstance(value, str) and name in _STR_METHODS:
            return _Bound(_STR_METHODS[name], value)
        if isinstance(value, (list, tuple, str)) and name in _SEQ_METHODS:
            return getattr(value, name)
        if isinstance(value, list) and name in _LIST_METHODS:
            return getattr(value, name)
        if isinstance(value, dict) and name in _DICT_METHODS:
            return getattr(value, name)
        if isinstance(value, (int, float, complex)) and name in _NUMBER_ATTRS and hasattr(value, name):
            return getattr(value, name)
        raise ExpressionError(f"'{type(value).__name__}' has no attribute '{name}' that xacro allows", node.col_offset)

    def e_Call(self, node: ast.Call, env: dict | None) -> Any:
        func = self.run(node.func, env)
        args = self._items(node.args, env)
        kwargs: dict = {}
        for kw in node.keywords:
            if kw.arg is None:
                kwargs.update(self.run(kw.value, env))
            else:
                kwargs[kw.arg] = self.run(kw.value, env)
        if not (isinstance(func, (Lambda, _Bound)) or id(func) in self.allowed or _is_plain_method(func)):
            raise ExpressionError(f"'{_name_of(func)}' cannot be called in a xacro expression", node.col_offset)
        result = check_size(func(*args, **kwargs))
        owner = getattr(func, "__self__", None)
        if isinstance(owner, (list, dict)):  # a list or dictionary changed in place
            check_size(owner)
        return result

    def e_Lambda(self, node: ast.Lambda, env: dict | None) -> Any:
        defaults = [self.run(d, env) for d in node.args.defaults]
        return Lambda(node, dict(env or {}), defaults, self)

    def _comprehension(self, generators: list, env: dict | None, emit: Callable[[dict], None]) -> None:
        scope = dict(env or {})

        # iterative over the generators: each level is a list of remaining items
        def loop(level: int) -> None:
            gen = generators[level]
            for item in materialize(self.run(gen.iter, scope)):
                self._bind(gen.target, item, scope)
                if all(self.run(cond, scope) for cond in gen.ifs):
                    if level + 1 == len(generators):
                        emit(scope)
                    else:
                        loop(level + 1)

        loop(0)

    def _bind(self, target: ast.AST, value: Any, scope: dict) -> None:
        if isinstance(target, ast.Name):
            if target.id.startswith("__"):
                raise ExpressionError(f"the name '{target.id}' is not allowed", target.col_offset)
            scope[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            values = materialize(value)
            if len(values) != len(target.elts):
                raise ExpressionError("cannot unpack: wrong number of values", target.col_offset)
            for t, v in zip(target.elts, values):
                self._bind(t, v, scope)
        else:
            raise ExpressionError("only names can be assigned in a comprehension", getattr(target, "col_offset", None))

    def e_ListComp(self, node: ast.ListComp, env: dict | None) -> Any:
        out: list = []
        self._comprehension(node.generators, env, lambda s: out.append(self.run(node.elt, s)))
        return check_size(out)

    e_GeneratorExp = e_ListComp

    def e_SetComp(self, node: ast.SetComp, env: dict | None) -> Any:
        out: set = set()
        self._comprehension(node.generators, env, lambda s: out.add(self.run(node.elt, s)))
        return out

    def e_DictComp(self, node: ast.DictComp, env: dict | None) -> Any:
        out: dict = {}

        def emit(s: dict) -> None:
            out[self.run(node.key, s)] = self.run(node.value, s)

        self._comprehension(node.generators, env, emit)
        return out


class _Bound:
    """A method of a string from the allow-list, bound to its string."""

    __slots__ = ("func", "obj")

    def __init__(self, func: Callable[..., Any], obj: Any) -> None:
        self.func = func
        self.obj = obj

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.func(self.obj, *args, **kwargs)


_PLAIN_METHOD_OWNERS = (list, tuple, dict, str, int, float, complex)


def _is_plain_method(func: Any) -> bool:
    """A builtin method bound to a plain value, as e_Attribute hands out (count, get, ...)."""
    owner = getattr(func, "__self__", None)
    return type(func).__name__ == "builtin_function_or_method" and isinstance(owner, _PLAIN_METHOD_OWNERS)


def _name_of(func: Any) -> str:
    return getattr(func, "__name__", type(func).__name__)


def _bounded_factorial(n: Any) -> Any:
    if isinstance(n, int) and n > 5000:
        raise ExpressionError("factorial of a number over 5000 is not computed")
    return math.factorial(n)


def _bounded_comb(n: Any, k: Any) -> Any:
    if isinstance(n, int) and n > 100_000:
        raise ExpressionError("comb/perm of a number over 100,000 is not computed")
    return math.comb(n, k)


def _bounded_perm(n: Any, k: Any = None) -> Any:
    if isinstance(n, int) and n > 5000:
        raise ExpressionError("comb/perm of a number over 5000 is not computed")
    return math.perm(n, k)


def math_functions() -> dict[str, Any]:
    """The public names of ``math`` (as xacro exposes them), the unbounded ones bounded."""
    names = {k: v for k, v in vars(math).items() if not k.startswith("_")}
    names["factorial"] = _bounded_factorial
    if "comb" in names:
        names["comb"] = _bounded_comb
    if "perm" in names:
        names["perm"] = _bounded_perm
    if "prod" in names:
        names["prod"] = lambda items, *, start=1: check_size(math.prod(materialize(items), start=start))
    return names
