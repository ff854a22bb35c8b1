"""The real VS Code (code-server = VS Code 1.100.3) in Debian's chromium driven by Playwright: one window on a
workspace with the built .vsix installed, for tests/editors/test_vscode_e2e.py and scripts/view_vscode.py.

A new user's machine: the extension folder fresh, only /usr/bin on PATH and no PYTHON* variables, so the server
the .vsix carries is the one that runs. ``cpu_seconds`` reads what the browser's and code-server's processes
have spent (Linux /proc), for the 3D view's idle figures.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CODE_SERVER = os.environ.get("SDFORMAT_LSP_CODE_SERVER") or str(REPO / ".e2e" / "node_modules" / ".bin" / "code-server")
CHROMIUM = os.environ.get("SDFORMAT_LSP_CHROMIUM", "/usr/bin/chromium")
SYSTEM_PYTHON = "/usr/bin/python3"
WAIT_MS = 60_000


def vsix() -> Path | None:
    """The newest .vsix for this machine (``package.mjs --all`` leaves one per platform)."""
    import platform

    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(
        platform.machine().lower(), "x64"
    )
    found = sorted(
        (REPO / "vscode-extension").glob(f"sdformat-lsp-linux-{arch}-*.vsix"), key=lambda p: p.stat().st_mtime
    )
    return found[-1] if found else None


def skip_reason() -> str | None:
    if not os.access(CODE_SERVER, os.X_OK):
        return f"code-server not installed ({CODE_SERVER}; SDFORMAT_LSP_E2E=1 bash scripts/test.sh installs it)"
    if not os.access(CHROMIUM, os.X_OK):
        return "chromium not installed"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright not installed"
    if vsix() is None:
        return "no platform .vsix built (cd vscode-extension && npm run package)"
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        return f"{SYSTEM_PYTHON} not found"
    return None


def json_or_none(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Window:
    """One code-server with a workspace, and the browser page showing it."""

    def __init__(self, page, base: Path, ws: Path, ud: Path) -> None:
        self.page = page
        self.base = base
        self.ws = ws
        self.ud = ud
        self.started = time.monotonic()
        self.workbench_ready_s = 0.0
        self.code_server_pid = 0

    def server_log(self) -> str:
        """The extension's output channel as VS Code logs it (read only; a line may be half written)."""
        files = sorted(self.ud.glob("logs/*/exthost*/output_logging_*/*SDFormat Language Server.log"))
        return "".join(f.read_text(errors="replace") for f in files)

    def wait(self, check, timeout_ms: int = WAIT_MS, step: float = 0.05, what: str = "condition"):
        end = time.monotonic() + timeout_ms / 1000
        while True:
            value = check()
            if value:
                return value
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(step)

    def command(self, title: str) -> None:
        self.page.keyboard.press("F1")
        self.page.wait_for_selector(".quick-input-widget:not([style*='display: none']) input", timeout=WAIT_MS)
        self.page.keyboard.type(title)
        self.page.wait_for_selector(".quick-input-list .monaco-list-row", timeout=WAIT_MS)
        time.sleep(0.3)
        self.page.keyboard.press("Enter")

    def open(self, name: str) -> float:
        """Quick Open ``name``; returns the monotonic time the file was asked for."""
        self.page.keyboard.press("Control+P")
        self.page.wait_for_selector(".quick-input-widget:not([style*='display: none']) input", timeout=WAIT_MS)
        self.page.keyboard.type(name)
        self.page.wait_for_selector(".quick-input-list .monaco-list-row", timeout=WAIT_MS)
        time.sleep(0.2)
        t = time.monotonic()
        self.page.keyboard.press("Enter")
        self.page.wait_for_selector(f".tab.active[aria-label*='{name}']", timeout=WAIT_MS)
        return t

    def goto(self, line: int, col: int) -> None:
        self.page.keyboard.press("Control+G")
        self.page.wait_for_selector(".quick-input-widget:not([style*='display: none']) input", timeout=WAIT_MS)
        self.page.keyboard.type(f"{line}:{col}")
        self.page.keyboard.press("Enter")
        time.sleep(0.3)

    def cursor(self) -> tuple[int, int]:
        text = self.page.inner_text("#status\\.editor\\.selection")
        m = re.search(r"Ln (\d+), Col (\d+)", text)
        assert m, text
        return int(m.group(1)), int(m.group(2))

    def editor_text(self) -> str:
        """The visible lines, inlay hints included (VS Code renders spaces as no-break spaces)."""
        return self.page.inner_text(".editor-instance .monaco-editor .view-lines").replace("\xa0", " ")

    def set_settings(self, scope: str, values: dict) -> None:
        """Edit the User or Remote (machine) settings.json as a user does: in the editor, then save."""
        path = self.ud / scope / "settings.json"
        current = json.loads(path.read_text()) if path.exists() else {}
        current.update(values)
        title = (
            "Preferences: Open User Settings (JSON)" if scope == "User" else "Preferences: Open Remote Settings (JSON)"
        )
        self.command(title)
        self.page.wait_for_selector(".tab.active[aria-label*='settings.json']", timeout=WAIT_MS)
        time.sleep(0.5)
        self.page.click(".editor-instance .monaco-editor .view-lines")
        self.page.keyboard.press("Control+A")
        self.page.keyboard.press("Delete")
        self.page.keyboard.insert_text(json.dumps(current))  # one line: no auto-indent
        self.page.keyboard.press("Control+S")
        try:
            self.wait(lambda: json_or_none(path) == current, timeout_ms=15000, what=f"{scope} settings saved")
        except AssertionError:
            raise AssertionError(f"{scope}/settings.json is now {path.read_text()!r}") from None
        self.page.keyboard.press("Control+W")

    def position_of(self, name: str, needle: str, nth: int = 0, delta: int = 0) -> tuple[int, int]:
        """1-based line and column of ``needle`` in the workspace file ``name``."""
        text = (self.ws / name).read_text()
        at = -1
        for _ in range(nth + 1):
            at = text.index(needle, at + 1)
        at += delta
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        return line, col

    def close_tab(self, title_start: str) -> None:
        """Closes the editor tab whose title starts with ``title_start`` with its close button."""
        tab = self.page.wait_for_selector(f".tab[aria-label^='{title_start}']", timeout=WAIT_MS)
        tab.hover()
        tab.query_selector(".tab-actions .action-label").click()

    def view_frame(self):
        """The webview frame holding the 3D page (the one with its API), or None."""
        for frame in self.page.frames:
            try:
                if frame.evaluate("() => Boolean(window.__sdfViewApi)"):
                    return frame
            except Exception:
                continue
        return None


