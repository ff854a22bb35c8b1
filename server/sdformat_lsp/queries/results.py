"""The plain results features return, shared so that no feature imports another.

Features take offsets (code points into the document string) and return
these frozen dataclasses; only the protocol layer turns them into LSP
objects. Hover text is written through :class:`Writer` so that the frame,
include and schema hovers read alike in markdown and in plain text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..records import record
from ..text import Span


@dataclass(frozen=True, slots=True)
class Location:
    """A span in this document (``path`` None) or in another file (an included model)."""

    path: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace ``span`` of this document (or of the file ``path``: a rename across xacro includes) by ``new_text``."""

    span: Span
    new_text: str
    path: str | None = None


@dataclass(frozen=True, slots=True)
class Symbol:
    """A document symbol (features.symbols for SDFormat, features.xacro_features for xacro definitions)."""

    name: str
    kind: str  # world, model, link, joint, frame, include; macro, property, arg (xacro)
    detail: str
    span: Span  # the whole element
    selection_span: Span  # the name value (the tag when there is no name)
    children: tuple["Symbol", ...] = ()


@dataclass(frozen=True, slots=True)
class HoverResult:
    text: str
    span: Span


class Writer:
    """Paragraphs of markdown or plain text from the same calls."""

    def __init__(self, markdown: bool) -> None:
        self.markdown = markdown
        self.blocks: list[str] = []

    def code(self, s: str) -> str:
        if not self.markdown:
            return s
        fence = "``" if "`" in s else "`"
        pad = " " if "`" in s else ""
        return f"{fence}{pad}{s}{pad}{fence}"

    def bold(self, s: str) -> str:
        return f"**{s}**" if self.markdown else s

    def para(self, s: str) -> None:
        self.blocks.append(s)

    def items(self, title: str, rows: list[str]) -> None:
        bullet = "- " if self.markdown else "  "
        self.blocks.append("\n".join([title, *(bullet + r for r in rows)]))

    def text(self) -> str:
        return "\n\n".join(self.blocks)


@record(slots=True)  # a world's frame listing makes 11,000 of them: 2 µs each as a frozen dataclass
class CompletionItem:
    label: str
    kind: str  # link, joint, frame, model, world; element, attribute, value (schema items)
    detail: str
    sort_text: str
    insert_text: str | None = None  # what to insert instead of the label
    snippet: bool = False  # insert_text is in snippet syntax ($1, ${2|a,b|})
    documentation: str | None = None  # plain text
    filter_text: str | None = None
    deprecated: bool = False


@dataclass(frozen=True, slots=True)
class CompletionList:
    items: list[CompletionItem] = field(default_factory=list)
    replace_span: Span = Span(0, 0)  # the reference text around the cursor that an item replaces
