"""Puts the language server and its dependencies into vscode-extension/bundled/, for one platform.

    python3 scripts/bundle_server.py [--target linux-x64] [--find-links DIR] [--offline]

The .vsix then runs the server with nothing installed but a ``python3`` >= 3.10 (as the
Python tools extension template does): ``bundled/run.py`` puts ``bundled/server`` (the
``sdformat_lsp`` package of this checkout), ``bundled/libs/common`` (the pure-Python
dependencies, versions pinned below) and ``bundled/libs/cpXY`` (lxml built for that CPython
on that platform) first on ``sys.path`` and runs the server. lxml is the only compiled
dependency, hence one .vsix per platform (``vsce package --target``).

Wheels come from the package index through pip (``pip install --target`` with
``--platform``/``--python-version``, so a Linux machine can bundle for macOS and
Windows too), or from ``--find-links`` (a directory of wheels) with ``--offline``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # vscode-extension/
REPO = HERE.parent
OUT = HERE / "bundled"

# Pure-Python dependencies, every one installable on CPython 3.10 to 3.13
# (networkx 3.4.2 is the last release that supports 3.10).
PURE = [
    "pygls==2.1.1",
    "lsprotocol==2025.0.0",
    "cattrs==26.2.1",
    "attrs==26.1.0",
    "typing_extensions==4.15.0",
    "exceptiongroup==1.3.0",
    "networkx==3.4.2",
    "tomli==2.2.1",  # the configuration file reader on 3.10 (tomllib from 3.11)
]
# Built per CPython: lxml, and PyYAML (xacro's load_yaml; its wheel carries a compiled
# loader, and the package falls back to its pure-Python one where that cannot load).
NATIVE = ["lxml==6.1.3", "PyYAML==6.0.3"]
PYTHONS = ["3.10", "3.11", "3.12", "3.13"]

# VS Code target -> wheel platform tags pip may pick (newest glibc/macOS last is fine: pip takes any).
PLATFORMS = {
    "linux-x64": ["manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux_2_28_x86_64"],
    "linux-arm64": ["manylinux_2_17_aarch64", "manylinux2014_aarch64", "manylinux_2_28_aarch64"],
    "alpine-x64": ["musllinux_1_2_x86_64"],
    "darwin-x64": ["macosx_10_9_x86_64", "macosx_10_9_universal2", "macosx_10_15_x86_64"],
    "darwin-arm64": ["macosx_11_0_arm64", "macosx_10_9_universal2"],
    "win32-x64": ["win_amd64"],
}


def host_target() -> str:
    import platform

    machine = platform.machine().lower()
    arch = "arm64" if machine in ("arm64", "aarch64") else "x64"
    system = {"linux": "linux", "darwin": "darwin", "win32": "win32"}.get(sys.platform, sys.platform)
    return f"{system}-{arch}"


def pip_install(target: Path, requirements: list[str], extra: list[str], links: list[str]) -> None:
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
           "--only-binary=:all:", "--no-compile", "--target", str(target), *links, *extra, *requirements]
    subprocess.run(cmd, check=True)


# Parts of lxml the server never imports (it uses lxml.etree only): about half its size.
LXML_UNUSED = ("objectify", "html", "isoschematron", "sax", "builder", "ElementInclude", "cssselect",
               "doctestcompare", "usedoctest", "pyclasslookup")


def prune(root: Path) -> None:
    """What the server never loads: caches, headers and Cython sources, tests, unused lxml modules."""
    for p in sorted(root.rglob("*"), reverse=True):
        if not p.exists():
            continue
        unused_lxml = p.parent.name == "lxml" and p.name.split(".")[0] in LXML_UNUSED
        if p.is_dir() and (p.name in ("__pycache__", "tests", "includes", "bin") or unused_lxml):
            shutil.rmtree(p, ignore_errors=True)
        elif p.is_file() and (p.suffix in (".pyc", ".h", ".pyx", ".pxd", ".pxi") or unused_lxml):
            p.unlink()


RUN_PY = '''"""Starts the sdformat-lsp server carried by the VS Code extension: nothing to install.

