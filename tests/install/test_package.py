"""The distributions an index would get: `python -m build` makes a wheel and an sdist that pass
`twine check`, with complete metadata; the wheel carries the schema data and runs from any directory."""

from __future__ import annotations

import email
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

from .helpers import ROOT, clean_env, fresh_copy


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    for module in ("build", "twine"):
        if subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True).returncode != 0:
            pytest.fail(
                f"{module} is not installed: pip install '.[release]' (scripts/test.sh does with --install-tests)"
            )
    copy = fresh_copy(tmp_path_factory.mktemp("src") / "sdformat-lsp")
    out = tmp_path_factory.mktemp("dist")
    # The default: an sdist first, then the wheel built from that sdist (so the sdist is complete).
    made = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(copy)], capture_output=True, text=True, timeout=900
    )
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    return out


def only(directory: Path, pattern: str) -> Path:
    found = list(directory.glob(pattern))
    assert len(found) == 1, found
    return found[0]


def test_twine_check_passes(dist):
    files = [str(only(dist, "*.whl")), str(only(dist, "*.tar.gz"))]
    run = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("PASSED") == 2


def test_metadata_is_complete(dist):
    with zipfile.ZipFile(only(dist, "*.whl")) as wheel:
        meta_name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        meta = email.message_from_string(wheel.read(meta_name).decode())
    assert meta["Name"] == "sdformat-lsp"
    assert meta["Requires-Python"] == ">=3.10"
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert "## Two commands" in meta.get_payload()
    classifiers = meta.get_all("Classifier")
    for version in ("3.10", "3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {version}" in classifiers
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(urls)
    requires = " ".join(meta.get_all("Requires-Dist"))
    for dependency in ("pygls", "lsprotocol", "lxml", "networkx"):
        assert dependency in requires


def test_the_wheel_carries_the_schema_data_and_the_sdist_the_sources(dist):
    with zipfile.ZipFile(only(dist, "*.whl")) as wheel:
        names = wheel.namelist()
    spec_data = [n for n in names if n.startswith("sdformat_lsp/spec/data/") and n.endswith(".json")]
    expected = list((ROOT / "server" / "sdformat_lsp" / "spec" / "data").glob("*.json"))
    assert expected and len(spec_data) == len(expected)
    assert "sdformat_lsp/py.typed" in names
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/", "scripts/"))]
    with tarfile.open(only(dist, "*.tar.gz")) as sdist:
        members = {m.split("/", 1)[1] for m in sdist.getnames() if "/" in m}
    assert {"README.md", "LICENSE", "pyproject.toml"} <= members


def test_the_installed_wheel_runs_from_any_directory(dist, tmp_path):
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    wheel = only(dist, "*.whl")
    run = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        timeout=900,
        env=clean_env("/usr/bin:/bin"),
    )
    assert run.returncode == 0, run.stderr[-3000:]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(ROOT / "examples" / "arm.sdf", elsewhere / "arm.sdf")
    shutil.copy(ROOT / "examples" / "broken_arm.sdf", elsewhere / "broken_arm.sdf")
    env = clean_env("/usr/bin:/bin")
    where = subprocess.run(
        [str(python), "-c", "import sdformat_lsp; print(sdformat_lsp.__file__)"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=env,
    )
    assert where.stdout.startswith(str(env_dir)), where.stdout + where.stderr  # not the checkout
    script = str(env_dir / "bin" / "sdformat-lsp")
    good = subprocess.run(
        [script, "check", "--frames", "arm.sdf"], cwd=elsewhere, capture_output=True, text=True, env=env, timeout=120
    )
    assert good.returncode == 0, good.stdout + good.stderr
    bad = subprocess.run(
        [script, "check", "--format", "json", "broken_arm.sdf"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert bad.returncode == 1 and '"code"' in bad.stdout, bad.stdout + bad.stderr
    # Schema checks need the packaged data: an unknown element is reported.
    (elsewhere / "unknown.sdf").write_text(
        '<sdf version="1.9"><model name="m"><link name="l"><colour/></link></model></sdf>\n'
    )
    unknown = subprocess.run(
        [script, "check", "--severity", "hint", "unknown.sdf"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert "colour" in unknown.stdout, unknown.stdout + unknown.stderr
    # A xacro robot that reads its values with load_yaml (as the ROS arm descriptions do) expands with
    # the installed dependencies alone: PyYAML comes with the package.
    (elsewhere / "limits.yaml").write_text("shoulder:\n  lower: -1.5\n  upper: 1.5\n")
    (elsewhere / "arm.urdf.xacro").write_text(
        '<robot name="arm" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:property name="limits" value="${xacro.load_yaml(\'limits.yaml\')}"/>\n'
        '  <link name="base"/>\n  <link name="upper"/>\n'
        '  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>\n'
        '    <limit lower="${limits.shoulder.lower}" upper="${limits[\'shoulder\'][\'upper\']}" effort="1" velocity="1"/>\n'
        "  </joint>\n</robot>\n"
    )
    expanded = subprocess.run(
        [script, "xacro", "arm.urdf.xacro"], cwd=elsewhere, capture_output=True, text=True, env=env, timeout=120
    )
    assert expanded.returncode == 0 and 'lower="-1.5" upper="1.5"' in expanded.stdout, expanded.stdout + expanded.stderr
