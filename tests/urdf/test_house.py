"""The URDF package stays in its layer: no upward import, no class too long to read at once."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "server" / "sdformat_lsp"
ABOVE_FORMATS = ("semantics", "features", "server", "cli", "convert")


def _imports(path: Path) -> list[str]:
    """Absolute names (inside sdformat_lsp) of what a module imports."""
    rel = path.relative_to(PKG).with_suffix("").parts
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = list(rel[: len(rel) - node.level])
            out.append(".".join(base + ([node.module] if node.module else [])))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sdformat_lsp."):
            out.append(node.module[len("sdformat_lsp.") :])
    return out


def test_formats_import_nothing_above_the_model():
    files = sorted((PKG / "formats").rglob("*.py"))
    assert files
    assert "formats.urdf" in _imports(PKG / "semantics" / "analysis.py")  # the import reader sees relative imports
    bad = [(f.name, m) for f in files for m in _imports(f) if m.split(".")[0] in ABOVE_FORMATS]
    assert not bad, bad


def test_model_layer_imports_nothing_above_it():
    bad = [
        (f.name, m)
        for f in sorted((PKG / "model").rglob("*.py"))
        for m in _imports(f)
        if m.split(".")[0] in ABOVE_FORMATS + ("formats",)
    ]
    assert not bad, bad


def test_no_class_over_300_lines_in_the_urdf_packages():
    long = []
    for root in ("formats", "convert"):
        for f in sorted((PKG / root).rglob("*.py")):
            for node in ast.walk(ast.parse(f.read_text())):
                if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > 300:
                    long.append((f.name, node.name, node.end_lineno - node.lineno + 1))
    assert not long, long
