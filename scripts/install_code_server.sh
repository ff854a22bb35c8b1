#!/usr/bin/env bash
# Installs what the real-VS-Code test (tests/editors/test_vscode_e2e.py) needs, into DIR:
#   code-server (VS Code 1.100.3 served to a browser) from the npm registry, and from Debian: chromium
#   (the browser Playwright drives), ripgrep, and the headers code-server's native modules build against.
#   (Playwright itself goes into the test environment: scripts/test.sh installs it there.)
#
#   scripts/install_code_server.sh DIR     prints DIR/node_modules/.bin/code-server
#
# scripts/test.sh runs it when SDFORMAT_LSP_E2E=1 (and it may use apt-get); the test skips when
# anything here is missing. Why the steps:
# - code-server 4.100.3 is the newest release whose install accepts Node 20;
# - its install scripts want root's unsafe-perm, download ripgrep from a host CI cannot reach and run
#   npx, so the package is installed without scripts and the needed steps are done here: the argon2
#   and native modules rebuilt, Debian's rg put where @vscode/ripgrep looks, the built-in extensions'
#   packages installed;
# - Playwright's own `playwright install` would download a browser: Debian's chromium is used instead.
set -euo pipefail
DIR=${1:?usage: install_code_server.sh DIR}
VERSION=${CODE_SERVER_VERSION:-4.100.3}
BIN="$DIR/node_modules/.bin/code-server"

if ! command -v chromium >/dev/null 2>&1 || ! command -v rg >/dev/null 2>&1 || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "install_code_server: need root and apt-get for chromium, ripgrep and build headers" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    chromium ripgrep build-essential pkg-config libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev >/dev/null
fi

if [ ! -x "$BIN" ]; then
  mkdir -p "$DIR"
  (
    cd "$DIR"
    [ -f package.json ] || echo '{"name":"sdformat-lsp-e2e-host","private":true}' > package.json
    npm install --no-audit --no-fund --ignore-scripts "code-server@$VERSION" >/dev/null
    npm_config_build_from_source=true npm rebuild argon2 >/dev/null
    cd node_modules/code-server/lib/vscode
    npm install --no-audit --no-fund --omit=dev --ignore-scripts >/dev/null
    mkdir -p node_modules/@vscode/ripgrep/bin
    ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
    npm_config_yes=true npm rebuild >/dev/null
    ln -sfn node_modules node_modules.asar
    (cd bin/remote-cli && ln -sfn code-linux.sh code-server)
    (cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
    (cd extensions && npm_config_yes=true npm install --no-audit --no-fund --omit=dev >/dev/null)
  )
fi
echo "$BIN"
