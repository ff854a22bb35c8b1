"""The name check remembers subtrees that reported nothing by their text (``check_names._duplicates``).

Compared here with the check remembering nothing, on documents that repeat the same pieces,
good ones and ones with repeated names, in plain elements, plugins and namespaced elements.
"""

from __future__ import annotations

import random

import pytest

from sdformat_lsp.model import version_tuple
from sdformat_lsp.semantics import Options, analyze, check_names
from sdformat_lsp.semantics.checks import Checker

_PIECES = [
    '<collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision>',
    '<visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual>',
    '<visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual>',  # twice: a repeat
    '<sensor name="s" type="camera"><camera name="a"/><camera name="a"/></sensor>',  # repeats inside
    '<plugin name="p" filename="f"><x name="d"/><x name="d"/></plugin>',  # free-form: never judged
    '<gz:extra name="e"><y name="d"/><y name="d"/></gz:extra>',
    '<inertial><mass>1</mass></inertial>',
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
            m.setattr(check_names, "MAX_LENGTH", -1)  # no subtree is short enough to be remembered
            walked = _names(text)
        assert remembered == walked
        reported += len(walked)
    assert reported > 100
