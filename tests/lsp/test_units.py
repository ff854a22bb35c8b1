"""In-process tests of the server's parts: settings, the fault wrapper, the scheduler, transport parsing."""

from __future__ import annotations

import asyncio
import logging
import re
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError

from sdformat_lsp.semantics import analyze
from sdformat_lsp.server import settings
from sdformat_lsp.server.documents import DocumentStore
from sdformat_lsp.server.faults import RequestFailed, guarded
from sdformat_lsp.server.scheduler import Scheduler, Superseded
from sdformat_lsp.server.transport import parse_address

# -- settings ---------------------------------------------------------------------


def test_settings_flat_and_nested_are_the_same():
    flat = settings.parse({"resourcePaths": ["/a", "/b"], "debounceMs": 250})
    nested = settings.parse({"sdformat": {"resourcePaths": ["/a", "/b"], "debounceMs": 250}})
    assert flat == nested
    assert settings.merge(flat) == settings.Settings(resource_paths=("/a", "/b"), debounce_ms=250)


def test_settings_defaults_and_unknown_keys():
    assert settings.merge(settings.parse(None)) == settings.Settings((), 100)
    parsed = settings.parse({"somethingElse": 1})
    assert parsed.values == {} and parsed.problems == ()


def test_settings_bad_values_are_reported_and_replaced():
    parsed = settings.parse({"resourcePaths": ["/ok", 3, ""], "debounceMs": "soon"})
    assert parsed.values == {"resource_paths": ("/ok",)}
    assert len(parsed.problems) == 3
    assert "debounceMs must be a number" in parsed.problems[-1]
    assert settings.parse({"debounceMs": -5}).values == {"debounce_ms": 0}
    assert settings.parse({"debounceMs": 10**9}).values == {"debounce_ms": settings.MAX_DEBOUNCE_MS}
    assert settings.parse({"debounceMs": True}).values == {}
    assert settings.parse([1, 2]).problems


def test_settings_relative_and_home_paths(tmp_path):
    parsed = settings.parse({"resourcePaths": ["models", "~/m", "/abs/./x", "models"]}, base_dir=str(tmp_path))
    assert parsed.values["resource_paths"] == (str(tmp_path / "models"), os.path.expanduser("~/m"), "/abs/x")


def test_settings_layers_override_key_by_key():
    init = settings.parse({"resourcePaths": ["/init"], "debounceMs": 300})
    client = settings.parse({"debounceMs": 50})
    assert settings.merge(init, client) == settings.Settings(("/init",), 50)


# -- the fault wrapper -------------------------------------------------------------------


async def test_guarded_turns_a_crash_into_an_internal_error(caplog):
    @guarded("textDocument/hover")
    async def handler(params):
        raise KeyError("boom")

    with caplog.at_level(logging.ERROR, logger="sdformat_lsp"):
        with pytest.raises(JsonRpcInternalError) as info:
            await handler(None)
    # One line naming the request, the fault id and the exception (the traceback only at debug level).
    assert re.search(r"textDocument/hover failed \(fault F\d+\): KeyError: 'boom'", info.value.message), (
        info.value.message
    )
    assert any("textDocument/hover failed (fault F" in r.getMessage() for r in caplog.records)


def test_guarded_sync_and_deliberate_errors_pass_through():
    @guarded("textDocument/rename")
    def refuse(params):
        raise RequestFailed(message="no")

    with pytest.raises(RequestFailed):
        refuse(None)

    @guarded("textDocument/definition")
    def fine(params):
        return 42

    assert fine(None) == 42


async def test_guarded_notifications_are_logged_and_swallowed(caplog):
    @guarded("textDocument/didChange", notification=True)
    def broken(params):
        raise RuntimeError("bad change")

    with caplog.at_level(logging.ERROR, logger="sdformat_lsp"):
        assert broken(None) is None
    assert "textDocument/didChange failed" in caplog.text


# -- the scheduler -----------------------------------------------------------------------

