"""The real VS Code (code-server 4.100.3 = VS Code 1.100.3) with the built .vsix, driven by Playwright.

A new user's path: the .vsix installed into a fresh extensions folder, on a machine whose
``python3`` has no server and no pip packages (Debian's /usr/bin/python3 with only /usr/bin
on PATH), a window opened on a repository. Then: install and go (diagnostics with nothing
installed), the language mode, problems, hover, F12, completion, a quick fix, inlay hints,
colour decorators, the frame tree, the 3D preview drawn (a URDF, sliders, switching files,
picking, its idle CPU against the view closed), a live settings change in this remote-style
window, and a missing server command giving one clear message.

Opt-in and self-installing: ``SDFORMAT_LSP_E2E=1 bash scripts/test.sh`` installs code-server,
chromium and Playwright with scripts/install_code_server.sh into .e2e/ and builds the .vsix
first. Skipped cleanly when any of them is missing. Timings (first diagnostics, the whole
module) are printed and written to $SDFORMAT_LSP_E2E_REPORT when set.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest

from tests.viewer import meshgen
from tests.editors.vscode_window import (
    REPO,
    WAIT_MS,
    Window,
    chromium_processes,
    cpu_percent,
    launched,
    settled_renders,
    skip_reason,
)

REPORT: dict[str, float] = {}
pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=str(skip_reason()))


@pytest.fixture(scope="module")
def window(tmp_path_factory):
    base = tmp_path_factory.mktemp("vscode")
    ws = base / "repo"
    (ws / ".git").mkdir(parents=True)
    shutil.copy(REPO / "tests" / "lsp" / "fixtures" / "rover.sdf", ws / "rover.sdf")
    shutil.copy(REPO / "examples" / "broken_arm.sdf", ws / "broken_arm.sdf")
    shutil.copy(REPO / "examples" / "arm.sdf", ws / "arm.sdf")
    (ws / "two_link.urdf").write_text(TWO_LINK_URDF)
    (ws / "meshes").mkdir()
    (ws / "meshes" / "part.dae").write_bytes(meshgen.dae((0, 0, 0), (10, 20, 30), unit=0.01))
    (ws / "dae_part.sdf").write_text(DAE_PART)
    started = time.monotonic()
    try:
        with launched(base, ws) as w:
            REPORT["workbench_ready_s"] = w.workbench_ready_s
            yield w
    finally:
        REPORT["module_s"] = round(time.monotonic() - started, 2)
        print("\nreal VS Code figures:", json.dumps(REPORT))
        if os.environ.get("SDFORMAT_LSP_E2E_REPORT"):
            Path(os.environ["SDFORMAT_LSP_E2E_REPORT"]).write_text(json.dumps(REPORT, indent=2) + "\n")


def test_install_and_go_first_diagnostics(window: Window):
    """The server the .vsix carries starts with the workspace (it has .sdf files); a file opened
    once the window is ready shows its problems."""
    window.wait(lambda: "Server started." in window.server_log(), what="the bundled server to start")
    REPORT["server_started_after_workbench_s"] = round(
        time.monotonic() - window.started - REPORT["workbench_ready_s"], 2
    )  # type: ignore[attr-defined]
    assert "(bundled)" in window.server_log(), window.server_log()[:2000]
    # its bytecode is cached in the extension's storage (writable), not beside its sources
    assert list(window.ud.glob("User/globalStorage/*/pycache/**/*.pyc")), "no bytecode cache in the global storage"
    assert not list((window.base / "extensions").glob("*/bundled/**/__pycache__"))
    t = window.open("broken_arm.sdf")
    REPORT["editor_shown_s"] = round(time.monotonic() - t, 3)  # Quick Open's Enter -> the editor tab
    window.page.wait_for_selector(".monaco-editor .squiggly-error", timeout=WAIT_MS)
    REPORT["first_diagnostics_s"] = round(time.monotonic() - t, 3)
    print(
        f"\nfirst diagnostics {REPORT['first_diagnostics_s']:.3f} s after opening the file in a ready window "
        f"(the issue's target: at most 1 s; not asserted: no timed tests)"
    )
    assert window.page.inner_text("#status\\.editor\\.mode").strip() == "SDFormat"


def test_problems_have_codes(window: Window):
    window.page.keyboard.press("Control+Shift+M")
    panel = window.page.wait_for_selector(".markers-panel", timeout=WAIT_MS)
    window.wait(lambda: "POSE_RELATIVE_TO_INVALID" in panel.inner_text(), what="the problem with its code")
    text = panel.inner_text()
    assert "FRAME_ATTACHED_TO_CYCLE" in text and "JOINT_PARENT_SAME_AS_CHILD" in text


def test_hover_shows_the_resolved_pose(window: Window):
    line, col = window.position_of("broken_arm.sdf", '<joint name="shoulder"', delta=len('<joint name="') + 2)
    window.goto(line, col)
    window.page.keyboard.press("Control+K")
    window.page.keyboard.press("Control+I")
    hover = window.page.wait_for_selector(".monaco-hover:not(.hidden) .hover-contents", timeout=WAIT_MS)
    text = window.wait(lambda: hover.inner_text(), what="hover text")
    assert "shoulder" in text and "xyz" in text, text
    window.page.keyboard.press("Escape")


def test_f12_goes_to_the_frame(window: Window):
    line, col = window.position_of("broken_arm.sdf", "<parent>upper</parent>", delta=len("<parent>") + 1)
    window.goto(line, col)
    window.page.keyboard.press("F12")
    target = window.position_of("broken_arm.sdf", '<link name="upper"', delta=len('<link name="'))
    window.wait(lambda: window.cursor()[0] == target[0], what=f"the cursor on line {target[0]}")


def test_completion_offers_frames(window: Window):
    line, col = window.position_of("broken_arm.sdf", 'relative_to="sholder"', delta=len('relative_to="'))
    window.goto(line, col)
    window.page.keyboard.press("Control+Space")
    widget = window.page.wait_for_selector(".suggest-widget.visible", timeout=WAIT_MS)
    text = window.wait(lambda: "shoulder" in widget.inner_text() and widget.inner_text(), what="completion items")
    assert "base" in text
    window.page.keyboard.press("Escape")


def test_quick_fix_corrects_the_typo(window: Window):
    line, col = window.position_of("broken_arm.sdf", 'relative_to="sholder"', delta=len('relative_to="') + 2)
    window.goto(line, col)
    window.page.keyboard.press("Control+.")
    menu = window.page.wait_for_selector(".action-widget", timeout=WAIT_MS)
    window.wait(lambda: "shoulder" in menu.inner_text(), what="the quick fix")
    window.page.keyboard.press("Enter")
    window.wait(lambda: 'relative_to="shoulder"' in window.editor_text(), what="the fix applied")
    window.page.keyboard.press("Control+Z")


def test_inlay_hints_and_colours(window: Window):
    window.open("rover.sdf")
    window.wait(lambda: "rpy 0 0 90°" in window.editor_text(), what="inlay hints")
    assert "xyz 1 0 0.5 rpy 0 0 90°" in window.editor_text()
    window.wait(lambda: window.page.query_selector_all(".colorpicker-color-decoration"), what="colour decorators")
    assert len(window.page.query_selector_all(".colorpicker-color-decoration")) == 2


def test_frame_tree(window: Window):
    window.command("SDFormat Frames: Focus on SDFormat Frames View")
    pane = window.page.wait_for_selector(".pane:has(.pane-header[aria-label*='SDFormat Frames'])", timeout=WAIT_MS)
    window.wait(lambda: "chassis" in pane.inner_text() and "axle" in pane.inner_text(), what="the frame tree")
    assert "rpy 0 0 90°" in pane.inner_text()
    row = pane.wait_for_selector(".monaco-list-row:has-text('sensor_mount')")
    row.click()
    target = window.position_of("rover.sdf", 'name="sensor_mount"')
    window.wait(lambda: window.cursor()[0] == target[0], what="reveal on click")


def test_the_tree_and_the_view_follow_the_editors_cursor(window: Window):
    """The cursor on an element selects its row in the frame tree (and highlights it in the 3D view): issue 23's
    'the cursor in the editor highlights its element in the view and the tree'."""
    window.open("rover.sdf")
    window.command("SDFormat Frames: Focus on SDFormat Frames View")
    pane = window.page.wait_for_selector(".pane:has(.pane-header[aria-label*='SDFormat Frames'])", timeout=WAIT_MS)
    window.wait(lambda: "axle" in pane.inner_text(), what="the frame tree")
    window.open("rover.sdf")  # the editor focused again, the tree still shown
    for name in ("axle", "sensor_mount"):
        line, col = window.position_of("rover.sdf", f'name="{name}"', delta=len('name="') + 1)
        window.goto(line, col)
        window.wait(
            lambda: pane.query_selector(f".monaco-list-row[aria-selected='true']:has-text('{name}')"),
            what=f"the tree row of {name} selected by the cursor",
        )


def test_preview_draws(window: Window):
    window.open("rover.sdf")
    window.command("SDFormat: Show Frames in 3D")
    # rover, chassis, wheel, axle, sensor_mount; the visuals body and tyre
    try:
        window.wait(
            lambda: "Preview drew 5 frames, 2 visuals" in window.server_log(), what="the preview to report its drawing"
        )
    except AssertionError:
        raise AssertionError(
            "\n".join(line for line in window.server_log().splitlines() if "Trace" not in line)[-2000:]
        ) from None

    def canvas_colours():
        for frame in window.page.frames:
            try:
                n = frame.evaluate("""() => {
                  const c = document.querySelector('canvas'); if (!c || !c.width) return 0;
                  const t = document.createElement('canvas'); t.width = 64; t.height = 64;
                  const g = t.getContext('2d'); g.drawImage(c, 0, 0, 64, 64);
                  const d = g.getImageData(0, 0, 64, 64).data; const seen = new Set();
                  for (let i = 0; i < d.length; i += 4) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
                  return seen.size; }""")
            except Exception:
                continue
            if n:
                return n
        return 0

    colours = window.wait(lambda: canvas_colours() > 8 and canvas_colours(), what="a drawn canvas")
    assert colours > 8
    # It follows edits: a new frame typed into the document is drawn.
    window.open("rover.sdf")
    line, _ = window.position_of("rover.sdf", '<frame name="sensor_mount"')
    window.goto(line, 1)
    window.page.keyboard.insert_text('<frame name="typed_in" attached_to="wheel"/>\n    ')
    window.wait(
        lambda: re.search(r"Preview drew 6 frames", window.server_log()), what="the preview redrawn after an edit"
    )
    window.page.keyboard.press("Control+Z")
    # COLLADA is parsed in the webview's mesh worker, off the workbench's thread (its policy allows the worker)
    seen = len(window.server_log())
    window.open("dae_part.sdf")
    window.wait(
        lambda: "Preview drew 2 frames, 1 visuals (1 meshes, 0 not drawn" in window.server_log()[seen:],
        what="the COLLADA part drawn",
    )
    frame = window.wait(lambda: window.view_frame(), what="the 3D page")
    assert frame.evaluate("() => [window.__sdfView.workerFiles, window.__sdfView.parseMs]") == [1, 0]
    # the mesh was fetched from the extension's file server (src/fileServer.ts, through code-server's /proxy/):
    # neither a message nor the webview's own resource loading, which both hand every byte through the
    # workbench's thread (small_house: 34 MB of images, 5 s of a frozen editor)
    assert frame.evaluate("() => [window.__sdfView.readFiles, window.__sdfViewReads.served]") == [1, 1]
    entries = frame.evaluate(
        "() => performance.getEntriesByType('resource').map(e => [e.name, e.encodedBodySize, e.decodedBodySize])"
    )
    served = [e for e in entries if "/file?u=" in e[0] and e[0].lower().endswith(".dae")]
    assert len(served) == 1 and "/proxy/" in served[0][0], entries
    # sent gzipped (a text mesh) and inflated by the browser's network stack, not on the page
    assert 0 < served[0][1] < served[0][2] / 2, served
    assert not [e for e in entries if e[0].lower().endswith(".dae") and e not in served], entries
    box = frame.evaluate("() => window.__sdfViewApi.boxOf(window.__sdfViewApi.frames().find(f => f.name === 'l').id)")
    assert all(abs(a - b) < 1e-4 for a, b in zip(box[1], (0.1, 0.2, 0.3))), box  # in its unit, centimetres


DAE_PART = """<sdf version="1.11"><model name="m"><link name="l">
  <visual name="v"><geometry><mesh><uri>meshes/part.dae</uri></mesh></geometry></visual></link></model></sdf>
