"""The layering the developers' guide asks for, checked on the source itself.

Features are read and changed one at a time: a feature module importing
another makes a change to one break the other (and hover and completion did
import each other in cycles). What several features share lives in
``sdformat_lsp.queries``, which imports no feature.
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "server" / "sdformat_lsp"


def _imported(path: Path, package: str) -> set[str]:
    """Absolute names of the sdformat_lsp modules ``path`` imports (anywhere in it, lazily too)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("sdformat_lsp")}


def test_no_feature_module_imports_another():
    features = sorted(p for p in (PKG / "features").glob("*.py") if p.name != "__init__.py")
    names = {f"sdformat_lsp.features.{p.stem}" for p in features}
    assert len(names) > 5
    for p in features:
        others = {m for m in _imported(p, "sdformat_lsp.features") if any(m == n or m.startswith(n + ".") for n in names)}
        assert not others, f"{p.name} imports {sorted(others)}; move what they share to sdformat_lsp.queries"


def test_queries_import_no_feature_and_no_shell():
    for p in sorted((PKG / "queries").glob("*.py")):
        bad = {m for m in _imported(p, "sdformat_lsp.queries") if m.startswith(("sdformat_lsp.features", "sdformat_lsp.server", "sdformat_lsp.cli"))}
        assert not bad, f"queries/{p.name} imports {sorted(bad)}"


def test_no_class_of_the_server_shell_is_too_long_to_read_at_once():
    """The guide's limit (~300 lines) for the LSP shell, whose session class grew past it once: the
    files analyses read besides the document went to server/sources.py."""
    long = []
    for path in sorted((PKG / "server").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > 300:
                long.append(f"{path.name}:{node.name} ({node.end_lineno - node.lineno + 1} lines)")
    assert not long, long
