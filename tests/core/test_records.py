"""Every ``@record`` class behaves as the ``@dataclass(frozen=True)`` it replaces (records.py).

For each record class of the package, a twin is made by the standard library from the same
fields; instances of both holding the same values must compare, hash and print alike, refuse
assignment and deletion alike, survive pickling, ``replace`` and ``copy`` alike.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil
import random

import pytest

import sdformat_lsp
from sdformat_lsp.records import record


def _record_classes() -> list[type]:
    found = {}
    for info in pkgutil.walk_packages(sdformat_lsp.__path__, "sdformat_lsp."):
        if info.name.startswith(("sdformat_lsp.server", "sdformat_lsp.__main__")):
            continue  # pygls; the records are in the layers below it
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == info.name and dataclasses.is_dataclass(value):
                init = value.__dict__.get("__init__")
                if getattr(init, "__globals__", {}).get("_FACTORY") is not None:  # made by records.py
                    found[f"{info.name}.{value.__qualname__}"] = value
    return [found[k] for k in sorted(found)]


CLASSES = _record_classes()


def _twin(cls: type) -> type:
    """The same fields, made by ``dataclasses`` itself (frozen, eq, repr, hash as generated)."""
    specs = []
    for f in dataclasses.fields(cls):
        kw = {"compare": f.compare, "hash": f.hash, "repr": f.repr}
        if f.default is not dataclasses.MISSING:
            kw["default"] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            kw["default_factory"] = f.default_factory
        specs.append((f.name, object, dataclasses.field(**kw)))
    params = cls.__dataclass_params__
    twin = dataclasses.make_dataclass(
        cls.__name__,
        specs,
        frozen=params.frozen,
        eq=params.eq,
        unsafe_hash=params.unsafe_hash,
        slots="__slots__" in cls.__dict__,
    )
    twin.__qualname__ = cls.__qualname__
    return twin


def _parameters(cls: type) -> list[tuple]:
    return [(p.name, p.kind, repr(p.default)) for p in inspect.signature(cls).parameters.values()]


def _make(cls: type, values: list) -> object:
    """An instance holding ``values``, bypassing ``__init__`` (some check their arguments)."""
    made = object.__new__(cls)
    for f, v in zip(dataclasses.fields(cls), values):
        object.__setattr__(made, f.name, v)
    return made


POOL = [0, 1, 1.5, "a", "b", None, (), (1, "x"), frozenset({2}), True]


def test_the_package_has_records() -> None:
    names = {c.__name__ for c in CLASSES}
    assert {"Diagnostic", "Ref", "Model", "Item", "AttributeSpec"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_a_record_behaves_as_its_dataclass_twin(cls: type) -> None:
    twin = _twin(cls)
    fields = dataclasses.fields(cls)
    params = cls.__dataclass_params__
    assert [f.name for f in dataclasses.fields(twin)] == [f.name for f in fields]
    assert cls.__match_args__ == twin.__match_args__
    if params.init:
        assert _parameters(cls) == _parameters(twin)
    shows_own = cls.__repr__.__module__ != "sdformat_lsp.records"
    rnd = random.Random(cls.__qualname__)
    for _ in range(30):
        a = [rnd.choice(POOL) for _ in fields]
        variants = [list(a)]
        for i in range(len(fields)):  # a change in each field, compared or not
            b = list(a)
            b[i] = rnd.choice([v for v in POOL if v != a[i]])
            variants.append(b)
        ra, ta = _make(cls, a), _make(twin, a)
        for b in variants:
            rb, tb = _make(cls, b), _make(twin, b)
            assert (ra == rb) is (ta == tb) and (ra != rb) is (ta != tb)
            assert (rb == rb) is (tb == tb)
            if params.eq and (params.frozen or params.unsafe_hash):
                assert hash(rb) == hash(tb)
            assert _outcome(hash, rb) == _outcome(hash, tb)  # unhashable alike
            if not shows_own:
                assert repr(rb) == repr(tb)
        assert ra.__eq__(ta) is NotImplemented and ra != ta  # never equal to another class
        for r, t in [(copy.copy(ra), copy.copy(ta)), (copy.deepcopy(ra), copy.deepcopy(ta))]:
            assert (r == ra) is (t == ta) and _values(r) == _values(ra)
        back = pickle.loads(pickle.dumps(ra))  # (the twin is not importable)
        assert type(back) is cls and _values(back) == _values(ra) and (back == ra) is params.eq
        # assigning and deleting: refused alike (frozen), or not
        mine, theirs = (
            _outcome(setattr, _make(cls, a), "not_a_field", 1),
            _outcome(setattr, _make(twin, a), "not_a_field", 1),
        )
        if theirs is TypeError and params.frozen and "__slots__" in cls.__dict__:
            theirs = (
                dataclasses.FrozenInstanceError
            )  # dataclasses' slotted-frozen bug before 3.12 (the guard names the class slots replaced)
        assert mine == theirs
        for f in fields:
            assert _outcome(setattr, _make(cls, a), f.name, 1) == _outcome(setattr, _make(twin, a), f.name, 1)
            assert _outcome(delattr, _make(cls, a), f.name) == _outcome(delattr, _make(twin, a), f.name)
        if fields and all(f.init for f in fields):
            b = variants[1]
            try:
                changed = dataclasses.replace(ra, **{fields[0].name: b[0]})
            except (TypeError, ValueError, AttributeError):
                continue  # a class whose __init__ or __post_init__ wants real values
            assert (changed == ra) is (dataclasses.replace(ta, **{fields[0].name: b[0]}) == ta)


def _values(obj) -> list:
    return [getattr(obj, f.name) for f in dataclasses.fields(obj)]


def _outcome(fn, *args):
    """What ``fn(*args)`` does: the type of the exception it raises, or that it returns."""
    try:
        fn(*args)
    except Exception as e:
        return type(e)
    return "returned"


def test_a_recursive_record_prints_an_ellipsis_as_dataclasses_does() -> None:
    @record
    class Box:
        """A test record holding anything."""

        item: object

    @dataclasses.dataclass(frozen=True)
    class Twin:
        item: object

    box, twin = Box([]), Twin([])
    box.item.append(box)
    twin.item.append(twin)
    assert repr(box).replace("Box", "Twin") == repr(twin)


def test_classes_defining_their_own_equality_are_refused() -> None:
    with pytest.raises(TypeError):

        @record
        class Own:
            """Compares itself."""

            x: int

            def __eq__(self, other):
                return True


def test_a_subclass_instance_is_never_equal_to_its_base_instance() -> None:
    pairs = [
        (cls, base)
        for cls in CLASSES
        if cls.__dataclass_params__.eq
        for base in cls.__mro__[1:]
        if base in CLASSES and [f.name for f in dataclasses.fields(base)] == [f.name for f in dataclasses.fields(cls)]
    ]
    assert pairs  # Link(Named) at least
    for cls, base in pairs:
        values = [1] * len(dataclasses.fields(cls))
        assert _make(cls, values) != _make(base, values) and _make(base, values) != _make(cls, values)


def test_a_record_constructs_as_its_dataclass_twin() -> None:
    made = []

    def body(cls):
        cls.__annotations__ = {"a": "object", "b": "object", "c": "list", "d": "list", "e": "int"}
        cls.b = 2
        cls.c = dataclasses.field(default_factory=list)
        cls.d = dataclasses.field(default_factory=lambda: ["d"], init=False)
        cls.e = dataclasses.field(default=5, init=False, compare=False)

        def __post_init__(self):
            made.append((type(self).__name__, self.a, self.b, self.c, self.d, self.e))

        cls.__post_init__ = __post_init__
        return cls

    Mine = record(body(type("Mine", (), {"__doc__": "A test record."})))
    Twin = dataclasses.dataclass(frozen=True)(body(type("Twin", (), {"__doc__": "A test dataclass."})))
    assert _parameters(Mine) == _parameters(Twin)
    for args in [(1,), (1, 3), (1, 3, [4]), ()]:
        outcomes = []
        for cls in (Mine, Twin):
            try:
                obj = cls(*args)
            except TypeError as e:
                outcomes.append(("TypeError", str(e).split("(")[-1]))
            else:
                outcomes.append([getattr(obj, f.name) for f in dataclasses.fields(obj)])
        assert outcomes[0] == outcomes[1]
    assert [m[1:] for m in made if m[0] == "Mine"] == [m[1:] for m in made if m[0] == "Twin"]
    assert Mine(1).c is not Mine(1).c  # a new list each time
    assert Mine(1, b=7) == Mine(1, 7) != Mine(1, 8)
