#!/usr/bin/env python3
"""Latency of the language server as an editor sees it (issues 13 and 27).

    python benchmarks/bench_lsp.py [--edits N] [--requests N] [--debounce MS] [--3k-shapes PATH] [--only DOC]

Starts the real server over stdio with ``debounceMs`` 0 (``--debounce``) and opens, one after the
other, gz-sim's ``examples/worlds/3k_shapes.sdf`` (113k lines; found in ../corpus/src or given with
``--3k-shapes``; skipped with a note when absent), the generated 100,000-line world of the core
benchmark, and a world of 554 ``<include>``s (``bench_includes.py``'s tree, its models on the
resource path). On each it makes the single-line edits issue 27 lists, each found in the middle of
the document: a digit typed into a value inside a model, a model's own line commented out, a model
renamed, a digit in a world-level element (``<physics>``, a world ``<frame>``), an ``<include>``'s
``<pose>`` and ``<name>``; each edit then its undo, ``--edits`` in all per kind, measured from the
change to the ``publishDiagnostics`` of that version. Right after each edit's diagnostics one hover,
completion and definition are sent ("right after an edit"), and when the edits are done
``--requests`` of each on frame references (or ``<pose>`` values).

Prints n, p50, p95 and the slowest per document and measure. Targets (issue 27): every edit kind p95
<= 100 ms; hover, completion and definition p95 <= 10 ms, right after edits too.

Client capabilities (``--client``): ``vscode-extension`` (the default) is what
this project's VS Code extension sends: pytest-lsp's VS Code profile (VS Code
1.65, whose vscode-languageclient 7 took no completion list defaults) with the
completion list capabilities of vscode-languageclient 9.0.1, the version the
extension ships (``itemDefaults``: edit range and resolve data given once per
list, not per item). ``visual-studio-code`` is pytest-lsp's profile as it is
(every item carries its edit and data: in a scope of 1,300 frames this client
spends longer reading the list than the server takes to make it), ``neovim``
Neovim 0.11's.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from lsprotocol import types
from pygls.lsp.client import LanguageClient

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_includes  # noqa: E402
import generate  # noqa: E402


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(round(0.95 * len(values))) - 1)]


class Bench:
    def __init__(self) -> None:
        self.client = LanguageClient("sdformat-bench", "0")
        self.published: dict[tuple[str, int | None], float] = {}
        self.waiters: dict[tuple[str, int | None], asyncio.Future] = {}
        self.version = 1

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _diagnostics(params: types.PublishDiagnosticsParams) -> None:
            key = (params.uri, params.version)
            self.published[key] = time.perf_counter()
            fut = self.waiters.pop(key, None)
            if fut is not None and not fut.done():
                fut.set_result(time.perf_counter())

    async def start(self, editor: str, debounce_ms: int | None = None, resource_paths: list[str] | None = None) -> None:
        """Start the server as ``editor`` would; ``debounce_ms``/``resource_paths`` None: the server's defaults
        (bench_memory, bench_peak and bench_xacro_lsp measure the server as configured out of the box)."""
        import pytest_lsp  # the capabilities real editors send (a test dependency of the project)

        caps = pytest_lsp.client_capabilities("visual-studio-code" if editor == "vscode-extension" else editor)
        if editor == "vscode-extension":
            # vscode-languageclient 9.0.1 (vscode-extension/package.json), client/src/common/completion.ts
            caps.text_document.completion.completion_list = types.CompletionListCapabilities(
                item_defaults=["commitCharacters", "editRange", "insertTextFormat", "insertTextMode", "data"]
            )
        caps.text_document.diagnostic = None  # measure pushed diagnostics for every client
        await self.client.start_io(sys.executable, "-m", "sdformat_lsp")
        settings: dict = {}
        if debounce_ms is not None:
            settings["debounceMs"] = debounce_ms
        if resource_paths is not None:
            settings["resourcePaths"] = resource_paths
        options = {"sdformat": settings} if settings else None
        await self.client.initialize_async(
            types.InitializeParams(capabilities=caps, process_id=None, root_uri=None, initialization_options=options)
        )
        self.client.initialized(types.InitializedParams())

    def wait_for(self, uri: str, version: int) -> asyncio.Future:
        fut = asyncio.get_running_loop().create_future()
        if (uri, version) in self.published:
            fut.set_result(self.published[(uri, version)])
        else:
            self.waiters[(uri, version)] = fut
        return fut

    async def open(self, uri: str, text: str) -> None:
        self.version = 1
        done = self.wait_for(uri, 1)
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(uri=uri, language_id="sdformat", version=1, text=text)
            )
        )
        await asyncio.wait_for(done, 120)

    async def edits(
        self,
        uri: str,
        edit: LineEdit,
        n: int,
        positions: list[types.Position],
        after: dict[str, list[float]],
    ) -> list[float]:
        """Apply ``edit`` and undo it, ``n`` edits in all; after each one's diagnostics, one request of each kind."""
        out = []
        for i in range(n):
            self.version += 1
            old, new = (edit.old, edit.new) if i % 2 == 0 else (edit.new, edit.old)
            done = self.wait_for(uri, self.version)
            t0 = time.perf_counter()
            rng = types.Range(types.Position(edit.line, 0), types.Position(edit.line, len(old)))
            self.client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(version=self.version, uri=uri),
                    [types.TextDocumentContentChangePartial(range=rng, text=new)],
                )
            )
            t1 = await asyncio.wait_for(done, 60)
            out.append(t1 - t0)
            if positions:
                for measure, values in (await self.requests(uri, [positions[i % len(positions)]])).items():
                    after[measure] += values
            await asyncio.sleep(0.2)  # a pause, as between a user's edits
        return out

    async def requests(self, uri: str, positions: list[types.Position]) -> dict[str, list[float]]:
        doc = types.TextDocumentIdentifier(uri=uri)
        times: dict[str, list[float]] = {"hover": [], "completion": [], "definition": []}
        for pos in positions:
            for name, call in (
                (
                    "hover",
                    lambda pos=pos: self.client.text_document_hover_async(
                        types.HoverParams(text_document=doc, position=pos)
                    ),
                ),
                (
                    "completion",
                    lambda pos=pos: self.client.text_document_completion_async(
                        types.CompletionParams(text_document=doc, position=pos)
                    ),
                ),
                (
                    "definition",
                    lambda pos=pos: self.client.text_document_definition_async(
                        types.DefinitionParams(text_document=doc, position=pos)
                    ),
                ),
            ):
                t0 = time.perf_counter()
                await call()
                times[name].append(time.perf_counter() - t0)
        return times

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


