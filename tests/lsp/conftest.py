"""End-to-end fixtures: the real server process driven by pytest-lsp.

Every session test runs twice, with the client capabilities pytest-lsp
records for VS Code (push diagnostics, UTF-16) and for Neovim 0.11 (pull
diagnostics, UTF-8 preferred), so both diagnostic mechanisms and two
position encodings are exercised by the same assertions.

Positions in the tests are computed here, independently of the server's
``LineIndex``: UTF-16 by encoding to UTF-16-LE, UTF-8 by encoding to UTF-8.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

REPO = Path(__file__).resolve().parents[2]
# In-process tests import the checkout's package, whatever else is installed.
if str(REPO / "server") not in sys.path:
    sys.path.insert(0, str(REPO / "server"))
FIXTURES = Path(__file__).resolve().parent / "fixtures"
EDITORS = ["visual-studio-code", "neovim"]


def server_env(**extra: str) -> dict[str, str]:
    """The test environment, with the checkout's package first and no resource paths leaking in."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SDF_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH", "GAZEBO_MODEL_PATH")
    }
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "server"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


SERVER = [sys.executable, "-m", "sdformat_lsp"]


def make_client() -> LanguageClient:
    """pytest-lsp's client, but keeping *every* publishDiagnostics (to prove old versions never arrive),
    and accepting (and recording) ``client/registerCapability``."""
    client = LanguageClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.published.append(params)  # type: ignore[attr-defined]
        client.diagnostics[params.uri] = params.diagnostics

    def register_capability(client: LanguageClient, params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish

    def inlay_hint_refresh(client: LanguageClient, params: None) -> None:
        client.inlay_hint_refreshes += 1  # type: ignore[attr-defined]

    features[types.CLIENT_REGISTER_CAPABILITY] = register_capability
    # Neovim's capabilities declare inlayHint.refreshSupport: a client saying so answers the request.
    features[types.WORKSPACE_INLAY_HINT_REFRESH] = inlay_hint_refresh
    register_lsp_features(client, features)
    client.published = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]  # what the server registered dynamically
    client.inlay_hint_refreshes = 0  # type: ignore[attr-defined]
    return client


CONFIG = ClientServerConfig(server_command=SERVER, server_env=server_env(), client_factory=make_client)


@pytest_lsp.fixture(config=CONFIG)
async def lsp(lsp_client: LanguageClient):
    """A started (not yet initialized) server; ``Session.start`` initializes it."""
    yield
    await lsp_client.shutdown_session()


# -- positions, computed independently of the server ---------------------------


def units(s: str, encoding: str) -> int:
    if encoding == "utf-16":
        return len(s.encode("utf-16-le")) // 2
    if encoding == "utf-8":
        return len(s.encode("utf-8"))
    return len(s)


def _line_starts(text: str) -> list[int]:
    """Where lines start the LSP way: after \\n, \\r\\n or a lone \\r, and nowhere else."""
    return [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]


def pos(text: str, offset: int, encoding: str) -> types.Position:
    starts = _line_starts(text)
    line = max(i for i, s in enumerate(starts) if s <= offset)
    return types.Position(line=line, character=units(text[starts[line] : offset], encoding))


def rng(text: str, start: int, end: int, encoding: str) -> types.Range:
    return types.Range(start=pos(text, start, encoding), end=pos(text, end, encoding))


def find(text: str, needle: str, nth: int = 0, *, within: str | None = None) -> int:
    """Offset of the ``nth`` occurrence of ``needle`` (inside the first ``within`` if given)."""
    base = text.index(within) if within else 0
    at = base - 1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return at


def offset_of(text: str, p: types.Position, encoding: str) -> int:
    starts = _line_starts(text)
    start = starts[p.line]
    end = starts[p.line + 1] if p.line + 1 < len(starts) else len(text)
    line = text[start:end].rstrip("\r\n")
    n = 0
    for i, ch in enumerate(line):
        if n >= p.character:
            return start + i
        n += units(ch, encoding)
    return start + len(line)


def apply_edits(text: str, edits: list[types.TextEdit], encoding: str) -> str:
    spans = sorted(
        ((offset_of(text, e.range.start, encoding), offset_of(text, e.range.end, encoding), e.new_text) for e in edits),
        reverse=True,
    )
    for a, b, new in spans:
        text = text[:a] + new + text[b:]
    return text


