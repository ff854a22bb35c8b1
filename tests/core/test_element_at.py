"""XmlDocument.element_at finds a child by bisection among many: the same element as a walk in order."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from sdformat_lsp.xml import parse

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import generate  # noqa: E402


def _walk(doc, offset):
    for el in doc.half_typed:
        if el.span.start <= offset <= el.span.end:
            return el
    node = doc.root
    if node is None or not node.span.contains(offset):
        return None
    while True:
        for c in node.children:
            if c.span.start <= offset <= c.span.end:
                node = c
                break
        else:
            return node


def test_element_at_equals_a_walk_in_order():
    rng = random.Random(5)
    world = generate.large_world(60)
    texts = [world, world.replace("</model>", "", 7), world[: len(world) // 2], "<sdf>" + "<a/>" * 40 + "</sdf>"]
    texts.append("<sdf><world name='w'>" + "".join(f"<frame name='f{i}'/>\n" for i in range(30)) + "<model")
    for text in texts:
        doc = parse(text)
        offsets = [rng.randrange(len(text) + 1) for _ in range(400)]
        offsets += [i for i, ch in enumerate(text) if ch in "<>"][:400]  # on the edges of adjacent elements
        for offset in offsets:
            assert doc.element_at(offset) is _walk(doc, offset), (offset, text[offset - 20 : offset + 20])
