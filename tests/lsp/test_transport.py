"""Process-level behaviour: exit codes, `serve --tcp`, one client, loopback only."""

from __future__ import annotations

import asyncio
import re
import sys

from lsprotocol import types
from pygls.lsp.client import LanguageClient as PlainClient

from .conftest import SERVER, fixture_text, server_env

TEXT = fixture_text("arm.sdf").replace('relative_to="base"', 'relative_to="bse"')
URI = "file:///work/tcp.sdf"


async def _spawn(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *SERVER,
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=server_env(),
    )


async def _listening_port(proc: asyncio.subprocess.Process) -> int:
    assert proc.stderr is not None
    while True:
        line = (await asyncio.wait_for(proc.stderr.readline(), 15)).decode()
        assert line, "the server exited before listening"
        m = re.search(r"listening on [^ ]+:(\d+)", line)
        if m:
            return int(m.group(1))


async def test_tcp_serves_one_client_and_exits_cleanly():
    proc = await _spawn("serve", "--tcp", "127.0.0.1:0")
    try:
        port = await _listening_port(proc)
        client = PlainClient("tcp-test", "1")
        published: list[types.PublishDiagnosticsParams] = []

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams) -> None:
            published.append(params)

        await client.start_tcp("127.0.0.1", port)
        result = await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
        assert result.capabilities.position_encoding == "utf-16"
        assert result.server_info.name == "sdformat-lsp"
        client.initialized(types.InitializedParams())

        # a second client is turned away: the listener is closed after the first
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2)
            assert await asyncio.wait_for(reader.read(), 2) == b""
            writer.close()
        except (ConnectionRefusedError, OSError):
            pass

        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(uri=URI, language_id="sdformat", version=3, text=TEXT)
            )
        )
        for _ in range(500):
            if published:
                break
            await asyncio.sleep(0.01)
        assert published and published[-1].version == 3
        assert [d.code for d in published[-1].diagnostics] == ["POSE_RELATIVE_TO_INVALID"]

        await client.shutdown_async(None)
        client.exit(None)
        assert await asyncio.wait_for(proc.wait(), 10) == 0
        await client.stop()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_tcp_refuses_non_loopback_addresses():
    proc = await _spawn("serve", "--tcp", "0.0.0.0:2087")
    _, err = await asyncio.wait_for(proc.communicate(), 15)
    assert proc.returncode == 2
    assert b"loopback" in err


async def _stdio_session(send_shutdown: bool) -> tuple[int, bytes]:
    proc = await _spawn()
    assert proc.stdin is not None and proc.stdout is not None

    def message(payload: bytes) -> bytes:
        return b"Content-Length: %d\r\n\r\n%s" % (len(payload), payload)

    proc.stdin.write(message(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'))
    proc.stdin.write(message(b'{"jsonrpc":"2.0","method":"initialized","params":{}}'))
    if send_shutdown:
        proc.stdin.write(message(b'{"jsonrpc":"2.0","id":2,"method":"shutdown"}'))
    proc.stdin.write(message(b'{"jsonrpc":"2.0","method":"exit"}'))
    await proc.stdin.drain()
    # stdin stays open: the server must exit on `exit` alone
    out = await asyncio.wait_for(proc.stdout.read(), 15)
    code = await asyncio.wait_for(proc.wait(), 15)
    proc.stdin.close()
    return code, out


async def test_exit_codes_and_a_clean_stdout():
    code, out = await _stdio_session(send_shutdown=True)
    assert code == 0
    # nothing but framed JSON-RPC on stdout
    rest = out
    while rest:
        m = re.match(rb"Content-Length: (\d+)\r\n(?:[^\r\n]+\r\n)*\r\n", rest)
        assert m, rest[:200]
        rest = rest[m.end() + int(m.group(1)) :]
    code, _ = await _stdio_session(send_shutdown=False)
    assert code == 1  # exit without shutdown, as LSP prescribes


def test_python_m_and_the_console_script_agree():
    import subprocess

    out = subprocess.run(
        [sys.executable, "-m", "sdformat_lsp", "serve", "--help"], capture_output=True, text=True, env=server_env()
    )
    assert out.returncode == 0 and "--tcp" in out.stdout
