"""Analysis.node_defined_at by bisection answers as the walk over every node did."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from sdformat_lsp.semantics import analyze

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import generate  # noqa: E402


def _walk(analysis, offset):
    for n in analysis.graphs.nodes:
        sp = n.name_span
        if sp is None or (n.scope is None and n.kind != "model"):
            continue
        s = n.inner if n.inner is not None else n.scope
        if sp.start <= offset <= sp.end and (s is None or s.path is None):
            return n
    return None


def test_node_defined_at_equals_the_walk():
    rng = random.Random(9)
    texts = [generate.large_world(40), generate.large_model(600)]
    texts += [(ROOT / "examples" / n).read_text(encoding="utf-8") for n in ("world.sdf", "arm.sdf", "broken_arm.sdf")]
    texts.append(texts[0].replace('name="m3"', 'name="m2"'))  # a name taken twice
    for text in texts:
        a = analyze(text, "/tmp/w.sdf")
        offsets = [rng.randrange(len(text) + 1) for _ in range(300)]
        offsets += [m for i, ch in enumerate(text) if ch == '"' for m in (i, i + 1)][:1500]
        for offset in offsets:
            assert a.node_defined_at(offset) is _walk(a, offset), (offset, text[offset - 20 : offset + 20])
