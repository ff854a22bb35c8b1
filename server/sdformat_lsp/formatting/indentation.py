"""Which indentation applies, when the command line, the configuration file and the editor each may say.

Each source is a layer of two independent keys, the width (spaces per level) and the style
("space" or "tab"), either of which may be unset. The first layer that sets a key decides
it; a key no layer sets has its default (two spaces). The shells choose the order:

- ``format``: its flags, then the configuration file, then the file's own indentation when it
  is written consistently with one unit (``from_text``): a file indented with four spaces stays
  so when nothing configures the indentation, as editors keep a file's own;
- the server: the configuration file, then the request's FormattingOptions (the editor's tab
  size and spaces-or-tabs). A project that writes down its indentation gets it from every
  editor, whatever each user's editor is set to, as with Prettier, clang-format or Ruff.
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine import FormatOptions, written_unit

DEFAULT_WIDTH = 2


@dataclass(frozen=True)
class Indentation:
    """One source's say: None where it says nothing."""

    width: int | None = None
    style: str | None = None  # "space" | "tab"


def choose_options(*layers: Indentation) -> FormatOptions:
    """The options the first layer setting each key gives (see the module's docstring)."""
    width = next((layer.width for layer in layers if layer.width is not None), DEFAULT_WIDTH)
    style = next((layer.style for layer in layers if layer.style is not None), "space")
    return FormatOptions(indent_size=width, use_tabs=style == "tab")


def from_config(config) -> Indentation:
    """The ``[format]`` table of a :class:`sdformat_lsp.config.ProjectConfig`."""
    return Indentation(config.indent_width, config.indent_style)


def from_text(text: str) -> Indentation:
    """The unit the document is written with (``engine.written_unit``), or nothing."""
    unit = written_unit(text)
    if unit is None:
        return Indentation()
    if unit == "\t":
        return Indentation(style="tab")
    return Indentation(width=len(unit), style="space")


__all__ = ["DEFAULT_WIDTH", "Indentation", "choose_options", "from_config", "from_text"]