"""

TWO_LINK_URDF = """<robot name="two_link">
  <link name="base"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <visual><geometry><box size="0.4 0.4 0.1"/></geometry></visual></link>
  <link name="arm"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <visual><origin xyz="0.25 0 0"/><geometry><box size="0.5 0.05 0.05"/></geometry></visual></link>
  <joint name="shoulder" type="revolute"><origin xyz="0 0 0.2"/><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1.5" upper="1.5" effort="1" velocity="1"/></joint>
</robot>
"""


def test_preview_urdf_sliders_switching_picking_and_idle(window: Window):
    """The 3D view follows the active editor (a URDF too), has a slider per movable joint that moves the
    link, answers a click on a triad with that element, and draws nothing while nothing changes."""
    window.open("two_link.urdf")
    window.command("SDFormat: Show Frames in 3D")
    window.wait(
        lambda: "Preview drew 4 frames, 2 visuals" in window.server_log() and "1 joint sliders" in window.server_log(),
        what="the URDF drawn with its slider",
    )
    frame = window.wait(lambda: window.view_frame(), what="the 3D page")
    frame.wait_for_selector("#sdf-joints input[data-joint='shoulder']")
    before = frame.evaluate(
        "() => window.__sdfViewApi.boxOf(window.__sdfViewApi.frames().find(f => f.name === 'arm').id)"
    )
    frame.evaluate(
        "() => { const i = document.querySelector(\"#sdf-joints input[data-joint='shoulder']\"); i.value = '1.5'; i.dispatchEvent(new Event('input')); }"
    )
    after = frame.evaluate(
        "() => window.__sdfViewApi.boxOf(window.__sdfViewApi.frames().find(f => f.name === 'arm').id)"
    )
    assert before[1][0] > 0.45 and after[1][0] < 0.1 and after[1][1] > 0.45, (before, after)  # the arm turned to +y
    # idle: once the slider's own frame is drawn, no render for a second
    renders = settled_renders(frame)
    time.sleep(1.0)
    assert frame.evaluate("() => window.__sdfView.renders") == renders
    # a click on the joint's triad reveals the joint
    t = time.monotonic()
    # the cone of the triad's z arrow (the joint's origin itself lies on the arm's box, which a click there picks)
    picked = frame.evaluate("""() => {
      const api = window.__sdfViewApi; const id = api.frames().find(f => f.name === 'shoulder').id;
      const c = document.querySelector('canvas'); const [x, y] = api.screenOfLocal(id, [0, 0, api.triadSize() * 0.7 * 0.9]);
      const got = api.pick(x, y);
      for (const type of ['pointerdown', 'pointerup']) c.dispatchEvent(new PointerEvent(type, {clientX: x, clientY: y, bubbles: true}));
      return [got, id]; }""")
    assert picked[0] == picked[1], picked
    target = window.position_of("two_link.urdf", 'name="shoulder"')
    window.wait(lambda: window.cursor()[0] == target[0], what="the joint revealed by a click on its triad")
    REPORT["triad_click_to_reveal_s"] = round(time.monotonic() - t, 3)
    # switching files never leaves it blank; coming back keeps the slider's value
    seen = len(window.server_log())
    window.open("rover.sdf")
    window.wait(
        lambda: (
            "Preview drew" in window.server_log()[seen:]
            and frame.evaluate("() => (window.__sdfViewApi.frames() || []).some(f => f.name === 'chassis')")
        ),
        what="the rover drawn after switching",
    )
    window.open("two_link.urdf")
    frame = window.wait(lambda: window.view_frame(), what="the 3D page")
    window.wait(
        lambda: frame.evaluate("() => (window.__sdfViewApi.frames() || []).some(f => f.name === 'shoulder')"),
        what="the URDF again",
    )
    assert frame.evaluate("() => document.querySelector(\"#sdf-joints input[data-joint='shoulder']\").value") == "1.5"


def test_preview_idle_cpu_near_zero_when_static(window: Window):
    """With the 3D view open and nothing changing, the browser spends what it spends with the view closed: the
    page has no render loop (issue 23 found chromium at 180% of a core with the view open against 8% closed).
    The figures are printed (and reported); only the difference is asserted, with a margin for a loaded machine."""
    window.open("two_link.urdf")
    frame = window.wait(lambda: window.view_frame(), what="the 3D page")
    window.wait(
        lambda: frame.evaluate("() => (window.__sdfViewApi.frames() || []).some(f => f.name === 'shoulder')"),
        what="the URDF drawn",
    )
    renders = settled_renders(frame)
    time.sleep(0.5)  # the workbench settles after the editor switch
    shown = cpu_percent(chromium_processes(), 2.0)
    assert frame.evaluate("() => window.__sdfView.renders") == renders, "the page drew while nothing changed"
    window.close_tab("Frames:")
    window.wait(lambda: window.view_frame() is None, what="the 3D view closed")
    time.sleep(0.5)
    closed = cpu_percent(chromium_processes(), 2.0)
    REPORT["chromium_cpu_percent_view_open_static"] = round(sum(shown.values()), 1)
    REPORT["chromium_cpu_percent_view_closed"] = round(sum(closed.values()), 1)
    print(f"\nchromium CPU with the 3D view open and static: {shown} (% of a core, by process type); closed: {closed}")
    assert sum(shown.values()) <= sum(closed.values()) + 15, (shown, closed)


def test_live_settings_change_in_a_remote_window(window: Window):
    window.open("rover.sdf")
    window.set_settings("User", {"sdformat.inlayHints.angles": "radians"})
    try:
        window.wait(lambda: "rpy 0 0 1.5708" in window.editor_text(), what="hints in radians without a reload")
    except AssertionError:
        print(window.server_log()[-3000:])
        raise
    window.set_settings("User", {"sdformat.inlayHints.enabled": False})
    window.wait(lambda: "rpy 0 0" not in window.editor_text(), what="hints off without a reload")


def test_missing_command_gives_one_clear_message(window: Window):
    # In this remote-style window the machine-overridable command is read from the Machine settings.
    window.set_settings("Machine", {"sdformat.server.command": ["surely-not-a-command-4711"]})
    toast = window.page.wait_for_selector(".notification-toast:has-text('surely-not-a-command-4711')", timeout=WAIT_MS)
    assert "Open Settings" in toast.inner_text()
    time.sleep(2)
    assert len(window.page.query_selector_all(".notification-toast:has-text('SDFormat language server')")) == 1
    # "Open Settings" opens the scope where the setting can be edited here: the Remote settings.
    toast.query_selector("a.monaco-button:has-text('Open Settings'), .monaco-button:has-text('Open Settings')").click()
    editor = window.page.wait_for_selector(".settings-editor", timeout=WAIT_MS)
    selected = ".settings-tabs-widget [role=tab][aria-selected=true]"
    window.wait(lambda: "Remote" in window.page.inner_text(selected), what="the Remote tab selected")
    window.wait(lambda: "1 Setting Found" in editor.inner_text(), what="the setting found")
    window.wait(
        lambda: "surely-not-a-command-4711" in editor.inner_text() or "Server: Command" in editor.inner_text(),
        what="the setting shown",
    )
