"""`graph`: the attached-to, relative-to and kinematic graphs as DOT and Mermaid."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sdformat_lsp.features.graph_export import frame_graph, to_dot, to_mermaid
from sdformat_lsp.semantics import analyze

ROOT = Path(__file__).resolve().parents[2]
NESTED = """<sdf version="1.9">
  <model name="top">
    <link name="base"/>
    <model name="arm">
      <link name="l1"/>
      <link name="l2"/>
      <joint name="j" type="revolute"><parent>l1</parent><child>l2</child><axis><xyz>0 0 1</xyz></axis></joint>
      <frame name="tip" attached_to="l2"><pose relative_to="j">0 0 1 0 0 0</pose></frame>
    </model>
    <joint name="mount" type="fixed"><parent>base</parent><child>arm::l1</child></joint>
  </model>
</sdf>
"""


def graphs():
    a = analyze(NESTED, "/tmp/graph-test.sdf")
    assert not a.has_errors
    return a.graphs


def edges(g):
    return {(e.source, e.target, e.label) for e in g.edges}


def test_kinematic_tree_follows_joints_across_scopes():
    g = frame_graph(graphs(), "kinematic")
    assert edges(g) == {("base", "arm::l1", "mount (fixed)"), ("arm::l1", "arm::l2", "j (revolute)")}
    assert {n.kind for n in g.nodes} == {"link"}


def test_attached_to_and_relative_to_edges_say_what_made_them():
    att = edges(frame_graph(graphs(), "attached-to"))
    assert ("arm::tip", "arm::l2", 'attached_to="l2"') in att
    assert ("arm::j", "arm::l2", "<child>l2") in att
    assert ("arm", "arm::l1", "default: first link") in att
    rel = edges(frame_graph(graphs(), "relative-to"))
    assert ("arm::tip", "arm::j", 'relative_to="j"') in rel
    assert ("arm::j", "arm::l2", "default: <child>l2") in rel
    assert ("arm::l1", "arm", "default") in rel


def test_scope_keeps_one_nested_model():
    g = frame_graph(graphs(), "attached-to", "arm")
    assert {n.id for n in g.nodes} == {"arm", "arm::l1", "arm::l2", "arm::j", "arm::tip"}
    with pytest.raises(KeyError):
        frame_graph(graphs(), "attached-to", "nope")


def test_dot_and_mermaid_text():
    g = frame_graph(graphs(), "attached-to")
    dot = to_dot(g)
    assert (
        dot.startswith('digraph "attached-to" {') and '"arm::tip" -> "arm::l2" [label="attached_to=\\"l2\\""];' in dot
    )
    assert '"__model__" [label="model\\ntop", shape=box3d];' in dot
    mer = to_mermaid(g)
    assert mer.startswith("graph BT\n") and "#quot;" in mer and '-->|"' in mer


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz (dot) is not installed")
def test_graphviz_renders_every_kind(tmp_path):
    path = tmp_path / "nested.sdf"
    path.write_text(NESTED)
    for kind in ("attached-to", "relative-to", "kinematic"):
        out = subprocess.run(
            [sys.executable, "-m", "sdformat_lsp", "graph", "--kind", kind, str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 0, out.stderr
        svg = subprocess.run(["dot", "-Tsvg"], input=out.stdout, capture_output=True, text=True, timeout=60)
        assert svg.returncode == 0 and "<svg" in svg.stdout, svg.stderr


def test_cli_errors(tmp_path):
    path = tmp_path / "nested.sdf"
    path.write_text(NESTED)
    bad = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "graph", "--scope", "nope", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 1 and "no nested model 'nope'; scopes: arm" in bad.stderr
    (tmp_path / "broken.sdf").write_text('<sdf version="1.9"><model name="m"><link name="l">')
    broken = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "graph", str(tmp_path / "broken.sdf")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert broken.returncode == 1 and broken.stdout == "" and "broken.sdf:1:" in broken.stderr
