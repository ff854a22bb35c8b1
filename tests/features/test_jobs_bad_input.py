"""Bad input for print, graph, inertial-stats and format: one line saying what stops the job, with the
place, exit status 1, nothing on standard output, and no file written."""

from __future__ import annotations

import os
import re

import pytest

from sdformat_lsp.cli import main

HALF = '<sdf version="1.9">\n<model name="m">\n  <link name="l">\n    <pose>1 2\n'  # typing stopped here
BROKEN_REF = '<sdf version="1.9"><model name="m"><link name="l"/><frame name="f" attached_to="nope"/></model></sdf>\n'
MISSING_INCLUDE = '<sdf version="1.9"><world name="w"><include><uri>model://nowhere</uri></include></world></sdf>\n'


def make(tmp_path, kind: str) -> str:
    path = tmp_path / f"{kind}.sdf"
    if kind == "half":
        path.write_text(HALF)
    elif kind == "broken_reference":
        path.write_text(BROKEN_REF)
    elif kind == "missing_include":
        path.write_text(MISSING_INCLUDE)
    elif kind == "binary":
        path.write_bytes(b"<sdf>\x00\x01\x02")
    elif kind == "not_utf8":
        path.write_bytes(b'<sdf version="1.9"><model name="m\xff"><link name="l"/></model></sdf>')
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    return str(path)  # "missing": never created


KINDS = ["half", "broken_reference", "missing_include", "binary", "not_utf8", "fifo", "directory", "missing"]


@pytest.mark.parametrize("command", ["print", "graph", "inertial-stats"])
@pytest.mark.parametrize("kind", KINDS)
def test_jobs_that_need_a_sound_document_say_what_stops_them(tmp_path, capsys, command, kind):
    if kind == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    path = make(tmp_path, kind)
    assert main([command, path]) == 1
    out, err = capsys.readouterr()
    if command == "print" and kind in ("broken_reference", "missing_include"):
        # libsdformat builds these, so they are printed as `gz sdf -p` prints them, errors on stderr after (issue 24)
        assert out.startswith("<?xml") and "nowhere" not in out
        [line] = err.splitlines()
        assert re.match(re.escape(path) + r":\d+:\d+: error\[", line), line
        return
    assert out == ""
    [line] = err.splitlines()
    assert re.match(re.escape(path) + r":\d+:\d+: ", line), line


@pytest.mark.parametrize("kind", ["half", "binary", "not_utf8", "fifo", "directory", "missing"])
def test_format_refuses_what_it_cannot_format_safely_and_writes_nothing(tmp_path, capsys, kind):
    path = make(tmp_path, kind)
    before = sorted(p.name for p in tmp_path.iterdir())
    data = open(path, "rb").read() if os.path.isfile(path) else None
    assert main(["format", path]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    first = err.splitlines()[0]
    assert first.startswith(path + ":") and "cannot" in first, first
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no temporary file left behind
    if data is not None:
        assert open(path, "rb").read() == data
