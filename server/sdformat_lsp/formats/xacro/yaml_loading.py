"""``xacro.load_yaml``: a YAML file as values an expression can read (``d.key`` or ``d['key']``).

PyYAML is imported when a document first loads YAML, so that the processor
works without it for every document that does not. Like ROS's xacro, a file
named relatively is found from the directory of the file being processed, and
the tags ``!radians``, ``!degrees``, ``!meters``, ``!millimeters``, ``!foot``
and ``!inches`` give numbers in radians and metres (their text an expression).
"""

from __future__ import annotations

import math

from typing import Any

from .errors import XacroError
from .expressions import ExpressionError, Interpreter

_UNITS = {
    "!radians": 1.0,
    "!degrees": math.pi / 180.0,
    "!meters": 1.0,
    "!millimeters": 0.001,
    "!foot": 0.3048,
    "!inches": 0.0254,
}


class YamlDict(dict):
    """A YAML mapping whose keys read as attributes too (``dotted``, used by the interpreter)."""

    def dotted(self, key: str) -> Any:
        return wrap(dict.__getitem__(self, key))

    def __getitem__(self, key: Any) -> Any:
        return wrap(dict.__getitem__(self, key))


class YamlList(list):
    def __getitem__(self, index: Any) -> Any:  # type: ignore[override]
        return wrap(list.__getitem__(self, index))

    def __iter__(self):  # type: ignore[no-untyped-def]
        for item in list.__iter__(self):
            yield wrap(item)


def wrap(value: Any) -> Any:
    if isinstance(value, dict) and not isinstance(value, YamlDict):
        return YamlDict(value)
    if isinstance(value, list) and not isinstance(value, YamlList):
        return YamlList(value)
    return value


class YamlLoader:
    def __init__(self, expander: Any) -> None:
        self.expander = expander
        self._loader: Any = None

    def loader(self) -> Any:
        if self._loader is None:
            try:
                import yaml
            except ImportError:
                raise XacroError("load_yaml needs PyYAML (pip install pyyaml)") from None
            names, allowed = self.expander.names, self.expander.allowed

            class Loader(yaml.SafeLoader):
                pass

            def unit(factor: float):  # type: ignore[no-untyped-def]
                def construct(loader: Any, node: Any) -> float:
                    text = loader.construct_scalar(node)
                    try:
                        return float(Interpreter(names.get_name, allowed).evaluate(str(text))) * factor
                    except (ExpressionError, TypeError, ValueError):
                        raise XacroError(f"invalid expression in YAML: {text}") from None

                return construct

            for tag, factor in _UNITS.items():
                Loader.add_constructor(tag, unit(factor))
            self._loader = (yaml, Loader)
        return self._loader

    def load(self, filename: str) -> Any:
        yaml, loader = self.loader()
        path = self.expander.abs_filename(str(filename))
        try:
            text = self.expander.read_file(path)
        except (OSError, ValueError) as exc:  # ValueError: not text (a decoding error)
            raise XacroError(f"cannot load YAML '{path}': {getattr(exc, 'strerror', None) or exc}") from None
        self.expander.note_file(path)
        try:
            return wrap(yaml.load(text, Loader=loader))
        except yaml.YAMLError as exc:
            raise XacroError(f"the YAML file '{path}' cannot be read: {exc}") from None

    def dotify(self, value: Any = None) -> Any:
        return YamlDict(value or {})
