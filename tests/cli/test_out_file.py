"""`-o OUT` of the commands that write a document (xacro, convert): one helper, cli/out_file.py.

Each writes OUT through a temporary file renamed into place, makes OUT's directory, and says in
one line (exit 1, no traceback, nothing left behind) when OUT cannot be written."""

from __future__ import annotations

import pytest

from sdformat_lsp.cli import main

URDF = (
    '<?xml version="1.0"?>\n<robot name="r">\n  <link name="base">\n    <inertial>\n      <mass value="1"/>\n'
    '      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>\n    </inertial>\n  </link>\n</robot>\n'
)
XACRO = (
    '<?xml version="1.0"?>\n<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
    '  <xacro:property name="n" value="base"/>\n  <link name="${n}"/>\n</robot>\n'
)
COMMANDS = {
    "xacro": (XACRO, "r.urdf.xacro", [], '<link name="base"/>'),
    "convert": (URDF, "r.urdf", ["--to", "sdf"], '<link name="base">'),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_output_file_is_written_whole_in_a_new_directory(command, tmp_path, capsys):
    text, name, extra, expected = COMMANDS[command]
    src = tmp_path / name
    src.write_text(text)
    out = tmp_path / "new" / "dir" / "out.txt"
    assert main([command, str(src), *extra, "-o", str(out)]) == 0
    assert expected in out.read_text()
    assert capsys.readouterr().out == ""
    assert sorted(p.name for p in out.parent.iterdir()) == ["out.txt"]  # no temporary file left


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_output_that_cannot_be_written_is_one_message(command, tmp_path, capsys):
    text, name, extra, _ = COMMANDS[command]
    src = tmp_path / name
    src.write_text(text)
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a directory")
    out = blocker / "out.txt"
    assert main([command, str(src), *extra, "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("cannot write the output") == 1
    assert captured.err.startswith(f"{out}: cannot write the output: ")
    assert "Traceback" not in captured.err
    assert blocker.read_text() == "a file, not a directory"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_existing_output_is_replaced_whole(command, tmp_path, capsys):
    text, name, extra, expected = COMMANDS[command]
    src = tmp_path / name
    src.write_text(text)
    out = tmp_path / "out.txt"
    out.write_text("old " * 10_000)
    assert main([command, str(src), *extra, "-o", str(out)]) == 0
    written = out.read_text()
    assert expected in written and "old" not in written


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_without_output_the_document_goes_to_stdout(command, tmp_path, capsys):
    text, name, extra, expected = COMMANDS[command]
    src = tmp_path / name
    src.write_text(text)
    assert main([command, str(src), *extra]) == 0
    assert expected in capsys.readouterr().out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_output_file_gets_the_permissions_of_a_file_written_in_place(command, tmp_path, capsys):
    """Written through a temporary file (created 0o600), OUT still reads as any new file would: 0o666 less the
    umask; a file replaced keeps its own permissions."""
    import os
    import stat

    text, name, extra, _ = COMMANDS[command]
    src = tmp_path / name
    src.write_text(text)
    umask = os.umask(0o022)
    try:
        new = tmp_path / "new.out"
        assert main([command, *extra, str(src), "-o", str(new)]) == 0
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        kept = tmp_path / "kept.out"
        kept.write_text("old")
        kept.chmod(0o640)
        assert main([command, *extra, str(src), "-o", str(kept)]) == 0
        assert stat.S_IMODE(kept.stat().st_mode) == 0o640
    finally:
        os.umask(umask)
