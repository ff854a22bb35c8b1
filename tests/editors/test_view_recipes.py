"""The editor recipes of docs/editors/view.md work as written: Neovim's `:SdfView` and Emacs's `sdformat-view`,
copied from the page, run headless (nvim --headless, emacs --batch) on a buffer whose file name has spaces and
non-ASCII letters, start `sdformat-lsp view` for that file (its URL shown in the editor's messages, the page and
the file's frames served), and the server stops with the editor (and in Emacs with its buffer). Each skips
without its editor. Helix's binding cannot run here (no Helix): its shell command is built as Helix 25.07.1's
source builds it and run with `sh -c`, for files below the working directory, elsewhere under the home
directory, outside it, and a scratch buffer. Sublime Text's build system is checked against the page's
syntaxes only."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.editors.installed import editor, server_command

DOC = Path(__file__).resolve().parents[2] / "docs" / "editors" / "view.md"
URDF = """<robot name="r"><link name="base"><inertial><mass value="1"/>
  <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
  <visual><geometry><box size="1 1 1"/></geometry></visual></link></robot>
"""


def recipe(section: str, language: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    part = text.split(f"## {section}\n", 1)[1]
    return re.search(rf"```{language}\n(.*?)```", part, re.S).group(1)


def test_the_neovim_recipe_serves_the_current_buffer_and_stops_with_neovim(tmp_path):
    nvim = editor("nvim")
    exe = server_command()
    (tmp_path / "recipe.lua").write_text(recipe("Neovim", "lua"))
    (tmp_path / "my röbot.urdf").write_text(URDF, encoding="utf-8")
    messages = tmp_path / "messages.txt"
    env = {**os.environ, "PATH": f"{exe.parent}{os.pathsep}{os.environ.get('PATH', '')}", "BROWSER": "true"}
    # Neovim waits (bounded) for the URL in its messages, writes them, checks the page, then quits
    script = tmp_path / "drive.lua"
    script.write_text(
        """
vim.cmd('SdfView')
vim.wait(30000, function() return vim.fn.execute('messages'):match('sdformat%-lsp view: http') ~= nil end, 100)
local f = io.open(vim.env.SDF_MESSAGES, 'w'); f:write(vim.fn.execute('messages')); f:close()
vim.wait(30000, function() return io.open(vim.env.SDF_MESSAGES .. '.done') ~= nil end, 100)
vim.cmd('qa!')
"""
    )
    env["SDF_MESSAGES"] = str(messages)
    proc = subprocess.Popen(
        [
            nvim,
            "--headless",
            "--clean",
            "-c",
            "luafile recipe.lua",
            "-c",
            "edit my\\ röbot.urdf",
            "-c",
            "luafile drive.lua",
        ],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 40
        while not (messages.exists() and "http" in messages.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        url = re.search(r"sdformat-lsp view: (http://127\.0\.0\.1:(\d+)/\?token=\S+)", messages.read_text())
        assert url, messages.read_text()
        with urllib.request.urlopen(url.group(1), timeout=30) as r:
            assert r.status == 200
        base, token = url.group(1).split("/?token=")
        with urllib.request.urlopen(f"{base}/api/frames?token={token}", timeout=30) as r:
            answer = json.loads(r.read())
        assert answer["uri"].endswith("/my%20r%C3%B6bot.urdf") and [f["name"] for f in answer["frames"]] == [
            "r",
            "base",
        ]
        (tmp_path / "messages.txt.done").write_text("")
        proc.wait(30)
        port = int(url.group(2))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the job stops with Neovim
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) != 0:
                    break
            time.sleep(0.1)
        else:
            raise AssertionError(f"sdformat-lsp view still listens on {port} after Neovim quit")
    finally:
        if proc.poll() is None:
            proc.kill()


EMACS_DRIVE = """
(defun drive-wait-for (file)
  (while (not (file-exists-p file)) (accept-process-output nil 0.1)))
