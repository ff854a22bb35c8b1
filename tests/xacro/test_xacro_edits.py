"""The editor's shortcuts on xacro documents give what the full path gives.

An analysis of a xacro document in the editor reuses what it can: the read
trees of unchanged included files (``DocumentCache``, with the macros'
definitions shared, not copied) and the XML tree of the expansion made while
writing it (``xml.built``, instead of scanning the text again). These tests
hold them to the uncached path: after a sequence of edits of the document and
of a library it includes (some breaking it), the expansion, the tree and every
diagnostic are those of an analysis from nothing.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from sdformat_lsp.formats.xacro import expand
from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.semantics import xacro_documents
from sdformat_lsp.xml import parse, parse_built

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import xacro_robot  # noqa: E402

CORPUS = Path("/work/corpus-xacro/src")


def tree_dump(doc) -> tuple:
    """Everything of an XML document the analysis reads: each element's slots, attributes, children
    and parent (as positions in document order), the problems."""
    order = {id(el): i for i, el in enumerate(doc.iter())}
    elements = []
    for el in doc.iter():
        parent = el.parent
        elements.append(
            (
                el.tag,
                el.ts,
                el.stag_end,
                el.end,
                el.etag_start,
                el.closed,
                el.self_closing,
                el.text,
                el.text_span,
                tuple((a.name, a.value, a.ns, a.ne, a.vs, a.ve, a.terminated) for a in el.attributes.values()),
                tuple(order[id(c)] for c in el.children),
                None if parent is None else order[id(parent)],
            )
        )
    problems = [(d.code, d.severity, d.message, d.span) for d in doc.problems]
    return elements, problems, doc.has_doctype, len(doc.half_typed)


def diagnostics_dump(analysis) -> list:
    return [
        (d.code, d.severity, d.message, d.span, d.path, tuple((r.span, r.message, r.path) for r in d.related))
        for d in analysis.diagnostics
    ]


def written_and_scanned(path: str, find_package) -> tuple | None:
    expansion = expand(path, find_package=find_package, tree=True)
    tree = expansion.tree
    if not expansion.text or tree is None or not tree.complete or tree.root is None:
        return None
    return tree_dump(parse_built(expansion.text, tree.root, tree.depth)), tree_dump(parse(expansion.text))


@pytest.fixture
def robot(tmp_path, monkeypatch):
    from sdformat_lsp import packages

    packages.forget_crawls()
    for var in ("ROS_PACKAGE_PATH", "AMENT_PREFIX_PATH"):
        monkeypatch.delenv(var, raising=False)
    top = xacro_robot.write_robot(tmp_path)
    yield top
    packages.forget_crawls()


def test_the_tree_made_while_writing_is_the_tree_the_scanner_reads(robot, tmp_path):
    from sdformat_lsp.semantics.xacro_documents import _finder  # noqa: F401  (the editor's package lookup)

    find = xacro_documents._finder(str(robot.parent), Options())
    got = written_and_scanned(str(robot), find)
    assert got is not None
    assert got[0] == got[1]
    # comments and processing instructions inside elements, entities, empty and one-text elements,
    # attributes needing escapes, deep nesting: each as the scanner reads it
    odd = tmp_path / "odd.urdf.xacro"
    odd.write_text(
        '<?xml version="1.0"?>\n<!-- top -->\n<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:property name="q" value="a &amp; &lt;b&gt; &quot;c&quot;"/>\n'
        '  <link name="${q}"><!-- only a comment --></link>\n'
        "  <link name='x'><?pi data?></link>\n"
        '  <link name="y">  </link>\n  <link name="z"/>\n  <e>  text &amp; more  </e>\n'
        + "".join(f"<d{i}>" for i in range(40))
        + "deep"
        + "".join(f"</d{i}>" for i in reversed(range(40)))
        + "\n</robot>\n"
    )
    got = written_and_scanned(str(odd), None)
    assert got is not None and got[0] == got[1]
    # what the builder does not make (text beside child elements, CDATA) is parsed instead
    mixed = tmp_path / "mixed.urdf.xacro"
    mixed.write_text('<robot name="r"><a>text<b/></a><c><![CDATA[x]]></c></robot>')
    expansion = expand(str(mixed), tree=True)
    assert expansion.tree is not None and not expansion.tree.complete


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the xacro corpus (/work/corpus-xacro) is not laid out")
def test_the_tree_made_while_writing_real_expansions_is_the_scanners():
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    from xacro_oracle import packages_index

    find = packages_index([str(CORPUS)]).get
    files = sorted(str(p) for p in CORPUS.rglob("*.xacro"))[::5]  # a fifth of them: CI stays quick
    compared = 0
    for path in files:
        got = written_and_scanned(path, find)
        if got is None:
            continue
        assert got[0] == got[1], path
        compared += 1
    assert compared >= 30


def _fresh_caches(monkeypatch) -> None:
    """The uncached path: no read tree kept from an earlier analysis."""
    monkeypatch.setattr(xacro_documents, "_caches", threading.local())


def test_edits_of_a_document_and_its_library_give_the_analysis_from_nothing(robot, monkeypatch):
    top_text = robot.read_text()
    wheels = robot.parent / "wheels.xacro"
    wheels_text = wheels.read_text()
    open_texts: dict[str, str] = {}
    options = Options(open_documents=lambda p: (open_texts[p], None) if p in open_texts else None)
    at = top_text.index('<origin xyz="0.') + len('<origin xyz="0.')
    edits = [
        ("top", top_text[:at] + "7" + top_text[at + 1 :]),
        ("wheels", wheels_text.replace('radius="${p0 + 0.1}"', 'radius="${p0 + 0.3}"', 1)),
        ("top", top_text.replace("<xacro:wheel0 ", '<xacro:wheel0 bogus="1" ', 1)),  # an unknown parameter
        ("wheels", wheels_text.replace("${p0 + 0.1}", "${p_missing + 0.1}", 1)),  # an unknown property
        ("top", top_text.replace("</robot>", "  <link name=\n</robot>", 1)),  # being typed
        ("wheels", wheels_text.replace('<xacro:macro name="wheel0"', '<xacro:macro name="wheelX"', 1)),
        ("top", top_text),
        ("wheels", wheels_text),
    ]
    current = {"top": top_text}
    analyze(top_text, str(robot), options)  # the caches warm
    for which, text in edits:
        if which == "wheels":
            open_texts[os.path.abspath(str(wheels))] = text
        else:
            current["top"] = text
        warm = analyze(current["top"], str(robot), options)
        with monkeypatch.context() as m:
            _fresh_caches(m)
            cold = analyze(current["top"], str(robot), options)
        assert diagnostics_dump(warm) == diagnostics_dump(cold), which
        w, c = warm.xacro, cold.xacro
        assert (w is None) == (c is None)
        if w is None:
            continue
        assert w.expansion.text == c.expansion.text
        assert [(d.kind, d.name) for d in w.expansion.definitions] == [
            (d.kind, d.name) for d in c.expansion.definitions
        ]
        if w.expanded is not None:
            # the expansion's own analysis, from its written tree, is that of its text parsed
            parsed = analyze(
                w.expansion.text,
                str(robot),
                Options(expand_xacro=False, suppressions=False, open_documents=options.open_documents),
            )
            assert tree_dump(w.expanded.xml) == tree_dump(parsed.xml)
            assert diagnostics_dump(w.expanded) == diagnostics_dump(parsed)
