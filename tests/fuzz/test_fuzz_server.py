"""The project's own fuzzer (issue 11): Hypothesis drives the real server over stdio.

A stateful test opens a seed document (the examples, the LSP fixtures,
generated models, and libsdformat's test files when ../shared is there) in
a server that negotiated UTF-8, UTF-16 or UTF-32 and pushed or pulled
diagnostics (six profiles), then applies random
incremental edits (bursts of changes with XML-ish fragments, line breaks of
all three kinds, characters outside the BMP, NULs) and random requests at
random positions. Invariants, checked on every answer:

* no request fails with an internal error, every answer comes within a bound
  (documents are kept under 20,000 characters);
* every range in an answer lies inside the document as the client has it;
  every pushed publication is checked against the text of the version it
  names (diagnostics are placed on the version they are published for);
* a diagnostic lies on what it talks about: a bare-'&' warning starts on
  an '&' of that version's text (libxml2 reports it past the name);
* at checkpoints, the diagnostics of the edited document equal those of a
  fresh open of the same text;
* the server's stderr never holds a traceback.

Profiles: ``short`` (the default, in the suite: a few runs) and ``long`` (by
hand: ``pytest tests/fuzz --hypothesis-profile=long`` or
``python scripts/fuzz.py --minutes N``, which runs it again with new seeds until the time is up). With SDFORMAT_FUZZ_STATS=FILE the counts of
edits, requests and checkpoints are written to FILE as JSON at the end.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests" / "lsp"))

import generate  # noqa: E402
from stdio import StdioServer  # noqa: E402

MAX_CHARS = 20_000
ANSWER_BOUND = 20.0  # seconds: a generous bound for a loaded 2-core machine; answers take milliseconds
ENCODINGS = ["utf-8", "utf-16", "utf-32"]
FOLDER = "/tmp/sdformat-fuzz"  # never created: documents exist only in the editor


def _seeds() -> list[tuple[str, str]]:
    seeds = [(p.name, p.read_text()) for p in sorted((ROOT / "examples").glob("*.sdf"))]
    seeds += [(p.name, p.read_text()) for p in sorted((ROOT / "tests" / "lsp" / "fixtures").glob("*.sdf"))]
    seeds += [("generated-small", generate.small_model()), ("generated-large", generate.large_model(400))]
    shared = ROOT.parent / "shared" / "conformance" / "files"
    if shared.is_dir():
        for p in sorted(shared.rglob("*.sdf"))[::4]:
            text = p.read_text(errors="replace")
            if len(text) < MAX_CHARS:
                seeds.append((p.name, text))
    return seeds


SEEDS = _seeds()
STATS = {
    "edits": 0,
    "changes_messages": 0,
    "requests": 0,
    "checkpoints": 0,
    "publications": 0,
    "documents": 0,
    "failures": 0,
    "edits_by_profile": {},  # "utf-16 pull": edits made with that encoding and way of getting diagnostics
    "seeds": sorted({n for n, _ in SEEDS}),
}


def _count_edits(machine, n: int) -> None:
    STATS["edits"] += n
    key = f"{machine.encoding} {'pull' if machine.pull else 'push'}"
    STATS["edits_by_profile"][key] = STATS["edits_by_profile"].get(key, 0) + n


FRAGMENTS = [
    "<",
    ">",
    "/",
    "/>",
    "</",
    '"',
    "'",
    "=",
    " ",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "<link",
    '<link name="',
    '<link name="new">',
    "</link>",
    '<model name="m">',
    "</model>",
    '<frame name="f" attached_to="',
    '<pose relative_to="',
    "</pose>",
    '<joint name="j" type="fixed"><parent>',
    "</parent><child>",
    "</child></joint>",
    "<include><uri>",
    "</uri></include>",
    "::",
    "__model__",
    "world",
    "1 2 3",
    "0 0 0 0 0 0",
    "&",
    "&amp;",
    "&#0;",
    "&lt;",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "é",
    "中",
    "😀",
    "\x00",
    "\ufeff",
    '<?xml version="1.0"?>',
    '<sdf version="1.9">',
    "</sdf>",
]
fragment = st.one_of(st.sampled_from(FRAGMENTS), st.text(alphabet='ab<>/"= \n😀é', max_size=6))


# -- positions, computed independently of the server's LineIndex --------------------------

_BREAK = re.compile(r"\r\n|\r|\n")


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end of content) of every line, by LSP's rule: CRLF, CR and LF end lines."""
    out, start = [], 0
    for m in _BREAK.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return out