(let ((mode (getenv "SDF_MODE")) (signals (getenv "SDF_SIGNALS")))
  ;; a buffer that visits no file is refused; a file not saved yet is the server's error, in the echo area
  (with-temp-buffer
    (condition-case err (progn (sdformat-view) (message "DRIVE: no error"))
      (user-error (message "DRIVE: refused: %s" (error-message-string err)))))
  (find-file "not saved yet.urdf")
  (let ((p (sdformat-view)))
    (while (process-live-p p) (accept-process-output p 0.1)))
  (kill-buffer)
  (find-file (getenv "SDF_FILE"))
  (let ((p (sdformat-view)))
    ;; the command returned at once: the server runs beside Emacs
    (message "DRIVE: returned while the server runs: %s" (and (process-live-p p) t)))
  (drive-wait-for (expand-file-name "checked" signals))
  (when (equal mode "kill-buffer")
    (kill-buffer "*sdformat-view*")
    (with-temp-file (expand-file-name "killed" signals))
    (drive-wait-for (expand-file-name "quit" signals))))
(kill-emacs 0)
"""


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def wait_until(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def _hangups_default() -> None:
    """In the child: SIGHUP's default action, as in an Emacs started from a desktop or a terminal."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


@pytest.mark.parametrize("stopped_by", ["kill-buffer", "exit"])
def test_the_emacs_recipe_serves_the_current_buffer_and_stops_with_its_buffer_or_emacs(tmp_path, stopped_by):
    emacs = editor("emacs")
    exe = server_command()
    (tmp_path / "recipe.el").write_text(recipe("Emacs", "elisp"), encoding="utf-8")
    (tmp_path / "drive.el").write_text(EMACS_DRIVE, encoding="utf-8")
    folder = tmp_path / "my robots"
    folder.mkdir()
    (folder / "bras à 6 axes.urdf").write_text(URDF, encoding="utf-8")
    signals = tmp_path / "signals"
    signals.mkdir()
    log = tmp_path / "emacs.log"
    env = {
        **os.environ,
        "PATH": f"{exe.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "BROWSER": "true",
        "LC_ALL": "C.UTF-8",
        "SDF_FILE": str(folder / "bras à 6 axes.urdf"),
        "SDF_MODE": stopped_by,
        "SDF_SIGNALS": str(signals),
    }
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [emacs, "--batch", "-Q", "-l", "recipe.el", "-l", "drive.el"],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Emacs and its server in one process group, stopped below if a check fails
            preexec_fn=_hangups_default,  # Emacs stops its server with SIGHUP, which a run under nohup passes on ignored
        )
    try:
        pattern = re.compile(r"^sdformat-lsp view: (http://127\.0\.0\.1:(\d+)/\?token=\S+)$", re.M)
        assert wait_until(lambda: pattern.search(log.read_text(encoding="utf-8")), 40), log.read_text()
        text = log.read_text(encoding="utf-8")
        assert "DRIVE: refused: sdformat-view: this buffer visits no local file" in text
        assert re.search(r"^sdformat-lsp view: .*not saved yet\.urdf: not a file$", text, re.M), text
        assert "DRIVE: returned while the server runs: t" in text
        url = pattern.search(text)
        with urllib.request.urlopen(url.group(1), timeout=30) as r:
            assert r.status == 200
        base, token = url.group(1).split("/?token=")
        with urllib.request.urlopen(f"{base}/api/frames?token={token}", timeout=30) as r:
            answer = json.loads(r.read())
        assert answer["uri"].endswith("/my%20robots/bras%20%C3%A0%206%20axes.urdf")
        assert [f["name"] for f in answer["frames"]] == ["r", "base"]
        port = int(url.group(2))
        (signals / "checked").write_text("")
        if stopped_by == "kill-buffer":
            assert wait_until(lambda: (signals / "killed").exists(), 30), log.read_text()
            assert wait_until(lambda: not listening(port), 10), "the server still listens after its buffer was killed"
            assert proc.poll() is None  # while Emacs runs on
            (signals / "quit").write_text("")
        assert proc.wait(30) == 0, log.read_text()
        assert wait_until(lambda: not listening(port), 10), "the server still listens after Emacs exited"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def helix_shell_line(binding: str, variables: dict[str, str]) -> str:
    """The line Helix 25.07.1 hands to `sh -c` for a `:sh` key binding, built as its source does: the first
    positional is tokenized (unquoted, up to a blank), the rest of the line is one raw token (quotes kept) in
    which `%{variable}` is replaced by its value as is and `%%` by `%`, and the two are joined by a space.
    Only what the recipe uses is modelled; anything else fails here rather than being guessed."""
    assert binding.startswith(":"), binding
    name, _, args = binding[1:].partition(" ")
    assert name in ("sh", "run-shell-command", "!"), name
    args = args.lstrip(" \t")
    first, _, rest = args.partition(" ")
    assert first and not re.search(r"""["'`%\\]""", first[0] + first) and not first.startswith("-"), first
    rest = rest.lstrip(" \t")

    def expand(match: re.Match[str]) -> str:
        if match.group(0) == "%%":
            return "%"
        assert match.group(1) in variables, match.group(0)
        return variables[match.group(1)]

    assert "%" not in re.sub(r"%%|%\{[a-z_]+\}", "", rest), rest
    return first + (" " + re.sub(r"%%|%\{([a-z_]+)\}", expand, rest) if rest else "")


