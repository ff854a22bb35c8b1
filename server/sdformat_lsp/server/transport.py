"""stdio and TCP transports for one client.

Two things differ from pygls' own ``start_io``/``start_tcp``:

* stdout carries nothing but protocol: the protocol gets a private copy of
  file descriptor 1 and fd 1 itself is pointed at stderr, so a stray
  ``print`` or a C library writing to stdout cannot corrupt the stream.
* stdin is read by a daemon thread with ``os.read``: a client that keeps our
  stdin open after ``exit`` cannot keep the process alive (pygls reads in a
  thread pool whose threads the interpreter joins at exit).

TCP serves exactly one client, on a loopback address only: the protocol
has no authentication, so anything else would expose the file system to
the network.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import sys
import threading
from typing import BinaryIO

from pygls.io_ import StdoutWriter, run_async

from .app import SdformatLanguageServer

log = logging.getLogger("sdformat_lsp.server")


class _LoopLog(logging.LoggerAdapter):
    """The log pygls' reading loop writes to: a message it cannot handle (not JSON, not an
    object) is logged with its traceback by ``exception`` and then passed to the error handler,
    which logs it in one line (``report_server_error``); the traceback goes to debug level."""

    def exception(self, msg, *args, exc_info=True, **kwargs) -> None:  # type: ignore[override]
        self.logger.debug(msg, *args, exc_info=exc_info, **kwargs)


_loop_log = _LoopLog(log, {})


class _StreamReader:
    """pygls' reader interface over an ``asyncio.StreamReader``; EOF mid-message is EOF."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self._stream = stream

    async def readline(self) -> bytes:
        return await self._stream.readline()

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self._stream.readexactly(n)
        except asyncio.IncompleteReadError:
            return b""


def _pump(fd: int, stream: asyncio.StreamReader, loop: asyncio.AbstractEventLoop) -> None:
    """Start a daemon thread copying ``fd`` into ``stream`` until EOF."""

    def run() -> None:
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            try:
                if chunk:
                    loop.call_soon_threadsafe(stream.feed_data, chunk)
                else:
                    loop.call_soon_threadsafe(stream.feed_eof)
                    return
            except RuntimeError:  # the loop is closed: the server is done
                return

    threading.Thread(target=run, name="sdformat-stdin", daemon=True).start()


def _protocol_stdout() -> BinaryIO:
    """A private handle on the real stdout; fd 1 and ``sys.stdout`` then lead to stderr."""
    try:
        out_fd = os.dup(sys.stdout.fileno())
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
        out: BinaryIO = os.fdopen(out_fd, "wb")
    except (AttributeError, OSError, ValueError):  # no real fd (embedded, tests): keep what there is
        out = sys.stdout.buffer
    sys.stdout = sys.stderr
    return out


def serve_stdio(server: SdformatLanguageServer) -> int:
    in_fd = sys.stdin.fileno()
    out = _protocol_stdout()
    stop = server._stop_event = threading.Event()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stream = asyncio.StreamReader(limit=1 << 20)
        _pump(in_fd, stream, loop)
        server.protocol.set_writer(StdoutWriter(out))
        await run_async(
            stop_event=stop,
            reader=_StreamReader(stream),
            protocol=server.protocol,
            logger=_loop_log,  # type: ignore[arg-type]
            error_handler=server.report_server_error,
        )

    return _run(server, main)


def parse_address(spec: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[::1]:PORT`` or ``PORT`` (on 127.0.0.1); the host must be loopback."""
    host, sep, port_text = spec.rpartition(":")
    if not sep:
        host, port_text = "127.0.0.1", spec
    host = host.strip("[]") or "127.0.0.1"
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"--tcp expects HOST:PORT, got {spec!r}") from None
    if not 0 <= port <= 65535:
        raise ValueError(f"port {port} is out of range")
    if host != "localhost":
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            raise ValueError(
                f"--tcp host must be a loopback address (127.0.0.1, ::1, localhost), got {host!r}"
            ) from None
        if not loopback:
            raise ValueError(f"--tcp only listens on loopback addresses (127.0.0.1, ::1, localhost), not {host}")
    return host, port


def serve_tcp(server: SdformatLanguageServer, host: str, port: int) -> int:
    stop = server._stop_event = threading.Event()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        finished: asyncio.Future[None] = loop.create_future()
        connected = False

        async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonlocal connected
            if connected:  # one client per process
                writer.close()
                return
            connected = True
            listener.close()
            peer = writer.get_extra_info("peername")
            log.info("client connected from %s", peer)
            server.protocol.set_writer(writer)
            try:
                await run_async(
                    stop_event=stop,
                    reader=_StreamReader(reader),
                    protocol=server.protocol,
                    logger=_loop_log,  # type: ignore[arg-type]
                    error_handler=server.report_server_error,
                )
            finally:
                if not finished.done():
                    finished.set_result(None)

        listener = await asyncio.start_server(on_connect, host, port)
        for sock in listener.sockets:
            addr = sock.getsockname()
            log.info("listening on %s:%d", addr[0], addr[1])
        await finished

    return _run(server, main)


def _run(server: SdformatLanguageServer, main) -> int:
    """Run the session; ``exit`` ends it with SystemExit from inside pygls, which is normal."""
    try:
        asyncio.run(main())
    except SystemExit:
        pass
    except KeyboardInterrupt:
        log.info("interrupted")
    except BrokenPipeError:
        log.error("the client went away")
    finally:
        server.shutdown()
    return server.exit_code
