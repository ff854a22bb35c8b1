"""The layering the developers' guide asks for, checked on the source itself.

Features are read and changed one at a time: a feature module importing
another makes a change to one break the other (and hover and completion did
import each other in cycles). What several features share lives in
``sdformat_lsp.queries``, which imports no feature.

The rules of the whole package (issue 28): no import cycle between modules, imports inside
functions included (only those under ``if TYPE_CHECKING:`` are left out: they never run); no
private name (``_x``) imported from another module (a shared helper is public in the module that
owns it); no class too long to read at once; one spelling of analyze in names; no two modules of
the same name meaning different things.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "server" / "sdformat_lsp"


def _imported(path: Path, package: str) -> set[str]:
    """Absolute names of the sdformat_lsp modules ``path`` imports (anywhere in it, lazily too)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("sdformat_lsp")}


def test_no_feature_module_imports_another():
    features = sorted(p for p in (PKG / "features").glob("*.py") if p.name != "__init__.py")
    names = {f"sdformat_lsp.features.{p.stem}" for p in features}
    assert len(names) > 5
    for p in features:
        others = {
            m for m in _imported(p, "sdformat_lsp.features") if any(m == n or m.startswith(n + ".") for n in names)
        }
        assert not others, f"{p.name} imports {sorted(others)}; move what they share to sdformat_lsp.queries"


def test_queries_import_no_feature_and_no_shell():
    for p in sorted((PKG / "queries").glob("*.py")):
        bad = {
            m
            for m in _imported(p, "sdformat_lsp.queries")
            if m.startswith(("sdformat_lsp.features", "sdformat_lsp.server", "sdformat_lsp.cli"))
        }
        assert not bad, f"queries/{p.name} imports {sorted(bad)}"


def test_no_class_is_too_long_to_read_at_once():
    """The guide's limit (~300 lines), first met by the LSP shell, whose session class grew past it
    once (the files analyses read besides the document went to server/sources.py)."""
    long = []
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > 300:
                long.append(f"{path.relative_to(PKG)}:{node.name}")
    assert sorted(set(long) - set(TOO_LONG)) == [], "split the class (or list it in TOO_LONG with the reason)"
    assert sorted(set(TOO_LONG) - set(long)) == [], (
        "a class listed in TOO_LONG is short enough now: remove it from the list"
    )


# Classes past the limit, each to be split by the work that next changes it.
TOO_LONG = {}