URI = "file:///tmp/doc.sdf"
GOOD = '<sdf version="1.12"><model name="m"><link name="l"/></model></sdf>'
BAD = '<sdf version="1.12"><model name="m"><link name="l"><pose relative_to="nope"/></link></model></sdf>'


def _change(store: DocumentStore, version: int, text: str):
    return store.change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        ),
        "utf-16",
    )


class _Harness:
    def __init__(self, delay: float = 0.0) -> None:
        self.store = DocumentStore()
        self.gate = threading.Event()
        self.gate.set()
        self.calls: list[str] = []
        self.published: list[tuple[int | None, str]] = []
        self.executor = ThreadPoolExecutor(2)
        self.delay = delay
        self.scheduler = Scheduler(self.store, self.analyze, self.executor, lambda: self.delay, self.settled)

    def analyze(self, text: str, path):
        self.calls.append(text)
        if text.startswith("<!--slow-->"):
            assert self.gate.wait(5)
        if text == "crash":
            raise ValueError("core bug")
        return analyze(text, path)

    def settled(self, doc, analysis) -> None:
        self.published.append((doc.version, analysis.text))

    async def until(self, predicate, timeout: float = 5.0) -> None:
        for _ in range(int(timeout / 0.01)):
            if predicate():
                return
            await asyncio.sleep(0.01)
        raise AssertionError("timed out")


async def test_a_result_for_an_older_version_is_dropped():
    h = _Harness()
    h.gate.clear()
    slow = "<!--slow-->" + BAD
    doc = h.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text=slow))
    h.scheduler.schedule(doc, immediate=True)
    await h.until(lambda: h.calls == [slow])  # version 1 is being analysed...
    _change(h.store, 2, GOOD)
    h.scheduler.schedule(doc)  # ...when version 2 arrives
    await h.until(lambda: h.published)
    h.gate.set()  # now version 1 finishes, late
    await asyncio.sleep(0.2)
    assert h.published == [(2, GOOD)]
    assert h.scheduler.latest(URI)[1].text == GOOD


async def test_the_replaced_analysis_is_freed_before_the_next_one_is_built():
    """Two analyses of a large world alive at once doubled the server's peak memory at every edit."""
    import gc
    import weakref

    h = _Harness()
    doc = h.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text=GOOD))
    h.scheduler.schedule(doc, immediate=True)
    await h.until(lambda: h.published)
    old = weakref.ref(h.scheduler.latest(URI)[1])
    h.gate.clear()
    slow = "<!--slow-->" + BAD
    _change(h.store, 2, slow)
    h.scheduler.schedule(doc, immediate=True)
    await h.until(lambda: slow in h.calls)  # revision 2 is being analysed
    gc.collect()
    assert old() is None
    assert h.scheduler.latest(URI)[1].includes == []  # what depends_on reads is kept
    h.gate.set()
    await h.until(lambda: len(h.published) == 2)
    assert h.scheduler.latest(URI)[1].text == slow
    h.scheduler.close()


async def test_first_change_after_quiet_is_checked_at_once_and_bursts_wait():
    h = _Harness(delay=10.0)
    doc = h.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text=GOOD))
    h.scheduler.schedule(doc)  # after a quiet period: no waiting
    await h.until(lambda: h.published == [(1, GOOD)], timeout=3)
    _change(h.store, 2, BAD)
    h.scheduler.schedule(doc)  # right after another change: waits for the quiet period
    await asyncio.sleep(0.2)
    assert h.published == [(1, GOOD)]
    h.scheduler.close()


async def test_features_do_not_wait_for_the_debounce_and_share_the_run():
    h = _Harness(delay=10.0)
    doc = h.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text=GOOD))
    h.scheduler.schedule(doc)
    await h.until(lambda: h.published == [(1, GOOD)], timeout=3)
    _change(h.store, 2, BAD)
    h.scheduler.schedule(doc)  # a burst: this revision waits 10 s for the quiet period
    a, b = await asyncio.wait_for(asyncio.gather(h.scheduler.analysis(URI), h.scheduler.analysis(URI)), 5)
    assert a is b and a.text == BAD
    assert h.calls == [GOOD, BAD]
    assert h.published == [(1, GOOD)]  # the debounce has not expired: revision 2 not pushed yet
    assert await h.scheduler.analysis(URI) is a  # kept as the latest for this revision
    h.scheduler.close()