def helix_buffer_name(path: Path, cwd: Path, home: Path) -> str:
    """helix-stdx's get_relative_path: from the working directory, else from `~/` under the home directory."""
    for base, prefix in ((cwd, ""), (home, "~/")):
        try:
            return prefix + str(path.relative_to(base))
        except ValueError:
            pass
    return str(path)


def test_helix_binding_quotes_the_buffer_name_as_helix_expands_it():
    line = helix_shell_line(':sh echo "%{buffer_name}" 100%%', {"buffer_name": "a b/ü.urdf"})
    assert line == 'echo "a b/ü.urdf" 100%'
    assert subprocess.run(["sh", "-c", line], capture_output=True, text=True).stdout == "a b/ü.urdf 100%\n"


@pytest.mark.parametrize("where", ["below the working directory", "elsewhere under home", "outside home", "scratch"])
def test_the_helix_recipe_serves_the_current_buffer_and_returns_at_once(tmp_path, where):
    tomli = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    exe = server_command()
    binding = tomli.loads(recipe("Helix", "toml"))["keys"]["normal"]["space"]["V"]
    home, cwd, elsewhere = tmp_path / "home", tmp_path / "home" / "project", tmp_path / "elsewhere"
    file = {
        "below the working directory": cwd / "robots" / "bras à 6 axes.urdf",
        "elsewhere under home": home / "my robots" / "bras à 6 axes.urdf",
        "outside home": elsewhere / "my robots" / "bras à 6 axes.urdf",
        "scratch": None,
    }[where]
    cwd.mkdir(parents=True)
    if file is not None:
        file.parent.mkdir(parents=True)
        file.write_text(URDF, encoding="utf-8")
    name = "[scratch]" if file is None else helix_buffer_name(file, cwd, home)
    line = helix_shell_line(binding, {"buffer_name": name})
    env = {
        **os.environ,
        "PATH": f"{exe.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "BROWSER": "true",
        "HOME": str(home),
    }
    # as helix-term's shell_impl_async: stdin null, stdout and stderr read until the shell and its pipes end
    proc = subprocess.Popen(
        ["sh", "-c", line],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # the backgrounded server stays in this process group, to be stopped below
    )
    try:
        out, err = proc.communicate(timeout=40)  # returns at once: the server runs on in the background
        assert proc.returncode == 0 and err == "", (out, err)
        if file is None:
            assert out == "sdformat-lsp view: [scratch]: not a file\n"
            return
        url = re.fullmatch(r"sdformat-lsp view: (http://127\.0\.0\.1:\d+/\?token=\S+)\n", out)
        assert url, out
        base, token = url.group(1).split("/?token=")
        with urllib.request.urlopen(f"{base}/api/frames?token={token}", timeout=30) as r:
            answer = json.loads(r.read())
        assert answer["uri"] == "file://" + urllib.parse.quote(str(file))
        assert [f["name"] for f in answer["frames"]] == ["r", "base"]
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


def test_the_sublime_build_system_passes_the_file_as_one_argument_for_the_syntaxes_of_the_sublime_page():
    # no Sublime Text here: the build system is checked against the scopes sublime.md defines
    build = json.loads(recipe("Sublime Text", "json"))
    assert build["cmd"] == ["sdformat-lsp", "view", "$file"] and "shell_cmd" not in build
    scopes = set(re.findall(r"scope: (text\.xml\.\w+)", (DOC.parent / "sublime.md").read_text(encoding="utf-8")))
    assert scopes == {"text.xml.sdformat", "text.xml.urdf", "text.xml.xacro"}
    assert {s.strip() for s in build["selector"].split(",")} == scopes
