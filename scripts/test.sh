#!/usr/bin/env bash
# The README's test command: bash scripts/test.sh [--system-packages] [--install-tests] [-h|--help] [PYTEST_ARGS...]
#
# - Python: never installs into the system's Python (PEP 668). scripts/install.py makes virtual
#   environments under .venvs/: the oldest of Python 3.10..3.13 this machine has (PATH, pyenv)
#   runs the whole suite, the newest a quick part of it (skipped, with a note, when there is only one).
# - System packages (Neovim; Graphviz; libsdformat 12 and g++ for the oracle comparison) are installed with
#   apt-get only when asked: --system-packages or SDFORMAT_LSP_SYSTEM_PACKAGES=1 (.ci/run sets it).
#   Otherwise the tests needing them skip, and this script says so first.
# - tests/install (the README's install command in a fresh copy with the system's Python, wheel and
#   sdist through twine): --install-tests or SDFORMAT_LSP_INSTALL_TESTS=1 (.ci/run sets it); they
#   need the package index and take a few minutes.
# - The VS Code extension (npm ci, compile, package, node:test) when npm is present.
# - The real VS Code (tests/editors/test_vscode_e2e.py): opt-in with SDFORMAT_LSP_E2E=1 (.ci/run sets it).
# PYTEST_ARGS go to the whole-suite run; with any given, the quick run on the newest Python is left out.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'USAGE'
usage: bash scripts/test.sh [--system-packages] [--install-tests] [-h|--help] [PYTEST_ARGS...]

Runs the whole test suite in a virtual environment (.venvs/) of the oldest Python 3.10..3.13
this machine has, a quick part of it on the newest, then the VS Code extension's tests when npm
is present. Tests whose programs are missing skip, and the script says which first.

  --system-packages  apt-get install Neovim, Emacs, Graphviz, libsdformat 12 and g++ first (root only;
                     also SDFORMAT_LSP_SYSTEM_PACKAGES=1)
  --install-tests    also run tests/install: the README's install in a fresh copy, wheel and sdist
                     (needs the package index; also SDFORMAT_LSP_INSTALL_TESTS=1)
  -h, --help         print this and exit
  PYTEST_ARGS        passed to pytest for the whole-suite run (then the quick run is left out),
                     e.g. tests/cli -x -q; pytest's own help: bash scripts/test.sh -- --help

Environment: SDFORMAT_LSP_E2E=1 also tests the real VS Code (code-server, chromium).
USAGE
}

system_packages="${SDFORMAT_LSP_SYSTEM_PACKAGES:-0}"
args=()
passthrough=0
for arg in "$@"; do
  if [ "$passthrough" = 1 ]; then
    args+=("$arg")
    continue
  fi
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    --) passthrough=1 ;;
    --system-packages) system_packages=1 ;;
    --install-tests) export SDFORMAT_LSP_INSTALL_TESTS=1 ;;
    *) args+=("$arg") ;;
  esac
done

# The interpreter of one version (3.10, ...) this machine has, as an absolute path, or nothing.
python_for() {
  local version="$1" candidate
  local pyenv_root
  pyenv_root="$(pyenv root 2>/dev/null || true)"
  for candidate in "python$version" ${pyenv_root:+"$pyenv_root"/versions/"$version"*/bin/python"$version"} "/usr/bin/python$version"; do
    "$candidate" -c "import sys; assert sys.version_info[:2] == tuple(map(int, '$version'.split('.'))); print(sys.executable)" 2>/dev/null && return 0
  done
  return 0
}

found=()
for version in 3.10 3.11 3.12 3.13; do
  path="$(python_for "$version" | tail -n 1)"
  [ -n "$path" ] && found+=("$path")
