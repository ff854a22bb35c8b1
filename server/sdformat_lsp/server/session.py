"""What the server's handlers use of the language server: a small Protocol, so that no module of
the server imports the application (``app.py``) back.

``app.SdformatLanguageServer`` implements it; the handlers (``handlers.py``, ``editing.py``,
``formatting.py``), the commands and the workspace index are typed against it. Holds no state
and does nothing: it only names what a handler may read (the documents, the scheduler of
analyses, the settings, the negotiated encoding and client capabilities) and call (``place``,
``options``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from lsprotocol import types

    from ..semantics import Analysis, Options
    from .convert import DiagnosticSupport, Place
    from .documents import DocumentStore
    from .project_config import ProjectConfigs
    from .scheduler import Scheduler
    from .settings import Settings


class Session(Protocol):
    """The language server as its handlers see it."""

    documents: DocumentStore
    scheduler: Scheduler
    settings: Settings
    project: ProjectConfigs
    encoding: str  # the negotiated position encoding
    markdown_hover: bool
    diagnostic_support: DiagnosticSupport
    root_dir: str | None
    workspace_index: Any  # workspace_index.WorkspaceIndex, made when the handlers are registered

    @property
    def client_capabilities(self) -> types.ClientCapabilities: ...

    @property
    def workspace(self) -> Any: ...

    def place(self, uri: str, analysis: Analysis) -> Place:
        """How to place the spans of ``analysis`` (of the document ``uri``) in LSP terms."""
        ...

    def options(self, path: str | None = None) -> Options:
        """The analysis options for a document at ``path``."""
        ...

    def window_show_message(self, params: types.ShowMessageParams) -> None: ...

    def command(self, command_name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]: ...