SHAPES_DEFAULT = (
    HERE.parent.parent / "corpus" / "src" / "gazebosim+gz-sim" / "examples" / "worlds" / "3k_shapes.sdf",
    Path("/work/corpus/src/gazebosim+gz-sim/examples/worlds/3k_shapes.sdf"),
)
_DIGIT = re.compile(r"\d")


class LineEdit(NamedTuple):
    """One single-line edit: line ``line`` becomes ``new`` (and back, for the next sample)."""

    line: int
    old: str
    new: str


def toggle_digit(line: str) -> str:
    """``line`` with its last digit changed (a digit typed over another)."""
    m = list(_DIGIT.finditer(line))[-1]
    d = "1" if m.group() != "1" else "2"
    return line[: m.start()] + d + line[m.end() :]


def edit_kinds(text: str) -> dict[str, LineEdit]:
    """The single-line edits a user makes, found in ``text`` (issue 27's list); kinds the text has no place for are left out.

    Each is taken in the middle of the document (a model, an include), or at world level before the first model.
    """
    lines = text.split("\n")
    depth_world = None
    models: list[int] = []
    includes: list[int] = []
    world_level: list[int] = []
    depth = 0
    owner: list[int | None] = []  # the world's child each line is in
    for i, ln in enumerate(lines):
        st = ln.strip()
        if st.startswith("<world"):
            depth_world = depth
        opening = st.startswith("<") and not st.startswith(("</", "<!--", "<?"))
        if depth_world is not None and depth == depth_world + 1 and opening:
            if st.startswith("<model "):
                models.append(i)
            elif st.startswith("<include"):
                includes.append(i)
            else:
                world_level.append(i)
        if depth_world is not None and depth == depth_world + 1 and opening:
            owner.append(i)
        elif depth_world is not None and depth > depth_world + 1:
            owner.append(owner[-1] if owner else None)
        else:
            owner.append(None)
        # depth by indentation is fragile; count tags on the line instead
        depth += len(re.findall(r"<[A-Za-z_]", ln)) - len(re.findall(r"</|/>", ln))
    kinds: dict[str, LineEdit] = {}
    if models:
        m = models[len(models) // 2]
        end = next(j for j in range(m + 1, len(lines)) if lines[j].strip() == "</model>")
        body = [j for j in range(m + 1, end) if _DIGIT.search(lines[j]) and re.search(r">[^<]*\d[^<]*</", lines[j])]
        if body:
            j = body[0]
            kinds["digit in a model"] = LineEdit(j, lines[j], toggle_digit(lines[j]))
            # a whole element on one line, commented out
            indent = len(lines[j]) - len(lines[j].lstrip())
            kinds["comment out a line"] = LineEdit(
                j, lines[j], lines[j][:indent] + "<!-- " + lines[j][indent:] + " -->"
            )
        name = re.search(r'name="([^"]*)"', lines[m])
        if name:
            kinds["rename a model"] = LineEdit(m, lines[m], lines[m][: name.end(1)] + "_x" + lines[m][name.end(1) :])
    # a world-level element's line with a number in it: a value (<max_step_size>) first, else an attribute
    cands = [j for j, o in enumerate(owner) if o in world_level and _DIGIT.search(lines[j]) and "<!--" not in lines[j]]
    valued = [j for j in cands if re.search(r">[^<]*\d[^<]*</", lines[j])]
    if cands:
        j = valued[0] if valued else cands[len(cands) // 2]
        kinds["world-level element"] = LineEdit(j, lines[j], toggle_digit(lines[j]))
    if includes:
        k = includes[len(includes) // 2]
        end = next(j for j in range(k + 1, len(lines)) if "</include>" in lines[j])
        for j in range(k + 1, end):
            if "<pose" in lines[j]:
                kinds["include pose"] = LineEdit(j, lines[j], toggle_digit(lines[j]))
            if "<name>" in lines[j]:
                kinds["include name"] = LineEdit(j, lines[j], lines[j].replace("</name>", "_x</name>"))
    return kinds


def request_positions(text: str, n: int) -> list[types.Position]:
    """Positions on frame references (``relative_to``/``attached_to``), else on ``<pose>`` values, spread over the text."""
    spots = [m.end() + 1 for m in re.finditer(r'(?:relative_to|attached_to)="', text)]
    if len(spots) < n:
        spots += [m.end() + 1 for m in re.finditer(r"<pose[^>]*>", text)]
    if not spots:
        return []
    step = max(1, len(spots) // n)
    out = []
    for off in spots[::step][:n]:
        line = text.count("\n", 0, off)
        out.append(types.Position(line, off - (text.rfind("\n", 0, off) + 1)))
    return out


def row(name: str, measure: str, values: list[float]) -> None:
    if not values:
        return
    print(
        f"{name:26} {measure:30} {len(values):>4} {1000 * statistics.median(values):>8.1f}"
        f" {1000 * p95(values):>8.1f} {1000 * max(values):>8.1f}",
        flush=True,
    )


DOCUMENTS = ("3k_shapes", "world", "includes")  # --only's choices, in the order they are measured


async def run(
    edits: int, requests: int, editor: str, shapes: Path | None, debounce_ms: int, only: tuple[str, ...] = DOCUMENTS
) -> None:
    tmp = Path(tempfile.mkdtemp())
    docs: dict[str, tuple[str, Path]] = {}
    if shapes is not None and "3k_shapes" in only:
        docs["3k_shapes.sdf"] = (shapes.read_text(), shapes)
    if "world" in only:
        world = tmp / "world-3000-models.sdf"
        world.write_text(generate.large_world())
        docs["generated 100k-line world"] = (world.read_text(), world)
    if "includes" in only:
        inc = bench_includes.make_tree(tmp / "includes", 554, 50)
        docs["world of 554 includes"] = (inc.read_text(), inc)
    bench = Bench()
    await bench.start(editor, debounce_ms, [str(tmp / "includes" / "models")])
    print(f"client capabilities: {editor}; debounce {debounce_ms} ms; {edits} edits per kind (each one and its undo)")
    print(f"{'document':26} {'measure':30} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    try:
        for name, (text, path) in docs.items():
            uri = path.as_uri()
            t0 = time.perf_counter()
            await bench.open(uri, text)
            row(name, "open -> diagnostics", [time.perf_counter() - t0])
            positions = request_positions(text, requests)
            after: dict[str, list[float]] = {"hover": [], "completion": [], "definition": []}
            all_edits: list[float] = []
            for kind, edit in edit_kinds(text).items():
                values = await bench.edits(uri, edit, edits, positions, after)
                all_edits += values
                row(name, f"edit {kind}", values)
            row(name, "edit (all kinds)", all_edits)
            for measure, values in after.items():
                row(name, f"{measure} right after an edit", values)
            for measure, values in (await bench.requests(uri, positions)).items():
                row(name, measure, values)
            bench.client.text_document_did_close(
                types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=uri))
            )
    finally:
        await bench.stop()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--edits", type=int, default=10, help="edits per kind (default 10)")
    ap.add_argument("--requests", type=int, default=40)
    ap.add_argument("--debounce", type=int, default=0, help="the server's debounceMs (default 0)")
    ap.add_argument("--3k-shapes", dest="shapes", metavar="PATH", help="gz-sim's examples/worlds/3k_shapes.sdf")
    ap.add_argument(
        "--client", default="vscode-extension", choices=("vscode-extension", "visual-studio-code", "neovim")
    )
    ap.add_argument(
        "--only",
        action="append",
        choices=DOCUMENTS,
        help="measure only this document (repeatable; default: all three)",
    )
    args = ap.parse_args()
    shapes = Path(args.shapes) if args.shapes else next((p for p in SHAPES_DEFAULT if p.is_file()), None)
    if shapes is None or not shapes.is_file():
        print("note: 3k_shapes.sdf not found (give --3k-shapes PATH); skipped", file=sys.stderr)
        shapes = None
    asyncio.run(run(args.edits, args.requests, args.client, shapes, args.debounce, tuple(args.only or DOCUMENTS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
