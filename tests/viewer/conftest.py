"""The page in a real browser: Debian's chromium driven by Playwright (skips without them)."""

from __future__ import annotations

import os
import shutil
import threading

import pytest

CHROMIUM = os.environ.get("SDFORMAT_LSP_CHROMIUM", "/usr/bin/chromium")
# as the machine notes advise: no GPU, no sandbox (root), no background connections to a closed network
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
]


@pytest.fixture(scope="module")
def browser():
    """Chromium for one test module: Playwright's synchronous API runs an event loop of its own, which must be
    gone before the asyncio tests that follow (tests/lsp) start theirs."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"chromium not installed ({CHROMIUM}); scripts/test.sh installs it with SDFORMAT_LSP_E2E=1")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright not installed (pip install playwright; scripts/test.sh does with SDFORMAT_LSP_E2E=1)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def view_server():
    """Starts ``sdformat-lsp view``'s server in this process for a file; stopped after the test."""
    from sdformat_lsp.semantics import Options
    from sdformat_lsp.viewer.http import ViewServer

    servers = []

    def start(path, resource_paths=()):
        s = ViewServer(str(path), Options(resource_paths=tuple(str(p) for p in resource_paths), schema=False))
        threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.shutdown()
        s.server_close()
