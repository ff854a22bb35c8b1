"""How long the 3D page takes to draw a document, and how fast it orbits, in headless chromium (software WebGL).

    python scripts/view_draw_time.py WORLD [--resource-path DIR ...]

Serves WORLD with ``sdformat-lsp view``'s server, opens the page in Debian's chromium driven by Playwright
(as tests/viewer does) and prints the page's own figures: the time from the frames message to the last mesh
drawn (``drawMs``), meshes drawn, placeholders, and orbiting frames per second. Issue 23 asks
small_house.world (AWS small house, 85 meshes) to draw in <= 5 s.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.viewer.conftest import CHROMIUM, FLAGS


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("document")
    ap.add_argument("--resource-path", action="append", default=[])
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    from sdformat_lsp.semantics import Options
    from sdformat_lsp.viewer.http import ViewServer

    server = ViewServer(args.document, Options(resource_paths=tuple(args.resource_path), schema=False))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for run in range(args.runs):
                page = browser.new_page(viewport={"width": 1200, "height": 800})
                t0 = time.monotonic()
                page.goto(server.url)
                page.wait_for_function(
                    "window.__sdfView && window.__sdfView.pending === 0 && window.__sdfView.drawMs !== null",
                    timeout=300000,
                )
                wall = time.monotonic() - t0
                s = page.evaluate("window.__sdfView")
                fps = page.evaluate("window.__sdfViewApi.orbit(30)")
                print(
                    f"run {run + 1}: drawn in {s['drawMs'] / 1000:.2f} s (page), {wall:.2f} s from opening the page; "
                    f"{s['frames']} frames, {s['visuals']} visuals, {s['meshes']} meshes, {s['placeholders']} placeholders, "
                    f"{s.get('parseMs')} ms parsing meshes, {s.get('renderMs')} ms in {s['renders']} draws; orbit {fps:.1f} frames/s; "
                    f"{s.get('instances')} mesh visuals instanced in {s.get('groups')} groups, {s.get('drawCalls')} draw calls a frame"
                )
                r = page.evaluate("""(() => { const e = performance.getEntriesByType('resource').filter(x => x.name.includes('/f/'));
                    const img = e.filter(x => /\\.(png|jpe?g|tga|bmp|gif)$/i.test(x.name));
                    const t = (a) => a.length ? [Math.round(Math.min(...a.map(x => x.startTime))), Math.round(Math.max(...a.map(x => x.responseEnd))),
                                                  Math.round(a.reduce((s, x) => s + (x.responseEnd - x.startTime), 0) / a.length)] : null;
                    return { files: e.length, images: img.length, all: t(e), imgs: t(img) }; })()""")
                print(
                    f"  files fetched: {r['files']} ({r['images']} images); first start, last end, mean duration (ms): {r['all']}; images: {r['imgs']}"
                )
                page.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
