"""The editor recipes of docs/editors/view.md work as written: Neovim's `:SdfView`, copied from the page, run
headless on a buffer, starts `sdformat-lsp view` for that file (its URL shown in Neovim's messages, the page
and the file's frames served), and the server stops with Neovim. Skips without nvim."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

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
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("nvim not installed")
    exe = Path(sys.executable).with_name("sdformat-lsp")
    if not exe.exists():
        pytest.skip("sdformat-lsp is not installed beside this interpreter")
    (tmp_path / "recipe.lua").write_text(recipe("Neovim", "lua"))
    (tmp_path / "my robot.urdf").write_text(URDF)
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
        [nvim, "--headless", "--clean", "-c", "luafile recipe.lua", "-c", "edit my\\ robot.urdf", "-c", "luafile drive.lua"],
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
        assert answer["uri"].endswith("/my%20robot.urdf") and [f["name"] for f in answer["frames"]] == ["r", "base"]
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