def settled_renders(frame) -> int:
    """The page's render count once the frame a change asked for has been drawn: the page draws on the next
    animation frame, so a count read right after a change can still be one short."""
    frame.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return frame.evaluate("() => window.__sdfView.renders")


USER_SETTINGS = {
    "workbench.startupEditor": "none",
    "security.workspace.trust.enabled": False,
    "telemetry.telemetryLevel": "off",
    "workbench.tips.enabled": False,
    "editor.inlayHints.enabled": "on",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "sdformat.trace.server": "messages",  # the output channel then shows the traffic when a step fails
}


@contextmanager
def launched(base: Path, ws: Path, settings: dict | None = None, viewport=(1500, 950)) -> Iterator[Window]:
    """code-server on ``ws`` with the .vsix installed in a fresh extensions folder under ``base``, and a chromium
    page showing it; everything stopped on exit. ``settings`` go over USER_SETTINGS."""
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    ud, ext = base / "user-data", base / "extensions"
    for d in (ud / "User", ud / "Machine", ext):
        d.mkdir(parents=True, exist_ok=True)
    (ud / "User" / "settings.json").write_text(json.dumps({**USER_SETTINGS, **(settings or {})}))
    # No server installed anywhere it could be found: only /usr/bin on PATH, no PYTHONPATH.
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k not in ("VIRTUAL_ENV", "CONDA_PREFIX")
    }
    env["PATH"] = os.pathsep.join(["/usr/bin", "/bin"])
    env["HOME"] = str(base / "home")
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import sdformat_lsp"], env=env, capture_output=True)
    assert probe.returncode != 0, "the system python3 must not have the server for this test"
    installed = subprocess.run(
        [CODE_SERVER, "--user-data-dir", str(ud), "--extensions-dir", str(ext), "--install-extension", str(vsix())],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    port = free_port()
    config = base / "code-server.yaml"
    config.write_text(f"bind-addr: 127.0.0.1:{port}\nauth: none\ncert: false\n")  # loopback only
    log = open(base / "code-server.log", "w")
    proc = subprocess.Popen(
        [
            CODE_SERVER,
            "--config",
            str(config),
            "--user-data-dir",
            str(ud),
            "--extensions-dir",
            str(ext),
            "--disable-telemetry",
            "--disable-update-check",
            "--disable-workspace-trust",
            str(ws),
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        end = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.monotonic() > end or proc.poll() is not None:
                    raise RuntimeError(
                        f"code-server did not start: {(base / 'code-server.log').read_text()[-2000:]}"
                    ) from None
                time.sleep(0.1)
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--use-gl=swiftshader", "--ignore-gpu-blocklist"]
            )
            page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
            page.goto(f"http://127.0.0.1:{port}/?folder={ws}")
            page.wait_for_selector(".monaco-workbench .part.editor", timeout=WAIT_MS * 2)
            w = Window(page, base, ws, ud)
            w.started = started
            w.workbench_ready_s = round(time.monotonic() - started, 2)
            w.code_server_pid = proc.pid
            yield w
            browser.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


# -- CPU spent by processes (Linux /proc) -----------------------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> tuple[int, int, str] | None:
    """(parent pid, CPU ticks spent, command name) of a process, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), int(fields[11]) + int(fields[12]), name


def descendants(root: int) -> list[int]:
    """The processes below ``root`` (children, grandchildren, ...), as /proc shows them now."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st:
                parent[int(entry)] = st[0]
    out, frontier = [], {root}
    while frontier:
        frontier = {pid for pid, pp in parent.items() if pp in frontier}
        out.extend(frontier)
    return out


def process_kind(pid: int) -> str:
    """chromium's ``--type`` of a process (renderer, gpu-process, utility, zygote), ``browser`` for the browser
    process itself, else the process's name. (chromium rewrites its command line as one string: not split on NULs.)"""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "gone"
    m = re.search(r"--type=(\S+)", cmdline)
    if m:
        return m.group(1)
    st = _stat(pid)
    name = st[2] if st else "gone"
    return "browser" if "chrom" in name else name


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """CPU seconds (user + system) each process has spent so far."""
    out = {}
    for pid in pids:
        st = _stat(pid)
        if st:
            out[pid] = st[1] / CLOCK_TICKS
    return out


def cpu_percent(groups: dict[str, list[int]], seconds: float) -> dict[str, float]:
    """Per group of processes, the CPU it spends over ``seconds`` of wall time, in percent of one core."""
    before = {name: cpu_seconds(pids) for name, pids in groups.items()}
    t0 = time.monotonic()
    time.sleep(seconds)
    wall = time.monotonic() - t0
    after = {name: cpu_seconds(pids) for name, pids in groups.items()}
    return {
        name: round(100 * sum(after[name][p] - before[name][p] for p in after[name] if p in before[name]) / wall, 1)
        for name in groups
    }


def chromium_processes() -> dict[str, list[int]]:
    """This process's chromium processes (Playwright's driver starts the browser), by chromium's process type."""
    groups: dict[str, list[int]] = {}
    for pid in descendants(os.getpid()):
        st = _stat(pid)
        if st and "chrom" in st[2].lower():
            groups.setdefault(process_kind(pid), []).append(pid)
    return groups
