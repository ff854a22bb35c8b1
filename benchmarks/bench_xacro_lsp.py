#!/usr/bin/env python3
"""Edit -> diagnostics on a xacro robot of five files, about 2,000 lines (issue 22: p95 <= 100 ms).

    python benchmarks/bench_xacro_lsp.py [--edits N] [--requests N]

Writes the generated robot of ``xacro_robot.py`` (a ROS package: the top
``robot.urdf.xacro`` and four included libraries, found through ``$(find)``
from the package's own package.xml), starts the real server over stdio and
opens the top document. Then:

* edit -> diagnostics (top): a digit of an ``<origin xyz>`` toggled in the top
  document, the time until the ``publishDiagnostics`` of that version;
* edit -> diagnostics (library): the wheel library open beside it, a digit of
  a macro's value toggled there, the time until the top document's
  diagnostics are published again (the open documents that include an edited
  file are checked again);

* hover, definition and completion on the top document, at a macro call, a
  ``${property}``, a link passed to a macro and a link's name (what each answers
  on xacro: the macro's parameters and library, the property's value and
  definition, the link and the links to complete, the link's pose): once right
  after each top edit's diagnostics, as in ``bench_lsp.py`` ("right after an
  edit"), and ``--requests`` times each when the edits are done ("idle");

and in this process, for the same document, the CPU time of one analysis
(expansion, the URDF check of the expansion, the mapping back) of a text
changed at every run (as an edit changes it), which is what an edit costs on
an idle machine: the wall times above include the waiting of a loaded machine.
Edits are spaced out (0.3 s), as a user pausing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import xacro_robot  # noqa: E402
from bench_lsp import Bench, p95  # noqa: E402


def _position(text: str, offset: int) -> types.Position:
    line = text.count("\n", 0, offset)
    return types.Position(line, offset - (text.rfind("\n", 0, offset) + 1))


class XacroBench(Bench):
    async def open_as(self, uri: str, text: str, language: str) -> None:
        done = self.wait_for(uri, 1)
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text))
        )
        await asyncio.wait_for(done, 120)

    async def toggle(
        self,
        uri: str,
        text: str,
        anchor: str,
        n: int,
        watch: str | None = None,
        positions: list[types.Position] | None = None,
        after: dict[str, list[float]] | None = None,
    ) -> list[float]:
        """Toggle the digit after ``anchor`` ``n`` times; the time until ``watch`` (default: ``uri``) publishes.
        With ``positions``, one hover, definition and completion right after each edit's diagnostics (into ``after``)."""
        at = text.index(anchor) + len(anchor)
        pos = _position(text, at)
        out = []
        watched_version = [1]
        for i in range(n):
            version = i + 2
            new = "7" if i % 2 == 0 else text[at]
            if watch is None:
                done = self.wait_for(uri, version)
            else:
                done = self._next_publication(watch)
            t0 = time.perf_counter()
            self.client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(version=version, uri=uri),
                    [
                        types.TextDocumentContentChangePartial(
                            range=types.Range(pos, types.Position(pos.line, pos.character + 1)), text=new
                        )
                    ],
                )
            )
            t1 = await asyncio.wait_for(done, 60)
            out.append(t1 - t0)
            if positions and after is not None:
                for measure, values in (await self.requests(uri, [positions[i % len(positions)]])).items():
                    after[measure] += values
            watched_version[0] += 1
            await asyncio.sleep(0.3)
        return out

    def _next_publication(self, uri: str) -> asyncio.Future:
        """The next publication for ``uri``, whatever its version (a re-check of a dependant keeps its version)."""
        fut = asyncio.get_running_loop().create_future()
        before = {k for k in self.published if k[0] == uri}
        seen = {k: self.published[k] for k in before}

        async def poll() -> None:
            while not fut.done():
                for k, t in list(self.published.items()):
                    if k[0] == uri and (k not in seen or t != seen[k]):
                        fut.set_result(t)
                        return
                await asyncio.sleep(0.001)

        asyncio.ensure_future(poll())
        return fut


def request_positions(text: str) -> list[types.Position]:
    """In the top document: a macro call's name, a ``${property}``, a link passed to a macro, a link's name."""
    out = []
    for anchor, into in (
        ("<xacro:wheel3 ", 8),
        ('value="${mass0}"', 10),
        ('parent="base_link" x=', 10),
        ('<link name="base_link"', 13),
    ):
        at = text.index(anchor) + into
        out.append(_position(text, at))
    return out


def cpu_per_analysis(top: Path, n: int) -> list[float]:
    from sdformat_lsp.semantics import analyze

    text = top.read_text()
    analyze(text, str(top))  # imports and the first reading of the libraries
    anchor = '<origin xyz="0.'
    at = text.index(anchor) + len(anchor)
    out = []
    for i in range(n):
        edited = f"{text[:at]}{i % 10}{text[at + 1 :]}"  # a new text each time, as an edit makes
        t0 = time.process_time()
        analyze(edited, str(top))
        out.append(time.process_time() - t0)
    return out


async def run(edits: int, requests: int) -> None:
    tmp = Path(tempfile.mkdtemp())
    top = xacro_robot.write_robot(tmp)
    lines = xacro_robot.line_count(top)
    wheels = top.parent / "wheels.xacro"
    print(f"robot: {lines} lines in 5 xacro files ({top.parent})")
    bench = XacroBench()
    await bench.start("vscode-extension")
    rows: dict[str, list[float]] = {}
    try:
        text = top.read_text()
        uri = top.as_uri()
        await bench.open_as(uri, text, "xacro")
        positions = request_positions(text)
        after: dict[str, list[float]] = {"hover": [], "completion": [], "definition": []}
        rows["edit -> diagnostics (top)"] = await bench.toggle(
            uri, text, '<origin xyz="0.', edits, positions=positions, after=after
        )
        for measure, values in after.items():
            rows[f"{measure} right after an edit"] = values
        await asyncio.sleep(0.5)
        idle: dict[str, list[float]] = {"hover": [], "completion": [], "definition": []}
        for _ in range(requests):
            for measure, values in (await bench.requests(uri, positions)).items():
                idle[measure] += values
        for measure, values in idle.items():
            rows[f"{measure}, idle"] = values
        # the library open beside it, edited: the top document is checked again
        wtext = wheels.read_text()
        wuri = wheels.as_uri()
        await bench.open_as(wuri, wtext, "xacro")
        rows["edit library -> top"] = await bench.toggle(wuri, wtext, '<cylinder radius="${p0 + 0.', edits, watch=uri)
    finally:
        await bench.stop()
    rows["analysis CPU (in-process)"] = cpu_per_analysis(top, edits)
    print(f"{'measure':30} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for measure, values in rows.items():
        print(
            f"{measure:30} {len(values):>4} {1000 * statistics.median(values):>8.1f} {1000 * p95(values):>8.1f} {1000 * max(values):>8.1f}"
        )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--edits", type=int, default=20)
    ap.add_argument("--requests", type=int, default=10, help="idle rounds of requests at the four positions")
    args = ap.parse_args()
    asyncio.run(run(args.edits, args.requests))
    return 0


if __name__ == "__main__":
    sys.exit(main())