def _units(s: str, encoding: str) -> int:
    if encoding == "utf-32":
        return len(s)
    if encoding == "utf-16":
        return len(s.encode("utf-16-le", "surrogatepass")) // 2
    return len(s.encode("utf-8", "surrogatepass"))


def position(text: str, offset: int, encoding: str) -> dict:
    lines = _lines(text)
    line = 0
    for i, (s, _) in enumerate(lines):
        if s <= offset:
            line = i
        else:
            break
    s, e = lines[line]
    return {"line": line, "character": _units(text[s : min(offset, e)], encoding)}


def _snap(text: str, offset: int) -> int:
    """No LSP position lies between the CR and the LF of a line break: an edit there starts before the CR."""
    return offset - 1 if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n" else offset


def check_range(text: str, rng: dict, encoding: str, what: str) -> None:
    lines = _lines(text)
    for end in ("start", "end"):
        p = rng[end]
        assert 0 <= p["line"] < len(lines), f"{what}: line {p['line']} outside the document ({len(lines)} lines)"
        s, e = lines[p["line"]]
        assert 0 <= p["character"] <= _units(text[s:e], encoding), (
            f"{what}: character {p['character']} past line {p['line']}"
        )
    a, b = rng["start"], rng["end"]
    assert (a["line"], a["character"]) <= (b["line"], b["character"]), f"{what}: start after end"


