"""Formatting SDFormat documents: re-indentation that never changes what a document means.

Below the shells (no protocol types): the server's textDocument/formatting and
rangeFormatting and the ``format`` subcommand use the same edits.
"""

from .engine import FormatOptions, FormatRefused, TextEdit, apply_edits, format_edits, format_text
from .indentation import Indentation, choose_options, from_config, from_text

__all__ = [
    "FormatOptions",
    "FormatRefused",
    "Indentation",
    "TextEdit",
    "apply_edits",
    "choose_options",
    "format_edits",
    "format_text",
    "from_config",
    "from_text",
]
