"""`sdformat-lsp format`: in place, --check, --diff, standard input, and files it must not write."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

MESSY = '<sdf version="1.9">\r\n<model name="m">\r\n      <link name="l"/>\r\n</model>\r\n</sdf>\r\n'
CLEAN = '<sdf version="1.9">\r\n  <model name="m">\r\n    <link name="l"/>\r\n  </model>\r\n</sdf>\r\n'
BROKEN = '<sdf version="1.9">\n<model name="m">\n   <link name="l">\n</model>\n</sdf>\n'


def run(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "format", *args], cwd=cwd, input=stdin, capture_output=True, timeout=60
    )


def test_in_place_keeps_bom_and_line_endings(tmp_path):
    (tmp_path / "a.sdf").write_bytes(b"\xef\xbb\xbf" + MESSY.encode())
    (tmp_path / "b.sdf").write_bytes(CLEAN.encode())
    r = run("a.sdf", "b.sdf", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "a.sdf").read_bytes() == b"\xef\xbb\xbf" + CLEAN.encode()
    assert b"reformatted a.sdf" in r.stderr and b"b.sdf" not in r.stderr.replace(b"2 file(s)", b"")


def test_check_lists_files_and_exits_1_only_when_something_would_change(tmp_path):
    (tmp_path / "a.sdf").write_bytes(MESSY.encode())
    (tmp_path / "b.sdf").write_bytes(CLEAN.encode())
    r = run("--check", "a.sdf", "b.sdf", cwd=tmp_path)
    assert r.returncode == 1 and r.stdout.decode().splitlines() == ["would reformat a.sdf"]
    assert (tmp_path / "a.sdf").read_bytes() == MESSY.encode()  # nothing written
    assert run("--check", "b.sdf", cwd=tmp_path).returncode == 0


def test_diff_prints_a_unified_diff_and_writes_nothing(tmp_path):
    (tmp_path / "a.sdf").write_bytes(MESSY.encode())
    r = run("--diff", "a.sdf", cwd=tmp_path)
    out = r.stdout.decode()
    assert r.returncode == 0 and out.startswith("--- a.sdf\n+++ a.sdf\n")
    assert '-      <link name="l"/>' in out and '+    <link name="l"/>' in out
    assert (tmp_path / "a.sdf").read_bytes() == MESSY.encode()


def test_standard_input_to_standard_output_with_tabs(tmp_path):
    r = run("--tabs", "-", cwd=tmp_path, stdin=MESSY.encode())
    assert r.returncode == 0 and r.stdout.decode() == CLEAN.replace("    ", "\t\t").replace("  ", "\t")


def test_broken_files_are_reported_with_a_location_and_never_written(tmp_path):
    (tmp_path / "bad.sdf").write_bytes(BROKEN.encode())
    (tmp_path / "latin1.sdf").write_bytes('<sdf version="1.9"><model name="caf\xe9"/></sdf>'.encode("latin-1"))
    (tmp_path / "a.sdf").write_bytes(MESSY.encode())
    r = run("bad.sdf", "latin1.sdf", "missing.sdf", "a.sdf", cwd=tmp_path)
    err = r.stderr.decode()
    assert r.returncode == 1
    assert "bad.sdf:3:5: cannot format: <link> is never closed" in err
    assert "latin1.sdf: cannot format: not UTF-8" in err and "missing.sdf: cannot read" in err
    assert (tmp_path / "bad.sdf").read_bytes() == BROKEN.encode()
    assert (tmp_path / "a.sdf").read_bytes() == CLEAN.encode()  # the good file is still formatted
    r = run("-", cwd=tmp_path, stdin=BROKEN.encode())
    assert r.returncode == 1 and r.stdout == b"" and b"<stdin>:3:5: cannot format" in r.stderr


def test_special_files_are_refused_without_blocking(tmp_path):
    import os

    fifo = tmp_path / "pipe.sdf"
    os.mkfifo(fifo)
    r = run("pipe.sdf", cwd=tmp_path)
    assert r.returncode == 1 and b"pipe.sdf: cannot read:" in r.stderr


FOUR = '<?xml version="1.0"?>\n<sdf version="1.9">\n    <model name="m">\n        <link name="l">\n            <pose>0 0 1 0 0 0</pose>\n      </link>\n    </model>\n</sdf>\n'


def test_a_file_keeps_its_own_consistent_indentation_when_nothing_configures_it(tmp_path):
    """Issue 24: a file written with four spaces (one stray line) stays at four; the stray line is
    brought to four. A flag or the configuration still decides over the file."""
    (tmp_path / "four.sdf").write_text(FOUR)
    r = run("--diff", "four.sdf", cwd=tmp_path)
    assert r.returncode == 0
    assert r.stdout.decode().count("\n+ ") == 1 and "+        </link>" in r.stdout.decode()
    tabbed = '<sdf version="1.9">\n\t<model name="m">\n\t\t<link name="l">\n\t\t\t<pose>0 0 1 0 0 0</pose>\n\t\t</link>\n\t</model>\n</sdf>\n'
    (tmp_path / "tabs.sdf").write_text(tabbed)
    assert run("--check", "tabs.sdf", cwd=tmp_path).returncode == 0
    r = run("--indent", "2", "-", cwd=tmp_path, stdin=FOUR.encode())
    assert '\n  <model name="m">\n    <link name="l">\n' in r.stdout.decode()
    (tmp_path / "sdformat-lsp.toml").write_text("[format]\nindent-width = 3\n")
    r = run("-", cwd=tmp_path, stdin=FOUR.encode())
    assert '\n   <model name="m">\n      <link name="l">\n' in r.stdout.decode()


def test_no_consistent_indentation_is_two_spaces():
    from sdformat_lsp.formatting import from_text
    from sdformat_lsp.formatting.engine import written_unit

    assert written_unit(MESSY) is None and written_unit(BROKEN) is None
    assert written_unit(CLEAN) == "  " and written_unit(FOUR) == "    "
    assert written_unit('<sdf version="1.9"><model name="m"/></sdf>') is None  # nothing indented
    assert from_text(FOUR).width == 4 and from_text(FOUR).style == "space"
