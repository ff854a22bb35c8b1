"""The maximum document size in the server (issue 11): one diagnostic instead of an analysis."""

from __future__ import annotations

from pathlib import Path

from .stdio import StdioServer

ARM = (Path(__file__).with_name("fixtures") / "arm.sdf").read_text()
URI = "file:///tmp/sdformat-limits/arm.sdf"


def test_a_document_over_the_maximum_size_gets_one_diagnostic_and_requests_still_answer():
    big = ARM + "<!--" + "x" * 4000 + "-->\n"
    s = StdioServer()
    try:
        s.initialize(options={"maxDocumentSizeMB": 0.002})  # 2,097 bytes
        s.notify(
            "textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "sdformat", "version": 1, "text": big}}
        )
        (d,) = s.diagnostics(URI, 1)
        assert d["code"] == "FILE_READ" and "maximum document size" in d["message"] and d["severity"] == 1
        hover = s.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 3, "character": 5}})
        assert "error" not in hover
        # back under the limit: analysed again
        s.notify(
            "textDocument/didChange", {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": ARM}]}
        )
        assert all(x["code"] != "FILE_READ" for x in s.diagnostics(URI, 2))
    finally:
        assert s.close() == 0
    assert "Traceback" not in s.stderr
