"""The committed tables are exactly what the generator makes from the spec."""

from __future__ import annotations

import json
from pathlib import Path

from tests.generated import assert_pinned, load_script

REPO = Path(__file__).resolve().parents[2]

DATA = REPO / "server" / "sdformat_lsp" / "spec" / "data"


gen = load_script("generate_spec")


def test_generator_is_deterministic(spec_dir: Path) -> None:
    assert gen.build(spec_dir) == gen.build(spec_dir)


def test_committed_tables_match_the_generator(spec_dir: Path) -> None:
    assert_pinned(gen.build(spec_dir), {p.name: p.read_bytes() for p in DATA.glob("*.json")}, "generate_spec")


def test_check_mode_and_out_option(spec_dir: Path, tmp_path: Path) -> None:
    assert gen.main(["--spec-dir", str(spec_dir), "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.json")) == sorted(p.name for p in DATA.glob("*.json"))
    assert gen.main(["--spec-dir", str(spec_dir), "--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "1.12.json").write_text("{}")
    assert gen.main(["--spec-dir", str(spec_dir), "--out", str(tmp_path), "--check"]) == 1


def test_every_version_has_a_table(spec_dir: Path) -> None:
    versions = sorted(p.name for p in spec_dir.iterdir() if p.is_dir())
    assert sorted(p.stem for p in DATA.glob("*.json") if not p.stem.startswith("convert_")) == versions


def test_the_1_0_conversion_is_read_from_libsdformat_s_rules(spec_dir: Path) -> None:
    """A rule from each shape 1_0.convert has, as libsdformat's file writes it."""
    rules = json.loads((DATA / "convert_1_0.json").read_text())
    assert rules["source"] == "1.2/1_0.convert"
    world = rules["rules"]["c"]["world"]
    assert ["gravity", "xyz", "gravity"] in world["c"]["physics"]["r"]  # an element's attribute becomes its text
    assert [None, "update_rate", "update_rate"] in world["c"]["physics"]["r"]  # an attribute becomes an element
    assert "background/sky/rgba" in world["c"]["scene"]["d"]


def test_tables_are_small_and_compact() -> None:
    files = list(DATA.glob("*.json"))
    assert files
    assert sum(p.stat().st_size for p in files) < 3_000_000
    for p in files:
        text = p.read_text(encoding="ascii")
        assert text.endswith("\n") and text.count("\n") == 1
        assert json.dumps(json.loads(text), sort_keys=True, separators=(",", ":")) + "\n" == text


def _strings(node):
    if isinstance(node, dict):
        for k, v in node.items():
            yield k
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)
    elif isinstance(node, str):
        yield node


def test_no_description_prose_is_copied() -> None:
    for p in DATA.glob("*.json"):
        strings = set(_strings(json.loads(p.read_text())))
        assert "description" not in strings
        # Facts are short: names, types, defaults, versions. Prose would be long.
        assert max(len(s) for s in strings) < 80, p.name
