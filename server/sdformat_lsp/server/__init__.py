"""The LSP front end: ``serve`` runs one session over stdio or loopback TCP."""

from __future__ import annotations

import logging

from .app import SdformatLanguageServer
from .logs import ClientLogHandler, configure

__all__ = ["SdformatLanguageServer", "serve"]

log = logging.getLogger("sdformat_lsp.server")


def serve(tcp: str | None = None, log_level: str = "info") -> int:
    """Serve one client; returns the process exit code (0 after shutdown + exit)."""
    from .transport import parse_address, serve_stdio, serve_tcp

    client_log = ClientLogHandler()
    configure(client_log, getattr(logging, log_level.upper(), logging.INFO))
    if tcp is not None:
        try:
            host, port = parse_address(tcp)
        except ValueError as exc:
            log.error("%s", exc)
            return 2
        return serve_tcp(SdformatLanguageServer(client_log), host, port)
    return serve_stdio(SdformatLanguageServer(client_log))
