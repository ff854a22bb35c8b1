"""The language server: document sync, diagnostics, settings, and the handlers.

Protocol-agnostic work lives in ``semantics`` and ``features``; this module
only translates between LSP and those layers, decides *when* to analyse,
and keeps a failing request from affecting anything else.
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from lsprotocol import types
from pygls.capabilities import get_capability
from cattrs.errors import ClassValidationError
from pygls.exceptions import JsonRpcInternalError, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from .. import __version__
from ..semantics import Analysis, Options, analyze
from ..interface.registry import describe_parsers
from ..semantics.includes.resources import find_model_roots
from ..text import UTF16
from . import settings as settings_mod
from .convert import DiagnosticSupport, Place, converter_factory, document_diagnostics
from .collector import Collector
from .documents import Document, DocumentStore, uri_to_path
from .faults import ServerCancelled, guarded, log_fault
from . import editing, formatting, handlers, requests  # noqa: F401 - imported for the handlers they record
from .commands import register_commands
from .requests import handler
from .workspace_index import WorkspaceIndex
from .logs import ClientLogHandler
from .project_config import CONFIG_GLOBS, ProjectConfigs, show_error
from .scheduler import Checked, Scheduler, Superseded
from .settings import Parsed, Settings
from .sources import FileSources

log = logging.getLogger("sdformat_lsp.server")

NAME = "sdformat-lsp"
DIAGNOSTIC_IDENTIFIER = "sdformat"
# How long analyses wait for the client to answer workspace/configuration.
SETTINGS_TIMEOUT = 3.0
# Files whose change on disk can change what an include brings in; watched
# through workspace/didChangeWatchedFiles when the client can register watchers.
# .xml and .xacro: included MJCF and xacro models and the parts they read (InterfaceModel.files)
WATCHED_GLOBS = ("**/*.sdf", "**/*.world", "**/*.urdf", "**/*.xacro", "**/*.xml", "**/model.config", *CONFIG_GLOBS)
WATCHER_ID = "sdformat-include-watcher"


# What structure_message returns for a message it refused: handle_message ignores it.
REFUSED = object()


def _first_reason(exc: BaseException) -> str:
    """The innermost first reason of a (possibly grouped) exception, on one line."""
    seen = 0
    while seen < 50:  # nested groups from cattrs: follow the first of each
        seen += 1
        inner = getattr(exc, "exceptions", None)
        if inner:
            exc = inner[0]
            continue
        break
    where = ""
    notes = getattr(exc, "__notes__", None)
    if notes:
        where = f" ({notes[0]})"
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"{text}{where}"


class SdformatProtocol(LanguageServerProtocol):
    """pygls' protocol without its own copy of the open documents.

    pygls would apply every change to its workspace before calling us; we
    keep the documents ourselves (see ``documents.py`` for why), so its
    copy would only cost time and could disagree about line numbers.
    """

    def structure_message(self, data: dict[str, Any]) -> Any:
        """Read a message; one whose parameters cannot be read is refused in one log line.

        pygls logs such a message with two tracebacks (an exception group from cattrs, then
        the loop's) and drops it, so the client would wait for an answer forever: a request is
        answered with the JSON-RPC error here, a notification dropped, and either is one
        warning naming the method and the first reason.
        """
        params = data.get("params") if data.get("method") == "sdformat/frames" else None
        if isinstance(params, dict) and isinstance(params.get("jointPositions"), dict):
            # pygls turns objects into namedtuples, whose field names cannot hold joint names (``a::j``):
            # the names travel as values of [name, value] pairs instead
            params["jointPositions"] = [[k, v] for k, v in params["jointPositions"].items()]
        if "jsonrpc" not in data or "method" not in data or "error" in data or "result" in data:
            return super().structure_message(data)  # nested objects and responses: pygls' way
        msg_id = data.get("id")
        try:
            kind = self.get_message_type(data["method"]) or (
                JsonRPCRequestMessage if "id" in data else JsonRPCNotification
            )
            return self._converter.structure(data, kind)
        except Exception as exc:  # noqa: BLE001 - whatever the client sent, one refusal
            error = JsonRpcInvalidParams() if isinstance(exc, ClassValidationError) else JsonRpcInternalError()
            detail = _first_reason(exc)
            if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool):
                response = types.ResponseError(
                    code=error.code, message=f"{error.message} for {data['method']}: {detail}"
                )
                self._send_response(msg_id, error=response)
            log.warning(
                "refused %s%s: %s: %s",
                data["method"],
                f" (request {msg_id})" if msg_id is not None else "",
                error.message,
                detail,
            )
            return REFUSED

    def handle_message(self, message: Any) -> None:
        if message is REFUSED:
            return  # answered (or dropped) when it was read
        if not hasattr(message, "jsonrpc"):  # valid JSON, but not an object: no id to answer
            log.warning("refused a message that is not a JSON-RPC object: %.80s", repr(message))
            return
        super().handle_message(message)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


class SdformatLanguageServer(LanguageServer):
    """State of one client session: documents, settings and what the client supports."""

    def __init__(self, client_log: ClientLogHandler | None = None) -> None:
        super().__init__(
            NAME,
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=SdformatProtocol,
            converter_factory=converter_factory,
        )
        self.client_log = client_log or ClientLogHandler()
        self.documents = DocumentStore()
        self.encoding: str = UTF16
        self.pull_diagnostics = False
        self.diagnostic_support = DiagnosticSupport()
        self.markdown_hover = False
        self.root_dir: str | None = None
        self.workspace_dirs: list[str] = []  # every workspace folder (the root when the client sends none)
        self._model_roots: tuple[str, ...] | None = None
        self.workspace_index: Any = None  # set by register_editing: the workspace's files for workspace symbols
        self._init_settings = Parsed()
        self._client_settings = Parsed()
        self.settings = Settings()
        self.shutdown_requested = False
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sdformat-analysis")
        self.collector = Collector()
        self.scheduler = Scheduler(
            self.documents,
            self._analyze,
            self.executor,
            lambda: self.settings.debounce_seconds,
            self._settled,
            self.options,
            self.collector,
        )
        # the open documents' texts, the include cache, related files' lines: what analyses read besides the document
        self.sources = FileSources(self.documents, self.scheduler.latest)
        self._refresh_after: set[str] = set()  # pull clients: ask them to pull again once these settle
        self.watching = False  # workspace/didChangeWatchedFiles registered
        self._release_initial_hold: Callable[[], None] = lambda: None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        # the configuration file of each document (sdformat-lsp.toml / pyproject.toml), shared with `check`
        self.project = ProjectConfigs(lambda message: show_error(self, message))
        _register(self)

    # -- analysis --------------------------------------------------------

    def options(self, path: str | None = None) -> Options:
        """The editor's resource paths, then the configuration file's (of the document at ``path``); the core
        appends SDF_PATH, GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH and GAZEBO_MODEL_PATH (see docs/includes.md)."""
        cfg = self.project.for_path(path)
        paths = self.settings.resource_paths + tuple(
            p for p in cfg.resource_paths if p not in self.settings.resource_paths
        )
        return Options(
            resource_paths=paths,
            model_roots=self.model_roots(),
            include_cache=self.sources.include_cache,
            open_documents=self.sources.open_document,
            max_document_bytes=self.settings.max_document_bytes,
            severity=cfg.severity or None,
            package_paths=cfg.package_paths,
            model_parsers=cfg.model_parsers,
        )

    def model_roots(self) -> tuple[str, ...]:
        """Directories holding model directories (with ``model.config``) in the workspace folders,
        searched for ``model://`` after the configured paths; found once, on first use."""
        if self._model_roots is None:
            found: list[str] = []
            for folder in self.workspace_dirs:
                try:
                    found.extend(find_model_roots(folder))
                except OSError as exc:
                    log.warning("cannot look for model directories in %s: %s", folder, exc)
            self._model_roots = tuple(dict.fromkeys(found))
            if self._model_roots:
                log.info("model roots found in the workspace: %s", list(self._model_roots))
        return self._model_roots

    def revalidate_dependents(
        self, paths: list[str] | set[str], *, immediate: bool, skip: str | None = None, text: str | None = None
    ) -> list[str]:
        """Check again every open document (but ``skip``) whose includes read one of ``paths``; their URIs.

        With ``text``, only those whose analysis read a different text for it
        (a file opened in the editor with the content they already saw needs nothing).
        """
        scheduled: list[str] = []
        for doc in self.documents:
            if doc.uri == skip:
                continue
            hit = next((p for p in paths if self.sources.depends_on(doc.uri, p)), None)
            if hit is None:
                continue
            if text is not None:
                latest = self.scheduler.latest(doc.uri)
                seen = latest[1].included_analysis(os.path.abspath(hit)) if latest is not None else None
                if seen is not None and seen.text == text:
                    continue
            doc.touch()
            self.scheduler.schedule(doc, immediate=immediate)
            if self.pull_diagnostics:
                self._refresh_after.add(doc.uri)
            scheduled.append(doc.uri)
        return scheduled

    def _analyze(self, text: str, path: str | None) -> Analysis:
        """Runs in a worker thread. The options are read here, once per run."""
        # The scheduler freezes the result out of the cyclic collector's passes, and hands
        # it back at the next sweep (server/collector.py: why that leaks nothing).
        return analyze(text, path, self.options(path))

    def place(self, uri: str, analysis: Checked) -> Place:
        """How spans of ``analysis`` become LSP locations (its own text, the negotiated encoding)."""
        return Place(
            uri=uri,
            path=analysis.path,
            lines=analysis.lines,
            encoding=self.encoding,
            lines_of=lambda p: self.sources.lines_of(p, analysis),
        )

    def lsp_diagnostics(self, uri: str, analysis: Checked) -> list[types.Diagnostic]:
        return document_diagnostics(analysis.diagnostics, self.place(uri, analysis), self.diagnostic_support)

    def _settled(self, doc: Document, analysis: Checked) -> None:
        """The debounced analysis of ``doc``'s current revision is ready."""
        if self.pull_diagnostics:
            # the client asks; ``textDocument/diagnostic`` answers from the same result. A document
            # re-checked because a file it includes changed is not one the client will ask about
            # by itself: tell it to pull again (if it can be told) now that the result is ready.
            if doc.uri in self._refresh_after:
                self._refresh_after.discard(doc.uri)
                self.refresh_pulled_diagnostics()
            return
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=doc.uri, diagnostics=self.lsp_diagnostics(doc.uri, analysis), version=doc.version
            )
        )

    # -- settings --------------------------------------------------------

    def apply_settings(self, init: Parsed | None = None, client: Parsed | None = None) -> bool:
        """Replace a settings layer; returns whether the effective settings changed."""
        if init is not None:
            self._init_settings = init
        if client is not None:
            self._client_settings = client
        for layer in (init, client):
            for problem in layer.problems if layer is not None else ():
                log.warning("settings: %s", problem)
        new = settings_mod.merge(self._init_settings, self._client_settings)
        changed = new != self.settings
        self.settings = new
        if changed:
            log.info("settings: resourcePaths=%s debounceMs=%d", list(new.resource_paths), new.debounce_ms)
        return changed

    async def pull_configuration(self) -> Parsed | None:
        """Ask the client for the ``sdformat`` section; None if it cannot or would not say."""
        if not get_capability(self.client_capabilities, "workspace.configuration", False):
            return None
        try:
            result = await asyncio.wait_for(
                self.workspace_configuration_async(
                    types.ConfigurationParams(items=[types.ConfigurationItem(section=settings_mod.SECTION)])
                ),
                SETTINGS_TIMEOUT,
            )
        except asyncio.TimeoutError:
            log.warning(
                "the client did not answer workspace/configuration within %.0f s; keeping the current settings",
                SETTINGS_TIMEOUT,
            )
            return None
        except Exception as exc:
            log.warning("workspace/configuration failed: %s", exc)
            return None
        value = result[0] if isinstance(result, (list, tuple)) and result else None
        if value is None:
            return None
        return settings_mod.parse(value, base_dir=self.root_dir)

    def reanalyze_all(self) -> None:
        """Settings changed: every open document gets a new revision and is checked again."""
        for doc in self.documents:
            doc.touch()
            self.scheduler.schedule(doc, immediate=True)

    def refresh_inlay_hints(self) -> None:
        """Inlay hint settings apply at once: clients that can be told to ask again are told."""
        if get_capability(self.client_capabilities, "workspace.inlay_hint.refresh_support", False):
            self.workspace_inlay_hint_refresh(None)

    def refresh_pulled_diagnostics(self) -> None:
        """Pull clients learn about re-checked documents only if they can be told to ask again."""
        if self.pull_diagnostics and get_capability(
            self.client_capabilities, "workspace.diagnostics.refresh_support", False
        ):
            self.workspace_diagnostic_refresh(None)

    async def update_settings(self, sent: Any, release: Callable[[], None]) -> None:
        """After didChangeConfiguration: fetch (or take) the new settings, then let analyses run."""
        try:
            pulled = await self.pull_configuration()
            if pulled is None:
                # Clients without workspace/configuration (or without such a
                # section) send the settings themselves.
                pulled = settings_mod.parse(sent, base_dir=self.root_dir)
            if self.apply_settings(client=pulled):
                self.refresh_inlay_hints()
        except Exception as exc:
            log_fault("updating the settings", exc)
        finally:
            release()
        self.refresh_pulled_diagnostics()

    async def register_watchers(self) -> None:
        """Ask the client to report changes to files that includes read (SDFormat, URDF, model.config)."""
        watchers = [types.FileSystemWatcher(glob_pattern=g) for g in WATCHED_GLOBS]
        registration = types.Registration(
            id=WATCHER_ID,
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
        )
        try:
            await asyncio.wait_for(
                self.client_register_capability_async(types.RegistrationParams(registrations=[registration])),
                SETTINGS_TIMEOUT,
            )
        except Exception as exc:  # the client refused or never answered: saves still re-check includers
            log.warning(
                "could not register file watchers (%s); included files changed on disk are noticed when saved in the editor",
                exc or type(exc).__name__,
            )
            return
        self.watching = True
        log.info("watching %s for changes to included files", ", ".join(WATCHED_GLOBS))

    def files_changed(self, paths: set[str]) -> int:
        """Files changed on disk: forget what the cache read from them and re-check their includers."""
        if any(self.project.is_config(p) for p in paths):
            # a configuration file changed, appeared or went: every document may be configured differently
            self.project.invalidate()
            self.reanalyze_all()
            self.refresh_pulled_diagnostics()
            paths = {p for p in paths if not self.project.is_config(p)}
        for path in paths:
            self.sources.changed_on_disk(path)
        # an open file is read from the editor: its includers do not care about the disk
        on_disk = {p for p in paths if self.documents.by_path(p) is None}
        return len(self.revalidate_dependents(on_disk, immediate=True)) if on_disk else 0

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` in the background, keeping a reference until it is done."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- lifecycle -------------------------------------------------------

    def shutdown(self) -> None:
        """Stop without waiting for threads that may be blocked (stdin) or stale (analyses)."""
        if self._stop_event is not None:
            self._stop_event.set()
        self.scheduler.close()
        self.collector.close()
        self.executor.shutdown(wait=False, cancel_futures=True)
        if self._thread_pool is not None:
            self._thread_pool.shutdown(wait=False, cancel_futures=True)
        if self._server is not None:
            self._server.close()
        self.client_log.disconnect()

    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls' out-of-band errors (malformed messages...) go to our log, not a pop-up."""
        if getattr(source, "__name__", "") == "FeatureRequestError":
            return  # already answered as an error response
        if isinstance(error, ValueError) and type(error).__name__ == "JSONDecodeError":
            log.warning("refused a message that is not JSON: %s", _first_reason(error))
            return
        log.error("%s: %s", getattr(source, "__name__", "error"), _first_reason(error))

    @property
    def exit_code(self) -> int:
        """0 after an orderly shutdown, 1 when the client went away without one (LSP's rule)."""
        return 0 if self.shutdown_requested else 1


def _negotiated_encoding(server: SdformatLanguageServer) -> str:
    enc = server.workspace.position_encoding
    value = getattr(enc, "value", enc)
    return value if value in ("utf-8", "utf-16", "utf-32") else UTF16


def _diagnostic_support(caps: types.ClientCapabilities, pull: bool) -> DiagnosticSupport:
    """What the client can render; pull clients describe it under ``textDocument.diagnostic``
    (LSP 3.18) and otherwise under ``publishDiagnostics``, which we fall back to."""

    def cap(name: str) -> Any:
        value = get_capability(caps, f"text_document.diagnostic.{name}", None) if pull else None  # type: ignore[call-overload]
        if value is None:
            value = get_capability(caps, f"text_document.publish_diagnostics.{name}", None)  # type: ignore[call-overload]
        return value

    tags = cap("tag_support")
    value_set = getattr(tags, "value_set", None) or []
    return DiagnosticSupport(
        related_information=bool(cap("related_information")),
        code_description=bool(cap("code_description_support")),
        deprecated_tag=types.DiagnosticTag.Deprecated in value_set,
    )


def _root_dir(params: types.InitializeParams) -> str | None:
    for folder in params.workspace_folders or []:
        path = uri_to_path(folder.uri)
        if path:
            return path
    if params.root_uri:
        path = uri_to_path(params.root_uri)
        if path:
            return path
    return params.root_path or None


def _workspace_dirs(params: types.InitializeParams, root: str | None) -> list[str]:
    dirs = [p for p in (uri_to_path(f.uri) for f in params.workspace_folders or []) if p]
    if not dirs and root:
        dirs = [root]
    return [d for d in dirs if os.path.isdir(d)]


@handler(types.INITIALIZE)
def initialize(ls: SdformatLanguageServer, params: types.InitializeParams) -> None:
    ls.client_log.connect(ls.window_log_message, asyncio.get_running_loop())
    caps = params.capabilities
    ls.encoding = _negotiated_encoding(ls)
    ls.pull_diagnostics = get_capability(caps, "text_document.diagnostic", None) is not None
    ls.diagnostic_support = _diagnostic_support(caps, ls.pull_diagnostics)
    formats = get_capability(caps, "text_document.hover.content_format", None) or []
    ls.markdown_hover = types.MarkupKind.Markdown in formats
    ls.root_dir = _root_dir(params)
    ls.workspace_dirs = _workspace_dirs(params, ls.root_dir)
    ls.loop = asyncio.get_running_loop()
    ls.project.scan_folders(ls.workspace_dirs)
    ls.apply_settings(init=settings_mod.parse(params.initialization_options, base_dir=ls.root_dir))
    if get_capability(caps, "workspace.configuration", False):
        # Documents opened before the client answers wait for its settings.
        ls._release_initial_hold = ls.scheduler.gate.hold(SETTINGS_TIMEOUT)
    if ls.pull_diagnostics and types.TEXT_DOCUMENT_DIAGNOSTIC not in ls.protocol.fm.features:
        # Declared only for pull clients: a client that can pull gets one
        # mechanism (pull), everyone else gets publishDiagnostics.
        ls.feature(
            types.TEXT_DOCUMENT_DIAGNOSTIC,
            types.DiagnosticOptions(
                identifier=DIAGNOSTIC_IDENTIFIER, inter_file_dependencies=True, workspace_diagnostics=False
            ),
        )(pull_diagnostics)
    log.info(
        "client %s: position encoding %s, %s diagnostics",
        params.client_info.name if params.client_info else "unknown",
        ls.encoding,
        "pull" if ls.pull_diagnostics else "push",
    )
    log.info("model parsers: %s", describe_parsers())


@handler(types.INITIALIZED, notification=True)
async def initialized(ls: SdformatLanguageServer, params: types.InitializedParams) -> None:
    try:
        pulled = await ls.pull_configuration()
        if pulled is not None and ls.apply_settings(client=pulled):
            ls.reanalyze_all()
    finally:
        ls._release_initial_hold()
    if get_capability(ls.client_capabilities, "workspace.did_change_watched_files.dynamic_registration", False):
        ls.spawn(ls.register_watchers())


@handler(types.SHUTDOWN, guard=False)
def shutdown(ls: SdformatLanguageServer, params: None) -> None:
    ls.shutdown_requested = True
    ls.scheduler.close()


@handler(types.WORKSPACE_DID_CHANGE_CONFIGURATION, notification=True)
def did_change_configuration(ls: SdformatLanguageServer, params: types.DidChangeConfigurationParams) -> None:
    # Synchronously, before the next message is handled: every open
    # document is stale from now on, so a diagnostic pull that follows
    # this notification waits for the re-check under the new settings.
    release = ls.scheduler.gate.hold(SETTINGS_TIMEOUT)
    ls.reanalyze_all()
    ls.spawn(ls.update_settings(params.settings, release))


@handler(types.TEXT_DOCUMENT_DID_OPEN, notification=True)
def did_open(ls: SdformatLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = ls.documents.open(params.text_document)
    ls.sources.track(doc)
    ls.scheduler.schedule(doc, immediate=True)
    if doc.path is not None:
        # its includers read it from the editor from now on (only matters if the text differs)
        ls.revalidate_dependents([doc.path], immediate=False, skip=doc.uri, text=doc.text)


@handler(types.TEXT_DOCUMENT_DID_CHANGE, notification=True)
def did_change(ls: SdformatLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    doc = ls.documents.change(params, ls.encoding)
    if doc is None:
        log.warning("ignoring a change to %s, which is not open", params.text_document.uri)
        return
    ls.sources.track(doc)
    # open documents that include this one see the unsaved edit (debounced like any change); they are
    # checked first, and this one's own analysis waits for theirs (Scheduler.schedule's after): on two threads the two
    # would share the interpreter, and the includer's diagnostics, where the edit's consequences show,
    # would come a library's analysis later
    includers = ls.revalidate_dependents([doc.path], immediate=False, skip=doc.uri) if doc.path is not None else []
    ls.scheduler.schedule(doc, after=includers)


@handler(types.TEXT_DOCUMENT_DID_CLOSE, notification=True)
def did_close(ls: SdformatLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    doc = ls.documents.close(uri)
    ls.scheduler.forget(uri)
    if doc is not None and doc.path is not None:
        # unsaved edits are gone: its includers read the disk again
        ls.sources.track(doc, closed=True)
        ls.revalidate_dependents([doc.path], immediate=True)
    if not ls.pull_diagnostics:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@handler(types.TEXT_DOCUMENT_DID_SAVE, notification=True)
def did_save(ls: SdformatLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    # An open file is read from the editor, so its includers saw the text
    # being saved already. A save of a file that is not open (or by a
    # client that sends no watched-file events) re-checks its includers.
    path = uri_to_path(params.text_document.uri)
    if path is None or ls.documents.get(params.text_document.uri) is not None:
        return
    ls.files_changed({path})


@handler(types.WORKSPACE_DID_CHANGE_WATCHED_FILES, notification=True)
def did_change_watched_files(ls: SdformatLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
    paths = {p for p in (uri_to_path(c.uri) for c in params.changes) if p is not None}
    if any(os.path.basename(p) == "model.config" for p in paths):
        ls._model_roots = None  # a model directory may have come or gone: look again on next use
    if paths:
        ls.files_changed(paths)


@guarded(types.TEXT_DOCUMENT_DIAGNOSTIC)
async def pull_diagnostics(
    ls: SdformatLanguageServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    uri = params.text_document.uri
    if ls.documents.get(uri) is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    try:
        revision, analysis = await ls.scheduler.settled(uri)
    except Superseded:
        # The text changed while we waited: these results would be stale.
        raise ServerCancelled(
            message=f"{uri} changed; diagnostics are being recomputed", data={"retriggerRequest": True}
        ) from None
    result_id = str(revision)
    if params.previous_result_id == result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return types.RelatedFullDocumentDiagnosticReport(items=ls.lsp_diagnostics(uri, analysis), result_id=result_id)


def _register(server: SdformatLanguageServer) -> None:
    """Attach every handler to ``server``: those of this module and of the handler modules
    (recorded by ``requests.with_snapshot`` and ``requests.handler``), and the commands."""
    server.workspace_index = WorkspaceIndex(server)
    requests.register(server)
    register_commands(server)
