"""The checks that remember verdicts by an element's source text (semantics/same_text.py) report
exactly what they report without remembering, on documents that repeat elements, good and bad."""

from __future__ import annotations

import random

import pytest

from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.semantics.domain import check_domain
from sdformat_lsp.semantics.inertia import inertial_warnings
from sdformat_lsp.semantics.same_text import SameText
from sdformat_lsp.xml import parse

INERTIALS = [
    "<inertial><mass>1</mass></inertial>",
    "<inertial><mass>1.0</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>",
    "<inertial><mass>0</mass></inertial>",
    "<inertial><mass>-2</mass></inertial>",
    "<inertial><mass>nan</mass></inertial>",
    "<inertial><mass>x</mass></inertial>",
    "<inertial><mass>1 2</mass></inertial>",
    "<inertial><mass>2</mass><inertia><ixx>0</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>",
    "<inertial><mass>2</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>5</izz></inertia></inertial>",
    "<inertial><mass>2</mass><inertia><ixx>inf</ixx></inertia></inertial>",
    "<inertial><mass>2</mass><inertia><ixx>1</ixx><ixx>0</ixx><ixy>0.2</ixy></inertia></inertial>",
    '<inertial auto="true"><mass>0</mass></inertial>',
    "<inertial><pose>0 0 1 0 0 0</pose><mass>3</mass><inertia><ixx>1</ixx><iyy>2</iyy><izz>2.5</izz><ixz>0.1</ixz></inertia></inertial>",
    "<inertial>\n  <mass>0</mass>\n</inertial>",
]


def _document(rng: random.Random, broken: bool) -> str:
    """A world whose models repeat a few inertials; ``broken``: one unclosed element at the end."""
    models = []
    for m in range(rng.randint(1, 8)):
        links = []
        for i in range(rng.randint(1, 4)):
            body = "".join(rng.choice(INERTIALS) for _ in range(rng.choice((1, 1, 1, 2))))
            links.append(f'<link name="L{i}">{body}</link>')
        joints = [
            f'<joint name="J{i}" type="{rng.choice(("revolute", "fixed", ""))}"><parent>L{i - 1}</parent><child>L{i}</child></joint>'
            for i in range(1, len(links))
        ]
        static = rng.choice(("", "", "<static>true</static>", "<static>0</static>"))
        models.append(f'<model name="m{m}">{static}{"".join(links)}{"".join(joints)}</model>')
    tail = "<model name='cut'>" if broken else ""
    return f'<sdf version="1.11"><world name="w">{"".join(models)}{tail}</world></sdf>'


def _results(text: str):
    xml = parse(text)
    a = analyze(text, None, Options())
    return check_domain(xml), inertial_warnings(xml), a.diagnostics


@pytest.mark.parametrize("seed", range(40))
def test_remembered_verdicts_change_nothing(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    text = _document(rng, broken=seed % 10 == 9)
    remembered = _results(text)
    monkeypatch.setattr(SameText, "key", lambda self, el: None)
    assert _results(text) == remembered


def test_remembering_is_off_when_the_document_has_an_xml_problem() -> None:
    xml = parse('<sdf version="1.11"><model name="m"><link name="a"></model></sdf>')
    assert xml.problems and SameText(xml).key(xml.root) is None
    clean = parse('<sdf version="1.11"><model name="m"/></sdf>')
    assert SameText(clean).key(clean.root.children[0]) == '<model name="m"/>'
