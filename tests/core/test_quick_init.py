"""The document model's classes keep the constructor a frozen dataclass has (records.py makes it)."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import pytest

from sdformat_lsp.model import elements
from sdformat_lsp.records import record

CLASSES = [
    elements.Ref,
    elements.PoseSpec,
    elements.Named,
    elements.Link,
    elements.Frame,
    elements.Joint,
    elements.Include,
    elements.Model,
    elements.World,
    elements.Document,
]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_the_constructor_is_the_dataclass_one(cls) -> None:
    fields = dataclasses.fields(cls)
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields
    ]
    values = [object() for _ in fields]
    for made in (cls(*values), cls(**{f.name: v for f, v in zip(fields, values)})):
        assert [getattr(made, f.name) for f in fields] == values
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, fields[0].name, None)
    made = cls(*values)
    assert made == cls(*values) and made != cls(object(), *values[1:])
    other = dataclasses.replace(made, **{fields[-1].name: 1})
    assert getattr(other, fields[-1].name) == 1 and [getattr(other, f.name) for f in fields[:-1]] == values[:-1]
    with pytest.raises(TypeError):
        cls()


def test_classes_with_fields_it_cannot_fill_are_refused() -> None:
    class Keyed:
        """A keyword-only field."""

        items: list = dataclasses.field(default=None, kw_only=True)

    class Classy:
        """A class variable among the fields."""

        kind: typing.ClassVar[str] = "x"
        items: list = None

    for cls in (Keyed, Classy):
        with pytest.raises(TypeError):
            record(slots=True)(cls)
