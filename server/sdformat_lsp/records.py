"""``@record``: ``@dataclass(frozen=True)`` that is cheaper to define.

Why: a one-file ``check`` is mostly start-up, and defining dataclasses was the
largest part of importing our modules. For each class, ``dataclasses`` writes
the source of ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` and ``__delattr__`` and compiles each one (about 0.3 ms a
class on Python 3.11; ``check`` imports about 30 of them). Here the standard
library still makes the class (fields, ``__init__``, the frozen
``__setattr__``/``__delattr__``, slots, pickling, ``__match_args__``), but the
three methods that only read the fields are shared functions closed over the
class's field names, made without compiling anything:

- ``__eq__``: instances of exactly the same class whose compared fields are
  equal, as a tuple compared with a tuple, as ``dataclasses`` does up to 3.12
  (3.13 compares field by field, which differs only for a field holding a value
  unequal to itself, such as a NaN float, in the same object on both sides);
  ``NotImplemented`` for any other class.
- ``__hash__``: the hash of the tuple of the hashed fields (``hash=None``
  follows ``compare``), the same value ``dataclasses`` computes.
- ``__repr__``: ``Name(field=value!r, ...)`` over the fields with
  ``repr=True``, ``...`` for a recursive reference.

The class is frozen exactly as a ``@dataclass(frozen=True)`` is (assigning a
field raises ``FrozenInstanceError``), ``dataclasses.fields``, ``replace`` and
``is_dataclass`` work, and ``__dataclass_params__`` says ``frozen=True`` (and
``eq=False, repr=False``: the standard library did not write those).
``tests/core/test_records.py`` compares every record class of the package
with a ``@dataclass(frozen=True)`` twin. A class that defines ``__eq__`` or
``__hash__`` itself is refused (it wants a plain dataclass); one that defines
``__repr__`` keeps its own.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from reprlib import recursive_repr

__all__ = ["record"]


def record(cls=None, /, *, slots: bool = False, init: bool = True):
    """``@record`` or ``@record(slots=True, init=False)``: a frozen dataclass (see the module)."""

    def wrap(cls):
        for name in ("__eq__", "__hash__"):
            if name in cls.__dict__ and cls.__dict__[name] is not None:
                raise TypeError(f"{cls.__name__} defines {name}: use a plain @dataclass")
        own_repr = "__repr__" in cls.__dict__
        cls = dataclass(cls, frozen=True, slots=slots, init=init, eq=False, repr=False)
        _add_methods(cls, own_repr)
        return cls

    return wrap if cls is None else wrap(cls)


def _as_tuple(names: list[str]):
    """A function of an instance returning the tuple of the named fields' values."""
    if len(names) >= 2:
        return attrgetter(*names)  # a tuple already
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _add_methods(cls, own_repr: bool) -> None:
    every = fields(cls)
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

    methods = {"__eq__": __eq__, "__hash__": __hash__}
    if not own_repr:
        methods["__repr__"] = __repr__
    for name, method in methods.items():
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)
