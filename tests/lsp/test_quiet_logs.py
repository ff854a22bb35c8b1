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
        s.notify(
            "textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "sdformat", "version": 1, "text": ARM}}
        )
        at = _position(ARM, 'name="')
        at["character"] += len('name="') + 1
        refusals = 0
        for new_name in ("", "has space", "a::b", "__model__") * 25:  # invalid names: refused renames
            answer = s.request(
                "textDocument/rename", {"textDocument": {"uri": URI}, "position": at, "newName": new_name}
            )
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
        s.notify(
            "textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "sdformat", "version": 1, "text": text}}
        )
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
        s.notify(
            "textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "sdformat", "version": 1, "text": text}}
        )
        s.diagnostics(URI, 1)
        answer = s.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": _position(text, "<link")})
        fault = re.search(r"fault (F\d+)", answer["error"]["message"]).group(1)
    finally:
        s.close()
    assert f"fault {fault} traceback" in s.stderr and "Traceback" in s.stderr and "ZeroDivisionError" in s.stderr


def test_a_malformed_request_is_an_error_answer_and_one_log_line():
    """Parameters of the wrong shape (a `context` that is a list), a body that is not JSON, JSON that
    is not an object: each is refused in one warning line, a request answered with -32602, and the
    server goes on (issue 24)."""
    s = StdioServer()
    try:
        s.initialize()
        s.notify(
            "textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "sdformat", "version": 1, "text": ARM}}
        )
        s.diagnostics(URI, 1)
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}
        answer = s.request("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": whole, "context": []})
        assert answer["error"]["code"] == -32602 and "textDocument/codeAction" in answer["error"]["message"]
        answer = s.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": [1, 2]})
        assert answer["error"]["code"] == -32602
        for body in (
            b'{"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover", "params": {',
            b"[1, 2]",
            b"42",
            b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": []}}',
        ):
            assert s.proc.stdin is not None
            s.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            s.proc.stdin.flush()
        answer = s.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": _position(ARM, "<link")})
        assert "result" in answer  # still serving
    finally:
        code = s.close()
    assert code == 0
    assert "Traceback" not in s.stderr and "Exception Group" not in s.stderr, s.stderr[:3000]
    refusals = [line for line in s.stderr.splitlines() if "refused" in line]
    assert len(refusals) == 6, s.stderr[:3000]
    assert all(" WARNING " in line for line in refusals)
    assert len([line for line in s.stderr.splitlines() if " ERROR " in line or " WARNING " in line]) == 6, s.stderr[
        :3000
    ]
