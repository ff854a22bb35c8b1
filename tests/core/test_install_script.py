"""scripts/install.py, the README's install step: its choices without the package index."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_install():
    spec = importlib.util.spec_from_file_location("sdformat_lsp_install_script", ROOT / "scripts" / "install.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_ensurepip_the_environment_uses_the_system_pip(tmp_path, monkeypatch):
    """Debian and Ubuntu without python3-venv: `python3 -m venv DIR` fails for want of ensurepip."""
    install = load_install()
    venv = str(tmp_path / "env")
    real_run = subprocess.run

    def run(command, *args, **kwargs):
        if command == [sys.executable, "-m", "venv", venv]:  # what Debian's python3 answers without python3-venv
            return subprocess.CompletedProcess(
                command,
                1,
                stdout=b"The virtual environment was not created successfully because ensurepip is not available.",
            )
        return real_run(command, *args, **kwargs)

    monkeypatch.setattr(install.subprocess, "run", run)
    assert install.create(venv) is None
    assert "include-system-site-packages = true" in (tmp_path / "env" / "pyvenv.cfg").read_text()
    assert install.works([install.bin_path(venv, "python"), "-m", "pip", "--version"])


def test_without_any_pip_it_says_what_to_install(tmp_path, monkeypatch, capsys):
    install = load_install()
    monkeypatch.setattr(install, "works", lambda command: False)
    monkeypatch.setattr(install, "create", lambda venv: "ensurepip is not available")
    assert install.main(["--venv", str(tmp_path / "env")]) == 1
    err = capsys.readouterr().err
    assert "apt install python3-venv" in err and "pipx or uv" in err


def test_an_old_python_is_told_the_minimum(tmp_path):
    candidates = [shutil.which("python3.9"), *sorted(Path.home().glob(".pyenv/versions/3.9*/bin/python3.9"))]
    runs = [c for c in candidates if c and subprocess.run([str(c), "-V"], capture_output=True).returncode == 0]
    if not runs:
        pytest.skip("no Python 3.9 here")
    old = runs[0]
    run = subprocess.run(
        [str(old), str(ROOT / "scripts" / "install.py"), "--venv", str(tmp_path / "v")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert "needs Python 3.10 or newer" in run.stderr
    assert not (tmp_path / "v").exists()


def test_a_directory_that_is_not_an_environment_is_left_alone(tmp_path, capsys):
    install = load_install()
    (tmp_path / "precious.txt").write_text("keep")
    assert install.main(["--venv", str(tmp_path)]) == 1
    assert (tmp_path / "precious.txt").read_text() == "keep"
    assert "is not a virtual environment" in capsys.readouterr().err
