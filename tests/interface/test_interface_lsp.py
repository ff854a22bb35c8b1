"""The server with model parsers: the active parsers in its log, an included model of another
format (a registered TOML parser, the built-in MJCF reader) hovered and defined like any other."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from tests.lsp.stdio import StdioServer, server_command

FIX = Path(__file__).resolve().parent / "fixtures"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "model_parsers"


def _position(text: str, needle: str, inside: int = 0) -> dict:
    off = text.index(needle) + inside
    return {"line": text.count("\n", 0, off), "character": off - (text.rfind("\n", 0, off) + 1)}


def test_server_logs_parsers_and_answers_on_included_models_of_other_formats(tmp_path, monkeypatch):
    for name in ("two_pendulums.toml", "frame_semantics.sdf"):
        shutil.copy(FIX / name, tmp_path / name)
    shutil.copy(FIX / "drake_like" / "arm.xml", tmp_path / "arm.xml")
    (tmp_path / "sdformat-lsp.toml").write_text('[model-parsers]\n".toml" = "toml_models:parse"\n')
    text = (
        (tmp_path / "frame_semantics.sdf")
        .read_text()
        .replace(
            "  </world>",
            "    <include><uri>arm.xml</uri><name>mj</name></include>\n"
            '    <frame name="G" attached_to="mj::tool_site"/>\n  </world>',
        )
    )
    (tmp_path / "frame_semantics.sdf").write_text(text)
    uri = (tmp_path / "frame_semantics.sdf").as_uri()
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(EXAMPLES), os.environ.get("PYTHONPATH", "")]))
    s = StdioServer(server_command())
    try:
        s.initialize()
        s.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "sdformat", "version": 1, "text": text}}
        )
        diags = s.diagnostics(uri, 1)
        assert [d for d in diags if d["severity"] == 1] == []
        hover = s.request(
            "textDocument/hover",
            {
                "textDocument": {"uri": uri},
                "position": _position(text, "two_pendulums::child_dp::model_1::lower_link", 38),
            },
        )
        assert "lower_link" in str(hover["result"]["contents"])
        where = s.request(
            "textDocument/definition", {"textDocument": {"uri": uri}, "position": _position(text, "mj::tool_site", 6)}
        )
        (loc,) = where["result"] if isinstance(where["result"], list) else [where["result"]]
        assert loc["uri"].endswith("/arm.xml")
        where = s.request(
            "textDocument/definition",
            {"textDocument": {"uri": uri}, "position": _position(text, 'relative_to="two_pendulums::frame_1"', 30)},
        )
        (loc,) = where["result"] if isinstance(where["result"], list) else [where["result"]]
        assert (
            loc["uri"].endswith("/two_pendulums.toml") and loc["range"]["start"]["line"] == 28
        )  # [frames.frame_1], line 29
    finally:
        s.close()
    assert (
        "model parsers: none registered; then the built-in xacro (.xacro), URDF (.urdf) and MJCF (<mujoco> root) readers"
        in s.stderr
    )
