"""What differs between the Python versions we support (3.10 to 3.13) behaves the same on each."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from sdformat_lsp.xml import scanner

from .random_docs import random_model

ROOT = Path(__file__).resolve().parents[2]


def _corpus() -> list[str]:
    """Real documents of the checkout (and ../shared when present), random models, and broken pieces of them."""
    texts = []
    for pattern in (
        "examples/*",
        "tests/**/fixtures/**/*.sdf",
        "tests/**/fixtures/**/*.urdf",
        "../shared/conformance/**/*.sdf",
    ):
        for path in sorted(ROOT.glob(pattern))[:400]:
            if path.is_file():
                texts.append(path.read_text(encoding="utf-8", errors="replace"))
    texts += [random_model(seed) for seed in range(20)]
    rng = random.Random(12)
    noise = ['"', "'", "<", ">", "/", "=", " ", "\t", "\n", "a", "</", "/>", "<!--", "é"]
    broken = []
    for text in texts[:60]:
        for _ in range(5):
            at = rng.randrange(len(text) + 1)
            cut = (
                text[:at]
                + "".join(rng.choice(noise) for _ in range(rng.randrange(1, 4)))
                + text[at + rng.randrange(0, 8) :]
            )
            broken.append(cut)
    return texts + broken


@pytest.mark.skipif(sys.version_info < (3, 11), reason="possessive quantifiers need Python 3.11 to compare with")
def test_greedy_scanner_patterns_match_what_the_possessive_ones_match():
    """On 3.10 the scanner's token patterns lose their possessive quantifiers: every match must stay the same."""
    pairs = [
        (re.compile(scanner._TOKEN_PATTERN), re.compile(scanner.greedy(scanner._TOKEN_PATTERN))),
        (re.compile(scanner._TOKEN_ATTR_PATTERN), re.compile(scanner.greedy(scanner._TOKEN_ATTR_PATTERN))),
    ]
    assert "*+" not in scanner.greedy(scanner._TOKEN_PATTERN) and "++" not in scanner.greedy(scanner._TOKEN_PATTERN)
    compared = 0
    for text in _corpus():
        starts = [m.start() for m in re.finditer("<", text)][:300]
        for possessive, greedy in pairs:
            for at in starts:
                a, b = possessive.match(text, at), greedy.match(text, at)
                assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), text[at : at + 80]
                compared += 1
            assert possessive.findall(text) == greedy.findall(text)
    assert compared > 10_000


def test_scanner_uses_the_patterns_this_python_compiles():
    expected = scanner._TOKEN_PATTERN if sys.version_info >= (3, 11) else scanner.greedy(scanner._TOKEN_PATTERN)
    assert scanner._TOKEN.pattern == expected
