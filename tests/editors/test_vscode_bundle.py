"""The platform .vsix files' logic, without building them all (that takes about 30 s a platform:
``node scripts/package.mjs --all`` does it and checks each .vsix with the same code).

- ``bundle_server.verify``: what makes a bundle right for a target (the server, every pure
  dependency, lxml for each CPython built for that OS, CPU and C library), shown to fail on
  bundles that are wrong in each of those ways;
- ``run.py``, the launcher the .vsix carries: it picks the lxml of the CPython that runs it
  (run here with every CPython 3.10-3.13 found on PATH), and refuses a bundle of another
  platform with one sentence saying which .vsix to install.
"""

from __future__ import annotations

import importlib.util
import json
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "vscode-extension" / "scripts" / "bundle_server.py"


def _load():
    spec = importlib.util.spec_from_file_location("bundle_server", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bs = _load()


def _elf(machine: int) -> bytes:
    head = bytearray(64)
    head[:4] = b"\x7fELF"
    head[4], head[5] = 2, 1  # 64-bit, little-endian
    head[18:20] = machine.to_bytes(2, "little")
    return bytes(head)


def _macho(*cpus: int) -> bytes:
    if len(cpus) == 1:
        return b"\xcf\xfa\xed\xfe" + cpus[0].to_bytes(4, "little") + bytes(56)
    table = b"".join(c.to_bytes(4, "big") + bytes(16) for c in cpus)
    return b"\xca\xfe\xba\xbe" + len(cpus).to_bytes(4, "big") + table


def _pe(machine: int) -> bytes:
    head = bytearray(0x100)
    head[:2] = b"MZ"
    head[0x3C:0x40] = (0x80).to_bytes(4, "little")
    head[0x80:0x84] = b"PE\0\0"
    head[0x84:0x86] = machine.to_bytes(2, "little")
    return bytes(head)


def test_binary_kind_reads_the_format_and_cpu():
    assert bs.binary_kind(_elf(62)) == ("elf", {"x64"})
    assert bs.binary_kind(_elf(183)) == ("elf", {"arm64"})
    assert bs.binary_kind(_macho(0x01000007)) == ("macho", {"x64"})
    assert bs.binary_kind(_macho(0x01000007, 0x0100000C)) == ("macho", {"x64", "arm64"})  # universal2
    assert bs.binary_kind(_pe(0x8664)) == ("pe", {"x64"})
    assert bs.binary_kind(_pe(0xAA64)) == ("pe", {"arm64"})
    assert bs.binary_kind(b"#!/bin/sh\n") == ("unknown", set())


def _fake_bundle(root: Path, target: str, binary: bytes, *, name: str | None = None, wheel: str | None = None) -> Path:
    """A bundle laid out as bundle_server.py lays it out, with ``binary`` as every compiled lxml.etree."""
    (root / "server" / "sdformat_lsp").mkdir(parents=True)
    (root / "server" / "sdformat_lsp" / "__main__.py").write_text("")
    for dep in ("pygls", "lsprotocol", "cattrs", "attrs", "networkx", "tomli", "exceptiongroup"):
        (root / "libs" / "common" / dep).mkdir(parents=True)
    (root / "libs" / "common" / "typing_extensions.py").write_text("")
    tag, fmt, _ = bs.EXPECT[target]
    family = {
        "manylinux": "manylinux_2_17_x86_64",
        "musllinux": "musllinux_1_2_x86_64",
        "macosx": "macosx_10_9_universal2",
        "win_amd64": "win_amd64",
    }[bs.WHEEL_FAMILY[target]]
    for version in bs.PYTHONS:
        cp = "cp" + version.replace(".", "")
        lxml = root / "libs" / cp / "lxml"
        lxml.mkdir(parents=True)
        (lxml / "__init__.py").write_text("")
        (root / "libs" / cp / "yaml").mkdir()
        (root / "libs" / cp / "yaml" / "__init__.py").write_text("")
        suffix = "x86_64-linux-gnu" if target == "alpine-x64" and version == "3.10" else tag
        module = name or (f"etree.{cp}-{suffix}.pyd" if fmt == "pe" else f"etree.cpython-{cp[2:]}-{suffix}.so")
        (lxml / module.replace("{cp}", cp)).write_bytes(binary)
        info = root / "libs" / cp / "lxml-6.1.3.dist-info"
        info.mkdir()
        (info / "WHEEL").write_text(f"Wheel-Version: 1.0\nTag: {cp}-{cp}-{wheel or family}\n")
    (root / "run.py").write_text(bs.RUN_PY.format(target=target, pythons=", ".join(bs.PYTHONS)))
    (root / "bundle.json").write_text(json.dumps({"target": target}))
    return root


@pytest.mark.parametrize(
    "target, binary",
    [
        ("linux-x64", _elf(62)),
        ("linux-arm64", _elf(183)),
        ("alpine-x64", _elf(62)),
        ("darwin-x64", _macho(0x01000007)),
        ("darwin-arm64", _macho(0x01000007, 0x0100000C)),
        ("win32-x64", _pe(0x8664)),
    ],
)
def test_a_right_bundle_passes_for_each_target(tmp_path, target, binary):
    assert bs.verify(_fake_bundle(tmp_path / target, target, binary), target) == []


def test_wrong_bundles_fail_each_way(tmp_path):
    # lxml for another CPU (an x64 build in the arm64 bundle)
    problems = bs.verify(_fake_bundle(tmp_path / "a", "linux-arm64", _elf(62)), "linux-arm64")
    assert len(problems) == 4 and all("not elf for arm64" in p for p in problems)
    # a glibc wheel in the Alpine (musl) bundle
    problems = bs.verify(
        _fake_bundle(tmp_path / "b", "alpine-x64", _elf(62), wheel="manylinux_2_17_x86_64"), "alpine-x64"
    )
    assert any("musllinux" in p for p in problems)
    # a Linux module in the Windows bundle
    problems = bs.verify(
        _fake_bundle(tmp_path / "c", "win32-x64", _elf(62), name="etree.cpython-311-x86_64-linux-gnu.so"), "win32-x64"
    )
    assert any("no compiled lxml.etree" not in p and "win_amd64" in p for p in problems)
    # arm64-only Mach-O in the Intel Mac bundle
    problems = bs.verify(_fake_bundle(tmp_path / "d", "darwin-x64", _macho(0x0100000C)), "darwin-x64")
    assert any("not macho for x64" in p for p in problems)
    # a bundle checked for another target, and one missing a dependency and a CPython
    ok = _fake_bundle(tmp_path / "e", "linux-x64", _elf(62))
    assert any("bundle.json says target 'linux-x64'" in p for p in bs.verify(ok, "linux-arm64"))
    shutil.rmtree(ok / "libs" / "common" / "networkx")
    shutil.rmtree(ok / "libs" / "cp312")
    shutil.rmtree(ok / "libs" / "cp311" / "yaml")
    problems = bs.verify(ok, "linux-x64")
    assert "libs/common/networkx is missing" in problems and "libs/cp312: no compiled lxml.etree" in problems
    assert "libs/cp311/yaml (PyYAML) is missing" in problems


def _host_target() -> str:
    machine = platform.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    system = "win32" if sys.platform == "win32" else "darwin" if sys.platform == "darwin" else "linux"
    if system == "linux" and Path("/etc/alpine-release").exists():
        system = "alpine"
    return f"{system}-{arch}"


def _launcher_bundle(root: Path, target: str) -> Path:
    """run.py with stand-ins: each libs/cpXY/lxml says which it is; the 'server' prints what it imported."""
    root.mkdir(parents=True)
    (root / "run.py").write_text(bs.RUN_PY.format(target=target, pythons=", ".join(bs.PYTHONS)))
    server = root / "server" / "sdformat_lsp"
    server.mkdir(parents=True)
    (server / "__init__.py").write_text("")
    (server / "__main__.py").write_text("import lxml.etree\nprint(lxml.etree.WHERE, __file__)\n")
    (root / "libs" / "common").mkdir(parents=True)
    for version in bs.PYTHONS:
        lxml = root / "libs" / ("cp" + version.replace(".", "")) / "lxml"
        lxml.mkdir(parents=True)
        (lxml / "__init__.py").write_text("")
        (lxml / "etree.py").write_text(f"WHERE = {lxml.parent.name!r}\n")
    return root


PYTHONS = {v: shutil.which(f"python{v}") for v in bs.PYTHONS}


def test_the_launcher_picks_the_lxml_of_the_python_that_runs_it(tmp_path):
    bundle = _launcher_bundle(tmp_path / "b", _host_target())
    found = {
        v: p for v, p in PYTHONS.items() if p and subprocess.run([p, "-c", "pass"], capture_output=True).returncode == 0
    }
    if not found:
        pytest.skip("no python3.10 to python3.13 on PATH")
    for version, python in found.items():
        done = subprocess.run([python, "-I", "-S", str(bundle / "run.py")], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        where, main = done.stdout.split()
        assert where == "cp" + version.replace(".", ""), (version, done.stdout)
        assert Path(main).parent == bundle / "server" / "sdformat_lsp"  # the bundled server, not an installed one


def test_the_launcher_refuses_a_bundle_for_another_platform(tmp_path):
    host = _host_target()
    other_os = "win32-x64" if not host.startswith("win32") else "linux-x64"
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(_launcher_bundle(tmp_path / "os", other_os) / "run.py")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3
    assert (
        f"carries the server for {other_os}, and this machine is {host}: install the .vsix for {host}." in done.stderr
    )
    # Same OS, another CPU: the compiled lxml does not load, and the launcher says why.
    system, arch = host.split("-")
    other_cpu = f"{system}-{'arm64' if arch == 'x64' else 'x64'}"
    bundle = _launcher_bundle(tmp_path / "cpu", other_cpu)
    for etree in bundle.glob("libs/cp*/lxml/etree.py"):
        etree.write_text("raise ImportError('wrong ELF class or machine')\n")
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(bundle / "run.py")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 3
    assert (
        "cannot load its lxml: wrong ELF class or machine" in done.stderr
        and f"install the .vsix for {host}" in done.stderr
    )


def test_a_python_the_bundle_has_no_lxml_for_gets_one_sentence_without_pip(tmp_path):
    bundle = _launcher_bundle(tmp_path / "b", _host_target())
    own = "cp%d%d" % sys.version_info[:2]
    shutil.rmtree(bundle / "libs" / own)
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(bundle / "run.py")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 3
    assert "carries the server for CPython 3.10, 3.11, 3.12, 3.13" in done.stderr
    assert "scripts/install.py" in done.stderr and "pip install" not in done.stderr
