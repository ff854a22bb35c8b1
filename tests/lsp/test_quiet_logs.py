"""Quiet logs (issue 11): deliberate refusals log nothing; a real fault is one line with an id,
its traceback only at debug level; the client hears of it through window/logMessage as an error."""

from __future__ import annotations

import re
from pathlib import Path

from .stdio import StdioServer, server_command

FIXTURES = Path(__file__).with_name("fixtures")
ARM = (FIXTURES / "arm.sdf").read_text()
URI = "file:///tmp/sdformat-quiet/arm.sdf"
FAULTY = str(Path(__file__).with_name("faulty_server.py"))


def _position(text: str, needle: str) -> dict:
    off = text.index(needle)
    return {"line": text.count("\n", 0, off), "character": off - (text.rfind("\n", 0, off) + 1)}


def test_refusals_log_nothing_on_stderr():
    s = StdioServer()
    try:
        s.initialize(pull=True)
        s.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "sdformat", "version": 1, "text": ARM}})
        at = _position(ARM, 'name="')
        at["character"] += len('name="') + 1
        refusals = 0
        for new_name in ("", "has space", "a::b", "__model__") * 25:  # invalid names: refused renames
            answer = s.request("textDocument/rename", {"textDocument": {"uri": URI}, "position": at, "newName": new_name})
            refusals += "error" in answer
        for _ in range(20):  # requests for methods nobody serves, notifications nobody handles
            s.notify("$/somethingUnknown", {})
            s.notify("$/cancelRequest", {"id": 99999})
        assert refusals >= 50
    finally:
        code = s.close()
    assert code == 0
    assert "Traceback" not in s.stderr, s.stderr[:2000]
    assert not re.search(r"\b(ERROR|WARNING)\b", s.stderr), s.stderr[:2000]  # start-up INFO lines only


def test_a_real_fault_is_one_line_with_an_id_and_an_error_message_to_the_client():
    s = StdioServer(server_command(FAULTY))
    try:
        s.initialize()
        text = ARM.replace("<sdf", "<!-- INJECT-FEATURE-CRASH -->\n<sdf")
        s.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "sdformat", "version": 1, "text": text}})
        s.diagnostics(URI, 1)
        answer = s.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": _position(text, "<link")})
        assert answer["error"]["code"] == -32603
        fault = re.search(r"fault (F\d+)", answer["error"]["message"]).group(1)
    finally:
        s.close()
    lines = [line for line in s.stderr.splitlines() if fault in line]
    assert len(lines) == 1 and "ZeroDivisionError" in lines[0]
    assert "Traceback" not in s.stderr
    errors = [m for m in s.log_messages if m["type"] == 1 and fault in m["message"]]
    assert len(errors) == 1


def test_the_traceback_of_a_fault_is_there_at_debug_level():
    s = StdioServer(server_command(FAULTY) + ["--log-level", "debug"])
    try:
        s.initialize()
        text = ARM.replace("<sdf", "<!-- INJECT-FEATURE-CRASH -->\n<sdf")
        s.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "sdformat", "version": 1, "text": text}})
        s.diagnostics(URI, 1)
        answer = s.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": _position(text, "<link")})
        fault = re.search(r"fault (F\d+)", answer["error"]["message"]).group(1)
    finally:
        s.close()
    assert f"fault {fault} traceback" in s.stderr and "Traceback" in s.stderr and "ZeroDivisionError" in s.stderr
