#!/usr/bin/env python3
"""Turn libsdformat's spec description files into the project's compact tables.

Reads ``<spec-dir>/<version>/*.sdf`` (the ``<element>``/``<attribute>``/
``<include>`` trees of gazebosim/sdformat) and writes one JSON file per
version under ``server/sdformat_lsp/spec/data/``. Only facts are kept (names,
types, defaults, multiplicities, bounds, references, the version that
introduced each element and attribute); the ``<description>`` prose is
upstream's wording and is deliberately dropped.

Output format (``format`` 1), every file::

    {"format": 1, "version": "1.12", "root": "root", "defs": {<id>: <element>}}

A definition id is the stem of the file that describes it (``model``,
``pose``, ``box_shape``...). An element is a dict with short keys:

    n    name (definitions only; children are keyed by name)
    r    required multiplicity as written: "0", "1", "*", "+" or "-1"
    t    value type, when the element carries a value
    d    default value, when given
    min, max   bounds, when given
    cd   1 when the element copies its contents verbatim (copy_data)
    a    attributes: {name: {"t", "d", "r", "min"?, "max"?, "s"?}}
    c    children: {name: <element> | {"ref": <def id>, "r", "s"?}}
    s    first version of the uninterrupted run of versions, ending at this
         one, in which this element (at this place) exists

A child with ``ref`` stands for the whole definition ``ref``: an
``<include filename=...>`` or an ``<element ref=...>`` (nested models).
Its ``r`` is the multiplicity the parent declares for it.

Run from the repository root: ``python scripts/generate_spec.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterable

FORMAT = 1
REPO = Path(__file__).resolve().parents[1]
DEFAULT_SPEC_DIR = REPO / ".." / "shared" / "sdformat-spec"
DEFAULT_OUT = REPO / "server" / "sdformat_lsp" / "spec" / "data"

Node = dict[str, Any]
Path_ = tuple[str, ...]


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def find_versions(spec_dir: Path) -> list[str]:
    found = [p.name for p in spec_dir.iterdir() if p.is_dir() and any(p.glob("*.sdf"))]
    return sorted(found, key=version_key)


# --------------------------------------------------------------------------
# Reading one version


def _element(xml: ET.Element, where: str) -> Node:
    """One ``<element>`` with its attributes and children, prose dropped."""
    node: Node = {}
    required = xml.get("required")
    if required is None:
        raise ValueError(f"{where}: <element name={xml.get('name')!r}> has no required")
    node["r"] = required.strip()
    for src, dst in (("type", "t"), ("default", "d"), ("min", "min"), ("max", "max")):
        if xml.get(src) is not None:
            node[dst] = xml.get(src)
    attrs: Node = {}
    for a in xml.findall("attribute"):
        name = a.get("name")
        if not name or a.get("type") is None:
            raise ValueError(f"{where}: malformed <attribute> {a.attrib}")
        spec: Node = {"t": a.get("type"), "r": (a.get("required") or "0").strip()}
        for src in ("default", "min", "max"):
            if a.get(src) is not None:
                spec[src[0] if src == "default" else src] = a.get(src)
        attrs.setdefault(name, spec)  # libsdformat keeps the first of a name
    if attrs:
        node["a"] = attrs
    children: Node = {}
    # libsdformat registers <element> children before <include>s and matches
    # the first description with a given name, so keep the first one.
    for child in xml.findall("element"):
        if child.get("copy_data") in ("true", "1"):
            node["cd"] = 1
            continue
        name = child.get("name")
        if not name:
            raise ValueError(f"{where}: <element> without a name")
        if child.get("ref"):
            entry: Node = {"ref": child.get("ref"), "r": (child.get("required") or "0").strip()}
        else:
            entry = _element(child, f"{where}/{name}")
        children.setdefault(name, entry)
    for inc in xml.findall("include"):
        filename = inc.get("filename") or ""
        stem = filename[: -len(".sdf")] if filename.endswith(".sdf") else filename
        entry = {"ref": stem, "r": (inc.get("required") or "0").strip(), "_inc": True}
        children.setdefault(f"\0{stem}", entry)  # named once the definitions are known
    if children:
        node["c"] = children
    return node


def read_version(vdir: Path) -> tuple[str, dict[str, Node]]:
    """All definitions of one version, and the id of the document root."""
    defs: dict[str, Node] = {}
    for f in sorted(vdir.glob("*.sdf")):
        top = ET.parse(f).getroot()
        if top.tag != "element" or not top.get("name"):
            raise ValueError(f"{f}: expected a named <element> at the top")
        node = _element(top, f.name)
        node["n"] = top.get("name")
        defs[f.stem] = node
    # Includes are named by the element their file describes.
    for node in _walk_nodes(defs.values()):
        kids = node.get("c")
        if not kids:
            continue
        named: Node = {}
        for key, entry in kids.items():
            if entry.pop("_inc", False):
                target = defs.get(entry["ref"])
                if target is None:
                    raise ValueError(f"{vdir.name}: include of missing {entry['ref']}.sdf")
                key = target["n"]
            named.setdefault(key, entry)
        node["c"] = named
    for node in _walk_nodes(defs.values()):
        for entry in node.get("c", {}).values():
            if "ref" in entry and entry["ref"] not in defs:
                raise ValueError(f"{vdir.name}: ref to missing {entry['ref']}.sdf")
    root = "root" if "root" in defs else "gazebo"
    if root not in defs:
        raise ValueError(f"{vdir}: neither root.sdf nor gazebo.sdf")
    return root, defs


def _walk_nodes(nodes: Iterable[Node]) -> Iterable[Node]:
    stack = list(nodes)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(e for e in node.get("c", {}).values() if "ref" not in e)


# --------------------------------------------------------------------------
# Which places exist in a version, for "introduced in"

# A place inside a version's tables: (definition id, names from the
# definition's top down to the node, attribute name or "").
Place = tuple[str, Path_, str]


def document_paths(root: str, defs: dict[str, Node]) -> dict[Place, set[Path_]]:
    """Every document path (element names below the root, ``@attr`` last) that
    reaches each place. A definition already being expanded further up is not
    expanded again (a model inside a model has a model's places)."""
    reach: dict[Place, set[Path_]] = {}

    def visit(def_id: str, inner: Path_, node: Node, path: Path_, active: tuple[str, ...]) -> None:
        reach.setdefault((def_id, inner, ""), set()).add(path)
        for attr in node.get("a", {}):
            reach.setdefault((def_id, inner, attr), set()).add(path + ("@" + attr,))
        for name, entry in node.get("c", {}).items():
            child_path = path + (name,)
            if "ref" in entry:
                reach.setdefault((def_id, inner + (name,), ""), set()).add(child_path)
                target = entry["ref"]
                if target not in active:
                    visit(target, (), defs[target], child_path, active + (target,))
            else:
                visit(def_id, inner + (name,), entry, child_path, active)

    visit(root, (), defs[root], (), (root,))
    return reach


def compute_since(tables: dict[str, tuple[str, dict[str, Node]]]) -> None:
    """Annotate every reachable element and attribute with ``s``: the first
    version of the unbroken run of versions, up to this one, that has it at
    one of the document paths it is reachable by."""
    start: dict[Path_, str] = {}
    for version in sorted(tables, key=version_key):
        root, defs = tables[version]
        reach = document_paths(root, defs)
        present = set().union(*reach.values())
        start = {p: start.get(p, version) for p in present}
        for (def_id, inner, attr), paths in reach.items():
            since = min((start[p] for p in paths), key=version_key)
            node = defs[def_id]
            for name in inner:
                node = node["c"][name]
            if attr:
                node["a"][attr]["s"] = since
            else:
                node["s"] = since


# --------------------------------------------------------------------------
# Output


# The conversions libsdformat applies that printing reads from a table (the later ones, a handful of
# rules each, are written out in printing/legacy.py): 1.0 to 1.2, some 280 renames of attributes
# into elements.
CONVERSIONS = {"convert_1_0.json": ("1.2", "1_0.convert")}


def read_convert(path: Path) -> dict[str, Any]:
    """One ``<convert>`` tree as {"c": {child name: tree}, "r": [[from element, from attribute, to element], ...],
    "d": [deprecated paths], "x": [the malformed renames, as "r"]} (empty keys left out). Only the operations 1_0.convert uses are known: any
    other makes the generator stop, so that a new rule is never dropped silently."""

    def walk(el: ET.Element) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for child in el:
            if child.tag == "convert":
                name = child.get("name")
                if name is None:
                    raise SystemExit(f"{path}: a <convert> without name= is not supported")
                out.setdefault("c", {})[name] = walk(child)
            elif child.tag == "rename":
                src, dst = child.find("from"), child.find("to")
                if src is None and dst is None and child.find("rename") is not None:
                    # 1_0.convert's two <save path> rules are a <rename> inside a <rename>: libsdformat's
                    # Converter::Rename reads the <from> of the outer one, which has none (it does not check)
                    inner = child.find("rename")
                    src, dst = inner.find("from"), inner.find("to")
                    out.setdefault("x", []).append(
                        [
                            src.get("element") if src is not None else None,
                            src.get("attribute") if src is not None else None,
                            dst.get("element") if dst is not None else None,
                        ]
                    )
                    continue
                if src is None or dst is None or dst.get("element") is None or dst.get("attribute") is not None:
                    raise SystemExit(f"{path}: a <rename> other than to an element is not supported")
                out.setdefault("r", []).append([src.get("element"), src.get("attribute"), dst.get("element")])
            elif child.tag == "deprecated":
                out.setdefault("d", []).append((child.text or "").strip())
            else:
                raise SystemExit(f"{path}: <{child.tag}> rules are not supported by this generator")
        return out

    return walk(ET.parse(path).getroot())


def build(spec_dir: Path) -> dict[str, bytes]:
    """The bytes of every table, keyed by file name."""
    versions = find_versions(spec_dir)
    if not versions:
        raise SystemExit(f"no spec versions under {spec_dir}")
    tables = {v: read_version(spec_dir / v) for v in versions}
    compute_since(tables)
    out: dict[str, bytes] = {}
    for version, (root, defs) in tables.items():
        doc = {"format": FORMAT, "version": version, "root": root, "defs": defs}
        text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        out[f"{version}.json"] = (text + "\n").encode("ascii")
    for name, (version, rules) in CONVERSIONS.items():
        source = spec_dir / version / rules
        if source.exists():
            doc = {"format": FORMAT, "source": f"{version}/{rules}", "rules": read_convert(source)}
            text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
            out[name] = (text + "\n").encode("ascii")
    return out


def write(out_dir: Path, files: dict[str, bytes]) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.glob("*.json"):
        if stale.name not in files:
            stale.unlink()
    for name, data in files.items():
        target = out_dir / name
        if not target.exists() or target.read_bytes() != data:
            target.write_bytes(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--spec-dir",
        type=Path,
        default=DEFAULT_SPEC_DIR,
        help="folder holding 1.0 ... 1.12 (default: ../shared/sdformat-spec)",
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="folder for the tables (default: server/sdformat_lsp/spec/data)"
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when the committed tables are stale"
    )
    args = parser.parse_args(argv)
    files = build(args.spec_dir.resolve())
    if args.check:
        stale = [n for n, d in files.items() if not (args.out / n).exists() or (args.out / n).read_bytes() != d]
        extra = [p.name for p in args.out.glob("*.json") if p.name not in files]
        for name in stale + extra:
            print(f"stale: {name}", file=sys.stderr)
        return 1 if stale or extra else 0
    write(args.out, files)
    total = sum(len(d) for d in files.values())
    print(f"wrote {len(files)} tables ({total} bytes) to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
