"""A bare JSON-RPC client over the real server's stdio, with its stderr kept.

The pytest-lsp client hides the server's stderr and validates what it sends;
the log tests and the fuzzer need raw messages, every byte of stderr and a
blocking, bounded wait for each answer.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def server_command(script: str | None = None) -> list[str]:
    if script is not None:
        return [sys.executable, script]
    return [sys.executable, "-m", "sdformat_lsp"]


class StdioServer:
    """The server as a subprocess; ``request`` waits (with a bound) for the answer to that id."""

    def __init__(self, command: list[str] | None = None, cwd: str | None = None) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT / "server") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self.proc = subprocess.Popen(
            command or server_command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
        )
        self._next = 0
        self.responses: dict[int, dict] = {}
        self.notifications: "queue.Queue[dict]" = queue.Queue()
        self.server_requests: list[dict] = []
        self.log_messages: list[dict] = []
        self._cond = threading.Condition()
        self.stderr_chunks: list[bytes] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._err = threading.Thread(target=self._read_err, daemon=True)
        self._err.start()

    # -- wire ------------------------------------------------------------------------

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    with self._cond:
                        self._cond.notify_all()
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            if length is None:
                continue
            message = json.loads(out.read(length))
            if "id" in message and "method" in message:  # a request from the server: answer it
                self.server_requests.append(message)
                result: Any = None
                if message["method"] == "workspace/configuration":
                    result = [None for _ in message.get("params", {}).get("items", [])]
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            elif "id" in message:
                with self._cond:
                    self.responses[message["id"]] = message
                    self._cond.notify_all()
            else:
                if message.get("method") == "window/logMessage":
                    self.log_messages.append(message["params"])
                self.notifications.put(message)

    def _read_err(self) -> None:
        err = self.proc.stderr
        assert err is not None
        while True:
            chunk = err.read1(65536) if hasattr(err, "read1") else err.read(65536)
            if not chunk:
                return
            self.stderr_chunks.append(chunk)

    @property
    def stderr(self) -> str:
        return b"".join(self.stderr_chunks).decode("utf-8", "replace")

    # -- protocol ---------------------------------------------------------------------

    def request_async(self, method: str, params: Any) -> int:
        self._next += 1
        self.send({"jsonrpc": "2.0", "id": self._next, "method": method, "params": params})
        return self._next

    def wait(self, msg_id: int, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        with self._cond:
            while msg_id not in self.responses:
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise TimeoutError(f"no answer to request {msg_id} within {timeout} s")
                self._cond.wait(min(left, 0.5))
            return self.responses.pop(msg_id)

    def request(self, method: str, params: Any, timeout: float = 30.0) -> dict:
        return self.wait(self.request_async(method, params), timeout)

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def initialize(self, encodings: list[str] | None = None, pull: bool = False, options: dict | None = None) -> dict:
        caps: dict = {
            "general": {"positionEncodings": encodings or ["utf-16"]},
            "textDocument": {
                "publishDiagnostics": {"relatedInformation": True},
                "hover": {"contentFormat": ["markdown", "plaintext"]},
            },
            "window": {"workDoneProgress": False},
        }
        if pull:
            caps["textDocument"]["diagnostic"] = {"dynamicRegistration": False}
        params = {"processId": None, "rootUri": None, "capabilities": caps}
        if options is not None:
            params["initializationOptions"] = options
        answer = self.request("initialize", params, timeout=60)
        self.notify("initialized", {})
        return answer["result"]

    def diagnostics(self, uri: str, version: int | None, timeout: float = 30.0, each: Any = None) -> list[dict]:
        """Wait for the publishDiagnostics of ``uri`` at ``version`` (notifications for others are kept);
        ``each(params)`` is called for every publication of ``uri`` passed on the way, that one included."""
        deadline = time.monotonic() + timeout
        kept: list[dict] = []
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no diagnostics for {uri} version {version} within {timeout} s")
                try:
                    message = self.notifications.get(timeout=min(left, 0.5))
                except queue.Empty:
                    if self.proc.poll() is not None:
                        raise TimeoutError("the server exited") from None
                    continue
                if message.get("method") == "textDocument/publishDiagnostics":
                    p = message["params"]
                    if p["uri"] == uri and each is not None:
                        each(p)
                    if p["uri"] == uri and p.get("version") == version:
                        return p["diagnostics"]
                    continue
                kept.append(message)
        finally:
            for m in kept:
                self.notifications.put(m)

    def close(self, timeout: float = 30.0) -> int:
        try:
            if self.proc.poll() is None:
                self.request("shutdown", None, timeout=timeout)
                self.notify("exit", None)
            return self.proc.wait(timeout)
        except Exception:
            self.proc.kill()
            self.proc.wait(10)
            return -1
        finally:
            self._err.join(5)
