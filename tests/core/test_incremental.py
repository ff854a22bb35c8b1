"""The incremental check (semantics/incremental.py) says exactly what a full analysis says.

Long random sequences of the edits users make (a pose value typed, a name
changed, an element added, deleted or commented out, a character typed or
removed anywhere) on generated worlds and models and on the examples; after
every edit the incremental result, chained from the previous incremental
result, must equal a full analysis of the new text as a multiset of
diagnostics (spans, related places, fixes and data included). A test that
the fast path is actually taken keeps it from passing by always refusing.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.semantics import incremental
from sdformat_lsp.semantics.incremental import base_of, changed_region, reanalyze
from sdformat_lsp.text import Span

ROOT = Path(__file__).resolve().parents[2]


def _key(d) -> tuple:
    return (d.code, d.severity, d.message, d.span, d.related, d.fixes, d.path, repr(sorted(d.data.items())))


def _pose(rng: random.Random, ref: str | None) -> str:
    attr = f' relative_to="{ref}"' if ref else ""
    return f"<pose{attr}>{' '.join(f'{rng.uniform(-2, 2):.3f}' for _ in range(6))}</pose>"


def _model(rng: random.Random, name: str, lines: list[str], depth: int = 0, pose_ref: str | None = None) -> list[str]:
    """A model with links, joints, frames and sometimes a nested model; returns names others may reference."""
    lines.append(f'<model name="{name}">')
    lines.append("  " + _pose(rng, pose_ref))
    if rng.random() < 0.1:
        lines.append("  <static>true</static>")
    n = rng.randint(1, 3)
    frames = [f"L{i}" for i in range(n)]
    for i in range(n):
        ref = rng.choice(frames[:i] + ["__model__"]) if rng.random() < 0.5 else None
        mass = rng.choice(["1", "0", "-1", "2.5"])
        lines.append(
            f'  <link name="L{i}">{_pose(rng, ref)}<inertial><mass>{mass}</mass></inertial>'
            f'<visual name="v"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></visual></link>'
        )
    for i in range(1, n):
        kind = rng.choice(["revolute", "fixed", "ball", "prismatic"])
        lines.append(
            f'  <joint name="J{i}" type="{kind}"><parent>L{i - 1}</parent><child>{rng.choice(frames)}</child>'
            f"<axis><xyz>0 0 1</xyz></axis></joint>"
        )
    for i in range(rng.randint(0, 2)):
        target = rng.choice(frames + ["missing"] if rng.random() < 0.1 else frames)
        lines.append(f'  <frame name="F{i}" attached_to="{target}">{_pose(rng, rng.choice([None, target]))}</frame>')
        frames.append(f"F{i}")
    out = [f"{name}::{f}" for f in frames]
    if depth == 0 and rng.random() < 0.3:
        inner = _model(rng, "inner", lines, depth + 1, rng.choice([None, frames[0]]))
        out += [f"{name}::{f}" for f in inner]
    lines.append("</model>")
    return out


def random_world(seed: int, models: int = 12) -> str:
    rng = random.Random(seed)
    lines = ['<?xml version="1.0"?>', '<sdf version="1.10">', '<world name="w">', "<gravity>0 0 -9.8</gravity>"]
    lines.append('<physics name="fast" type="ode"><max_step_size>0.001</max_step_size></physics>')
    lines.append("<scene><ambient>0.4 0.4 0.4 1</ambient><shadows>true</shadows></scene>")
    exported: list[str] = []
    names: list[str] = []
    for m in range(models):
        ref = None
        if names and rng.random() < 0.15:
            ref = rng.choice(names + exported[-3:])
        name = f"m{m}" if rng.random() > 0.05 or not names else names[-1]  # an occasional duplicate
        exported += _model(rng, name, lines, pose_ref=ref)
        names.append(name)
        if rng.random() < 0.3:
            lines.append(f'<frame name="wf{m}" attached_to="{rng.choice(exported)}"/>')
        if rng.random() < 0.1:
            lines.append(
                f'<light name="l{m}" type="point">{_pose(rng, rng.choice(names))}<intensity>1</intensity></light>'
            )
        if rng.random() < 0.1 and len(names) > 1:
            lines.append(
                f'<joint name="wj{m}" type="fixed"><parent>{rng.choice(names)}</parent><child>{rng.choice(exported)}</child></joint>'
            )
    lines += ["</world>", "</sdf>"]
    return "\n".join(lines) + "\n"


def random_root_model(seed: int, models: int = 10) -> str:
    rng = random.Random(seed)
    lines = ['<?xml version="1.0"?>', '<sdf version="1.9">', '<model name="robot">']
    lines.append('<link name="base"/>')
    lines.append('<frame name="f0" attached_to="base"/>')
    for i in range(3):  # the root model's own links, joints and frames, with poses
        lines.append(
            f'<link name="r{i}">{_pose(rng, rng.choice([None, "base", "f0"]))}<inertial><mass>{rng.choice(["1", "0"])}</mass></inertial></link>'
        )
        lines.append(
            f'<joint name="rj{i}" type="revolute">{_pose(rng, rng.choice([None, "base"]))}<parent>base</parent><child>r{i}</child><axis><xyz>0 0 1</xyz></axis></joint>'
        )
        lines.append(f'<frame name="rf{i}" attached_to="r{i}">{_pose(rng, rng.choice([None, "f0", f"r{i}"]))}</frame>')
    exported: list[str] = []
    for m in range(models):
        exported += _model(rng, f"sub{m}", lines, depth=1, pose_ref=rng.choice([None, "f0", "base"]))
        if rng.random() < 0.2:
            lines.append(f'<frame name="tool{m}" attached_to="{rng.choice(exported)}"/>')
    lines += ["</model>", "</sdf>"]
    return "\n".join(lines) + "\n"


WORLD_VALUES = re.compile(r"<(gravity|max_step_size|ambient|shadows|intensity)>([^<]*)</")


def _edit(rng: random.Random, text: str) -> str:
    """One edit of a kind users make, at a random place."""
    kind = rng.random()
    if kind < 0.08:  # a model renamed (to a fresh name, a sibling's, nothing, or back)
        ms = list(re.finditer(r'^<model name="([^"]*)"', text, re.M))
        if ms:
            m = rng.choice(ms)
            s, e = m.span(1)
            new = rng.choice([m.group(1) + "x", m.group(1)[:-1], "m1", "wf0", "", "m2x", m.group(1) + "_b"])
            return text[:s] + new + text[e:]
    if kind < 0.16:  # a value typed into a world-level element (physics, scene, gravity, a light)
        ms = list(WORLD_VALUES.finditer(text))
        if ms:
            m = rng.choice(ms)
            s, e = m.span(2)
            new = rng.choice(["0 0 -1", "0.002", "x", "", "0.1 0.1 0.1 1", "false", "1 2"])
            return text[:s] + new + text[e:]
    kind = rng.random()
    if kind < 0.3:  # a value typed inside a <pose>
        ms = list(re.finditer(r"<pose[^>]*>([^<]*)</pose>", text))
        if ms:
            m = rng.choice(ms)
            s, e = m.span(1)
            value = rng.choice(
                [" ".join(f"{rng.uniform(-3, 3):.2f}" for _ in range(6)), "1 2 3", "x", "", "0 0 0 0 0 0 0"]
            )
            return text[:s] + value + text[e:]
    if kind < 0.5:  # a name renamed (or a reference changed)
        ms = list(re.finditer(r'(?:name|attached_to|relative_to)="([^"]*)"', text))
        if ms:
            m = rng.choice(ms)
            s, e = m.span(1)
            new = rng.choice([m.group(1) + "x", "L0", "F0", "m1", "", "inner", "__model__", m.group(1)[:-1]])
            return text[:s] + new + text[e:]
    if kind < 0.62:  # an element deleted
        ms = list(re.finditer(r"<(link|frame|joint|static|pose|visual)\b[^>]*?(/>|>.*?</\1>)", text))
        if ms:
            m = rng.choice(ms)
            return text[: m.start()] + text[m.end() :]
    if kind < 0.74:  # an element added (a copy of another, elsewhere)
        ms = list(re.finditer(r"<(link|frame|joint|static)\b[^>]*?(/>|>.*?</\1>)", text))
        if ms:
            src = rng.choice(ms).group(0)
            at = rng.choice(list(re.finditer(r"\n", text))).end()
            return text[:at] + src + "\n" + text[at:]
    if kind < 0.86:  # a line commented out (or back in)
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        if lines[i].startswith("<!--") and lines[i].endswith("-->"):
            lines[i] = lines[i][4:-3]
        elif "--" not in lines[i]:
            lines[i] = "<!--" + lines[i] + "-->"
        return "\n".join(lines)
    # a character typed or removed anywhere
    at = rng.randrange(len(text))
    if rng.random() < 0.5:
        return text[:at] + rng.choice('<>/"= a1:') + text[at:]
    return text[:at] + text[at + 1 :]


def _run(text: str, seed: int, steps: int, path: str, options: Options | None = None, edit=None) -> tuple[int, int]:
    rng = random.Random(seed)
    options = options or Options()
    edit = edit or _edit
    full = analyze(text, path, options)
    base = base_of(full, options)
    fast = 0
    previous = None
    for step in range(steps):
        if previous is not None:  # the user repairs what the last edit broke
            text, previous = previous, None
        else:
            before, text = text, edit(rng, text)
            if rng.random() < 0.8:
                previous = before
        full = analyze(text, path, options)
        if not full.xml.problems and rng.random() < 0.5:
            previous = None  # (or builds on it)
        got = reanalyze(base, text, path, options) if base is not None else None
        if got is None:
            base = base_of(full, options)
            continue
        quick, base = got
        fast += 1
        expected = Counter(map(_key, full.diagnostics))
        actual = Counter(map(_key, quick.diagnostics))
        assert actual == expected, (seed, step, expected - actual, actual - expected)
        assert quick.text == text
    return fast, steps


@pytest.mark.parametrize("seed", range(6))
def test_random_edits_of_worlds_equal_full_analysis(seed, tmp_path):
    fast, steps = _run(random_world(seed), 100 + seed, 120, str(tmp_path / "w.sdf"))
    assert fast >= 5, (
        fast,
        steps,
        incremental.refusals,
    )  # the fast path is taken (test_typical_edits_take_the_fast_path pins which)


@pytest.mark.parametrize("seed", range(4))
def test_random_edits_of_models_equal_full_analysis(seed, tmp_path):
    fast, steps = _run(random_root_model(seed), 200 + seed, 100, str(tmp_path / "m.sdf"))
    assert fast >= 3, (fast, steps, incremental.refusals)


@pytest.mark.parametrize("name", ["world.sdf", "arm.sdf", "broken_arm.sdf"])
def test_random_edits_of_examples_equal_full_analysis(name, tmp_path):
    text = (ROOT / "examples" / name).read_text(encoding="utf-8")
    _run(text, 7, 80, str(tmp_path / name))


def test_typical_edits_take_the_fast_path(tmp_path):
    """A pose value typed, a link renamed, a frame added and deleted, a line commented out: all incremental."""
    path = str(tmp_path / "w.sdf")
    options = Options()
    text = random_world(1, models=20)
    base = base_of(analyze(text, path, options), options)
    assert base is not None
    i = text.index('<model name="m5">')
    j = text.index("</model>", i)
    pose = text.index("<pose", text.index("<link", i))
    value = text.index(">", pose) + 1
    edits = [
        text[:value] + "9" + text[value + 1 :],
        text[:i] + text[i:j].replace('name="L0"', 'name="L0b"', 1) + text[j:],
        text[:j] + '<frame name="added"/>' + text[j:],
    ]
    line_start = text.rfind("\n", 0, pose) + 1
    line_end = text.index("\n", pose)
    edits.append(text[:line_start] + "<!--" + text[line_start:line_end] + "-->" + text[line_end:])
    own = text.index("\n", i) + 1  # the model's own pose, on the line after its start tag
    own_end = text.index("\n", own)
    edits.append(text[:own] + "<!--" + text[own:own_end] + "-->" + text[own_end:])
    edits.append(text[: i + len('<model name="m5')] + "_renamed" + text[i + len('<model name="m5') :])
    step = text.index("<max_step_size>") + len("<max_step_size>")
    edits.append(text[:step] + "0.002" + text[step + len("0.001") :])
    for new in edits:
        got = reanalyze(base, new, path, options)
        assert got is not None
        expected = Counter(map(_key, analyze(new, path, options).diagnostics))
        assert Counter(map(_key, got[0].diagnostics)) == expected


def test_a_pose_value_of_the_root_model_takes_the_fast_path(tmp_path):
    path = str(tmp_path / "m.sdf")
    options = Options()
    text = random_root_model(2)
    base = base_of(analyze(text, path, options), options)
    assert base is not None
    for value in ("1 2 3 0 0 0", "1 2", "x y z 0 0 0", "0 0 0 0 0 0"):
        m = re.search(r'<link name="r1"><pose[^>]*>([^<]*)</pose>', text)
        new = text[: m.start(1)] + value + text[m.end(1) :]
        got = reanalyze(base, new, path, options)
        assert got is not None
        assert Counter(map(_key, got[0].diagnostics)) == Counter(map(_key, analyze(new, path, options).diagnostics))
        text, base = new, got[1]


def test_changed_region():
    rng = random.Random(3)
    for _ in range(300):
        old = "".join(rng.choice("ab\n") for _ in range(rng.randint(0, 200_000 if rng.random() < 0.05 else 60)))
        a = rng.randint(0, len(old))
        e = rng.randint(a, len(old))
        new = old[:a] + "".join(rng.choice("ab") for _ in range(rng.randint(0, 5))) + old[e:]
        s, oe, ne = changed_region(old, new)
        assert old[:s] + new[s:ne] + old[oe:] == new
        assert old[:s] == new[:s] and old[oe:] == new[ne:]
        assert s <= oe and s <= ne


def _answers(analysis, offset: int, move, shift=None, details: bool = True) -> tuple:
    """Hover, definition and completion at ``offset``, their places moved by ``move`` (into the current text)."""
    from sdformat_lsp import features

    hover = features.hover(analysis, offset)
    found = features.definition(analysis, offset)
    listed = features.complete(analysis, offset, details=details)
    named = any(shift.names(i.label) or shift.names(i.filter_text or "") for i in listed.items) if shift else False
    if named and (details or not shift.pose_value):  # as server/handlers.completion does:
        renamed = shift.renamed_alone() if not details else None  # the earlier list with the new name
        listed = features.renamed_listing(listed, *renamed) if renamed is not None else None
        if listed is None:
            raise incremental.Unmappable(offset)  # the new analysis answers
    return (
        None if hover is None else (hover.text, Span(move(hover.span.start), move(hover.span.end))),
        [  # (a place in an included file is not moved: server/convert.Place.location places it in its file)
            (
                loc.path,
                Span(move(loc.span.start), move(loc.span.end)) if loc.path in (None, analysis.path) else loc.span,
            )
            for loc in found
        ],
        [repr(item) for item in listed.items],
        Span(move(listed.replace_span.start), move(listed.replace_span.end)),
    )


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 12])  # 12: a light's pose relative_to the edited model
def test_answers_outside_a_sealed_edit_equal_a_fresh_analysis(seed, tmp_path):
    """Requests right after an incremental edit are answered from the earlier full analysis outside the
    edited element (server/requests.with_snapshot's ``earlier``): hover, definition and completion there,
    places moved through the edit, equal a fresh analysis of the new text at every probed position."""
    _sealed_answers(random_world(seed, models=10), str(tmp_path / "w.sdf"), Options(), random.Random(300 + seed), _edit)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_answers_outside_a_sealed_edit_of_a_world_with_includes_equal_a_fresh_analysis(seed, tmp_path):
    """As above, in worlds with includes (an include's pose and name edited among the rest): the earlier
    analysis, with the included models it placed, answers outside the edited element as a fresh one does."""
    path, options = included_tree(tmp_path)
    in_includes, listed = _sealed_answers(
        random_world_with_includes(seed), str(path), options, random.Random(500 + seed), _edit_with_includes
    )
    assert in_includes >= 1  # an edit inside an include answered from the earlier analysis
    assert listed >= 1  # completions in elements that name the one whose pose was edited


def _sealed_answers(text: str, path: str, options: Options, rng: random.Random, edit) -> tuple[int, int]:
    """Random edits of ``text``: after each one checked incrementally and sealed in one element, the earlier
    analysis's answers equal a fresh one's; how many of those elements were includes, and how many
    listings were compared in held elements after pose value edits."""
    earlier = analyze(text, path, options)
    base = base_of(earlier, options)
    sealed = in_includes = listed = 0
    for _step in range(100):
        new = edit(rng, text)
        got = reanalyze(base, new, path, options) if base is not None else None
        if got is None:
            full = analyze(new, path, options)
            if base_of(full, options) is not None:  # (an edit that breaks the document is undone)
                text, earlier, base = new, full, base_of(full, options)
            continue
        text, base = new, got[1]
        shift = incremental.sealed_shift(earlier, base, incremental.scope_uses(earlier))
        if shift is None:
            continue
        sealed += 1
        in_includes += text.startswith("<include", shift.start)
        fresh = analyze(text, path, options)
        for at in [m.start() + 1 for m in re.finditer(r'"|>[^<\s]', text)][:: max(1, len(text) // 4000)]:
            before = shift.to_earlier(at)
            if before is None:
                continue
            for details in (True, False):  # a client that resolves details later: server/handlers.completion
                try:
                    mapped = _answers(earlier, before, shift.to_current, shift, details)
                except incremental.Unmappable:
                    continue  # the server asks the new analysis then
                assert mapped == _answers(fresh, at, lambda o: o, None, details), (_step, at, text[at - 30 : at + 30])
        if shift.pose_value:  # a list without poses: the earlier analysis answers in held elements too
            listed += _listings_equal(earlier, fresh, text, shift)
    assert sealed >= 3, sealed  # the earlier analysis is actually used
    return in_includes, listed


def _listings_equal(earlier, fresh, text: str, shift) -> int:
    """After an edit of a pose value: completions without details (server/handlers.completion with a client
    that resolves them) from the earlier analysis, at places held by the edit but outside the edited
    element (``Shift.for_listing``), equal a fresh analysis's; how many places were compared."""
    from sdformat_lsp import features

    listing = shift.for_listing()
    compared = 0
    for at in [m.start() + 1 for m in re.finditer(r'"|>[^<\s]', text)]:
        before = listing.to_earlier(at)
        if before is None or shift.to_earlier(at) is not None:
            continue  # the edited element, or a place the shift of every request maps (compared above)
        got, want = features.complete(earlier, before, details=False), features.complete(fresh, at, details=False)
        move = listing.to_current
        assert [repr(i) for i in got.items] == [repr(i) for i in want.items], (at, text[at - 30 : at + 30])
        assert Span(move(got.replace_span.start), move(got.replace_span.end)) == want.replace_span
        compared += 1
    return compared


@pytest.mark.parametrize("seed", range(5))
def test_answers_after_a_rename_equal_a_fresh_analysis(seed, tmp_path):
    """A model renamed (checked incrementally): outside it and what names it, the earlier analysis answers
    as a fresh one does (completion lists naming either name go to the new analysis); seeds 3 and 4: world
    frames name the models and one reference fails."""
    path = str(tmp_path / "w.sdf")
    options = Options()
    text = random_world(seed, models=12) if seed < 3 else referenced_world(seed, models=12)
    earlier = analyze(text, path, options)
    base = base_of(earlier, options)
    renamed = compared = 0
    for name in re.findall(r'^<model name="([^"]*)"', text, re.M):
        at = text.index(f'<model name="{name}"') + len('<model name="') + len(name)
        new = text[:at] + "_b" + text[at:]
        got = reanalyze(base, new, path, options)
        shift = incremental.sealed_shift(earlier, got[1], incremental.scope_uses(earlier)) if got else None
        if shift is None:
            continue
        renamed += 1
        fresh = analyze(new, path, options)
        for here in [m.start() + 1 for m in re.finditer(r'"|>[^<\s]', new)][:: max(1, len(new) // 3000)]:
            before = shift.to_earlier(here)
            if before is None:
                continue
            try:
                mapped = _answers(earlier, before, shift.to_current, shift)
            except incremental.Unmappable:
                continue
            assert mapped == _answers(fresh, here, lambda o: o), (seed, name, here, new[here - 30 : here + 30])
            compared += 1
    assert renamed >= 1, renamed
    assert compared > 0  # the earlier analysis answered somewhere


def referenced_world(seed: int, models: int = 14) -> str:
    """A world whose models are named by world frames, lights and each other's frames (no name taken twice),
    with one reference that names no model (its diagnostic suggests the nearest of all the world's names)."""
    rng = random.Random(seed)
    lines = ['<?xml version="1.0"?>', '<sdf version="1.10">', '<world name="w">', "<gravity>0 0 -9.8</gravity>"]
    exported: list[str] = []
    for m in range(models):
        exported += _model(rng, f"m{m}", lines)
        if rng.random() < 0.5:
            lines.append(f'<frame name="wf{m}" attached_to="{rng.choice([f"m{m}", rng.choice(exported)])}"/>')
        if rng.random() < 0.2 and m > 2:
            lines.append(f'<frame name="wg{m}" attached_to="wf{m}"/>' if f'name="wf{m}"' in lines[-1] else "")
        if rng.random() < 0.1:
            lines.append(f'<light name="l{m}" type="point">{_pose(rng, f"m{m}")}<intensity>1</intensity></light>')
    lines.append(f'<frame name="lost" attached_to="m{models // 2}x::L0"/>')
    lines += ["</world>", "</sdf>"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(4))
def test_renames_of_referenced_models_equal_full_analysis(seed, tmp_path):
    """A model renamed while world frames name it (or a reference in the world fails, its suggestion taken
    from every name of the world): checked through an excerpt, equal to a full analysis, in random
    sequences mixed with the other edits."""
    path = str(tmp_path / "w.sdf")
    options = Options()
    rng = random.Random(400 + seed)
    text = referenced_world(seed)
    base = base_of(analyze(text, path, options), options)
    renamed = 0
    for step in range(90):
        starts = list(re.finditer(r'^<model name="(m\d+)(x|_b|_\d+)?"', text, re.M))
        if rng.random() < 0.7 and starts:
            m = rng.choice(starts)
            s, e = m.span(1)[0], m.end(2) if m.group(2) else m.end(1)
            name = m.group(1)
            again = rng.choice([name + "x", name + "_b", f"{name}_{step}", "m1", ""])
            new = text[:s] + (name if m.group(2) else again) + text[e:]
            is_rename = True
        else:
            new, is_rename = _edit(rng, text), False
        full = analyze(new, path, options)
        got = reanalyze(base, new, path, options) if base is not None else None
        if got is not None:
            assert Counter(map(_key, got[0].diagnostics)) == Counter(map(_key, full.diagnostics)), (seed, step)
        if is_rename and again in ("m1", "") and not m.group(2):
            continue  # a sibling's name, or none: checked, not kept (it could not be undone)
        if got is None:
            if base_of(full, options) is not None:  # (an edit that breaks the document is undone)
                text, base = new, base_of(full, options)
            continue
        renamed += is_rename and new != text
        text, base = new, got[1]
    assert renamed >= 6, (renamed, incremental.refusals)  # fast renames (the rest of the world names them)


def test_a_rename_that_breaks_a_world_frame_takes_the_fast_path(tmp_path):
    """Issue 27: a model named by a world frame renamed and back; the frame's error suggests the nearest
    name of the whole world, which the excerpt does not hold."""
    path = str(tmp_path / "w.sdf")
    options = Options()
    text = referenced_world(1, models=30).replace('name="m7"', 'name="m7"', 1)
    text = text.replace("</world>", '<frame name="watch" attached_to="m7::L0"/>\n</world>')
    base = base_of(analyze(text, path, options), options)
    renamed = text.replace('<model name="m7">', '<model name="m7_x">')
    for new in (renamed, text, renamed):
        got = reanalyze(base, new, path, options)
        assert got is not None, incremental.refusals
        expected = analyze(new, path, options).diagnostics
        assert Counter(map(_key, got[0].diagnostics)) == Counter(map(_key, expected))
        base = got[1]
    assert any(d.code == "FRAME_ATTACHED_TO_INVALID" and "did you mean" in d.message for d in expected)


INCLUDED = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="{name}">
    <link name="base"><inertial><mass>1</mass></inertial></link>
    <link name="arm"><pose relative_to="base">0 0 0.5 0 0 0</pose><inertial><mass>1</mass></inertial></link>
    <joint name="j" type="revolute"><parent>base</parent><child>arm</child><axis><xyz>0 0 1</xyz></axis></joint>
    <frame name="mount" attached_to="arm"><pose>0 0 0.1 0 0 0</pose></frame>
  </model>
</sdf>
"""


def included_tree(root: Path) -> tuple[Path, Options]:
    """Two models found through a resource path (``model://``) and one file beside the world (a relative
    URI), all without a diagnostic of their own."""
    for name in ("crate", "robot"):
        d = root / "models" / name
        d.mkdir(parents=True)
        (d / "model.sdf").write_text(INCLUDED.format(name=name))
        (d / "model.config").write_text(
            f"<?xml version='1.0'?><model><name>{name}</name><sdf version='1.9'>model.sdf</sdf></model>"
        )
    (root / "world").mkdir()
    (root / "world" / "part.sdf").write_text(INCLUDED.format(name="part"))
    return root / "world" / "w.sdf", Options(resource_paths=(str(root / "models"),))


def random_world_with_includes(seed: int) -> str:
    """``random_world`` with ``<include>``s among its models: named or not, posed relative to world frames,
    models and each other, with placement frames; world frames attached to frames of included models."""
    rng = random.Random(seed)
    text = random_world(seed, models=8)
    lines = text.split("\n")
    at = [i for i, line in enumerate(lines) if re.match(r'<model name="m\d+"', line)]  # world-level models
    names: list[str] = []
    for k, i in enumerate(reversed(at[1:])):
        uri = rng.choice(["model://crate", "model://robot", "part.sdf"])
        name = f"inc{k}" if rng.random() < 0.85 or not names else ""
        ref = rng.choice([None, None, "m0", "m0::L0", *names[-2:]])
        block = ["<include>", f"  <uri>{uri}</uri>"]
        if name:
            block.append(f"  <name>{name}</name>")
        if rng.random() < 0.3:
            block.append("  <placement_frame>mount</placement_frame>")
        block.append("  " + _pose(rng, ref))
        block.append("</include>")
        if name and rng.random() < 0.4:
            block.append(f'<frame name="at_{name}" attached_to="{name}::mount"/>')
        lines[i:i] = block
        names += [name] if name else []
    return "\n".join(lines)


def _edit_with_includes(rng: random.Random, text: str) -> str:
    """An include renamed or its pose typed into (both often), or any edit of ``_edit``."""
    kind = rng.random()
    if kind < 0.2:
        ms = list(re.finditer(r"<name>([^<]*)</name>", text))
        if ms:
            m = rng.choice(ms)
            s, e = m.span(1)
            new = rng.choice([m.group(1) + "x", m.group(1)[:-1], "m1", "inc0", "", m.group(1) + "_b"])
            return text[:s] + new + text[e:]
    if kind < 0.4:
        ms = list(re.finditer(r"<include>\n  <uri>[^<]*</uri>\n(?:.*\n)*?  <pose[^>]*>([^<]*)</pose>", text))
        if ms:
            m = rng.choice(ms)
            s, e = m.span(1)
            return text[:s] + rng.choice(["1 2 3 0 0 0", "x", "", "0 0 1 0 0 0.5"]) + text[e:]
    return _edit(rng, text)


@pytest.mark.parametrize("seed", range(1, 5))  # (seed 0 leaves its text broken early)
def test_random_edits_of_worlds_with_includes_equal_full_analysis(seed, tmp_path):
    """Worlds with includes are checked incrementally too (an include is a unit, re-placed from the
    include cache, not read again), and equal a full analysis after every edit."""
    path, options = included_tree(tmp_path)
    text = random_world_with_includes(seed)
    base = base_of(analyze(text, str(path), options), options)
    assert base is not None and any(u.name.startswith("inc") for u in base.units)
    fast, _steps = _run(text, 400 + seed, 100, str(path), options, _edit_with_includes)
    assert fast >= 10, (fast, incremental.refusals)


@pytest.mark.parametrize("seed", range(1, 5))
def test_completions_after_an_include_is_renamed_equal_a_fresh_analysis(seed, tmp_path):
    """An include that nothing names, renamed (once, or twice before the full analysis comes): a list of
    the world's frames without details made from the earlier analysis, with the include's frames under
    the new name (server/handlers.completion), equals a fresh analysis's at every frame reference."""
    from sdformat_lsp import features

    path, options = included_tree(tmp_path)
    text = random_world_with_includes(seed)
    earlier = analyze(text, str(path), options)
    base, uses = base_of(earlier, options), incremental.scope_uses(earlier)
    assert base is not None and uses is not None
    spots = [m.end() for m in re.finditer(r'(?:relative_to|attached_to)="|<(?:parent|child)>', text)]
    compared = 0
    for m in re.finditer(r"<name>(inc\d+)</name>", text):
        if len(re.findall(rf"\b{m.group(1)}\b", text)) != 1:
            continue  # named elsewhere: the shift holds those elements, and renaming is the new analysis's
        once = text[: m.end(1)] + "_b" + text[m.end(1) :]
        twice = text[: m.start(1)] + "r" + m.group(1) + "x" + text[m.end(1) :]
        for new in (once, twice):
            got = reanalyze(base, once, str(path), options)
            if new is twice and got is not None:
                got = reanalyze(got[1], twice, str(path), options)
            assert got is not None, incremental.refusals
            shift = incremental.sealed_shift(earlier, got[1], uses)
            assert shift is not None and shift.renamed_alone() is not None, shift
            fresh = analyze(new, str(path), options)
            for at in spots:
                here = at if at < shift.start else at + shift.delta
                if shift.start <= here <= shift.end:
                    continue  # in the renamed include: the new analysis answers
                listed = features.complete(earlier, at, details=False)
                if not any(shift.names(i.label) for i in listed.items):
                    continue  # compared by the tests of sealed edits
                renamed = features.renamed_listing(listed, *shift.renamed_alone())
                assert renamed is not None
                want = features.complete(fresh, here, details=False)
                assert [repr(i) for i in renamed.items] == [repr(i) for i in want.items], (here, new[here - 40 : here])
                compared += 1
    assert compared >= 1


def test_include_edits_take_the_fast_path(tmp_path):
    """An include's pose and name, and a world-level value, in a world of includes: all incremental."""
    path, options = included_tree(tmp_path)
    text = random_world_with_includes(5)
    base = base_of(analyze(text, str(path), options), options)
    assert base is not None
    name = next(  # an include no other element names (renaming one that is named is refused, as for models)
        m for m in re.finditer(r"<name>(inc\d+)</name>", text) if len(re.findall(rf"\b{m.group(1)}\b", text)) == 1
    )
    pose = re.search(r"<include>\n  <uri>[^<]*</uri>\n(?:.*\n)*?  <pose[^>]*>([^<]*)</pose>", text)
    step = text.index("<max_step_size>") + len("<max_step_size>")
    edits = [
        text[: name.end(1)] + "_b" + text[name.end(1) :],
        text[: pose.start(1)] + "7 7 7 0 0 0" + text[pose.end(1) :],
        text[:step] + "0.002" + text[step + len("0.001") :],
    ]
    for new in edits:
        got = reanalyze(base, new, str(path), options)
        assert got is not None, incremental.refusals
        expected = Counter(map(_key, analyze(new, str(path), options).diagnostics))
        assert Counter(map(_key, got[0].diagnostics)) == expected
