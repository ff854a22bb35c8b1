"""The XML layer's fast paths give what the careful ones give.

- The scanner's one-match token (a start tag, its text and end tag, or an end tag) and its
  careful path build the same tree: every token is also scanned with the fast path refused.
- libxml2's verdict found in a thread while the scanner reads the text (large documents) is
  the verdict found after it, whatever the document holds; the thread never outlives the parse.
- A subtree repeated word for word, copied from its first occurrence (xml/repeats.py), is the
  tree a scan builds, wherever it stands and whatever surrounds it.
- A LineIndex finds its line starts on first use, the same as before.
"""

import bisect
import random
import re
import threading

import pytest

from sdformat_lsp.text import LineIndex
from sdformat_lsp.xml import parse, parser, repeats, scanner

PIECES = [
    "<a>",
    "</a>",
    "</a >",
    "<a >",
    "<a/>",
    "<a />",
    '<b x="1">',
    "<b x=\"1\" y='2' >",
    "</b>",
    "</b\n>",
    "text",
    " ",
    "\n  ",
    "&lt;",
    "&#65;",
    "&bogus;",
    "<!--c-->",
    "<![CDATA[z]]>",
    "<?pi x?>",
    "<",
    ">",
    '"',
    "'",
    "=",
    "<c>1 2 3</c>",
    "<c> 1 </c >",
    "<c>\n</c>",
    "<c></c>",
    "</c>",
    '<d a="x&amp;y"/>',
    '<d a="x" a="y"/>',
    '<e\n  name="v"\n/>',
    "\u00e9",
    "<f>\u2003x\u2003</f>",
    "<g>x<!--c-->y</g>",
    "<h>x</h>tail",
    "<sdf>",
    "</sdf>",
    '<model name="m">',
    "</model>",
    "<\u00e9l>",
    "</\u00e9l>",
    "<a:b/>",
    "\r\n",
    "\r",
    "\t",
]


def _element(e):
    attributes = [(a.name, a.value, a.ns, a.ne, a.vs, a.ve, a.terminated) for a in e.attributes.values()]
    parent = e.parent
    return (
        e.tag,
        e.ts,
        e.stag_end,
        e.end,
        e.etag_start,
        e.text,
        e.text_span,
        e.closed,
        e.self_closing,
        attributes,
        parent.ts if parent is not None else None,
        len(e.children),
    )


def _scanned(result):
    trees = [[_element(e) for e in top.iter()] for top in [result.root, *result.extra_roots, *result.half_typed] if top]
    return trees, [_element(e) for e in result.unclosed], result.doctype_span, result.suspect


class _NeverMatches:
    """A token pattern that never matches: every token takes the careful path."""

    @staticmethod
    def scanner(text, pos):
        return _NeverMatches

    @staticmethod
    def match(*args):
        return None


