"""scripts/realworld.py: the comparison with `gz sdf --check` that the project is measured by on real files."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _script():
    spec = importlib.util.spec_from_file_location("realworld_script", ROOT / "scripts" / "realworld.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


rw = _script()


def test_model_roots_are_the_directories_holding_model_directories(tmp_path):
    for d in ("repo/models/a", "repo/models/b", "repo/extra/c", "repo/worlds"):
        (tmp_path / d).mkdir(parents=True)
    for d in ("repo/models/a", "repo/models/b", "repo/extra/c"):
        (tmp_path / d / "model.config").write_text("<model/>")
    assert rw.model_roots(tmp_path / "repo") == [
        str((tmp_path / "repo/extra").resolve()),
        str((tmp_path / "repo/models").resolve()),
    ]


def test_repositories_get_their_own_search_path_and_libsdformat_tests_are_left_out(tmp_path):
    for repo in ("one", "two", "gazebosim+sdformat"):
        (tmp_path / repo / "models" / "m").mkdir(parents=True)
        (tmp_path / repo / "models" / "m" / "model.config").write_text("<model/>")
        (tmp_path / repo / "models" / "m" / "model.sdf").write_text(
            '<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>'
        )
    (tmp_path / "gazebosim+sdformat" / "test").mkdir()
    (tmp_path / "gazebosim+sdformat" / "test" / "t.sdf").write_text("<sdf/>")
    docs = rw.collect([str(tmp_path)], True, list(rw.DEFAULT_EXCLUDE))
    by_repo = {Path(d.path).relative_to(tmp_path.resolve()).parts[0]: d.search for d in docs}
    assert sorted(by_repo) == ["gazebosim+sdformat", "one", "two"]  # its models, not its tests
    assert by_repo["one"] == (str((tmp_path / "one" / "models").resolve()),)
    assert not any("/test/" in d.path for d in docs)


def _fake_checker(tmp_path: Path, stderr: str, status: int) -> str:
    script = tmp_path / "fake_check"
    (tmp_path / "stderr.txt").write_text(stderr)
    script.write_text(f"#!/bin/sh\ncat '{tmp_path / 'stderr.txt'}' >&2\nexit {status}\n")
    script.chmod(0o755)
    return str(script)


def test_libsdformat_output_is_read_into_codes(tmp_path):
    # sdferr messages carry no line end, error paths hold brackets, check-phase messages carry no code
    stderr = (
        "\x1b[1;31mError [Utils.cc:176]\x1b[0m Tried to use callback in sdf::findFile(), but the callback is empty."
        'Error Code 14: [/sdf/world[@name="w"]/include[0]/uri:/x/w.sdf:L9]: Msg: Unable to find uri[https://fuel.gazebosim.org/1.0/a/models/b]\n'
        'Error Code 17: [/sdf/world[@name="w"]/model[@name="m"]:/x/w.sdf:L3]: Msg: A model must have at least one link.\n'
        "\x1b[1;31mError [Utils.cc:176]\x1b[0m Error: Non-unique names detected in <model name='m'>"
    )
    v = rw.reference(_fake_checker(tmp_path, stderr, 1), str(tmp_path / "w.sdf"), (), 30)
    assert not v.valid and v.codes == {"URI_LOOKUP", "MODEL_WITHOUT_LINK", "PARSING_ERROR"}
    assert v.remote_only and v.first.startswith("URI_LOOKUP: Unable to find uri[https://")
    ok = rw.reference(_fake_checker(tmp_path, "", 0), str(tmp_path / "w.sdf"), (), 30)
    assert ok.valid and not ok.codes


def test_a_local_include_that_fails_is_no_fuel_deviation(tmp_path):
    stderr = (
        'Error Code 14: [/sdf/world[@name="w"]/include[0]/uri:/x/w.sdf:L9]: Msg: Unable to find uri[https://fuel.gazebosim.org/1.0/a/models/b]\n'
        'Error Code 14: [/sdf/world[@name="w"]/include[1]/uri:/x/w.sdf:L12]: Msg: Unable to find uri[model://local]\n'
    )
    assert not rw.reference(_fake_checker(tmp_path, stderr, 1), str(tmp_path / "w.sdf"), (), 30).remote_only


def test_the_report_on_the_fixtures_without_a_reference():
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "realworld.py"), "--no-reference", "--jobs", "1", str(FIXTURES)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT / "server")},
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("documents: ") and lines[1].startswith("valid here: ")
    assert "warnings+informations per document valid here: " in out.stdout


def test_the_fixtures_agree_with_libsdformat_main():
    checker = os.environ.get("SDF_CHECK")
    if not checker or not Path(checker).exists():
        pytest.skip("SDF_CHECK does not name libsdformat main's check")
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "realworld.py"), "--reference", checker, str(FIXTURES)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT / "server")},
    )
    n = out.stdout.splitlines()[0].split(": ")[1]
    assert f"verdict agreement: {n}/{n} = 100.0%" in out.stdout, out.stdout
