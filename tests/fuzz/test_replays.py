"""Fuzzer findings replayed: each a sequence of edits whose diagnostics once lay elsewhere than their cause.

Each replay runs in servers negotiating UTF-8, UTF-16 and UTF-32, pushing and pulling
diagnostics, and checks what the fuzzer checks (``check_placed``: every range inside
the text of the version it is for, every bare-'&' warning on an '&').
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .test_fuzz_server import check_placed, position

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "lsp"))

from stdio import StdioServer  # noqa: E402

# libsdformat's test/sdf/nested_without_links_invalid.sdf (12 lines), as the fuzzer met it
NESTED = """<sdf version='1.7'>
  <model name="nested_without_links_invalid">
    <link name="link"/>
    <model name="nested_without_links1">
      <model name="nested_without_links2">
        <model name="nested_without_links3">
          <frame name="F"/>
        </model>
      </model>
    </model>
  </model>
</sdf>
"""
FLAG = "\U0001f3f3\ufe0f\u200d\U0001f308"  # four code points, six UTF-16 units, 14 UTF-8 bytes


def _offset(text: str, line: int, column: int) -> int:
    """The code-point offset of (line, column), both counted from 0 in code points."""
    return sum(len(x) for x in text.splitlines(keepends=True)[:line]) + column


@pytest.mark.parametrize("pull", [False, True], ids=["push", "pull"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_the_bare_ampersand_of_an_edited_start_tag_stays_on_it(encoding, pull):
    # The replay: a flag at line 9 column 3, '&' in '<model' on line 5, then lines 7-12 deleted (flag
    # included). libxml2 reports the '&' past 'del', four characters to its right: no edit ever moved it.
    s = StdioServer()
    try:
        s.initialize(encodings=[encoding], pull=pull, options={"debounceMs": 0})
        uri = "file:///tmp/sdformat-replay/nested.sdf"
        text = NESTED
        s.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "sdformat", "version": 1, "text": text}}
        )
        texts = {1: text}
        for version, (a, b, new) in enumerate(
            [((8, 2), (8, 2), FLAG), ((4, 9), (4, 9), "&"), ((6, 14), (12, 0), "")], start=2
        ):
            start, end = _offset(text, *a), _offset(text, *b)
            change = {
                "range": {"start": position(text, start, encoding), "end": position(text, end, encoding)},
                "text": new,
            }
            text = text[:start] + new + text[end:]
            texts[version] = text
            s.notify(
                "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
            )
        assert "<mo&del" in text and FLAG not in text
        if pull:
            answer = s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=60)
            found = answer["result"]["items"]
        else:
            found = s.diagnostics(
                uri,
                4,
                timeout=60,
                each=lambda p: check_placed(texts[p["version"]], p["diagnostics"], encoding, "published"),
            )
        check_placed(text, found, encoding, "last")
        xml = [d for d in found if d.get("code") == "XML_ERROR"]
        assert len(xml) == 1 and xml[0]["severity"] == 1, xml  # one error, at the '&' libsdformat's reader refuses
        line = text.splitlines()[4]
        assert xml[0]["range"]["start"] == position(text, _offset(text, 4, line.index("&")), encoding)
    finally:
        assert s.close() == 0
        assert "Traceback" not in s.stderr