The extension runs ``python3 run.py``; this puts the bundled server and its
dependencies (lxml built for this CPython) first on sys.path and runs it.
"""
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = {target!r}
if sys.version_info < (3, 10):
    sys.stderr.write(
        "sdformat-lsp needs Python 3.10 or newer; %s is Python %s. Install a newer python3, "
        "or select one in the Python extension.\\n" % (sys.executable, sys.version.split()[0])
    )
    sys.exit(3)


def host():
    """This machine as a VS Code target (linux-x64, darwin-arm64, win32-x64, alpine-x64...)."""
    import platform

    machine = platform.machine().lower()
    arch = {{"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}}.get(machine, machine)
    if sys.platform == "win32":
        system = "win32"
    elif sys.platform == "darwin":
        system = "darwin"
    else:
        system = "alpine" if os.path.exists("/etc/alpine-release") else "linux"
    return "%s-%s" % (system, arch)


def wrong_platform(why):
    sys.stderr.write(
        "This build of the SDFormat extension carries the server for %s, and this machine is %s%s: "
        "install the .vsix for %s.\\n" % (TARGET, host(), why, host())
    )
    sys.exit(3)


if host().split("-")[0] != TARGET.split("-")[0]:
    wrong_platform("")
native = os.path.join(HERE, "libs", "cp%d%d" % sys.version_info[:2])
if not os.path.isdir(native):
    sys.stderr.write(
        "This build of the SDFormat extension (%s) carries the server for CPython %s; %s is %s %s. "
        "Select one of those in the Python extension, or run a server from a checkout of sdformat-lsp "
        "(python3 scripts/install.py there) and set sdformat.server.command to its .venv/bin/sdformat-lsp.\\n"
        % (TARGET, {pythons!r}, sys.executable, sys.implementation.name, sys.version.split()[0])
    )
    sys.exit(3)
sys.path[:0] = [os.path.join(HERE, "server"), os.path.join(HERE, "libs", "common"), native]
try:
    import lxml.etree  # noqa: F401  the one compiled dependency: built for this OS, CPU and C library?
except ImportError as exc:
    wrong_platform(" (%s %s cannot load its lxml: %s)" % (sys.implementation.name, sys.version.split()[0], exc))
sys.argv[0] = "sdformat-lsp"
runpy.run_module("sdformat_lsp", run_name="__main__", alter_sys=True)
'''


# What the compiled part of lxml must be for each target: the file name's platform tag, the binary
# format and the CPU (ELF e_machine, Mach-O cputype, PE machine).
EXPECT = {
    "linux-x64": ("x86_64-linux-gnu", "elf", "x64"),
    "linux-arm64": ("aarch64-linux-gnu", "elf", "arm64"),
    "alpine-x64": ("x86_64-linux-musl", "elf", "x64"),
    "darwin-x64": ("darwin", "macho", "x64"),
    "darwin-arm64": ("darwin", "macho", "arm64"),
    "win32-x64": ("win_amd64", "pe", "x64"),
}
# The platform part of the lxml wheel's tag (its dist-info/WHEEL): glibc, musl, macOS, Windows.
WHEEL_FAMILY = {"linux-x64": "manylinux", "linux-arm64": "manylinux", "alpine-x64": "musllinux",
                "darwin-x64": "macosx", "darwin-arm64": "macosx", "win32-x64": "win_amd64"}
ELF_MACHINES = {62: "x64", 183: "arm64"}
MACHO_CPUS = {0x01000007: "x64", 0x0100000C: "arm64"}
PE_MACHINES = {0x8664: "x64", 0xAA64: "arm64"}


def binary_kind(head: bytes) -> tuple[str, set[str]]:
    """The format of a compiled module and the CPUs it runs on, from its first bytes (4 KB are enough)."""
    if head[:4] == b"\x7fELF":
        order = "little" if head[5] == 1 else "big"
        return "elf", {ELF_MACHINES.get(int.from_bytes(head[18:20], order), "other")}
    if head[:4] == b"\xcf\xfa\xed\xfe":  # 64-bit Mach-O, little-endian
        return "macho", {MACHO_CPUS.get(int.from_bytes(head[4:8], "little"), "other")}
    if head[:4] == b"\xca\xfe\xba\xbe":  # fat (universal) Mach-O: big-endian table of architectures
        count = int.from_bytes(head[4:8], "big")
        return "macho", {MACHO_CPUS.get(int.from_bytes(head[8 + 20 * i: 12 + 20 * i], "big"), "other") for i in range(count)}
    if head[:2] == b"MZ":
        at = int.from_bytes(head[0x3C:0x40], "little")
        if head[at: at + 4] == b"PE\0\0":
            return "pe", {PE_MACHINES.get(int.from_bytes(head[at + 4: at + 6], "little"), "other")}
    return "unknown", set()


def verify(out: Path, target: str) -> list[str]:
    """What is wrong with a bundle for ``target`` (empty: nothing): the server, every pure dependency,
    and for each CPython an lxml whose compiled modules are built for that CPython, OS and CPU."""
    problems = []
    meta = json.loads((out / "bundle.json").read_text()) if (out / "bundle.json").is_file() else {}
    if meta.get("target") != target:
        problems.append(f"bundle.json says target {meta.get('target')!r}, not {target!r}")
    run = out / "run.py"
    if not run.is_file() or f"TARGET = {target!r}" not in run.read_text(encoding="utf-8"):
        problems.append(f"run.py missing or not for {target}")
    if not (out / "server" / "sdformat_lsp" / "__main__.py").is_file():
        problems.append("the server package is missing")
    for name in ("pygls", "lsprotocol", "cattrs", "attrs", "networkx", "tomli", "typing_extensions.py", "exceptiongroup"):
        if not (out / "libs" / "common" / name).exists():
            problems.append(f"libs/common/{name} is missing")
    tag, fmt, cpu = EXPECT[target]
    for version in PYTHONS:
        cp = "cp" + version.replace(".", "")
        lxml = out / "libs" / cp / "lxml"
        compiled = sorted(p for p in lxml.glob("etree.*") if p.suffix in (".so", ".pyd"))
        if not compiled:
            problems.append(f"libs/{cp}: no compiled lxml.etree")
            continue
        wheel_tags = [line.split(":", 1)[1].strip() for info in (out / "libs" / cp).glob("lxml-*.dist-info")
                      for line in (info / "WHEEL").read_text().splitlines() if line.startswith("Tag:")]
        if not wheel_tags or not all(t.startswith(f"{cp}-{cp}-") and WHEEL_FAMILY[target] in t for t in wheel_tags):
            problems.append(f"libs/{cp}: lxml's wheel is tagged {wheel_tags}, not {cp} {WHEEL_FAMILY[target]}")
        for module in compiled:
            # CPython before 3.11 names extension modules on musl like glibc's (its SOABI had no libc part)
            suffix = "x86_64-linux-gnu" if target == "alpine-x64" and version == "3.10" else tag
            abi = f"{cp}-{suffix}.pyd" if fmt == "pe" else f"cpython-{cp[2:]}-{suffix}.so"
            if not module.name.endswith(abi):
                problems.append(f"libs/{cp}/lxml/{module.name}: not built for {cp} on {target} (*{abi})")
            kind, cpus = binary_kind(module.read_bytes()[:4096])
            if kind != fmt or cpu not in cpus:
                problems.append(f"libs/{cp}/lxml/{module.name}: a {kind} binary for {sorted(cpus)}, not {fmt} for {cpu}")
        if not (lxml / "__init__.py").is_file():
            problems.append(f"libs/{cp}/lxml/__init__.py is missing")
        if not (out / "libs" / cp / "yaml" / "__init__.py").is_file():
            problems.append(f"libs/{cp}/yaml (PyYAML) is missing")
    return problems


def verify_vsix(vsix: Path, target: str) -> list[str]:
    """The same checks on a packaged .vsix, plus the target platform VS Code reads from its manifest."""
    import tempfile
    import zipfile

    with zipfile.ZipFile(vsix) as z, tempfile.TemporaryDirectory() as tmp:
        manifest = z.read("extension.vsixmanifest").decode("utf-8")
        problems = [] if f'TargetPlatform="{target}"' in manifest else [f"{vsix.name}: the manifest does not say TargetPlatform={target}"]
        members = [m for m in z.namelist() if m.startswith("extension/bundled/")]
        z.extractall(tmp, members)
        return problems + [f"{vsix.name}: {p}" for p in verify(Path(tmp) / "extension" / "bundled", target)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default=host_target(), choices=sorted(PLATFORMS))
    ap.add_argument("--find-links", help="a directory of wheels to use")
    ap.add_argument("--offline", action="store_true", help="only --find-links, no package index")
    ap.add_argument("--out", type=Path, default=OUT, help="where to put the bundle (default: vscode-extension/bundled)")
    ap.add_argument("--verify", action="store_true", help="only check an existing bundle (--out) for --target")
    ap.add_argument("--verify-vsix", type=Path, help="only check a packaged .vsix for --target")
    args = ap.parse_args()
    out = args.out.resolve()
    if args.verify or args.verify_vsix:
        problems = verify_vsix(args.verify_vsix, args.target) if args.verify_vsix else verify(out, args.target)
        for problem in problems:
            print(f"bundle for {args.target}: {problem}", file=sys.stderr)
        if not problems:
            print(f"{args.verify_vsix or out}: a complete bundle for {args.target} (CPython {', '.join(PYTHONS)})")
        return 1 if problems else 0
    links = ["--find-links", args.find_links] if args.find_links else []
    if args.offline:
        links.append("--no-index")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(REPO / "server" / "sdformat_lsp", out / "server" / "sdformat_lsp",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    pip_install(out / "libs" / "common", PURE, ["--python-version", "3.10", "--implementation", "py", "--platform", "any"], links)
    for version in PYTHONS:
        tag = "cp" + version.replace(".", "")
        plats = [x for p in PLATFORMS[args.target] for x in ("--platform", p)]
        pip_install(out / "libs" / tag, NATIVE, ["--python-version", version, "--implementation", "cp", "--abi", tag, *plats], links)
    prune(out / "libs")
    (out / "run.py").write_text(RUN_PY.format(target=args.target, pythons=", ".join(PYTHONS)), encoding="utf-8")
    (out / "bundle.json").write_text(json.dumps({"target": args.target, "pythons": PYTHONS, "pure": PURE, "native": NATIVE}, indent=2) + "\n")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    problems = verify(out, args.target)
    for problem in problems:
        print(f"bundle for {args.target}: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"bundled the server for {args.target} (CPython {', '.join(PYTHONS)}) in {out}: {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