done
if [ ${#found[@]} -eq 0 ]; then
  found=("$(command -v python3)")  # install.py says what is wrong with it
fi
oldest="${found[0]}"
newest="${found[${#found[@]}-1]}"

# Debian packages for the tests that use real programs, only when asked.
if [ "$system_packages" = 1 ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  need=()
  command -v nvim >/dev/null 2>&1 || need+=(neovim)
  command -v dot >/dev/null 2>&1 || need+=(graphviz)
  pkg-config --exists sdformat12 2>/dev/null || need+=(libsdformat-dev g++ pkg-config)
  # Emacs and Eglot for docs/editors/emacs.md and the view recipe (tests/editors/test_emacs_eglot.py,
  # test_view_recipes.py), without their recommends, which pull in a mail server
  lean=()
  command -v emacs >/dev/null 2>&1 || lean+=(emacs-nox)
  dpkg -s elpa-eglot >/dev/null 2>&1 || lean+=(elpa-eglot)
  if [ ${#need[@]} -gt 0 ] || [ ${#lean[@]} -gt 0 ]; then
    echo "test.sh: installing Debian packages: ${need[*]} ${lean[*]}"
    apt-get update -qq || true
    if [ ${#need[@]} -gt 0 ]; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null \
        || echo "test.sh: could not install ${need[*]}; the tests that need them will skip"
    fi
    if [ ${#lean[@]} -gt 0 ]; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${lean[@]}" >/dev/null \
        || echo "test.sh: could not install ${lean[*]}; the tests that need them will skip"
    fi
  fi
fi

# The real VS Code (tests/editors/test_vscode_e2e.py), opt-in with SDFORMAT_LSP_E2E=1: code-server from npm,
# Debian's chromium and Playwright from PyPI into .e2e/ (scripts/install_code_server.sh; root and apt-get),
# and the platform .vsix built first. Without them that test skips.
if [ "${SDFORMAT_LSP_E2E:-0}" = 1 ] && [ -f vscode-extension/package.json ] && command -v npm >/dev/null 2>&1; then
  if bash scripts/install_code_server.sh .e2e >/dev/null; then
    (cd vscode-extension && npm ci --no-audit --no-fund >/dev/null && npm run package >/dev/null) \
      || echo "note: could not build the .vsix; the real-VS-Code test will skip"
  else
    echo "note: could not install code-server, chromium or Playwright; the real-VS-Code test will skip"
  fi
fi
# What will skip, and how to enable it.
skips=()
[ -f ../shared/conformance/expected.json ] \
  || skips+=("conformance, oracle and shared-corpus tests: ../shared is absent (libsdformat's test files and the spec beside the checkout; see the README)")
command -v nvim >/dev/null 2>&1 \
  || skips+=("tests/editors (Neovim end to end): nvim not found; apt-get install neovim, or run with --system-packages")
command -v emacs >/dev/null 2>&1 \
  || skips+=("Emacs (tests/editors/test_emacs_eglot.py, the Emacs recipe in test_view_recipes.py): apt-get install --no-install-recommends emacs-nox elpa-eglot, or run with --system-packages")
command -v dot >/dev/null 2>&1 \
  || skips+=("the Graphviz rendering of 'sdformat-lsp graph' (tests/features/test_graph_export.py): apt-get install graphviz, or run with --system-packages")
pkg-config --exists sdformat12 2>/dev/null \
  || skips+=("tests/core/test_oracle.py (poses against libsdformat 12): apt-get install libsdformat-dev g++ pkg-config, or run with --system-packages")
[ "${SDFORMAT_LSP_E2E:-0}" = 1 ] \
  || skips+=("tests/editors/test_vscode_e2e.py (the real VS Code): SDFORMAT_LSP_E2E=1 installs code-server and chromium (root, apt-get, npm)")
[ "${SDFORMAT_LSP_E2E:-0}" = 1 ] \
  || skips+=("tests/viewer (the 3D page in headless chromium, about 12 s), unless chromium and Playwright are there already: SDFORMAT_LSP_E2E=1 installs them")
[ "${SDFORMAT_LSP_INSTALL_TESTS:-0}" = 1 ] \
  || skips+=("tests/install (README install command in a fresh copy, wheel and sdist): run with --install-tests or SDFORMAT_LSP_INSTALL_TESTS=1 (needs the package index)")
[ "$oldest" != "$newest" ] \
  || skips+=("the quick run on a second, newer Python: only $("$oldest" -V 2>&1) found (pyenv or python3.13 on PATH enables it)")
command -v npm >/dev/null 2>&1 \
  || skips+=("the VS Code extension's build and tests: npm not found")
for line in "${skips[@]}"; do echo "test.sh: will skip $line"; done

venv_for() {  # the test environment of one interpreter, made or updated
  local python="$1" venv
  venv=".venvs/py$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  local extras=test
  [ "${SDFORMAT_LSP_INSTALL_TESTS:-0}" = 1 ] && extras=test,release  # build and twine for tests/install
  "$python" scripts/install.py --venv "$venv" --editable --extras "$extras" >&2
  echo "$venv"
}

status=0
full_venv="$(venv_for "$oldest")"
echo "test.sh: whole suite on $("$full_venv/bin/python" -V) ($full_venv)"
if [ "${SDFORMAT_LSP_E2E:-0}" = 1 ]; then  # the real-VS-Code test drives chromium from this environment
  "$full_venv/bin/python" -m pip install -q playwright >/dev/null \
    || echo "test.sh: could not install Playwright; the real-VS-Code test will skip"
fi
PATH="$PWD/$full_venv/bin:$PATH" "$full_venv/bin/python" -m pytest "${args[@]}" || status=$?
if [ "$status" = 5 ]; then
  echo "pytest collected no tests"; status=0
fi

# The linter and the type checker, as configured in pyproject.toml (also in .pre-commit-config.yaml).
echo "test.sh: ruff check, ruff format --check and mypy"
"$full_venv/bin/ruff" check server tests scripts benchmarks || status=1
"$full_venv/bin/ruff" format --check server tests scripts benchmarks || status=1
"$full_venv/bin/mypy" || status=1

# A quick part on the newest interpreter: the layers below the server, and the CLI.
if [ "$oldest" != "$newest" ] && [ ${#args[@]} -eq 0 ]; then
  quick_venv="$(venv_for "$newest")"
  echo "test.sh: quick part on $("$quick_venv/bin/python" -V) ($quick_venv)"
  PATH="$PWD/$quick_venv/bin:$PATH" "$quick_venv/bin/python" -m pytest -q -p no:cacheprovider \
    tests/core/test_xml.py tests/core/test_cli.py tests/core/test_phases.py tests/core/test_python_versions.py \
    tests/spec tests/features tests/urdf tests/lsp/test_transport.py || status=1
fi

# The VS Code extension: install, compile, package a .vsix, run its node:test suite.
if [ -f vscode-extension/package.json ] && command -v npm >/dev/null 2>&1; then
  (
    cd vscode-extension
    npm ci --no-audit --no-fund
    npm run compile
    npm run package
    SDFORMAT_LSP_PYTHON="$PWD/../$full_venv/bin/python" npm test
  ) || status=1
fi
exit "$status"
