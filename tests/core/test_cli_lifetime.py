"""The program ends without freeing its analyses; in-process calls free them as usual."""

import gc
import subprocess
import sys
import weakref
from pathlib import Path

from sdformat_lsp import cli
from sdformat_lsp.cli import check, lifetime

ROOT = Path(__file__).resolve().parents[2]


def test_in_process_main_keeps_nothing(tmp_path, monkeypatch):
    f = tmp_path / "m.sdf"
    f.write_text('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>')
    made = []
    real = check.load_file

    def spy(path, options, **kw):
        a = real(path, options, **kw)
        made.append(weakref.ref(a))
        return a

    monkeypatch.setattr(check, "load_file", spy)
    assert cli.main(["check", str(f)]) == 0
    assert lifetime.KEPT is None
    assert made and made[0]() is None  # freed by reference counting when the check returned
    gc.collect()


def test_program_output_is_complete_and_exit_code_kept(tmp_path):
    # many diagnostics, so stdout holds more than one buffer when the process ends
    links = "".join(f'<frame name="f{i}" attached_to="missing{i}"/>' for i in range(2000))
    f = tmp_path / "many.sdf"
    f.write_text(f'<sdf version="1.9"><model name="m"><link name="l"/>{links}</model></sdf>')
    r = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "check", str(f)], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert r.returncode == 1
    heads = [line for line in r.stdout.splitlines() if not line.startswith(" ")]  # without source lines and carets
    assert len(heads) == 2000 and all("FRAME_ATTACHED_TO_INVALID" in line for line in heads)
    assert r.stderr.strip().endswith("1 file checked: 2000 errors, 0 warnings, 0 info, 0 hints")


def test_program_exit_zero_on_valid_file_with_json(tmp_path):
    f = tmp_path / "ok.sdf"
    f.write_text('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>')
    r = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "check", "--format", "json", str(f)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 0
    assert r.stdout.rstrip().endswith("}")
