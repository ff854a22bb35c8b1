"""Install sdformat-lsp from this checkout into a virtual environment (.venv by default).

    python3 scripts/install.py [--venv DIR] [--extras test] [--editable] [--verbose]

Why a virtual environment: Debian 12, Ubuntu 23.04 and later refuse `pip install` into the
system's Python (PEP 668, "externally-managed-environment"), and a user install would mix
our dependencies with the system's. The environment is made with the Python running this
script, so `python3.10 scripts/install.py` gives a 3.10 one. Where Debian or Ubuntu ship
Python without `ensurepip` (no python3-venv package), the environment is made without pip
and uses the system's pip (python3-pip) instead; with neither, the script says what to
install. Afterwards run `.venv/bin/sdformat-lsp`, or see docs/install.md to put it on PATH.

This file runs on old Pythons too (no f-strings), so that they get a clear message.
"""

import argparse
import os
import shutil
import subprocess
import sys

MINIMUM = (3, 10)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def say(message):
    sys.stderr.write("install.py: " + message + "\n")
    sys.stderr.flush()


def bin_path(venv, name):
    if os.name == "nt":
        return os.path.join(venv, "Scripts", name + ".exe")
    return os.path.join(venv, "bin", name)


def works(command):
    """True when the command runs and exits 0 (its output is not shown)."""
    try:
        return subprocess.call(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0
    except OSError:
        return False


def same_python(venv):
    """An existing environment is reused only when it runs this script's Python version and has pip."""
    python = bin_path(venv, "python")
    probe = "import sys; sys.exit(sys.version_info[:2] != (%d, %d))" % sys.version_info[:2]
    return works([python, "-c", probe]) and works([python, "-m", "pip", "--version"])


def create(venv):
    """Make the environment; return None when it works, else what stopped it."""
    python = bin_path(venv, "python")
    made = subprocess.run([sys.executable, "-m", "venv", venv], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if made.returncode == 0 and works([python, "-m", "pip", "--version"]):
        return None
    # Debian and Ubuntu without python3-venv: no ensurepip. Use the system's pip if there is one.
    shutil.rmtree(venv, ignore_errors=True)
    if works([sys.executable, "-m", "pip", "--version"]):
        fallback = [sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", venv]
        if works(fallback) and works([python, "-m", "pip", "--version"]):
            say("this Python cannot put pip into a new environment; using the system's pip in it instead")
            return None
        shutil.rmtree(venv, ignore_errors=True)
    return made.stdout.decode("utf-8", "replace").strip()


def main(argv=None):
    parser = argparse.ArgumentParser(description="Install sdformat-lsp from this checkout into a virtual environment.")
    parser.add_argument("--venv", default=os.path.join(ROOT, ".venv"), help="where (default: .venv in the checkout)")
    parser.add_argument("--extras", default="", help="optional dependencies, e.g. 'test'")
    parser.add_argument("--editable", action="store_true", help="install in editable mode (for development)")
    parser.add_argument("--verbose", action="store_true", help="show pip's output")
    args = parser.parse_args(argv)

    version = "%d.%d.%d" % sys.version_info[:3]
    if sys.version_info[:2] < MINIMUM:
        say(
            "sdformat-lsp needs Python %d.%d or newer; %s is %s.\n"
            "  Run this script with a newer interpreter, e.g. `python3.10 scripts/install.py`\n"
            "  (Debian/Ubuntu: apt install python3.11; or pyenv, or uv: `uv tool install .`)."
            % (MINIMUM + (sys.executable, version))
        )
        return 1

    venv = os.path.abspath(args.venv)
    if os.path.exists(venv) and not same_python(venv):
        if not os.path.exists(os.path.join(venv, "pyvenv.cfg")):
            say("%s exists and is not a virtual environment; choose another with --venv" % venv)
            return 1
        say("replacing %s (made with another Python, or without pip)" % venv)
        shutil.rmtree(venv)
    if not os.path.exists(venv):
        problem = create(venv)
        if problem is not None:
            say(
                "could not make a virtual environment with %s:\n  %s\n"
                "  On Debian or Ubuntu: sudo apt install python3-venv (or python3-pip), then run this again;\n"
                "  or install with pipx or uv instead (docs/install.md)."
                % (sys.executable, problem.replace("\n", "\n  "))
            )
            return 1

    target = ROOT + ("[%s]" % args.extras if args.extras else "")
    command = [bin_path(venv, "python"), "-m", "pip", "install", "--disable-pip-version-check"]
    command += [] if args.verbose else ["--quiet"]
    command += ["--editable", target] if args.editable else [target]
    say(
        "installing sdformat-lsp%s with Python %s into %s ..."
        % (" [%s]" % args.extras if args.extras else "", version, venv)
    )
    if subprocess.call(command) != 0:
        say("pip failed (above); nothing else was changed")
        return 1
    say("done: %s" % bin_path(venv, "sdformat-lsp"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
