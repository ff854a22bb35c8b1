#!/usr/bin/env python3
"""Memory of the language server over a long editing session (issue 11).

    python benchmarks/bench_memory.py [--edits 100] [--models 3313]

Starts the real server over stdio, opens a generated world of about 113,000
lines (``generate.large_world``), waits for its diagnostics and reads the
server's resident set size (VmRSS); then makes ``--edits`` one-character edits
(each waited for until its diagnostics arrive, with a hover and a definition
request in between, as a user editing back and forth) and reads it again.
Prints both and their ratio. Target: ratio <= 1.3 after 100 edits.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from lsprotocol import types

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
from bench_lsp import Bench  # noqa: E402


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def run(edits: int, models: int) -> float:
    text = generate.large_world(models)
    bench = Bench()
    await bench.start("visual-studio-code")
    pid = bench.client._server.pid
    tmp = Path(tempfile.mkdtemp())
    uri = (tmp / "world.sdf").as_uri()
    try:
        await bench.open(uri, text)
        first = rss_mb(pid)
        print(f"world: {text.count(chr(10))} lines, {len(text)} characters")
        print(f"RSS after the first analysis: {first:8.1f} MB")
        anchor = text.index("<pose>") + len("<pose>")
        line = text.count("\n", 0, anchor)
        col = anchor - (text.rfind("\n", 0, anchor) + 1)
        ref = text.index('attached_to="m0::marker"') + len('attached_to="') + 2
        ref_pos = types.Position(text.count("\n", 0, ref), ref - (text.rfind("\n", 0, ref) + 1))
        doc = types.TextDocumentIdentifier(uri=uri)
        for i in range(edits):
            version = i + 2
            done = bench.wait_for(uri, version)
            rng = types.Range(types.Position(line, col), types.Position(line, col + 1))
            bench.client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(version=version, uri=uri),
                    [types.TextDocumentContentChangePartial(range=rng, text="1" if i % 2 == 0 else "0")],
                )
            )
            await asyncio.wait_for(done, 600)  # generous: a loaded machine
            await bench.client.text_document_hover_async(types.HoverParams(text_document=doc, position=ref_pos))
            await bench.client.text_document_definition_async(
                types.DefinitionParams(text_document=doc, position=ref_pos)
            )
            if (i + 1) % 10 == 0:
                print(f"RSS after {i + 1:3} edits:        {rss_mb(pid):8.1f} MB")
        last = rss_mb(pid)
    finally:
        await bench.stop()
    ratio = last / first
    print(f"ratio after {edits} edits: {ratio:.2f} (target <= 1.3)")
    return ratio


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--edits", type=int, default=100)
    ap.add_argument(
        "--models", type=int, default=3313, help="models in the generated world (3313: about 113,000 lines)"
    )
    args = ap.parse_args()
    ratio = asyncio.run(run(args.edits, args.models))
    return 0 if ratio <= 1.3 else 1


if __name__ == "__main__":
    sys.exit(main())