def _ranges(value, uri: str | None = None, path: str = "") -> list[tuple[str, str | None, dict]]:
    """Every LSP Range in a JSON answer, with the URI of the document it lies in (None: the one asked about)."""
    out: list[tuple[str, str | None, dict]] = []
    if isinstance(value, dict):
        if set(value) >= {"start", "end"} and isinstance(value["start"], dict) and "line" in value["start"]:
            return [(path, uri, value)]
        here = uri
        if isinstance(value.get("uri"), str):
            here = value["uri"]
        if isinstance(value.get("textDocument"), dict) and isinstance(value["textDocument"].get("uri"), str):
            here = value["textDocument"]["uri"]
        for k, v in value.items():
            if k == "changes" and isinstance(v, dict):
                for u, edits in v.items():
                    out += _ranges(edits, u, f"{path}.changes")
            elif k in ("targetRange", "targetSelectionRange"):
                out += _ranges(v, value.get("targetUri"), f"{path}.{k}")
            else:
                out += _ranges(v, here, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _ranges(v, uri, f"{path}[{i}]")
    return out


# -- the servers, one per position encoding, shared by every run of a session ---------------

_SERVERS: dict[tuple[str, bool], StdioServer] = {}


def server(encoding: str, pull: bool = False) -> StdioServer:
    s = _SERVERS.get((encoding, pull))
    if s is None or s.proc.poll() is not None:
        s = StdioServer()
        init = s.initialize(encodings=[encoding], pull=pull, options={"debounceMs": 0})
        assert init["capabilities"].get("positionEncoding", "utf-16") == encoding
        _SERVERS[(encoding, pull)] = s
    return s


def check_placed(text: str, diagnostics: list[dict], encoding: str, what: str) -> None:
    """Every range inside ``text``, and every bare-'&' warning on an '&' of it."""
    for d in diagnostics:
        check_range(text, d["range"], encoding, f"{what} {d.get('code')}")
        if "bare '&'" in d["message"]:
            start = offset(text, d["range"]["start"], encoding)
            assert text[start : start + 1] == "&", f"{what}: a bare-'&' warning on {text[start : start + 10]!r}"


def offset(text: str, pos: dict, encoding: str) -> int:
    """The code-point offset of an LSP position (inside the document: check_range passed)."""
    s, e = _lines(text)[pos["line"]]
    units = 0
    for i in range(s, e):
        if units >= pos["character"]:
            return i
        units += _units(text[i], encoding)
    return e


@pytest.fixture(scope="module", autouse=True)
def _shutdown_servers():
    yield
    for s in list(_SERVERS.values()):
        code = s.close()
        assert "Traceback" not in s.stderr, s.stderr[-3000:]
        assert code == 0
    _SERVERS.clear()
    out = os.environ.get("SDFORMAT_FUZZ_STATS")
    if out:
        Path(out).write_text(json.dumps(STATS, indent=1))


def _uri(n: int) -> str:
    return f"file://{FOLDER}/doc{n}.sdf"


_counter = [0]


class ServerFuzz(RuleBasedStateMachine):
    """One document in one server: random edits, requests and checkpoints."""

    PROFILE: tuple[str, bool] | None = None  # (encoding, pull) fixed by the suite's run of each profile

    @initialize(encoding=st.sampled_from(ENCODINGS), pull=st.booleans(), seed=st.sampled_from(SEEDS), data=st.data())
    def open(self, encoding: str, pull: bool, seed: tuple[str, str], data) -> None:
        if self.PROFILE is not None:
            encoding, pull = self.PROFILE
        self.encoding = encoding
        self.pull = pull
        self.s = server(encoding, pull)
        _counter[0] += 1
        self.uri = _uri(_counter[0])
        self.text = seed[1]
        self.version = 1
        self.texts = {1: self.text}  # the text of every version sent, for the publications that name it
        self.checked: tuple[int, list] | None = None
        self.steps_since_checkpoint = 0
        self.s.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": self.uri, "languageId": "sdformat", "version": 1, "text": self.text}},
        )
        STATS["documents"] += 1
        if self.PROFILE is not None:
            # the suite's run of one profile: every example edits at least once, whatever steps
            # Hypothesis draws after (its first example of a state machine takes none)
            self._edit(data, 3)

    def teardown(self) -> None:
        if hasattr(self, "s"):
            self.s.notify("textDocument/didClose", {"textDocument": {"uri": self.uri}})
            assert "Traceback" not in self.s.stderr, self.s.stderr[-3000:]

    # -- edits ----------------------------------------------------------------------------

    @precondition(lambda self: hasattr(self, "s"))
    @rule(data=st.data(), count=st.integers(1, 30))
    def edit(self, data, count: int) -> None:
        self._edit(data, count)

    def _edit(self, data, count: int) -> None:
        changes = []
        for _ in range(count):
            n = len(self.text)
            start = _snap(self.text, data.draw(st.integers(0, n), label="start"))
            length = _snap(self.text, start + data.draw(st.integers(0, min(40, n - start)), label="length")) - start
            new = data.draw(fragment, label="text")
            if n - length + len(new) > MAX_CHARS:
                new = ""
            changes.append(
                {
                    "range": {
                        "start": position(self.text, start, self.encoding),
                        "end": position(self.text, start + length, self.encoding),
                    },
                    "text": new,
                }
            )
            self.text = self.text[:start] + new + self.text[start + length :]
        self.version += 1
        self.texts[self.version] = self.text
        self.s.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": changes},
        )
        self.steps_since_checkpoint += 1
        _count_edits(self, count)
        STATS["changes_messages"] += 1

    @precondition(lambda self: hasattr(self, "s"))
    @rule(data=st.data())
    def replace_all(self, data) -> None:
        """A whole-document change now and then (some clients only send those)."""
        seed = data.draw(st.sampled_from(SEEDS), label="seed")
        self.text = seed[1]
        self.version += 1
        self.texts[self.version] = self.text
        self.s.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": [{"text": self.text}]},
        )
        _count_edits(self, 1)
        STATS["changes_messages"] += 1

    # -- requests -------------------------------------------------------------------------

    @precondition(lambda self: hasattr(self, "s"))
    @rule(
        data=st.data(),
        method=st.sampled_from(
            [
                "textDocument/hover",
                "textDocument/definition",
                "textDocument/references",
                "textDocument/completion",
                "textDocument/prepareRename",
                "textDocument/documentSymbol",
                "textDocument/documentLink",
                "textDocument/codeAction",
                "textDocument/rename",
            ]
        ),
    )
    def request(self, data, method: str) -> None:
        offset = data.draw(st.integers(0, len(self.text)), label="offset")
        pos = position(self.text, offset, self.encoding)
        doc = {"uri": self.uri}
        params: dict = {"textDocument": doc, "position": pos}
        if method == "textDocument/references":
            params["context"] = {"includeDeclaration": True}
        elif method == "textDocument/rename":
            params["newName"] = data.draw(st.sampled_from(["renamed", "", "a b", "x::y", "😀"]), label="name")
        elif method in ("textDocument/documentSymbol", "textDocument/documentLink"):
            params = {"textDocument": doc}
        elif method == "textDocument/codeAction":
            end = data.draw(st.integers(offset, len(self.text)), label="end")
            params = {
                "textDocument": doc,
                "range": {"start": pos, "end": position(self.text, end, self.encoding)},
                "context": {"diagnostics": []},
            }
        self.steps_since_checkpoint += 1
        t0 = time.monotonic()
        answer = self.s.request(method, params, timeout=ANSWER_BOUND)
        assert time.monotonic() - t0 < ANSWER_BOUND
        STATS["requests"] += 1
        err = answer.get("error")
        if err is not None:
            assert err["code"] != -32603, f"{method} at {pos}: internal error {err}"
            return
        self._check_ranges(answer.get("result"), method)

    def _check_ranges(self, result, what: str) -> None:
        for path, uri, rng in _ranges(result):
            if uri is None or uri == self.uri:
                check_range(self.text, rng, self.encoding, f"{what}{path}")

    # -- checkpoints ----------------------------------------------------------------------

    @precondition(lambda self: hasattr(self, "s"))
    @rule()
    def checkpoint(self) -> None:
        """The diagnostics of the edited document equal those of a fresh open of the same text."""
        if self.steps_since_checkpoint < 4:
            return  # a few edits and requests between checkpoints: they cost two analyses
        self.steps_since_checkpoint = 0
        if self.checked is not None and self.checked[0] == self.version:
            edited = self.checked[1]  # already received for this version
        elif self.pull:
            edited = self._pull(self.uri)
            self.checked = (self.version, edited)
        else:
            edited = self.s.diagnostics(self.uri, self.version, timeout=ANSWER_BOUND * 3, each=self._published)
            self.checked = (self.version, edited)
        check_placed(self.text, edited, self.encoding, "diagnostic")
        _counter[0] += 1
        fresh_uri = _uri(_counter[0])
        self.s.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": fresh_uri, "languageId": "sdformat", "version": 1, "text": self.text}},
        )
        fresh = self._pull(fresh_uri) if self.pull else self.s.diagnostics(fresh_uri, 1, timeout=ANSWER_BOUND * 3)
        self.s.notify("textDocument/didClose", {"textDocument": {"uri": fresh_uri}})
        same = json.loads(json.dumps(fresh).replace(fresh_uri, self.uri))
        assert edited == same, f"incremental result differs from a fresh open:\n{edited}\n---\n{same}"
        STATS["checkpoints"] += 1

    def _published(self, params: dict) -> None:
        """A pushed publication (of this or an earlier version): placed on the text of the version it names."""
        version = params.get("version")
        assert version in self.texts, f"diagnostics published for version {version}, never sent"
        check_placed(self.texts[version], params["diagnostics"], self.encoding, f"published for version {version}:")
        STATS["publications"] += 1

    def _pull(self, uri: str) -> list:
        """The pulled diagnostics of ``uri`` (asked again when the server says the text moved on: it has not)."""
        for _ in range(5):
            answer = self.s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=ANSWER_BOUND * 3)
            err = answer.get("error")
            if err is None:
                return answer["result"]["items"]
            assert err["code"] != -32603, f"diagnostic pull: internal error {err}"
        raise AssertionError(f"the diagnostic pull of {uri} was cancelled five times with no edit in between")

    @invariant()
    def alive(self) -> None:
        if hasattr(self, "s"):
            assert self.s.proc.poll() is None, "the server exited:\n" + self.s.stderr[-3000:]


