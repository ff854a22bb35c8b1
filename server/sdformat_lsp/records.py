"""``@record``: ``@dataclass(frozen=True)`` that is cheaper to define and to construct.

Why: a one-file ``check`` is mostly start-up, and defining dataclasses was the
largest part of importing our modules. For each class, ``dataclasses`` writes
the source of ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` and ``__delattr__`` and compiles each one (about 0.3 ms a
class on Python 3.11; ``check`` imports about 30 of them). Here the standard
library still makes the class (its fields, slots, ``__match_args__``;
``dataclasses.fields``, ``replace`` and ``is_dataclass`` work), and:

- ``__init__`` is the one method compiled: the same parameters, defaults and
  default factories, then ``__post_init__`` if the class has one. It stores
  each field as a frozen dataclass's does, past the refusing ``__setattr__``;
  in a slotted class through the slot's descriptor, one call instead of a
  global and an attribute lookup and a call (the 100,000-line world builds
  70,000 model objects: 95 -> 67 ms for its build).
- ``__eq__``: instances of exactly the same class whose compared fields are
  equal, as a tuple compared with a tuple, as ``dataclasses`` does up to 3.12
  (3.13 compares field by field, which differs only for a field holding a value
  unequal to itself, such as a NaN float, in the same object on both sides);
  ``NotImplemented`` for any other class.
- ``__hash__``: the hash of the tuple of the hashed fields (``hash=None``
  follows ``compare``), the same value ``dataclasses`` computes.
- ``__repr__``: ``Name(field=value!r, ...)`` over the fields with
  ``repr=True``, ``...`` for a recursive reference.
- ``__setattr__``/``__delattr__`` raise ``FrozenInstanceError`` for a field
  (for any name on the class itself), as a frozen dataclass's do; a slotted
  record pickles and copies through the same ``__getstate__``/``__setstate__``.

These are closures over the class and its field names: nothing else is
compiled. ``__dataclass_params__`` says ``init``, ``repr``, ``eq`` and
``frozen`` as the class behaves, so a record may subclass a record.
``record(eq=False)`` and ``record(frozen=False)`` stand for the same
parameters of ``@dataclass``. ``tests/core/test_records.py`` compares every
record class of the package with a twin made by ``dataclasses`` with the same
parameters. Refused (they want a plain dataclass): a
class defining ``__eq__``, ``__hash__``, ``__setattr__`` or ``__delattr__``,
keyword-only fields and ``InitVar``s. A class that defines ``__repr__`` keeps
its own.
"""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from typing import TYPE_CHECKING, Any, Callable
from operator import attrgetter
from reprlib import recursive_repr

__all__ = ["record"]

_OWN_ONLY = ("__eq__", "__hash__", "__setattr__", "__delattr__")


def _record(
    cls=None,
    /,
    *,
    slots: bool = False,
    init: bool = True,
    eq: bool = True,
    frozen: bool = True,
    unsafe_hash: bool = False,
):
    """``@record`` or ``@record(slots=True)``: a frozen dataclass (see the module).

    ``eq=False``: compared and hashed by identity, as ``@dataclass(eq=False)``. ``frozen=False``:
    a plain ``@dataclass``'s instances (assignable; with ``eq``, unhashable), for the few classes
    of the command line's path that are filled in after they are made; with ``unsafe_hash``,
    hashed by value all the same.
    """

    def wrap(cls):
        for name in _OWN_ONLY:
            if cls.__dict__.get(name) is not None:
                raise TypeError(f"{cls.__name__} defines {name}: use a plain @dataclass")
        own_repr = "__repr__" in cls.__dict__
        # dataclasses refuses a class that is not frozen below a frozen one: a subclass of a
        # record is made frozen by it (two guards compiled, then replaced by ours below)
        frozen_base = any(_params(base).frozen for base in cls.__mro__[1:] if _params(base) is not None)
        cls = dataclass(cls, frozen=frozen_base, slots=slots, init=False, eq=False, repr=False)
        every = fields(cls)
        if len(every) != len(cls.__dataclass_fields__):
            raise TypeError(f"{cls.__name__}: @record handles plain fields only (no ClassVar, no InitVar)")
        params = cls.__dataclass_params__
        params.init, params.repr, params.eq, params.frozen, params.unsafe_hash = init, True, eq, frozen, unsafe_hash
        if init:
            cls.__init__ = _init_of(cls, every, slots, frozen)
        _add_comparison(cls, every, own_repr, eq, frozen or unsafe_hash)
        if frozen:
            _freeze(cls, every, slots)
        return cls

    return wrap if cls is None else wrap(cls)


