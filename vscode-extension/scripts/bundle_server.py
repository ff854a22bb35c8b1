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
NATIVE = ["lxml==6.1.3"]
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
sys.argv[0] = "sdformat-lsp"
runpy.run_module("sdformat_lsp", run_name="__main__", alter_sys=True)
'''


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default=host_target(), choices=sorted(PLATFORMS))
    ap.add_argument("--find-links", help="a directory of wheels to use")
    ap.add_argument("--offline", action="store_true", help="only --find-links, no package index")
    args = ap.parse_args()
    links = ["--find-links", args.find_links] if args.find_links else []
    if args.offline:
        links.append("--no-index")
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir()
    shutil.copytree(REPO / "server" / "sdformat_lsp", OUT / "server" / "sdformat_lsp",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    pip_install(OUT / "libs" / "common", PURE, ["--python-version", "3.10", "--implementation", "py", "--platform", "any"], links)
    for version in PYTHONS:
        tag = "cp" + version.replace(".", "")
        plats = [x for p in PLATFORMS[args.target] for x in ("--platform", p)]
        pip_install(OUT / "libs" / tag, NATIVE, ["--python-version", version, "--implementation", "cp", "--abi", tag, *plats], links)
    prune(OUT / "libs")
    (OUT / "run.py").write_text(RUN_PY.format(target=args.target, pythons=", ".join(PYTHONS)), encoding="utf-8")
    (OUT / "bundle.json").write_text(json.dumps({"target": args.target, "pythons": PYTHONS, "pure": PURE, "native": NATIVE}, indent=2) + "\n")
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"bundled the server for {args.target} (CPython {', '.join(PYTHONS)}) in {OUT.relative_to(REPO)}: {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
