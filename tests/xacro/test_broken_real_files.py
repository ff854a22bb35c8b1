"""Every editor feature on broken real xacro files (issue 22: every feature works on the broken document).

A few real robot descriptions of the xacro corpus (husky, a UR arm's macro
library, franka's fr3, a turtlebot) are broken the ways typing breaks them:
cut short at several points, an end tag deleted, a quote deleted, ``<xacro:``
being typed, a ``${`` left open. On each, hover, definition, references,
completion, document symbols and the frame view run at the names written in
the file: no exception, every answer inside the text it points into, and
answers where the document before the mistake has them (its definitions as
symbols, the robot's links under hover, xacro's elements after ``<xacro:``).
Without the corpus, the same runs on the repository's own fixture.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from sdformat_lsp import features as F
from sdformat_lsp.features.frame_view import frame_view, why_no_frames
from sdformat_lsp.semantics import Options, analyze

CORPUS = Path("/work/corpus-xacro/src")
FIXTURES = Path(__file__).resolve().parent / "fixtures"
REAL = [
    "husky+husky/husky_description/urdf/husky.urdf.xacro",
    "ros-industrial+universal_robot/ur_description/urdf/inc/ur_macro.xacro",
    "frankaemika+franka_ros/franka_description/robots/fr3/fr3.urdf.xacro",
    "husky+husky/husky_description/urdf/wheel.urdf.xacro",
]


def documents() -> list[tuple[Path, Path]]:
    """(file, root its packages are found under)."""
    if CORPUS.is_dir() and all((CORPUS / f).is_file() for f in REAL):
        return [(CORPUS / f, CORPUS) for f in REAL]
    return [(FIXTURES / "features.xacro", FIXTURES)]


def broken(text: str):
    """The document broken as typing breaks it: (what, text, offset where the mistake starts)."""
    n = len(text)
    for share in (0.3, 0.6, 0.9):
        yield f"cut at {share:.0%}", text[: int(n * share)], int(n * share)
    ends = [m.start() for m in re.finditer(r"</", text)]
    if ends:
        e = ends[len(ends) // 2]
        yield "an end tag deleted", text[:e] + text[text.index(">", e) + 1 :], e
    values = [m.end() for m in re.finditer(r'="', text)]
    if values:
        v = values[len(values) // 2]
        yield "a quote deleted", text[: v - 1] + text[v:], v - 1
    line = text.find("\n", n // 2)
    yield "<xacro: being typed", text[:line] + "\n  <xacro:" + text[line:], line + 10
    uses = [m.start() for m in re.finditer(r"\$\{", text)]
    if uses:
        u = uses[len(uses) // 2]
        close = text.index("}", u)
        yield "a ${ left open", text[:close] + text[close + 1 :], u


NAMES = (r"<xacro:([\w.]+)", r'\bname="([^"$]+)"', r'\blink="([^"$]+)"', r"\$\{(\w+)", r"\$\(arg (\w+)")


def positions(text: str) -> list[int]:
    out = {0, len(text)}
    for pattern in NAMES:
        out.update(m.start(1) + 1 for m in list(re.finditer(pattern, text))[:6])
    return sorted(out)


def inside(span, size: int) -> bool:
    return 0 <= span.start <= span.end <= size


def file_size(path: str | None, text: str) -> int:
    return len(text) if path is None else len(Path(path).read_text(encoding="utf-8", errors="replace"))


def check_answers(analysis, text: str) -> dict[str, int]:
    """Run every feature at the names of ``text``; assert each answer is well placed. Counts answers."""
    counts = {"hover": 0, "definition": 0, "references": 0, "completion": 0}
    n = len(text)
    for d in analysis.diagnostics:
        assert inside(d.span, file_size(d.path, text)), d
    for at in positions(text):
        h = F.hover(analysis, at)
        if h is not None:
            assert h.text.strip() and inside(h.span, n), (at, h)
            counts["hover"] += 1
        for kind, found in (("definition", F.definition(analysis, at)), ("references", F.references(analysis, at))):
            for loc in found:
                assert loc.path is None or os.path.isfile(loc.path), loc
                assert inside(loc.span, file_size(loc.path, text)), (kind, at, loc)
            counts[kind] += bool(found)
        c = F.complete(analysis, at)
        assert inside(c.replace_span, n) and all(i.label for i in c.items), at
        counts["completion"] += bool(c.items)
    for s in F.document_symbols(analysis):
        assert inside(s.span, n) and inside(s.selection_span, n), s
    view = frame_view(analysis)
    if view is None:
        assert why_no_frames(analysis)
    return counts


@pytest.mark.parametrize("index", range(len(REAL)))
def test_every_feature_on_a_broken_real_xacro_file(index):
    docs = documents()
    if index >= len(docs):
        pytest.skip("the xacro corpus (/work/corpus-xacro) is not laid out: its fixture ran as the first")
    path, root = docs[index]
    options = Options(package_paths=(str(root),))
    whole = path.read_text(encoding="utf-8")
    intact = analyze(whole, str(path), options)
    check_answers(intact, whole)
    defined = len(F.document_symbols(intact))
    for what, text, mistake in broken(whole):
        analysis = analyze(text, str(path), options)
        counts = check_answers(analysis, text)
        before = whole[:mistake]
        if what.startswith("<xacro:"):
            offered = {i.label for i in F.complete(analysis, mistake).items}
            assert {"macro", "property", "include"} <= offered, (what, offered)
        if defined and re.search(r"<xacro:(?:macro|property|arg)\b", before):
            # what the document defines before the mistake is still listed
            assert F.document_symbols(analysis), (path.name, what)
        if re.search(r'<link\s+name="[^"$]+"', before) and "xacro:macro" not in before[: before.find("<link")]:
            assert counts["hover"], (path.name, what)
