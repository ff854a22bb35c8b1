"""Bad input never crashes: each case gives diagnostics and nothing raises."""

import pytest

from sdformat_lsp.semantics import analyze
from sdformat_lsp.xml import decode_source


def deep(n: int) -> str:
    return (
        '<sdf version="1.8">'
        + "".join(f'<model name="m{i}">' for i in range(n))
        + '<link name="L"/>'
        + "</model>" * n
        + "</sdf>"
    )


def cycle(n: int) -> str:
    frames = "".join(f'<frame name="f{i}" attached_to="f{(i + 1) % n}"/>' for i in range(n))
    return f'<sdf version="1.8"><model name="m"><link name="L"/>{frames}</model></sdf>'


LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
    + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
    + ']><sdf version="1.8"><model name="&j;"><link name="L"/></model></sdf>'
)

CASES = {
    "empty": "",
    "whitespace": "  \n\t ",
    "garbage": "\x00\x01\x02<<<>>>&&&\x7f" * 50,
    "truncated": '<?xml version="1.0"?><sdf version="1.8"><model name="m"><link name="L"><pose>1 2',
    "only-declaration": '<?xml version="1.0"?>',
    "deep-10000": deep(10_000),
    "cycle-1000": cycle(1000),
    "billion-laughs": LAUGHS,
    "external-entity": '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><sdf version="1.8"><model name="&e;"/></sdf>',
    "stray-end-tags": "</a></b><sdf version='1.8'></model></link><model name='m'><link name='L'/></model></sdf></sdf>",
    # a '<' typed into a long attribute value: the tag never ends, and the look ahead for its end
    # tag must not try each shorter tag name in turn (quadratic: minutes for this one)
    "lt-in-long-attribute": '<sdf version="1.8"><model name="m"><link name="'
    + "n" * 100_000
    + "<"
    + "n" * 100_000
    + '"></link><link name="b"></link></model></sdf>',
    "attribute-soup": '<sdf version="1.8" version="1.9"><model name="m" name=><link name="L" a="b c=d/></model></sdf>',
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_text_gives_diagnostics(name):
    a = analyze(CASES[name])
    assert a.diagnostics, f"{name}: expected at least one diagnostic"
    for d in a.diagnostics:
        assert 0 <= d.span.start <= d.span.end <= len(a.text)
    if not name.startswith("deep"):  # listing 10,000 scoped names is quadratic by nature
        a.frames()


def test_binary_and_invalid_utf8():
    text, problems = decode_source(bytes(range(256)) * 20)
    a = analyze(text, extra=problems)
    assert any(d.code == "FILE_READ" for d in a.diagnostics)


def test_deep_nesting_resolves_every_level():
    a = analyze(deep(3000).replace("<sdf", "<?xml version='1.0'?><sdf"))
    innermost = a.graphs.nodes[-1]
    assert innermost.kind == "link"
    assert a.graphs.attached_link(a.graphs.root.node) is innermost


def test_long_cycle_is_one_diagnostic():
    a = analyze(cycle(1000))
    cyc = [d for d in a.diagnostics if d.code == "FRAME_ATTACHED_TO_CYCLE"]
    assert len(cyc) == 1 and len(cyc[0].related) == 21 and cyc[0].related[-1].message == "and 980 more"
    assert len(a.diagnostics) == 1
