#!/usr/bin/env bash
# Install everything the tests need from the project's own files, then run them all:
# the Python suite (unit, conformance, LSP end to end, Neovim, and with SDFORMAT_LSP_E2E=1 the real VS Code),
# and the VS Code extension's build and tests.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install -q -e '.[test]'

# Debian packages for the tests that use real programs (each test skips when its program is absent):
# Neovim for the editor test; libsdformat 12 and a compiler to build ../shared/oracle for pose comparisons.
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  need=()
  command -v nvim >/dev/null 2>&1 || need+=(neovim)
  pkg-config --exists sdformat12 2>/dev/null || need+=(libsdformat-dev g++ pkg-config)
  if [ ${#need[@]} -gt 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null) \
      || echo "note: could not install ${need[*]}; the tests that need them will skip"
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

status=0
python3 -m pytest "$@" || status=$?
if [ "$status" = 5 ]; then
  echo "pytest collected no tests"; status=0
fi

# The VS Code extension: install, compile, package a .vsix, run its node:test suite.
if [ -f vscode-extension/package.json ] && command -v npm >/dev/null 2>&1; then
  (
    cd vscode-extension
    npm ci --no-audit --no-fund
    npm run compile
    npm run package
    SDFORMAT_LSP_PYTHON="$(command -v python3)" npm test
  ) || status=1
fi
exit "$status"
