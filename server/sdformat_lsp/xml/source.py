"""Bytes on disk to text, reporting instead of failing on bad encodings."""

from __future__ import annotations

from ..diagnostics import Diagnostic, Severity
from ..text import Span


def decode_source(data: bytes) -> tuple[str, list[Diagnostic]]:
    """Decode UTF-8 (a BOM is dropped); invalid bytes become U+FFFD and one error."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", "replace")
        at = len(data[: exc.start].decode("utf-8", "replace"))
        diag = Diagnostic(
            "FILE_READ",
            Severity.ERROR,
            f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x} at byte offset {exc.start}); save it as UTF-8",
            Span(at, at + 1),
        )
        return text, [diag]