def edits_for(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    """The text edits of ``edit`` for ``uri``, whichever of the two shapes the server chose."""
    out: list[types.TextEdit] = []
    if edit.document_changes:
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            if change.text_document.uri == uri:
                out.extend(change.edits)  # type: ignore[arg-type]
    if edit.changes:
        out.extend(edit.changes.get(uri, []))
    return out


# -- a session ----------------------------------------------------------------------


@dataclass
class Session:
    client: LanguageClient
    editor: str
    encoding: str = "utf-16"
    pull: bool = False
    result: types.InitializeResult | None = None
    texts: dict[str, str] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)

    @classmethod
    async def start(
        cls,
        client: LanguageClient,
        editor: str,
        *,
        init_options: Any = None,
        encodings: list[str] | None = None,
        configuration: dict | None = None,
        tweak=None,
        workspace: Path | None = None,
    ) -> "Session":
        caps = pytest_lsp.client_capabilities(editor)
        if encodings is not None:
            if caps.general is None:
                caps.general = types.GeneralClientCapabilities()
            caps.general.position_encodings = encodings
        if tweak is not None:
            tweak(caps)
        if configuration is not None:
            client.set_configuration(configuration, section="sdformat")
        result = await client.initialize_session(
            types.InitializeParams(
                capabilities=caps,
                initialization_options=init_options,
                root_uri=(workspace or FIXTURES).as_uri(),
                workspace_folders=[types.WorkspaceFolder(uri=(workspace or FIXTURES).as_uri(), name="fixtures")],
            )
        )
        enc = result.capabilities.position_encoding
        enc = getattr(enc, "value", enc) or "utf-16"
        return cls(
            client, editor, enc, caps.text_document is not None and caps.text_document.diagnostic is not None, result
        )

    # documents

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.texts[uri] = text
        self.versions[uri] = version
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(uri=uri, language_id="sdformat", version=version, text=text)
            )
        )

    def replace(self, uri: str, start: int, end: int, new_text: str) -> int:
        """Send one incremental change (positions in the session's encoding); returns the new version."""
        return self.change(uri, [(start, end, new_text)])

    def change(self, uri: str, edits: list[tuple[int, int, str]]) -> int:
        """Several incremental changes in one notification, each relative to the text after the previous."""
        text = self.texts[uri]
        changes = []
        for start, end, new in edits:
            changes.append(types.TextDocumentContentChangePartial(range=rng(text, start, end, self.encoding), text=new))
            text = text[:start] + new + text[end:]
        self.texts[uri] = text
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=changes,
            )
        )
        return self.versions[uri]

    def replace_all(self, uri: str, text: str) -> int:
        self.texts[uri] = text
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.versions[uri]

    # positions

    def pos(self, uri: str, offset: int) -> types.Position:
        return pos(self.texts[uri], offset, self.encoding)

    def range(self, uri: str, start: int, end: int) -> types.Range:
        return rng(self.texts[uri], start, end, self.encoding)

    def at(self, uri: str, needle: str, nth: int = 0, delta: int = 0, within: str | None = None) -> types.Position:
        return self.pos(uri, find(self.texts[uri], needle, nth, within=within) + delta)

    def span_of(self, uri: str, needle: str, nth: int = 0, within: str | None = None) -> types.Range:
        start = find(self.texts[uri], needle, nth, within=within)
        return self.range(uri, start, start + len(needle))

    # diagnostics

    async def diagnostics(self, uri: str, timeout: float = 10.0) -> list[types.Diagnostic]:
        """The diagnostics of the current version, by the session's mechanism."""
        if self.pull:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    report = await self.client.text_document_diagnostic_async(
                        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
                    )
                except Exception as exc:  # ServerCancelled: the text moved on; ask again like an editor would
                    if getattr(exc, "code", None) != types.LSPErrorCodes.ServerCancelled or time.monotonic() > deadline:
                        raise
                    continue
                assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
                return list(report.items)
        published = await self.published(uri, self.versions[uri], timeout)
        return list(published.diagnostics)

    async def published(self, uri: str, version: int | None, timeout: float = 10.0) -> types.PublishDiagnosticsParams:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for p in reversed(self.client.published):  # type: ignore[attr-defined]
                if p.uri == uri and p.version == version:
                    return p
            await asyncio.sleep(0.01)
        raise AssertionError(
            f"no diagnostics for {uri} version {version}; got {[(p.uri, p.version) for p in self.client.published]}"
        )  # type: ignore[attr-defined]

    async def log_message(self, needle: str, timeout: float = 5.0) -> types.LogMessageParams:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in self.client.log_messages:
                if needle in m.message:
                    return m
            await asyncio.sleep(0.01)
        raise AssertionError(
            f"no log message containing {needle!r}; got {[m.message for m in self.client.log_messages]}"
        )


@pytest.fixture(params=EDITORS)
def editor(request) -> str:
    return request.param


@pytest.fixture
async def session(lsp: LanguageClient, editor: str) -> Session:
    return await Session.start(lsp, editor)


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def fixture_uri(name: str) -> str:
    return (FIXTURES / name).as_uri()


def completion_items(result: types.CompletionList | list[types.CompletionItem] | None) -> list[types.CompletionItem]:
    """The items as a client applies them: list defaults (``itemDefaults``) merged into each item."""
    if result is None:
        return []
    if not isinstance(result, types.CompletionList):
        return list(result)
    defaults = result.item_defaults
    out = []
    for item in result.items:
        if item.text_edit is None and defaults is not None and defaults.edit_range is not None:
            item.text_edit = types.TextEdit(range=defaults.edit_range, new_text=item.text_edit_text or item.label)
        if item.data is None and defaults is not None and defaults.data is not None:
            item.data = defaults.data
        out.append(item)
    return out
