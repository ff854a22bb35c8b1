"""The checks that remember verdicts by an element's source text (semantics/checks/same_text.py) report
exactly what they report without remembering, on documents that repeat elements, good and bad."""

from __future__ import annotations

import random

import pytest

from sdformat_lsp.semantics import Options, analysis, analyze
from sdformat_lsp.semantics.checks.domain import check_domain
from sdformat_lsp.semantics.checks.mass_properties import inertial_warnings
from sdformat_lsp.semantics.checks.same_text import SameText
from sdformat_lsp.semantics.schema.validation import check_schema
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


# Pieces for the schema check, good and bad, each written into many places of one document.
PIECES = [
    '<visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual>',
    '<visual name="v"><geometry><box><size>1 1</size></box></geometry></visual>',
    '<visual name="v"><geometry><box><sise>1 1 1</sise></box></geometry></visual>',
    '<visual name="v"><pose>0 0 x 0 0 0</pose><geometry><sphere><radius>-1</radius></sphere></geometry></visual>',
    '<visual name="v"><pose degrees="maybe">0 0 0 0 0 0</pose><transparency>2</transparency></visual>',
    '<collision name="c"><geometry><box><size>1 1 1</size></box></geometry><laser_retro>x</laser_retro></collision>',
    '<collision name="c"><geometry><box><size>1 1 1</size></box></geometry><surface><friction><ode><mu>0.8</mu></ode></friction></surface></collision>',
    '<collision name="c"><geometry><polyline><point>0 0</point></polyline><polyline><point>1 0</point></polyline></geometry></collision>',
    '<collision name="c"><max_contacts>1</max_contacts><max_contacts>2</max_contacts></collision>',
    '<sensor name="s" type="camera"><always_on>1</always_on><update_rate>30</update_rate><update_rate>30</update_rate></sensor>',
    '<sensor name="s" type="camra"><camera><image><width>x</width></image></camera></sensor>',
    '<sensor name="s"><gz:extra><anything/></gz:extra><plugin name="p" filename="f"><free>1</free></plugin></sensor>',
    '<visual name="v" bogus="1"><material><script><uri></uri><name>n</name></script></material></visual>',
    '<visual name="v"><material><shader type="weird"/></material><geometry><box><size>1 1 1</size></box></geometry></visual>',
    '<projector name="p"><texture>t.png</texture><fov>0.5</fov></projector>',
    '<light name="l" type="point"><intensity>2</intensity><cast_shadows>true</cast_shadows></light>',
    '<unknown_thing><link name="inside"><inertial><mass>-1</mass></inertial></link></unknown_thing>',
    '<visual name="v"><geometry><heightmap><uri>h.png</uri><texture><size>1</size><diffuse>d</diffuse><normal>n</normal></texture></heightmap></geometry></visual>',
    '<visual name="v"><geometry><box><size>1 1 1</size></box></geometry><visibility_flags>-3</visibility_flags></visual>',
    "<must_be_base_link>true</must_be_base_link>",
    '<visual name="v"><material><script><name>n</name></script><shader type="normal_map_object_space"/></material></visual>',
    '<sensor name="s" type="imu"/><sensor name="t" type="gpu_ray"><plugin name="p" filename="f"><link name="no"/></plugin></sensor>',
    '<gz:thing><link name="ns"><inertial><mass>-1</mass></inertial></link></gz:thing>',
    "<inertial><mass>0</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>3</izz></inertia></inertial>",
]
JOINTS = [
    '<joint name="j" type="revolute"><parent>L0</parent><child>L0</child><axis><xyz>0 0 0</xyz></axis></joint>',
    '<joint name="j" type="revolute"><parent>L0</parent><child>L0</child><axis><xyz>0 0 1</xyz></axis>'
    '<sensor name="f" type="force_torque"/><sensor name="g" type="forse_torque"/></joint>',
    '<joint name="j" type="universal"><parent>L0</parent><child>L0</child><axis2><xyz>0 0 0</xyz></axis2><bogus><axis><xyz>0 0 0</xyz></axis></bogus></joint>',
]


def _pieces_document(rng: random.Random) -> str:
    version = rng.choice(("1.4", "1.6", "1.8", "1.10", "1.12"))
    models = []
    for m in range(rng.randint(2, 6)):
        links = []
        for i in range(rng.randint(1, 3)):
            body = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 3)))
            links.append(f'<link name="L{i}">{body}</link>')
        extra = rng.choice(
            ("", '<plugin name="q" filename="g"><x>1</x></plugin>', "<enable_wind>true</enable_wind>", "<gz:x/>")
        )
        joints = "".join(rng.choice(JOINTS) for _ in range(rng.randint(0, 2)))
        models.append(f'<model name="m{m}">{"".join(links)}{joints}{extra}</model>')
    return f'<sdf version="{version}"><world name="w">{"".join(models)}</world></sdf>'


def _results(text: str):
    xml = parse(text)
    a = analyze(text, None, Options())
    version = xml.root.get("version") if xml.root is not None else None
    return check_domain(xml), inertial_warnings(xml), check_schema(xml, version or "1.11"), a.diagnostics


def _forget(self: SameText, xml) -> None:
    self.text = xml.text
    self.budget = 0