async def test_the_diagnostics_waiter_wakes_before_the_other_requests_of_an_opened_file():
    """When a file opens, VS Code sends document symbols, colours, code actions, the diagnostic pull,
    frames and hints at once; all wait for the same first analysis. The pull is answered first: the
    others compute their answers on the event loop after it, not before (first diagnostics sooner)."""
    h = _Harness()
    h.gate.clear()
    slow = "<!--slow-->" + BAD
    doc = h.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text=slow))
    h.scheduler.schedule(doc, immediate=True)
    await h.until(lambda: h.calls == [slow])
    order: list[str] = []

    async def wait(name, coro):
        await coro
        order.append(name)

    waiters = [asyncio.ensure_future(wait(f"feature{i}", h.scheduler.analysis(URI))) for i in range(3)]
    waiters.append(asyncio.ensure_future(wait("diagnostics", h.scheduler.settled(URI))))
    waiters += [asyncio.ensure_future(wait(f"feature{i}", h.scheduler.analysis(URI))) for i in range(3, 5)]
    await asyncio.sleep(0.05)
    h.gate.set()
    await asyncio.wait_for(asyncio.gather(*waiters), 5)
    assert order[0] == "diagnostics", order
    assert h.calls == [slow]  # one analysis for all of them
    h.scheduler.close()


async def test_waiting_for_diagnostics_of_a_superseded_revision_fails():
    h = _Harness(delay=0.2)
    h.gate.clear()
    slow = "<!--slow-->" + GOOD
    doc = h.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text=slow))
    h.scheduler.schedule(doc)
    waiting = asyncio.ensure_future(h.scheduler.settled(URI))
    await h.until(lambda: h.calls == [slow])  # revision 1 is being analysed...
    _change(h.store, 2, BAD)
    h.scheduler.schedule(doc)  # ...when revision 2 arrives
    with pytest.raises(Superseded):
        await waiting
    h.gate.set()
    revision, analysis = await h.scheduler.settled(URI)
    assert revision == doc.revision and analysis.text == BAD
    await h.until(lambda: h.published == [(2, BAD)])  # pushed right after the waiter got it


async def test_a_crashing_analysis_becomes_a_diagnostic():
    h = _Harness()
    doc = h.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text="crash"))
    h.scheduler.schedule(doc, immediate=True)
    _, analysis = await h.scheduler.settled(URI)
    assert [d.code for d in analysis.diagnostics] == ["INTERNAL_ERROR"]
    assert "ValueError: core bug" in analysis.diagnostics[0].message
    assert analysis.lines.text == "crash"


async def test_closing_forgets_the_document():
    h = _Harness(delay=0.1)
    doc = h.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text=GOOD))
    h.scheduler.schedule(doc)
    waiting = asyncio.ensure_future(h.scheduler.settled(URI))
    await asyncio.sleep(0)
    h.store.close(URI)
    h.scheduler.forget(URI)
    with pytest.raises(Superseded):
        await waiting
    await asyncio.sleep(0.2)
    assert h.published == [] and await h.scheduler.analysis(URI) is None


async def test_analyses_wait_while_settings_are_fetched():
    h = _Harness()
    release = h.scheduler.gate.hold(timeout=5)
    doc = h.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text=GOOD))
    h.scheduler.schedule(doc, immediate=True)
    await asyncio.sleep(0.1)
    assert h.calls == [] and h.published == []
    release()
    release()  # idempotent
    await h.until(lambda: h.published == [(1, GOOD)])


async def test_a_hold_expires_on_its_own():
    h = _Harness()
    h.scheduler.gate.hold(timeout=0.1)
    doc = h.store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text=GOOD))
    h.scheduler.schedule(doc, immediate=True)
    await h.until(lambda: h.published == [(1, GOOD)], timeout=2)


