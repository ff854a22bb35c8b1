"""The nearest name a diagnostic suggests is difflib's, found without a ratio per candidate."""

from __future__ import annotations

import difflib
import random

from sdformat_lsp.semantics.checks.base import nearest_name


def _difflib(text: str, candidates: list[str]) -> str | None:
    best = difflib.get_close_matches(text, [c for c in candidates if c and c != text], n=1, cutoff=0.6)
    return best[0] if best else None


def test_the_nearest_name_is_difflibs_on_random_pools():
    rng = random.Random(7)
    alphabet = "abm01:_x"
    for _ in range(400):
        pool = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9))) for _ in range(rng.randint(0, 40))]
        text = rng.choice(pool) if pool and rng.random() < 0.3 else "".join(rng.choice(alphabet) for _ in range(6))
        assert nearest_name(text, pool) == _difflib(text, pool), (text, pool)


def test_the_nearest_name_in_a_world_of_models_and_ties():
    names = ["world"] + [n for m in range(300) for n in (f"m{m}", f"m{m}::link0", f"m{m}::link1", f"m{m}::marker")]
    for text in ("m150::marker", "m150_x::marker", "m15", "wf150", "link", "m1::link2", "zzzz"):
        assert nearest_name(text, names) == _difflib(text, names)
    # equal ratios: the greater name, as get_close_matches orders them
    assert nearest_name("abc", ["abd", "abe", "aba"]) == _difflib("abc", ["abd", "abe", "aba"]) == "abe"
