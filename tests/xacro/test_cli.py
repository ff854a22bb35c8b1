"""`sdformat-lsp xacro FILE [name:=value ...] [-o OUT]`: the expansion on stdout or in OUT, errors
located on stderr with exit 1."""

from __future__ import annotations

from sdformat_lsp.cli import main

DOC = """<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="side" default="left"/>
  <link name="$(arg side)_wheel"/>
</robot>
"""


def test_prints_the_expansion_with_arguments(tmp_path, capsys):
    f = tmp_path / "r.urdf.xacro"
    f.write_text(DOC)
    assert main(["xacro", str(f), "side:=right", "_ignored:=x"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('<?xml version="1.0" ?>\n<!-- ====')
    assert '<link name="right_wheel"/>' in out


def test_writes_the_output_file(tmp_path, capsys):
    f = tmp_path / "r.urdf.xacro"
    f.write_text(DOC)
    out = tmp_path / "sub" / "r.urdf"
    assert main(["xacro", str(f), "-o", str(out)]) == 0
    assert '<link name="left_wheel"/>' in out.read_text()
    assert capsys.readouterr().out == ""


def test_errors_are_located_on_stderr_with_exit_1(tmp_path, capsys):
    f = tmp_path / "r.urdf.xacro"
    f.write_text(DOC.replace("$(arg side)", "${sid}"))
    assert main(["xacro", str(f)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{f}:3:17: error: the property 'sid' is not defined; did you mean the argument $(arg side)?" in captured.err


def test_a_missing_file_is_an_error(tmp_path, capsys):
    assert main(["xacro", str(tmp_path / "nope.xacro")]) == 1
    assert "nope.xacro" in capsys.readouterr().err


def test_find_uses_the_shared_package_lookup(tmp_path, capsys, monkeypatch):
    pkg = tmp_path / "ws" / "my_description"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "package.xml").write_text("<package><name>my_description</name></package>")
    (pkg / "urdf" / "parts.xacro").write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:macro name="part"><link name="p"/></xacro:macro></robot>'
    )
    doc = tmp_path / "elsewhere" / "r.urdf.xacro"
    doc.parent.mkdir()
    doc.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:include filename="$(find my_description)/urdf/parts.xacro"/><xacro:part/></robot>'
    )
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(tmp_path / "ws"))
    assert main(["xacro", str(doc)]) == 0
    assert '<link name="p"/>' in capsys.readouterr().out
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(tmp_path / "nothing"))
    assert main(["xacro", str(doc)]) == 1
    err = capsys.readouterr().err
    assert "package 'my_description' was not found" in err and "ROS_PACKAGE_PATH" in err
