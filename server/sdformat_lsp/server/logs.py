"""Logging for a process whose stdout belongs to the protocol.

Everything goes to stderr (editors show it in their server log); warnings
and errors are also sent to the client as ``window/logMessage`` so that a
user who never opens stderr still sees why something did not work.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from typing import Callable

from lsprotocol import types

_LEVELS = {
    logging.CRITICAL: types.MessageType.Error,
    logging.ERROR: types.MessageType.Error,
    logging.WARNING: types.MessageType.Warning,
    logging.INFO: types.MessageType.Info,
    logging.DEBUG: types.MessageType.Log,
}


def _message_type(levelno: int) -> types.MessageType:
    for level, kind in _LEVELS.items():
        if levelno >= level:
            return kind
    return types.MessageType.Log


class ClientLogHandler(logging.Handler):
    """Forwards records to the client once a connection is up.

    Sending happens on the event loop thread (records logged from the
    analysis threads are handed over), and a record logged while sending
    (say, a broken pipe) is not forwarded again.
    """

    def __init__(self, level: int = logging.WARNING) -> None:
        super().__init__(level)
        self._send: Callable[[types.LogMessageParams], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._busy = threading.local()
        self.setFormatter(logging.Formatter("%(message)s"))

    def connect(self, send: Callable[[types.LogMessageParams], None], loop: asyncio.AbstractEventLoop) -> None:
        self._send = send
        self._loop = loop

    def disconnect(self) -> None:
        self._send = None
        self._loop = None

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text += f": {type(exc).__name__}: {exc} (traceback in the server's stderr)"
        return f"sdformat-lsp: {text}"

    def emit(self, record: logging.LogRecord) -> None:
        send, loop = self._send, self._loop
        if send is None or loop is None or getattr(self._busy, "on", False):
            return
        try:
            params = types.LogMessageParams(type=_message_type(record.levelno), message=self.format(record))
        except Exception:
            return
        if loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._deliver(send, params)
        else:
            loop.call_soon_threadsafe(self._deliver, send, params)

    def _deliver(self, send: Callable[[types.LogMessageParams], None], params: types.LogMessageParams) -> None:
        if self._send is None:
            return
        self._busy.on = True
        try:
            send(params)
        except Exception:
            pass
        finally:
            self._busy.on = False


# pygls' records for things a client does in the normal course of a session: worth a line
# when debugging, never a warning (some clients send them all the time)
_ROUTINE = (
    "Ignoring notification for unknown method",
    "Cancel notification for unknown message id",
    "Received response to unknown message id",
)


class QuietPygls(logging.Filter):
    """Keeps pygls' stderr to real faults.

    pygls logs every error response with its traceback (``logger.exception``),
    including the deliberate ones: a refused rename (``RequestFailed``), a pull
    cancelled by an edit (``ServerCancelled``), and the ``InternalError`` our
    fault wrapper answers with after logging the fault itself, once, with an id.
    Those records are dropped; routine notices are demoted to debug.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("pygls"):
            return True
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            from pygls.exceptions import JsonRpcException

            if isinstance(exc, JsonRpcException):
                return False
        if record.levelno < logging.ERROR and isinstance(record.msg, str) and record.msg.startswith(_ROUTINE):
            if not logging.getLogger("sdformat_lsp").isEnabledFor(logging.DEBUG):
                return False
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


def configure(client_handler: ClientLogHandler, level: int = logging.INFO) -> None:
    """stderr: ours from ``level`` (INFO), pygls' from WARNING (minus deliberate refusals, see
    :class:`QuietPygls`); the client: our warnings and errors. At DEBUG, fault tracebacks too."""
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    stderr.addFilter(QuietPygls())  # a handler filter: pygls logs from child loggers
    root = logging.getLogger()
    root.handlers[:] = [stderr]
    root.setLevel(logging.WARNING)
    ours = logging.getLogger("sdformat_lsp")
    ours.setLevel(level)
    ours.addHandler(client_handler)
    # pygls' own records (failed requests, unknown notifications) stay on
    # stderr: failed requests already reach the client as error responses.
    pygls = logging.getLogger("pygls")
    pygls.setLevel(logging.DEBUG if level <= logging.DEBUG else logging.WARNING)
