"""Screenshots of the 3D view of real documents, as a new user opens it: ``sdformat-lsp view FILE --no-browser``.

    python scripts/view_screenshot.py FILE [FILE ...] [--out DIR] [--view iso|top|front|side ...]
        [--collisions] [--joint NAME=VALUE ...] [--resource-path DIR ...]

For each FILE it starts the command the README installs (``sdformat-lsp view FILE --no-browser``, on a free
port), reads the URL it prints, opens it in Debian's chromium (headless, software WebGL, driven by Playwright
as tests/viewer does), waits until every mesh and texture is drawn, and writes one PNG per camera preset,
``DIR/<directory>_<file stem>-<view>.png``. It prints the page's status line (frames, visuals, placeholders and what was
searched for a mesh not found) and the size of the scene, so that a person can judge the pictures: orientation
(Z up), units (nothing kilometres tall), materials, transparency, textures, nothing black.

``--joint NAME=VALUE`` moves a joint slider first (radians or metres), ``--collisions`` turns the collision
layer on. Skips nothing: it fails loudly without chromium or Playwright (scripts/test.sh installs both with
SDFORMAT_LSP_E2E=1).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.viewer.conftest import CHROMIUM, FLAGS

URL = re.compile(r"https?://127\.0\.0\.1:\d+/\?token=\S+")


def command() -> list[str]:
    """The installed ``sdformat-lsp`` beside this interpreter (the README's install), else the module."""
    exe = Path(sys.executable).with_name("sdformat-lsp")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "sdformat_lsp"]


def serve(document: str, resource_paths: list[str]) -> tuple[subprocess.Popen, str]:
    args = [*command(), "view", document, "--no-browser"]
    for p in resource_paths:
        args += ["--resource-path", p]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    seen = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        m = URL.search(line)
        if m:
            return proc, m.group(0)
    proc.kill()
    raise SystemExit(f"view_screenshot: no URL printed by {' '.join(args)}:\n{''.join(seen)}")


def shoot(page, url: str, stem: str, out: Path, views: list[str], collisions: bool, joints: dict[str, float]) -> None:
    page.goto(url)
    page.wait_for_function(
        "window.__sdfView && window.__sdfView.pending === 0 && window.__sdfView.drawMs !== null", timeout=300000
    )
    draw_ms = page.evaluate("window.__sdfView.drawMs")
    if collisions:
        page.check("input[data-opt=collisions]")
        page.wait_for_function("window.__sdfView.pending === 0", timeout=300000)
    for name, value in joints.items():
        page.evaluate(
            """([name, value]) => { const r = [...document.querySelectorAll('#sdf-joints input[type=range]')]
                 .find((i) => i.dataset.joint === name);
               if (!r) throw new Error('no slider for joint ' + name);
               r.value = String(value); r.dispatchEvent(new Event('input', { bubbles: true })); }""",
            [name, value],
        )
    s = page.evaluate("window.__sdfView")
    status = page.inner_text("#sdf-status")
    box = page.evaluate(
        """(() => { const f = window.__sdfViewApi.frames(); if (!f) return null;
             let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
             for (const e of f) { const b = window.__sdfViewApi.boxOf(e.id); if (!b) continue;
               for (let i = 0; i < 3; i++) { lo[i] = Math.min(lo[i], b[0][i]); hi[i] = Math.max(hi[i], b[1][i]); } }
             return lo[0] === Infinity ? null : [lo, hi]; })()"""
    )
    size = [round(b - a, 3) for a, b in zip(*box)] if box else None
    print(
        f"{stem}: {s['frames']} frames, {s['visuals']} visuals, {s['meshes']} meshes, {s['placeholders']} placeholders"
    )
    print(
        f"  drawn in {draw_ms / 1000:.2f} s; visual geometry box {box and [[round(x, 3) for x in c] for c in box]} size {size} m"
    )
    print("  status: " + status.replace("\n", "\n          "))
    for view in views:
        page.click(f"button[data-act={view}]")
        page.wait_for_timeout(300)
        path = out / f"{stem}-{view}.png"
        page.screenshot(path=str(path))
        print(f"  {path}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("documents", nargs="+")
    ap.add_argument("--out", default="view-screenshots")
    ap.add_argument("--view", action="append", choices=["iso", "top", "front", "side"])
    ap.add_argument("--collisions", action="store_true")
    ap.add_argument("--joint", action="append", default=[], help="NAME=VALUE, a slider moved before the pictures")
    ap.add_argument("--resource-path", action="append", default=[])
    ap.add_argument("--size", default="1200x800")
    args = ap.parse_args()
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        raise SystemExit(f"view_screenshot: chromium not found ({CHROMIUM}; set SDFORMAT_LSP_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    joints = {}
    for j in args.joint:
        name, _, value = j.partition("=")
        joints[name] = float(value)
    width, height = (int(x) for x in args.size.split("x"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            for doc in args.documents:
                proc, url = serve(doc, args.resource_path)
                try:
                    page = browser.new_page(viewport={"width": width, "height": height})
                    stem = f"{Path(doc).resolve().parent.name}_{Path(doc).name.split('.')[0]}"
                    shoot(page, url, stem, out, args.view or ["iso"], args.collisions, joints)
                    page.close()
                finally:
                    proc.terminate()
                    proc.wait(10)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
