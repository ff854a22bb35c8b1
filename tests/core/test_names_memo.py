"""The name check remembers subtrees that reported nothing by their text (``name_checks._duplicates``).

Compared here with the check remembering nothing, on documents that repeat the same pieces,
good ones and ones with repeated names, in plain elements, plugins and namespaced elements.
"""

from __future__ import annotations

import random

import pytest

from sdformat_lsp.model import version_tuple
from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.semantics.checks import name_checks
from sdformat_lsp.semantics.checks.phases import Checker

_PIECES = [
    '<collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision>',
    '<visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual>',
    '<visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual>',  # twice: a repeat
    '<sensor name="s" type="camera"><camera name="a"/><camera name="a"/></sensor>',  # repeats inside
    '<plugin name="p" filename="f"><x name="d"/><x name="d"/></plugin>',  # free-form: never judged
    '<gz:extra name="e"><y name="d"/><y name="d"/></gz:extra>',
    "<inertial><mass>1</mass></inertial>",
]


def _document(rng: random.Random) -> str:
    models = []
    for i in range(rng.randint(1, 12)):
        links = []
        for j in range(rng.randint(1, 3)):
            body = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 4)))
            name = f"L{j}" if rng.random() < 0.9 else "L0"  # sometimes two links named alike
            links.append(f'<link name="{name}">{body}</link>')
        name = f"m{i}" if rng.random() < 0.9 else "m0"
        models.append(f'<model name="{name}">{"".join(links)}</model>')
    return f'<sdf version="1.10"><world name="w">{"".join(models)}</world></sdf>'


def _names(text: str) -> list:
    a = analyze(text, None, Options())
    assert not a.xml.problems
    checker = Checker(a.xml, a.graphs, version_tuple(a.document.version))
    checker.names()
    return checker.out


def test_remembered_subtrees_give_what_walking_every_subtree_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(11)
    reported = 0
    for _ in range(150):
        text = _document(rng)
        remembered = _names(text)
        with monkeypatch.context() as m:
            m.setattr(name_checks, "MAX_LENGTH", -1)  # no subtree is short enough to be remembered
            walked = _names(text)
        assert remembered == walked
        reported += len(walked)
    assert reported > 100


_MORE_PIECES = _PIECES + [
    '<unknown_thing name="u"><z name="d"/><z name="d"><w name="e"/><w name="e"/></z></unknown_thing>',  # off the spec
    '<sensor name="s2" type="camera"><plugin name="p" filename="f"/><plugin name="p" filename="f"/></sensor>',
    '<frame name="c"/>',  # named as the collision piece: siblings of different kinds
]


def _mixed_document(rng: random.Random) -> str:
    version = rng.choice(("1.6", "1.10", "1.11"))
    models = []
    for i in range(rng.randint(1, 8)):
        parts = []
        for j in range(rng.randint(1, 3)):
            body = "".join(rng.choice(_MORE_PIECES) for _ in range(rng.randint(0, 4)))
            name = f"L{j}" if rng.random() < 0.8 else "c"  # sometimes named as a frame beside it
            parts.append(f'<link name="{name}">{body}</link>')
        parts.append(
            rng.choice(
                (
                    "",
                    '<frame name="c"/>',
                    '<joint name="L0" type="fixed"><parent>world</parent><child>L0</child></joint>',
                )
            )
        )
        parts.append(rng.choice(("", _MORE_PIECES[-3])))
        models.append(f'<model name="m{i if rng.random() < 0.9 else 0}">{"".join(parts)}</model>')
    return f'<sdf version="{version}"><world name="w">{"".join(models)}</world></sdf>'


def test_names_compared_in_the_schema_walk_report_the_same_in_the_same_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """analysis._schema compares sibling names in the schema check's walk (sibling_names): the full
    analysis's diagnostics, in order, are those with the name phase walking by itself."""
    from sdformat_lsp.semantics import analysis

    rng = random.Random(5)
    duplicates = 0
    for _ in range(120):
        text = _mixed_document(rng) if rng.random() < 0.7 else _document(rng)
        together = analyze(text, None, Options()).diagnostics
        with monkeypatch.context() as m:
            m.setattr(analysis, "SiblingNames", lambda version: None)  # the name phase's own walk
            alone = analyze(text, None, Options()).diagnostics
        assert together == alone
        duplicates += sum(d.code in ("DUPLICATE_NAME", "PARSING_ERROR") for d in alone)
    assert duplicates > 200
