"""docs/editors/emacs.md works as written: its init code, copied from the page, run in Emacs (batch mode) with
Eglot, starts sdformat-lsp for an .sdf file and a URDF file (language ids `sdformat` and `urdf`), the
server's diagnostic lands in Flymake on the text it is about, and the page's `.dir-locals.el` settings reach
the server (a world's `model://` include found through its relative `resourcePaths`). Skips without Emacs or Eglot (built into Emacs 29;
Debian's elpa-eglot for Emacs 28)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.editors.installed import editor, server_command

DOC = Path(__file__).resolve().parents[2] / "docs" / "editors" / "emacs.md"
SDF = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <link name="a"/>
    <link name="b"><pose relative_to="nope">0 0 0 0 0 0</pose></link>
  </model>
</sdf>
"""
URDF = """<robot name="r"><link name="base"/><joint name="j" type="fixed"><parent link="base"/>
<child link="nowhere"/></joint></robot>
"""
WORLD = """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <include><uri>model://box</uri></include>
    <model name="m"><link name="a"/><link name="b"><pose relative_to="nope"/></link></model>
  </world>
</sdf>
"""
DRIVE = """
(package-initialize)
(unless (require 'eglot nil t) (message "DRIVE: no eglot") (kill-emacs 0))
(defun drive-settled-p ()
  ;; some diagnostics, and none about a model:// include (the world's is found once the settings arrive)
  (and (flymake-diagnostics)
       (not (seq-some (lambda (d) (string-match-p "URI_LOOKUP" (flymake-diagnostic-text d)))
                      (flymake-diagnostics)))))
(dolist (file (list (getenv "SDF_FILE") (getenv "URDF_FILE") (getenv "WORLD_FILE")))
  (find-file file)
  (run-hooks 'post-command-hook)  ; eglot-ensure connects after the command that opened the file
  (let ((n 0))
    (while (and (< n 300) (not (drive-settled-p)))
      (accept-process-output nil 0.1)
      (setq n (1+ n))))
  (message "DRIVE: %s %s language-id %s" (file-name-nondirectory file) major-mode
           (and (eglot-current-server) (eglot--language-id (eglot-current-server))))
  (dolist (d (flymake-diagnostics))
    (message "DRIVE: diagnostic %s %s %s" (flymake-diagnostic-beg d) (flymake-diagnostic-end d)
             (flymake-diagnostic-text d))))
(kill-emacs 0)
"""


def test_the_eglot_setup_of_the_emacs_page_starts_the_server_and_shows_its_diagnostics(tmp_path):
    emacs = editor("emacs")
    exe = server_command()
    # the page's init code: the blocks that define the modes (the others are fragments of these)
    blocks = [
        b
        for b in re.findall(r"```elisp\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
        if "define-derived-mode" in b
    ]
    assert len(blocks) == 2
    (tmp_path / "init.el").write_text("\n".join(blocks), encoding="utf-8")
    (tmp_path / "drive.el").write_text(DRIVE, encoding="utf-8")
    folder = tmp_path / "mes modèles"
    folder.mkdir()
    (folder / "bad robot.sdf").write_text(SDF, encoding="utf-8")
    (folder / "arm.urdf").write_text(URDF, encoding="utf-8")
    # the page's per-project settings: .dir-locals.el with a resourcePaths entry relative to the project root
    dir_locals = re.search(
        r"`(\(\(nil \. \(\(eglot-workspace-configuration .*?)`", DOC.read_text(encoding="utf-8"), re.S
    )
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "worlds").mkdir()
    # the server finds the project's own models/ by itself: point the page's entry outside the project instead
    form = dir_locals.group(1)
    assert form.count('["models"]') == 1, form
    (project / ".dir-locals.el").write_text(form.replace('["models"]', '["../shared models"]'), encoding="utf-8")
    box = tmp_path / "shared models" / "box"
    box.mkdir(parents=True)
    (box / "model.config").write_text(
        '<?xml version="1.0"?><model><name>box</name><sdf version="1.9">model.sdf</sdf></model>'
    )
    (box / "model.sdf").write_text(
        '<?xml version="1.0"?><sdf version="1.9"><model name="box"><link name="l"/></model></sdf>'
    )
    (project / "worlds" / "w.sdf").write_text(WORLD, encoding="utf-8")
    env = {
        **os.environ,
        "PATH": f"{exe.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(tmp_path),
        "LC_ALL": "C.UTF-8",
        "SDF_FILE": str(folder / "bad robot.sdf"),
        "URDF_FILE": str(folder / "arm.urdf"),
        "WORLD_FILE": str(project / "worlds" / "w.sdf"),
    }
    # -q, not -Q: Debian activates its elpa-* packages from site-start
    run = subprocess.run(
        [emacs, "--batch", "-q", "-l", "init.el", "-l", "drive.el"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    log = run.stderr
    if "DRIVE: no eglot" in log:
        pytest.skip("Eglot is not available to this Emacs (Emacs 28: apt-get install elpa-eglot)")
    assert run.returncode == 0, log
    assert "DRIVE: bad robot.sdf sdformat-mode language-id sdformat" in log, log
    assert "DRIVE: arm.urdf urdf-mode language-id urdf" in log, log
    start = SDF.index('"nope"') + 2  # Emacs counts characters from 1; the range is the value, not its quotes
    diagnostics = re.findall(r"^DRIVE: diagnostic (\d+) (\d+) (.*)$", log, re.M)
    assert (str(start), str(start + 4)) in [
        (b, e) for b, e, text in diagnostics if "POSE_RELATIVE_TO_INVALID" in text
    ], log
    assert any("nowhere" in text for _, _, text in diagnostics), log
    # the world: its include found through the .dir-locals.el settings, its own mistake reported
    world = log[log.index("DRIVE: w.sdf sdformat-mode language-id sdformat") :]
    assert "POSE_RELATIVE_TO_INVALID" in world and "URI_LOOKUP" not in world, world
