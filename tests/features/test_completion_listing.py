"""Frame completion keeps a scope's items per analysis (features.completion._listing) and filters
them per request: at every frame reference of many documents it offers exactly what the former
walk over the scope's frames offered, in the same order, however many completions ran before on
the same analysis (so no rule the kept list depends on is missing from its key)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from sdformat_lsp.features import complete
from sdformat_lsp.features import completion as C
from sdformat_lsp.model import version_tuple
from sdformat_lsp.queries.scope_frames import scope_frames
from sdformat_lsp.semantics import analyze

ROOT = Path(__file__).resolve().parents[2]


def _walk(analysis, offset: int, details: bool) -> list:
    """The former per-request walk (every rule applied to every frame of the scope)."""
    ctx = C._context(analysis, offset)
    if ctx is None or analysis.graphs is None:
        return []
    rules = C._rules(analysis, ctx)
    if rules is None or rules.scope is None:
        return []
    scope = rules.scope
    paths = version_tuple(analysis.version) >= (1, 8)
    out, seen = [], set()
    for name, node in scope_frames(analysis.graphs, scope):
        nested = "::" in name
        if (nested and not paths) or C._INTERNAL.search(name):
            continue
        if node.kind == "world":
            if not rules.world or nested:
                continue
        elif node.kind not in rules.kinds:
            continue
        is_model_frame = name == C.MODEL_FRAME or name.endswith("::" + C.MODEL_FRAME)
        if is_model_frame and not rules.model_frame:
            continue
        if id(node) in rules.excluded:
            continue
        seen.add(name)
        out.append(C._item(analysis, scope, name, node, details))
    if rules.world and C.WORLD not in seen and scope.kind == "model":
        out.append(C._item(analysis, scope, C.WORLD, C.WORLD_SENTINEL, details))
    return out


def _document(seed: int) -> str:
    """Random frames, joints and nested models referring to each other (cycles too), every reference role,
    sometimes a frame named 'world', in versions with and without nested paths."""
    rng = random.Random(seed)
    version = rng.choice(["1.7", "1.9", "1.10"])
    links = [f"L{i}" for i in range(rng.randint(1, 4))]
    frames = [f"F{i}" for i in range(rng.randint(2, 25))]
    if rng.random() < 0.3:
        frames.append("world")
    joints = [f"J{i}" for i in range(rng.randint(0, 4))]
    every = links + frames + joints + ["__model__", "inner", "inner::f", "inner::__model__", "world"]
    body = "".join(f'<link name="{n}"><pose relative_to="{rng.choice(every)}"/></link>' for n in links)
    for f in frames:
        body += f'<frame name="{f}" attached_to="{rng.choice(every)}"><pose relative_to="{rng.choice(every)}"/></frame>'
    for j in joints:
        mimic = f'<mimic joint="{rng.choice(joints)}"/>' if rng.random() < 0.5 else ""
        body += (
            f'<joint name="{j}" type="revolute"><parent>{rng.choice(every)}</parent><child>{rng.choice(every)}</child>'
            f'<axis><xyz expressed_in="{rng.choice(every)}">0 0 1</xyz>{mimic}</axis></joint>'
        )
    body += '<model name="inner"><link name="l"/><frame name="f" attached_to="l"/></model>'
    attrs = f'canonical_link="{rng.choice(links)}" placement_frame="{rng.choice(every)}"' if rng.random() < 0.5 else ""
    model = f'<model name="m" {attrs}>{body}</model>'
    if rng.random() < 0.4:
        model = f'<world name="w"><frame name="wf" attached_to="m"/>{model}<model name="other"><link name="o"/><pose relative_to="m::{rng.choice(links)}"/></model></world>'
    return f'<sdf version="{version}">{model}</sdf>'


_VALUE = re.compile(
    r'(?:relative_to|attached_to|canonical_link|placement_frame|expressed_in|joint)="([^"]*)"|<(?:parent|child)>([^<]*)<'
)


def _cursors(text: str) -> list[int]:
    """Inside every frame reference: at its start, after its first character and at its end."""
    out = []
    for m in _VALUE.finditer(text):
        g = 1 if m.group(1) is not None else 2
        s, e = m.span(g)
        out += sorted({s, min(s + 1, e), e})
    return out


def _documents() -> list[str]:
    docs = [_document(seed) for seed in range(48)]  # three placed a model by a joint that is its own child
    docs += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.sdf"))]
    return docs


def test_kept_listing_offers_what_the_walk_offered():
    checked = 0
    for text in _documents():
        warm = analyze(text)
        cursors = _cursors(text)
        random.Random(len(text)).shuffle(cursors)  # the kept lists are made in another order each time
        for details in (True, False):
            for offset in cursors:
                expected = _walk(warm, offset, details)
                got = complete(warm, offset, details=details).items
                assert got == expected, (text, offset, details)
                checked += 1
    assert checked > 2000


def test_a_fresh_analysis_offers_what_a_used_one_offers():
    for text in _documents()[:12]:
        warm = analyze(text)
        cursors = _cursors(text)
        for offset in cursors:
            complete(warm, offset, details=False)
        for offset in cursors:
            assert complete(warm, offset, details=False).items == complete(analyze(text), offset, details=False).items


def test_a_large_listing_a_request_made_is_made_again_by_prepare_on_the_next_analysis():
    """features.prepare makes, on a document's next analysis, the listings of a thousand items or more
    that completions made on its earlier ones (the first completion after an edit then filters a list);
    the same list a fresh analysis gives; an analysis no longer wanted (``stopped``) gets none."""
    from sdformat_lsp import features

    models = "".join(
        f'<model name="m{i}"><link name="a"/><link name="b"/><frame name="f" attached_to="a"/></model>'
        for i in range(300)
    )
    row = '<frame name="row"><pose relative_to="">0 0 0 0 0 0</pose></frame>'
    text = f'<sdf version="1.10"><world name="w">{row}{models}</world></sdf>'
    at = text.index('relative_to="') + len('relative_to="')  # in the world's scope: 1,500 frames
    path = "/tmp/large-listing.sdf"

    def listings(analysis) -> dict:
        return analysis.graphs.memo.get(C._LISTINGS, {})

    first = analyze(text, path)
    assert len(complete(first, at, details=False).items) >= 1000
    later, stopped = analyze(text, path), analyze(text, path)
    features.prepare(later)
    features.prepare(stopped, lambda: True)
    assert len(listings(later)) == 1 and not listings(stopped)
    made = complete(later, at, details=False)
    assert [repr(i) for i in made.items] == [repr(i) for i in complete(analyze(text, path), at, details=False).items]