def _profile() -> str:
    return getattr(settings, "_current_profile", None) or "default"


if _profile() == "long":
    ServerFuzz.TestCase.settings = settings.get_profile("long")
    TestServerFuzz = ServerFuzz.TestCase
else:
    # The suite runs every profile each time (five examples per position encoding and way of getting
    # diagnostics: the six the issue names), not six examples of profiles drawn at random. Each example
    # starts with an edit (open), so that no profile can go unedited, whatever Hypothesis draws.
    def _fixed_profile(encoding: str, pull: bool):
        machine = type(f"ServerFuzz_{encoding.replace('-', '')}_{'pull' if pull else 'push'}", (ServerFuzz,), {})
        machine.PROFILE = (encoding, pull)
        machine.TestCase.settings = settings(
            max_examples=5,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        return machine.TestCase

    TestServerFuzzUtf8Push = _fixed_profile("utf-8", False)
    TestServerFuzzUtf8Pull = _fixed_profile("utf-8", True)
    TestServerFuzzUtf16Push = _fixed_profile("utf-16", False)
    TestServerFuzzUtf16Pull = _fixed_profile("utf-16", True)
    TestServerFuzzUtf32Push = _fixed_profile("utf-32", False)
    TestServerFuzzUtf32Pull = _fixed_profile("utf-32", True)

    def test_every_profile_made_edits():
        """After the six profiles above (pytest runs a module's tests in order): each one edited its
        documents, so that no encoding goes unfuzzed in a run of the suite."""
        if len(STATS["edits_by_profile"]) < 6 and STATS["documents"] < 6 * 5:
            pytest.skip("the profiles did not all run in this session")
        assert sorted(STATS["edits_by_profile"]) == sorted(
            f"{e} {way}" for e in ENCODINGS for way in ("push", "pull")
        ), STATS["edits_by_profile"]
        assert all(n > 0 for n in STATS["edits_by_profile"].values()), STATS["edits_by_profile"]
