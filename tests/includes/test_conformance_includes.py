"""libsdformat's own test files that use <include>: verdicts, codes and frames (skips without ../shared)."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def harness():
    spec = importlib.util.spec_from_file_location("sdformat_conformance_inc", ROOT / "scripts" / "conformance.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["sdformat_conformance_inc"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_include_files_agree_with_libsdformat(shared):
    mod = harness()
    report = mod.run(shared, include_all=True)
    with_includes = {r.name for r in report.results if mod.has_include(shared / "conformance" / "files" / r.name)}
    assert len(with_includes) >= 40
    results = [r for r in report.results if r.name in with_includes]
    wrong = [r.name for r in results if not r.verdict_ok]
    assert not wrong, wrong
    codes = [r for r in results if not r.expected_valid]
    assert sum(r.codes_ok for r in codes) / len(codes) >= 0.85
    poses = [f for r in results for f in r.pose_failures]
    assert not poses, poses
    assert sum(r.frames_compared for r in results) > 400
