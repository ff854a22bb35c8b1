"""Special and huge inputs (issue 11): refused before reading, at once, with one diagnostic;
included files analysed once per analysis; a budget on expanded model instances."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sdformat_lsp.cli.loading import load_file
from sdformat_lsp.files import FileRefused, read_file
from sdformat_lsp.semantics import Options, analyze
from sdformat_lsp.semantics.includes.resolver import IncludeCache

ROOT = Path(__file__).resolve().parents[2]
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "server"))
    # the timeout only guards against a hang (the bug was a block forever), it measures nothing
    return subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "check", *args], capture_output=True, text=True, env=env, timeout=60
    )


@needs_fifo
def test_check_refuses_a_fifo_at_once(tmp_path):
    fifo = tmp_path / "pipe.sdf"
    os.mkfifo(fifo)
    out = _cli(str(fifo))
    assert out.returncode == 1
    assert "FILE_READ" in out.stdout and "FIFO" in out.stdout
    assert "Traceback" not in out.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_check_refuses_a_device_at_once():
    out = _cli("--format", "json", "/dev/zero")
    assert out.returncode == 1
    assert '"FILE_READ"' in out.stdout and "character device" in out.stdout


@needs_fifo
def test_read_file_refuses_special_files_and_directories(tmp_path):
    os.mkfifo(tmp_path / "p")
    with pytest.raises(FileRefused) as exc:
        read_file(str(tmp_path / "p"))
    assert exc.value.kind == "special"
    with pytest.raises(FileRefused) as exc:
        read_file(str(tmp_path))
    assert exc.value.kind == "directory"
    with pytest.raises(FileRefused) as exc:
        read_file(str(tmp_path / "missing.sdf"))
    assert exc.value.kind == "unreadable"


def test_read_file_refuses_a_file_over_the_limit_without_reading_it(tmp_path):
    big = tmp_path / "big.sdf"
    big.write_bytes(b" " * 5000)
    assert read_file(str(big), 5000) == b" " * 5000
    with pytest.raises(FileRefused) as exc:
        read_file(str(big), 4999)
    assert exc.value.kind == "too-large"


def test_a_document_over_the_maximum_size_is_one_diagnostic():
    text = '<sdf version="1.9"><model name="m"><link name="l"/>' + " " * 1000 + "</model></sdf>"
    a = analyze(text, None, Options(max_document_bytes=1000))
    assert [d.code for d in a.diagnostics] == ["FILE_READ"]
    assert "maximum document size" in a.diagnostics[0].message
    assert a.lines.line_count == 1  # positions still map
    assert not analyze(text, None, Options(max_document_bytes=None)).diagnostics


def test_load_file_keeps_its_signature_and_applies_the_limit(tmp_path):
    f = tmp_path / "m.sdf"
    f.write_text('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>' + " " * 2000)
    assert not load_file(str(f), Options()).diagnostics
    (d,) = load_file(str(f), Options(max_document_bytes=1000)).diagnostics
    assert d.code == "FILE_READ" and d.is_error and "maximum document size" in d.message


def test_check_max_size_option(tmp_path):
    f = tmp_path / "m.sdf"
    f.write_text('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>' + " " * (2 << 20))
    out = _cli("--max-size", "1", str(f))
    assert out.returncode == 1 and "maximum document size" in out.stdout
    assert _cli("--max-size", "0", str(f)).returncode == 0


@needs_fifo
def test_an_include_naming_a_fifo_is_an_error_on_the_include(tmp_path):
    os.mkfifo(tmp_path / "pipe.sdf")
    text = '<sdf version="1.9"><world name="w"><include><uri>pipe.sdf</uri></include></world></sdf>'
    a = analyze(text, str(tmp_path / "w.sdf"), Options(include_cache=IncludeCache()))
    (d,) = [d for d in a.diagnostics if d.code == "FILE_READ"]
    assert d.is_error and "FIFO" in d.message
    assert text[d.span.start : d.span.end] == "pipe.sdf"


@needs_fifo
def test_a_model_config_that_is_a_fifo_is_refused(tmp_path):
    model = tmp_path / "models" / "m"
    model.mkdir(parents=True)
    os.mkfifo(model / "model.config")
    text = '<sdf version="1.9"><world name="w"><include><uri>model://m</uri></include></world></sdf>'
    a = analyze(
        text, str(tmp_path / "w.sdf"), Options(resource_paths=(str(tmp_path / "models"),), include_cache=IncludeCache())
    )
    assert any(d.code in ("FILE_READ", "URI_LOOKUP") and "FIFO" in d.message for d in a.diagnostics), a.diagnostics


def _fan_out(tmp_path: Path, files: int, width: int) -> Path:
    """``files`` files, each including the next ``width`` times: width ** files model instances."""
    for i in range(files):
        body = '<link name="l"/>'
        if i < files - 1:
            body += "".join(f"<include><uri>f{i + 1}.sdf</uri><name>c{k}</name></include>" for k in range(width))
        (tmp_path / f"f{i}.sdf").write_text(f'<sdf version="1.9"><model name="m{i}">{body}</model></sdf>')
    return tmp_path / "f0.sdf"


def test_included_files_are_analyzed_once_per_analysis(tmp_path):
    top = _fan_out(tmp_path, 6, 4)  # 4**5 = 1024 instances of f5, 1365 included models in all
    cache = IncludeCache()
    a = analyze(top.read_text(), str(top), Options(include_cache=cache))
    assert cache.misses == 5  # f1..f5, each read and analysed once
    assert sum(1 for n in a.graphs.nodes if n.kind == "model") == 1 + 4 + 16 + 64 + 256 + 1024
    assert not [d for d in a.diagnostics if d.is_error]


def test_a_budget_on_expanded_instances_gives_one_diagnostic_on_the_include(tmp_path):
    top = _fan_out(tmp_path, 6, 4)
    text = top.read_text()
    a = analyze(text, str(top), Options(include_cache=IncludeCache(), max_included_instances=300))
    limits = [d for d in a.diagnostics if d.code == "INCLUDE_LIMIT"]
    assert len(limits) == 1
    assert text[limits[0].span.start : limits[0].span.end] == "f1.sdf"
    assert sum(1 for n in a.graphs.nodes if n.kind == "model") <= 301


def test_the_include_cache_is_bounded_by_the_size_of_its_texts(tmp_path):
    cache = IncludeCache(max_chars=3000)
    for i in range(10):
        f = tmp_path / f"m{i}.sdf"
        f.write_text(f'<sdf version="1.9"><model name="m{i}"><link name="l"/></model></sdf>' + " " * 900)
        text = f'<sdf version="1.9"><world name="w"><include><uri>m{i}.sdf</uri></include></world></sdf>'
        analyze(text, str(tmp_path / "w.sdf"), Options(include_cache=cache))
    assert 1 <= len(cache) <= 3


def test_libxml2_builds_a_tree_only_when_a_text_run_could_exceed_its_limit():
    """Its tree (which would cost more than our whole analysis of a 100 MB world) is built only to
    get libxml2's verdict on a text node over its limit; a run of that length covers a whole window."""
    from sdformat_lsp.xml.parser import _may_hold_long_text

    tags = b"<a>" + b"<b>xy</b>" * 100 + b"</a>"
    assert not _may_hold_long_text(tags, limit=40)
    for at in (0, 17, 500):
        long_run = tags[:at] + b"t" * 40 + tags[at:]
        assert _may_hold_long_text(long_run, limit=40), at
