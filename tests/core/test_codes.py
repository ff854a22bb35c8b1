"""The catalogue of diagnostic codes: complete for what the source emits, and docs/diagnostics.md in step."""

from __future__ import annotations

import re
from pathlib import Path

from sdformat_lsp.codes import CODES

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "server" / "sdformat_lsp"

# a code literal handed to a diagnostic constructor, or a module constant naming a code
_CALL = re.compile(
    r"\b(?:error|warning|info|hint|Diagnostic|ModelFileProblem)\(\s*(?:\"(?:error|warning)\",\s*)?\"([A-Z][A-Z0-9_]+)\""
)
_CONST = re.compile(r"^[A-Z_]+ = \"([A-Z][A-Z0-9_]+)\"\s*(?:#.*)?$", re.M)
_NOT_CODES = {"HOME"}


def emitted() -> set[str]:
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(_CALL.findall(text))
        for c in _CONST.findall(text):
            if "_" in c and not c.endswith(("_PATH", "_DIR")):
                found.add(c)
    return found - _NOT_CODES


def test_every_code_the_source_emits_is_catalogued():
    codes = emitted()
    assert {"FRAME_ATTACHED_TO_CYCLE", "XML_ERROR", "UNUSED_SUPPRESSION", "URDF_XACRO"} <= codes  # the scan works
    assert sorted(codes - set(CODES)) == []


def test_docs_list_every_code_in_catalogue_order():
    text = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert re.findall(r"^### ([A-Z0-9_]+)$", text, re.M) == list(CODES)
    for code, c in CODES.items():
        assert c.short in text and c.full in text, code