def _modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    out = {}
    for p in PKG.rglob("*.py"):
        parts = list(p.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _runtime_imports(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(module imported from, names, line) of every import of ``path`` that can run: at the top
    and inside functions, not under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(n) for b in node.body for n in ast.walk(b))
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                mod = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.append((mod, [a.name for a in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            out.extend((a.name, [], node.lineno) for a in node.names)
    return [x for x in out if x[0].startswith("sdformat_lsp")]


def _graph() -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (a name imported from a package that is a
    module of it counts as that module)."""
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        edges = set()
        for mod, names, _ in _runtime_imports(name, path):
            for n in names or [""]:
                target = f"{mod}.{n}" if f"{mod}.{n}" in mods else mod
                while target not in mods and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in mods and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        work = [(root, iter(sorted(graph[root])))]
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))
    return found


def test_no_import_cycle_between_modules_function_level_imports_included():
    graph = _graph()
    assert len(graph) > 100
    assert _cycles(graph) == []


def test_the_cycle_search_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_private_name_is_imported_from_another_module():
    bad = []
    for name, path in _modules().items():
        for mod, names, line in _runtime_imports(name, path):
            bad.extend(
                f"{path.relative_to(PKG)}:{line} imports {n} from {mod}"
                for n in names
                if n.startswith("_") and not n.startswith("__")
            )
    assert bad == [], "make the helper public in the module that owns it"


def test_one_spelling_of_analyze_in_names():
    bad = []
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = (
                getattr(node, "name", None)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                else (node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None)
            )
            if name and "analyse" in name.lower():
                bad.append(f"{path.relative_to(PKG)}:{node.lineno} {name}")
    bad.extend(str(p.relative_to(PKG)) for p in PKG.rglob("*analyse*"))  # module and package names
    assert bad == []


def test_derived_data_of_an_analysis_is_not_kept_in_a_module_level_table():
    """What the layers above derive from an analysis lives on it (``FrameGraphs.memo``, a field of
    ``Analysis``) and is freed with it; a module-level weak table keyed by parts of analyses (there
    were four) hides who owns the data and when it goes."""
    weak = ("WeakKeyDictionary", "WeakValueDictionary", "WeakSet")
    bad = []
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if value is not None and any(w in ast.unparse(value) for w in weak):
                bad.append(f"{path.relative_to(PKG)}:{node.lineno}")
    assert bad == [], "declare it on the analysis (its memo slot, or a field)"


# Module names found in two places, each pair holding the same thing seen from two layers or shells.
SAME_MEANING = {
    "convert": "the convert subcommand: cli/convert.py on the command line, server/convert.py in the server",
    "plugins": "Gazebo plugins: the plugins package knows them, semantics/checks/plugins.py checks them, queries/plugins.py "
    "answers the features about them",
    "pose": "poses: semantics/pose.py re-exports the pose math, interface/pose.py reads the pose forms a model parser may return",
    "reader": "reading a format as its reference does: formats/urdf/reader.py as urdfdom, formats/mjcf/reader.py as MuJoCo",
    "to_model": "into the document model: formats/urdf/to_model.py a URDF, interface/to_model.py a model parser's interface model",
    "xacro": "xacro: the formats/xacro package expands it, cli/xacro.py is the subcommand that prints the expansion",
    "extensions": "URDF <gazebo> blocks: formats/urdf/extensions.py reads and checks them, convert/extensions.py writes them",
    "params": "<experimental:params>: semantics/includes/params.py applies it, printing/params.py prints what it changed",
    "poses": "resolved poses: queries/poses.py as the editor shows them, printing/poses.py as --resolve-poses writes them",
    "references": "frame references: queries/references.py finds them, features/references.py answers the request",
    "schema": "the SDFormat schema: spec/schema.py holds it, queries/schema.py answers questions about it at the cursor",
    "frames": "frames: the semantics/frames package builds the graphs, queries/frames.py answers the features from them",
    "includes": "including another file: the semantics/includes package resolves SDFormat's <include>, queries/includes.py "
    "answers the features about them, formats/xacro/includes.py expands xacro:include",
    "formatting": "the formatter: the formatting package computes the edits, server/formatting.py answers the requests",
    "model": "a data model: the model package of SDFormat documents, formats/urdf/model.py of a URDF as urdfdom reads it",
    "writer": "writing a document's text: formats/urdf/writer.py a URDF, formats/xacro/writer.py an expansion, printing/writer.py an SDFormat document",
}


def test_no_two_modules_of_the_same_name_mean_different_things():
    seen: dict[str, list[str]] = {}
    for name in _modules():
        seen.setdefault(name.rsplit(".", 1)[-1], []).append(name)
    twice = {short: sorted(names) for short, names in seen.items() if len(names) > 1}
    unexplained = {short: names for short, names in twice.items() if short not in SAME_MEANING}
    assert unexplained == {}, "rename one, or say in SAME_MEANING why both hold the same thing"
    assert set(SAME_MEANING) <= set(twice), "a name listed in SAME_MEANING is no longer used twice: remove it"


def test_no_server_module_imports_the_application_back():
    """Handlers are typed against ``server/session.py``'s Protocol: only the entry points (the package
    and the transport, which make the server) import ``server/app.py``, not even for type checking."""
    bad = []
    for path in sorted((PKG / "server").glob("*.py")):
        if path.name in ("__init__.py", "transport.py", "app.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "app" and node.level == 1:
                bad.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.ImportFrom) and node.module == "sdformat_lsp.server.app":
                bad.append(f"{path.name}:{node.lineno}")
    assert bad == []


def test_request_handlers_are_module_level_functions_behind_one_decorator():
    """No handler is a closure inside a registering function (they were, in three such functions,
    each with its own copy of the snapshot preamble): ``server.feature`` is called only by
    ``requests.register`` and for the pull-diagnostics handler a pull client gets at initialize."""
    calls = []
    for path in sorted((PKG / "server").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "feature":
                calls.append(f"{path.name}:{node.lineno}")
    assert len(calls) == 2 and {c.split(":")[0] for c in calls} == {"requests.py", "app.py"}, calls


def _layer_table() -> list[tuple[int, str, list[str]]]:
    """(number, name, packages) of each row of docs/architecture.md's layer table, in order."""
    import re

    text = (PKG.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        m = re.match(r"\| (\d+)\. ([^|]+) \| ([^|]+) \|", line)
        if m:
            rows.append((int(m.group(1)), m.group(2).strip(), re.findall(r"`(sdformat_lsp[\w.]*)`", m.group(3))))
    return rows


def _layer_of(module: str, owners: dict[str, int]) -> int | None:
    """The layer of the package of the table ``module`` belongs to (the root package, listed for its
    own ``__init__``, owns no module but itself: a new package must be added to the table)."""
    name = module
    while True:
        if name in owners and (name != "sdformat_lsp" or module == name):
            return owners[name]
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]


def test_the_layers_of_the_architecture_document_are_numbered_in_order():
    rows = _layer_table()
    assert [n for n, _, _ in rows] == list(range(len(rows))) and len(rows) >= 8


def test_every_module_belongs_to_a_layer_and_imports_only_lower_layers():
    """The whole layer table of docs/architecture.md against the imports (those inside functions
    too): a package imports only packages of lower layers; the base modules (layer 0), and the
    command line and the viewer, import each other (without cycles: checked above)."""
    owners = {pkg: n for n, _, pkgs in _layer_table() for pkg in pkgs}
    together = {0, owners["sdformat_lsp.cli"]}  # the base modules; the command line and the viewer
    graph = _graph()
    unplaced = sorted(m for m in graph if _layer_of(m, owners) is None)
    assert unplaced == [], "add these packages to the layer table of docs/architecture.md"
    upward = []
    for src, targets in graph.items():
        ls = _layer_of(src, owners)
        for dst in targets:
            ld = _layer_of(dst, owners)
            assert ls is not None and ld is not None
            if ld > ls or (ld == ls and ls not in together and _owner(src, owners) != _owner(dst, owners)):
                upward.append(f"{src} (layer {ls}) imports {dst} (layer {ld})")
    assert upward == []


def _owner(module: str, owners: dict[str, int]) -> str:
    """The package of the layer table that ``module`` belongs to."""
    name = module
    while name not in owners or (name == "sdformat_lsp" and module != name):
        name = name.rsplit(".", 1)[0]
    return name


def test_a_memo_bounded_by_emptying_is_a_text_memo():
    """Memos that empty themselves when full have one home, text_memo.TextMemo (an lru_cache or a
    documented class of its own otherwise): no hand-written `if len(memo) >= N: memo.clear()`."""
    pattern = re.compile(r"if len\((?P<memo>[\w.]+)\)\s*>=?\s*[\w.]+:\s*\n\s*(?P=memo)\.clear\(\)")
    found = [
        str(p.relative_to(PKG))
        for p in sorted(PKG.rglob("*.py"))
        if p.name != "text_memo.py" and pattern.search(p.read_text(encoding="utf-8"))
    ]
    assert found == []
    assert pattern.search("if len(_NUMBERS) >= 8192:\n        _NUMBERS.clear()")  # the rule finds what it forbids
