"""The docs never send users to an index that does not have the package (issue 12)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# `pip install sdformat-lsp` (or pipx/uv with the bare name) installs from an index: not published yet.
FROM_INDEX = re.compile(
    r"\b(?:pip|pipx|pip3)\s+install\s+(?:-U\s+|--upgrade\s+|--user\s+)*sdformat[-_]lsp\b|\buv\s+(?:tool\s+install|pip\s+install)\s+sdformat[-_]lsp\b"
)


def user_docs() -> list[Path]:
    paths = [
        ROOT / "README.md",
        *ROOT.glob("docs/**/*.md"),
        *ROOT.glob("editors/**/*"),
        *ROOT.glob("vscode-extension/*.md"),
    ]
    return [p for p in paths if p.is_file()]


def test_no_doc_says_to_install_from_an_index():
    docs = user_docs()
    assert len(docs) > 8
    found = [
        f"{p.relative_to(ROOT)}: {m.group(0)}" for p in docs for m in FROM_INDEX.finditer(p.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_pattern_catches_what_it_is_for():
    assert FROM_INDEX.search("pip install sdformat-lsp   # from PyPI")
    assert FROM_INDEX.search("uv tool install sdformat-lsp")
    assert not FROM_INDEX.search("pip install /path/to/sdformat-lsp")
    assert not FROM_INDEX.search("pipx install .")
