"""Keeping one bad request from taking the server down.

A bug in a feature must cost the user one answer, not the session: the
exception is logged as one line with a fault id (to stderr and, as an
error, to the client's log; the traceback only at debug level, under the
same id) and the request is answered with an LSP error naming the id. A
notification has nobody to answer, so its failure is only logged.
Deliberate refusals (``JsonRpcException``: a refused rename, a cancelled
pull) are answers, not faults: they log nothing.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import logging
from typing import Any, Callable, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError

log = logging.getLogger("sdformat_lsp.server")

F = TypeVar("F", bound=Callable[..., Any])


class RequestFailed(JsonRpcException):
    """A request that was understood but cannot be carried out (e.g. a refused rename)."""

    CODE = types.LSPErrorCodes.RequestFailed.value
    MESSAGE = "Request failed"


class ServerCancelled(JsonRpcException):
    """The server gave up on a request; the client should ask again."""

    CODE = types.LSPErrorCodes.ServerCancelled.value
    MESSAGE = "Server cancelled the request"


_fault_ids = itertools.count(1)


def log_fault(what: str, exc: BaseException) -> str:
    """Log a real fault: one line with an id at error level, the traceback at debug level."""
    fault = f"F{next(_fault_ids)}"
    log.error(
        "%s failed (fault %s): %s: %s (its traceback: serve --log-level debug)", what, fault, type(exc).__name__, exc
    )
    log.debug("fault %s traceback", fault, exc_info=exc)
    return fault


def _internal(method: str, exc: BaseException, fault: str) -> JsonRpcInternalError:
    return JsonRpcInternalError(message=f"{method} failed (fault {fault}): {type(exc).__name__}: {exc}")


def guarded(method: str, *, notification: bool = False) -> Callable[[F], F]:
    """Wrap a handler so that an unexpected exception is logged and answered.

    ``JsonRpcException`` subclasses are deliberate answers and pass through
    untouched. Anything else becomes an ``InternalError`` response for a
    request, or is swallowed (after logging) for a notification.
    """

    def failed(exc: Exception) -> None:
        """Log; a notification then ends quietly, a request gets an LSP error."""
        fault = log_fault(method, exc)
        if not notification:
            raise _internal(method, exc, fault) from None

    def decorate(fn: F) -> F:
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                try:
                    return await fn(*args, **kwargs)
                except JsonRpcException:
                    raise
                except Exception as exc:
                    return failed(exc)

            return async_wrapper  # type: ignore[return-value]

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except JsonRpcException:
                raise
            except Exception as exc:
                return failed(exc)

        return wrapper  # type: ignore[return-value]

    return decorate