def _careful(text, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(scanner, "_TOKEN", _NeverMatches)
        return scanner.scan(text)


def _soup(rnd):
    return "".join(rnd.choice(PIECES) for _ in range(rnd.randrange(1, 30)))


def test_the_one_match_token_builds_what_the_careful_path_builds(monkeypatch):
    rnd = random.Random(13)
    documents = [_soup(rnd) for _ in range(3000)]
    documents.append(
        '<?xml version="1.0"?>\n<sdf version="1.10">\n  <model name="m">\n    <pose>0 0 1 0 0 0</pose>\n'
        '    <link name="l"><inertial><mass> 2 </mass></inertial></link>\n'
        "    <frame name=\"f\" attached_to='l' />\n  </model >\n</sdf>\n"
    )
    for text in documents:
        fast = scanner.scan(text)
        careful = _careful(text, monkeypatch)
        assert _scanned(fast)[:3] == _scanned(careful)[:3], text


def _subtree(rnd, depth):
    tag = rnd.choice(["a", "b", "link", "pose", "\u00e9l"])
    attrs = rnd.choice(["", ' name="x"', ' name="y"', " n='1' m=\"&amp;\"", " ", ' a="1"\n  b="2"', ' a="1"b="2"'])
    if depth > 3 or rnd.random() < 0.3:
        if rnd.random() < 0.2:
            return f"<{tag}{attrs}/>"
        body = rnd.choice(["1", " 0 0 1 ", "", "\n", "x&lt;y", "&#65;", "a long text " * 3])
        return f"<{tag}{attrs}>{body}</{tag}{rnd.choice(['', '', ' ', chr(10)])}>"
    sep = rnd.choice(["", "\n  ", " ", "\r\n", " t "])  # " t ": text in pieces (mixed content)
    inner = sep.join(_subtree(rnd, depth + 1) for _ in range(rnd.randrange(1, 4)))
    if rnd.random() < 0.1:  # something only the careful path reads, or text in a non-leaf
        inner += rnd.choice(["<!--c-->", "tail", "<![CDATA[z]]>", "<", "</zz>", "<q>", '<q n="'])
    if rnd.random() < 0.1:
        inner = rnd.choice(["text", "<?p?>"]) + inner
    return f"<{tag}{attrs}>{sep}{inner}{sep}</{tag}{rnd.choice(['', '', ' '])}>"


def _repetitive(rnd):
    """A few subtrees repeated (the same start tag also with other content), between white space
    or text, sometimes nested in an element of their own tag, sometimes cut or spliced."""
    library = [_subtree(rnd, rnd.randrange(0, 3)) for _ in range(rnd.randrange(1, 6))]
    parts = []
    for _ in range(rnd.randrange(1, 25)):
        parts.append(rnd.choice(library) if rnd.random() < 0.7 else _subtree(rnd, 1))
        parts.append(rnd.choice(["\n", "", " ", "x", "\n\n  "]))
    body = "".join(parts)
    if rnd.random() < 0.3:
        body = "<a>" + body + "".join(rnd.choice(library) for _ in range(3)) + "</a>" + body
    text = f'<?xml version="1.0"?>\n<sdf>{body}</sdf>' if rnd.random() < 0.8 else body
    cut = rnd.random()
    if cut < 0.2:
        i = rnd.randrange(len(text))
        text = text[:i] + text[i + rnd.randrange(1, 50) :]
    elif cut < 0.4:
        i = rnd.randrange(len(text))
        text = text[:i] + text[i : i + rnd.randrange(1, 200)] + text[i:]
    return text


def _everything(result):
    """Every slot of every element and attribute, parents and the lists by position, and the
    result's other fields; no element or attribute may be shared between two places."""
    position = {}
    rows = []
    seen = set()
    for top in [result.root, *result.extra_roots, *result.half_typed]:
        for e in top.iter() if top is not None else ():
            assert id(e) not in seen
            seen.add(id(e))
            position[id(e)] = len(position)
            attributes = None
            if e.attributes is not scanner.NO_ATTRIBUTES:
                attributes = [type(e.attributes)] + [
                    (a.name, a.value, a.ns, a._ne, a._vs, a._ve) for a in e.attributes.values()
                ]
                assert not any(id(a) in seen for a in e.attributes.values())
                seen.update(id(a) for a in e.attributes.values())
            parent = e.parent
            rows.append(
                (
                    e.tag,
                    e.ts,
                    e._stag,
                    e._end,
                    e._etag,
                    e.text,
                    e._tss,
                    e._tsx,
                    attributes,
                    e.children is scanner.LEAF,
                    type(e.children),
                    position[id(parent)] if parent is not None else None,
                )
            )
    return (rows, [position[id(e)] for e in result.unclosed], result.doctype_span, result.depth, result.suspect)


def test_a_copied_repeated_subtree_is_the_tree_a_scan_builds(monkeypatch):
    copies = []
    real = repeats.copy_into
    monkeypatch.setattr(repeats, "copy_into", lambda el, template: copies.append(el) or real(el, template))
    rnd = random.Random(21)
    documents = [_repetitive(rnd) for _ in range(2500)]
    documents += [
        "<sdf>" + ("<a>" * 200 + "<b/>" + "</a>" * 200 + "\n") * 3 + "</sdf>",  # deep: the height counts
        # <x> and <q> known, then a mismatched end tag inside a new <a>: it must not be remembered
        "<sdf><x><y/></x><q><y/></q>" + "<a><x><q></x></a>" * 3 + "</sdf>",
        "<sdf><x><y/></x>" + "<a><x>t<y/></x></a>" * 3 + "</sdf>",  # text after a start tag
    ]
    for text in documents:
        remembered = scanner.scan(text)
        with monkeypatch.context() as m:
            m.setattr(repeats, "MAX_LENGTH", 0)  # nothing is remembered: every token is scanned
            scanned = scanner.scan(text)
        assert _everything(remembered) == _everything(scanned), text
    assert len(copies) > 10_000  # the documents exercise the copy


@pytest.fixture
def ahead_from_zero(monkeypatch):
    monkeypatch.setattr(parser, "_AHEAD_FROM", 0)  # every document takes the thread


def _diagnostics(doc):
    return [(p.code, p.severity, p.message, p.span, p.related, p.data) for p in doc.problems]


def test_the_verdict_found_in_a_thread_is_the_verdict_found_after_the_scan(ahead_from_zero, monkeypatch):
    deep = "<sdf>" + "<a>" * 230 + "</a>" * 230 + "</sdf>"
    documents = [
        '<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>',
        '<!DOCTYPE sdf [<!ENTITY e "x">]>\n<sdf><model name="&e;"/></sdf>',
        "text before\n<sdf/>\ntext after",
        '<sdf/>\n<?xml version="1.0"?>',
        "<sdf><a></b></sdf>",
        "<sdf><a x='1' x='2'/></sdf>",
        "<sdf>a & b</sdf>",
        "<sdf>\r<a>\r\n</a>\r</sdf>\r",
        '<sdf><model name="m"><link name="',
        "  \n",
        deep,
    ]
    rnd = random.Random(5)
    documents += [_soup(rnd) for _ in range(300)]
    for text in documents:
        threaded = parse(text)
        with monkeypatch.context() as m:
            m.setattr(parser, "_AHEAD_FROM", len(text) + 1)
            inline = parse(text)
        assert _diagnostics(threaded) == _diagnostics(inline), text


def test_no_thread_outlives_a_parse_even_when_the_scan_fails(ahead_from_zero, monkeypatch):
    before = threading.active_count()
    parse("<sdf><model name='m'/></sdf>")
    assert threading.active_count() == before

    def broken(text):
        raise MemoryError("scan")

    monkeypatch.setattr(parser, "scan", broken)
    with pytest.raises(MemoryError):
        parse("<sdf/>")
    assert threading.active_count() == before


def test_a_failing_thread_leaves_the_verdict_to_the_parse(ahead_from_zero, monkeypatch):
    calls = []
    real = parser._lxml_entries

    def once_broken(text, depth=0):
        calls.append(threading.current_thread() is threading.main_thread())
        if len(calls) == 1:
            raise MemoryError("libxml2")
        return real(text, depth)

    monkeypatch.setattr(parser, "_lxml_entries", once_broken)
    doc = parse("<sdf><a></b></sdf>")
    assert calls == [False, True]
    assert [p.code for p in doc.problems if p.is_error] == ["XML_ERROR"]


def test_line_starts_found_on_first_use_are_those_found_at_once():
    rnd = random.Random(3)
    for _ in range(200):
        text = "".join(rnd.choice(["a", "\n", "\r", "\r\n", "é", "😀", " "]) for _ in range(rnd.randrange(0, 60)))
        expected = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
        lazy = LineIndex(text)
        assert [lazy.line_of(i) for i in range(len(text) + 1)] == [
            bisect.bisect_right(expected, i) - 1 for i in range(len(text) + 1)
        ]
        assert list(lazy.starts) == expected