def _params(cls):
    return cls.__dict__.get("__dataclass_params__")


class _Factory:
    """The default of a parameter whose field has a default factory (shown as ``<factory>``)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _init_of(cls: type, every, slots: bool, frozen: bool):
    """``__init__`` as ``dataclasses`` writes it (see the module)."""
    params, body = [], []
    namespace: dict[str, Any] = {"_FACTORY": _FACTORY, "_store": object.__setattr__}
    for f in every:
        if getattr(f, "kw_only", False) is True:
            raise TypeError(f"{cls.__name__}.{f.name}: @record handles positional fields only")
        if not frozen:
            store = f"self.{f.name} = {{}}"
        elif slots:
            namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__
            store = f"_set_{f.name}(self, {{}})"
        else:
            store = f"_store(self, {f.name!r}, {{}})"
        if f.default_factory is not MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            made = f"_factory_{f.name}()"
            if f.init:
                params.append(f"{f.name}=_FACTORY")
                body.append(store.format(f"{made} if {f.name} is _FACTORY else {f.name}"))
            else:
                body.append(store.format(made))
        elif f.init:
            if f.default is MISSING:
                params.append(f.name)
            else:
                namespace[f"_default_{f.name}"] = f.default
                params.append(f"{f.name}=_default_{f.name}")
            body.append(store.format(f.name))
        elif f.default is not MISSING:
            namespace[f"_default_{f.name}"] = f.default
            body.append(store.format(f"_default_{f.name}"))
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    lines = "".join(f"\n    {line}" for line in body) or "\n    pass"
    exec(f"def __init__(self, {', '.join(params)}):{lines}", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _as_tuple(names: list[str]):
    """A function of an instance returning the tuple of the named fields' values."""
    if len(names) >= 2:
        return attrgetter(*names)  # a tuple already
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _add_comparison(cls, every, own_repr: bool, eq: bool, hashed_by_value: bool) -> None:
    compared = _as_tuple([f.name for f in every if f.compare])
    hashed = _as_tuple([f.name for f in every if (f.compare if f.hash is None else f.hash)])
    shown = [(f"{f.name}=", attrgetter(f.name)) for f in every if f.repr]

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    def __hash__(self):
        return hash(hashed(self))

    @recursive_repr()
    def __repr__(self):
        return f"{self.__class__.__qualname__}({', '.join(label + repr(get(self)) for label, get in shown)})"

    methods: dict[str, Callable[..., Any]] = {}
    if eq:
        methods["__eq__"] = __eq__
        if hashed_by_value:
            methods["__hash__"] = __hash__
        else:
            cls.__hash__ = None  # mutable and compared by value: unhashable, as a dataclass
    if not own_repr:
        methods["__repr__"] = __repr__
    _install(cls, methods)


def _freeze(cls, every, slots: bool) -> None:
    names = frozenset(f.name for f in every)

    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    methods = {"__setattr__": __setattr__, "__delattr__": __delattr__}
    if slots:  # the default unpickling of slots assigns them, which a frozen class refuses

        def __getstate__(self):
            return [getattr(self, f.name) for f in fields(self)]

        def __setstate__(self, state):
            for f, value in zip(fields(self), state):
                object.__setattr__(self, f.name, value)

        methods.update(__getstate__=__getstate__, __setstate__=__setstate__)
    _install(cls, methods)


def _install(cls, methods: dict) -> None:
    for name, method in methods.items():
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)


if TYPE_CHECKING:  # type checkers read @record as the @dataclass it stands for (same fields and parameters)
    from dataclasses import dataclass as record
else:
    record = _record
