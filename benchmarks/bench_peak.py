#!/usr/bin/env python3
"""Peak memory of analysing a world at the maximum document size (issue 11).

    python benchmarks/bench_peak.py [--mb 100] [--skip-server]

Generates a world of ``--mb`` megabytes (2^20 characters, ``generate.large_world``,
just under the default maximum document size when 100), then measures the peak
resident set size (the kernel's high-water mark) of

* ``sdformat-lsp check FILE`` in a process of its own (``ru_maxrss`` of the child);
* the language server that opens it and publishes its diagnostics (``VmHWM``).

Target: at most 2 GB (2,000,000,000 bytes) for a 100 MB world.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "server"))

import generate  # noqa: E402

from sdformat_lsp.files import DEFAULT_MAX_BYTES, MB  # noqa: E402

TARGET = 2_000_000_000
CHARS_PER_MODEL = 1568  # generate.large_world: about this many characters per model


def world_of(mb: float) -> str:
    target = int(mb * MB) - 4096  # just under: a world of exactly the limit is over it by its last line
    models = max(1, target // CHARS_PER_MODEL)
    text = generate.large_world(models)
    while len(text) > target and models > 1:
        models -= max(1, (len(text) - target) // CHARS_PER_MODEL + 1)
        text = generate.large_world(models)
    return text


def peak_of_check(path: Path) -> tuple[int, float, int]:
    """(peak bytes, seconds, exit code) of ``check`` in a child process."""
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sdformat_lsp", "check", str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    last = out.decode(errors="replace").strip().splitlines()[-1:] or [""]
    print(f"check printed: {last[0]}")
    return usage.ru_maxrss * 1024, time.monotonic() - t0, proc.returncode


def _status_kb(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {key}")


async def peak_of_server(path: Path, text: str) -> tuple[int, float]:
    """(peak bytes, seconds to the first diagnostics) of the server opening the world."""
    from bench_lsp import Bench
    from lsprotocol import types

    bench = Bench()
    await bench.start("visual-studio-code")
    pid = bench.client._server.pid
    uri = path.as_uri()
    try:
        t0 = time.monotonic()
        done = bench.wait_for(uri, 1)
        item = types.TextDocumentItem(uri=uri, language_id="sdformat", version=1, text=text)
        bench.client.text_document_did_open(types.DidOpenTextDocumentParams(item))
        await asyncio.wait_for(done, 1800)  # generous: a loaded machine
        seconds = time.monotonic() - t0
        peak = _status_kb(pid, "VmHWM") * 1024
    finally:
        await bench.stop()
    return peak, seconds


def gb(n: int) -> str:
    return f"{n / 1e9:.2f} GB ({n / MB:,.0f} MiB)"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--mb",
        type=float,
        default=DEFAULT_MAX_BYTES / MB,
        help="size of the world in MiB (default: the maximum document size)",
    )
    ap.add_argument("--skip-server", action="store_true")
    args = ap.parse_args()
    text = world_of(args.mb)
    print(
        f"world: {text.count(chr(10)):,} lines, {len(text):,} characters ({len(text) / MB:.1f} MiB); "
        f"maximum document size {DEFAULT_MAX_BYTES:,} bytes"
    )
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "world.sdf"
        path.write_text(text)
        peak, seconds, code = peak_of_check(path)
        ok &= peak <= TARGET and code == 0
        print(f"check:  peak {gb(peak)} in {seconds:.1f} s, exit {code}")
        if not args.skip_server:
            peak, seconds = asyncio.run(peak_of_server(path, text))
            ok &= peak <= TARGET
            print(f"server: peak {gb(peak)}, first diagnostics after {seconds:.1f} s")
    print(f"target: peak <= {gb(TARGET)}: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