@pytest.mark.parametrize("seed", range(40))
def test_remembered_verdicts_change_nothing(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    text = _document(rng, broken=seed % 10 == 9) if seed % 2 else _pieces_document(rng)
    remembered = _results(text)
    monkeypatch.setattr(SameText, "__init__", _forget)
    assert _results(text) == remembered


@pytest.mark.parametrize("seed", range(30))
def test_domain_checks_in_the_schema_walk_report_the_same_in_the_same_order(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """analysis._schema runs domain.py's checks in the schema check's walk: the diagnostics, in
    order, are those of a walk of their own."""
    rng = random.Random(seed)
    text = _pieces_document(rng) if seed % 3 else _document(rng, broken=False)
    together = analyze(text, None, Options()).diagnostics
    monkeypatch.setattr(analysis, "well_formed", lambda xml: False)
    assert analyze(text, None, Options()).diagnostics == together


def test_remembering_is_off_when_the_document_has_an_xml_problem() -> None:
    xml = parse('<sdf version="1.11"><model name="m"><link name="a"></model></sdf>')
    assert xml.problems and SameText(xml).key(xml.root) is None
    clean = parse('<sdf version="1.11"><model name="m"/></sdf>')
    assert SameText(clean).key(clean.root.children[0]) == '<model name="m"/>'


# A link's (or model's) first <pose>, written in ways the schema walk's keys (schema/keys.py)
# must tell apart from its plain value: values alone (left out of the key), a child element inside,
# a second <pose>, attributes, a value the builder refuses, an empty or self-closing pose.
LINK_POSES = [
    "<pose>{v}</pose>",
    "<pose>{v}</pose>",
    "<pose>\n  {v} <!-- placed -->\n</pose>",
    "<pose>{v}</pose><pose>{v}</pose>",
    "<pose>{w}</pose><pose>0 0 0 0 0 0</pose>",
    "<pose>0 0 0 0 0 0</pose><pose>{w}</pose>",
    "<pose>{v}<gz:note/></pose>",
    "<pose>{v}<bogus/></pose>",
    "<pose>{v}<gz:note>x</gz:note></pose>",
    '<pose relative_to="L0">{v}</pose>',
    '<pose bogus="1">{v}</pose>',
    '<pose degrees="true">{v}</pose>',
    "<pose>{v} x</pose>",
    "<pose></pose>",
    "<pose/>",
    "<pose>&#49; {v}</pose>",
]
LINK_BODIES = [
    "<inertial><mass>1</mass></inertial>",
    "<inertial><mass>-1</mass></inertial>",
    '<visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual>',
    '<visual name="v"><pose>{u}</pose><geometry><box><size>1 1 1</size></box></geometry></visual>',
    '<collision name="v"/>',
    "",
]


def _placed_document(rng: random.Random, few: bool) -> str:
    """A world of models and links that repeat but for their names and their poses' values
    (``few``: in a few shapes, so that each comes back with other names and values)."""
    version = rng.choice(("1.6", "1.9", "1.11"))

    def value() -> str:
        return " ".join(rng.choice(("0", "1", "-0.5", "2.25")) for _ in range(6))

    def pose(template: str) -> str:
        return template.format(v=value(), w=rng.choice(("0 0 0 0 0 0", "0 0 0 0 0 1")))

    def link_shape() -> tuple:
        # (pose, body, pose after the body, link name: a number or None for the link's index)
        return (rng.choice(LINK_POSES), rng.choice(LINK_BODIES), rng.random() < 0.2, rng.choice((0, 1, None)))

    def model_shape() -> tuple:
        # (pose, its links, nested model, a name given twice for the name phase)
        links = tuple(link_shape() for _ in range(rng.randint(1, 3)))
        return (rng.choice(LINK_POSES), links, rng.random() < 0.15, rng.random() < 0.1)

    def link(shape: tuple, i: int) -> str:
        template, body, pose_last, name = shape
        body = body.format(u=rng.choice((value(), "0 0 x 0 0 0")))
        inner = f"{body}{pose(template)}" if pose_last else f"{pose(template)}{body}"
        return f'<link name="L{i if name is None else name}{rng.choice(("", "", "x"))}">{inner}</link>'

    def model(shape: tuple, name: str) -> str:
        template, links, nested, twice = shape
        inner = pose(template) + "".join(link(s, i) for i, s in enumerate(links))
        if nested:
            inner += model((LINK_POSES[0], links[:1], False, False), "inner")
        if twice:
            inner += '<frame name="L0"/>'
        return f'<model name="{name}">{inner}</model>'

    shapes = [model_shape() for _ in range(2 if few else 30)]
    names = ("a", "b", "c", "a&amp;b", "")
    models = [
        model(rng.choice(shapes), f"{rng.choice(names)}{m}" if rng.random() < 0.9 else rng.choice(names))
        for m in range(rng.randint(2, 10))
    ]
    return f'<sdf version="{version}"><world name="w">{"".join(models)}</world></sdf>'


@pytest.mark.parametrize("seed", range(160))
def test_models_and_links_remembered_without_names_and_poses_report_the_same(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The schema walk remembers a model or link by its text less its name and its poses' values
    (schema/keys.py): the results are those of the walk remembering nothing (every diagnostic, in
    order, of the whole analysis too)."""
    text = _placed_document(random.Random(seed), few=seed % 2 == 0)
    remembered = _results(text)
    monkeypatch.setattr(SameText, "__init__", _forget)
    assert _results(text) == remembered