# -- documents ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "encoding,character",
    [("utf-8", len("a😀é".encode())), ("utf-16", len("a😀é".encode("utf-16-le")) // 2), ("utf-32", 3)],
)
def test_incremental_change_in_each_encoding(encoding, character):
    store = DocumentStore()
    store.open(types.TextDocumentItem(uri=URI, language_id="sdformat", version=1, text="x\r\na😀éZ\n"))
    doc = store.change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(1, character), types.Position(1, character + 1)), text="中"
                )
            ],
        ),
        encoding,
    )
    assert doc.text == "x\r\na😀é中\n" and doc.version == 2


# -- transport ------------------------------------------------------------------------------


def test_tcp_addresses_must_be_loopback():
    assert parse_address("127.0.0.1:2087") == ("127.0.0.1", 2087)
    assert parse_address("[::1]:0") == ("::1", 0)
    assert parse_address("localhost:9") == ("localhost", 9)
    assert parse_address("2087") == ("127.0.0.1", 2087)
    for bad in ("0.0.0.0:2087", "192.168.1.2:1", "example.com:1", "127.0.0.1:http", "127.0.0.1:70000"):
        with pytest.raises(ValueError):
            parse_address(bad)


# -- document symbols of hostile depth ------------------------------------------------------


def test_deep_outlines_are_flattened_not_overflowed():
    from sdformat_lsp.features import Symbol
    from sdformat_lsp.server.convert import Place
    from sdformat_lsp.server.handlers import MAX_SYMBOL_DEPTH, _document_symbols, _flatten
    from sdformat_lsp.text import LineIndex, Span

    text = "x" * 10
    symbol = Symbol("leaf", "link", "link", Span(0, 1), Span(0, 1))
    for i in range(5000):
        symbol = Symbol(f"m{i}", "model", "model", Span(0, 1), Span(0, 1), (symbol,))
    place = Place(uri="file:///x.sdf", path=None, lines=LineIndex(text), encoding="utf-16", lines_of=lambda p: None)
    out = _document_symbols(place, [symbol])
    depth, node, count = 1, out[0], 0
    while node.children:
        depth += 1
        count += len(node.children) - 1
        node = node.children[0]
    assert depth == MAX_SYMBOL_DEPTH
    assert count + depth == 5001  # every symbol is still there
    assert [s.name for s in _flatten(place, [symbol])][:2] == ["m4999", "m4998"]


def test_spec_warnings_fail_the_suite():
    """pyproject turns pytest-lsp's LspSpecificationWarning into an error for every test here."""
    import warnings

    from pytest_lsp import LspSpecificationWarning

    with pytest.raises(LspSpecificationWarning):
        warnings.warn("out of spec", LspSpecificationWarning)


# -- line index kept up to date by splicing ---------------------------------------------------


def test_spliced_line_index_matches_a_fresh_one():
    """Random splices over texts dense in line breaks (CR, LF, CRLF made and broken apart)."""
    import random

    from sdformat_lsp.server.documents import spliced
    from sdformat_lsp.text import LineIndex

    rnd = random.Random(20261122)
    alphabet = ["a", "é", "😀", "\r", "\n", " "]
    for _ in range(20_000):
        base = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(0, 16)))
        new = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(0, 6)))
        start = rnd.randrange(0, len(base) + 1)
        end = rnd.randrange(start, len(base) + 1)
        text = base[:start] + new + base[end:]
        assert spliced(LineIndex(base), start, end, new, text).starts == LineIndex(text).starts, (base, start, end, new)


def test_starting_the_server_imports_no_feature_and_no_converter():
    """The features and the converters are imported on the first request that needs them, after
    the first diagnostics (server/lazy.py): a fifth of the start's import time."""
    import subprocess
    import sys

    code = (
        "import sys; from sdformat_lsp.cli import entry; from sdformat_lsp.server import SdformatLanguageServer as S; S(); "
        "print(sorted(m for m in sys.modules if m.startswith(('sdformat_lsp.features', 'sdformat_lsp.convert'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = eval(done.stdout)  # a printed list of module names
    assert loaded == [], loaded
