#!/usr/bin/env python3
"""Compare sdformat-lsp's check with libsdformat's on third-party documents.

Finds every .sdf and .world file (and .urdf with ``--urdf``) below the given paths, checks each with the
project (in worker processes) and, when a reference checker is given, with
libsdformat's ``gz sdf --check`` equivalent (``sdf_check FILE``: "Valid." and
exit 0, or its errors on stderr and exit 1). Both get the same model search
path: the directories, in the same tree, that hold a model directory (one with
``model.config``); sdf_check through GZ_SIM_RESOURCE_PATH and SDF_PATH, the
project through ``--resource-path``.

    python scripts/realworld.py [PATH ...] [--reference SDF_CHECK] [--repos]
                                [--jobs N] [--timeout S] [--exclude GLOB]

Prints the number of documents, verdict agreement, code agreement on the
documents both call invalid, warnings and informations per document both call
valid (with the most frequent codes), and every disagreement with the first
message of each tool. Without a reference only the project's columns are printed.

``--repos``: each directory directly under a given directory is a repository
of its own, with its own model search path (model names of different
repositories may clash). Defaults (overridable): PATH from $REALWORLD_CORPUS,
the reference from $SDF_CHECK; the files of libsdformat's own test suite
(``*sdformat*/test/*``) are excluded, as conformance.py measures them.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

DEFAULT_CORPUS = "/work/corpus/src"
DEFAULT_REFERENCE = "/work/libsdformat/bin/sdf_check"
DEFAULT_EXCLUDE = ("*sdformat*/test/*",)
SUFFIXES = (".sdf", ".world")
ENV_PATHS = ("GZ_SIM_RESOURCE_PATH", "SDF_PATH", "IGN_GAZEBO_RESOURCE_PATH", "GAZEBO_MODEL_PATH")

# libsdformat's sdf::ErrorCode, in declaration order (include/sdf/Error.hh): sdf_check prints the number
ERROR_CODES = (
    "NONE FILE_READ DUPLICATE_NAME RESERVED_NAME ATTRIBUTE_MISSING ATTRIBUTE_INVALID ATTRIBUTE_DEPRECATED "
    "ATTRIBUTE_INCORRECT_TYPE ELEMENT_MISSING ELEMENT_INVALID ELEMENT_DEPRECATED ELEMENT_INCORRECT_TYPE "
    "ELEMENT_ERROR URI_INVALID URI_LOOKUP DIRECTORY_NONEXISTANT MODEL_CANONICAL_LINK_INVALID MODEL_WITHOUT_LINK "
    "NESTED_MODELS_UNSUPPORTED LINK_INERTIA_INVALID JOINT_CHILD_LINK_INVALID JOINT_PARENT_LINK_INVALID "
    "JOINT_PARENT_SAME_AS_CHILD FRAME_ATTACHED_TO_INVALID FRAME_ATTACHED_TO_CYCLE FRAME_ATTACHED_TO_GRAPH_ERROR "
    "POSE_RELATIVE_TO_INVALID POSE_RELATIVE_TO_CYCLE POSE_RELATIVE_TO_GRAPH_ERROR ROTATION_SNAP_CONFIG_ERROR "
    "STRING_READ MODEL_PLACEMENT_FRAME_INVALID VERSION_DEPRECATED MERGE_INCLUDE_UNSUPPORTED PARAMETER_ERROR "
    "UNKNOWN_PARAMETER_TYPE FATAL_ERROR WARNING JOINT_AXIS_EXPRESSED_IN_INVALID CONVERSION_ERROR PARSING_ERROR "
    "JOINT_AXIS_MIMIC_INVALID XML_ERROR"
).split()
CODED = re.compile(r"Error Code (\d+): (?:\[.*?\]: )?Msg: (.*)")  # the [xml path:file:line] holds brackets itself
# the checks gz sdf --check runs after Root::Load print messages without their code
UNCODED = (
    ("canonical", "MODEL_CANONICAL_LINK_INVALID"),
    ("attached_to", "FRAME_ATTACHED_TO_GRAPH_ERROR"),
    ("relative_to", "POSE_RELATIVE_TO_GRAPH_ERROR"),
    ("child link", "JOINT_CHILD_LINK_INVALID"),
    ("parent link", "JOINT_PARENT_LINK_INVALID"),
    ("non-unique names", "PARSING_ERROR"),  # recursiveSiblingUniqueNames
    ("reserved", "RESERVED_NAME"),
    ("parsing the xml failed", "FILE_READ"),
)
# codes that differ on purpose (docs/deviations.md, "Error codes"): libsdformat's, ours
DEVIATING_CODES = {("FILE_READ", "XML_ERROR"), ("ELEMENT_INVALID", "PARAMETER_ERROR")}
REMOTE = re.compile(r"https?://", re.I)


@dataclass
class Verdict:
    valid: bool
    codes: set = field(default_factory=set)
    first: str = ""
    counts: Counter = field(default_factory=Counter)  # ours: warnings and informations by code
    noise: list = field(default_factory=list)  # ours: "severity CODE line: message" of each of them
    remote_only: bool = (
        False  # ours: a remote (Fuel) include is unavailable; libsdformat's: its only failed lookups are remote
    )


@dataclass
class Doc:
    path: str
    search: tuple
    ours: Verdict | None = None
    ref: Verdict | None = None


# --------------------------------------------------------------------------- finding documents


def model_roots(tree: Path) -> list[str]:
    """Directories below ``tree`` that hold a model directory (one with model.config), sorted."""
    roots = set()
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if "model.config" in filenames:
            roots.add(str(Path(dirpath).parent.resolve()))
    return sorted(roots)


def documents(tree: Path, exclude: list[str], suffixes: tuple = SUFFIXES) -> list[str]:
    found = []
    paths = [tree] if tree.is_file() else sorted(tree.rglob("*"))
    for p in paths:
        if p.suffix in suffixes and p.is_file() and not any(fnmatch.fnmatch(str(p), g) for g in exclude):
            found.append(str(p.resolve()))
    return found


def collect(paths: list[str], repos: bool, exclude: list[str], suffixes: tuple = SUFFIXES) -> list[Doc]:
    trees = []
    for p in map(Path, paths):
        if repos and p.is_dir():
            trees.extend(sorted(c for c in p.iterdir() if c.is_dir()))
        else:
            trees.append(p)
    docs = []
    for t in trees:
        search = tuple(model_roots(t if t.is_dir() else t.parent))
        docs.extend(Doc(d, search) for d in documents(t, exclude, suffixes))
    return docs


# --------------------------------------------------------------------------- the project


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


_ABSENT: dict[str, frozenset[str]] = {}
_EMPTY_MESH = re.compile(r" was found at (.+?), but it is an empty file")


def _absent_from_the_mirror(document: str) -> frozenset[str]:
    """The files scripts/corpus.py wrote empty in the document's repository (blobs the mirror lacks), as
    absolute paths: listed in ``<repo>.absent.txt`` beside the repository's tree."""
    here = os.path.dirname(os.path.abspath(document))
    while True:
        listing = here + ".absent.txt"
        if listing in _ABSENT:
            return _ABSENT[listing]
        if os.path.isfile(listing):
            with open(listing, encoding="utf-8") as f:
                _ABSENT[listing] = frozenset(os.path.join(here, line.strip()) for line in f if line.strip())
            return _ABSENT[listing]
        up = os.path.dirname(here)
        if up == here:
            return frozenset()
        here = up


def _on_a_placeholder(d, placeholders: frozenset[str]) -> bool:
    """A warning that a mesh file is empty, where the file is the corpus's placeholder of a blob the mirror
    lacks: upstream's file is not empty, so it is not a warning a user of the repository would see."""
    m = _EMPTY_MESH.search(d.message) if d.code == "MESH_LOOKUP" else None
    return m is not None and m.group(1) in placeholders


def ours(task: tuple) -> Verdict:
    path, search, timeout = task
    from sdformat_lsp.cli import load_file
    from sdformat_lsp.diagnostics import Severity
    from sdformat_lsp.semantics import Options

    for k in ENV_PATHS:
        os.environ.pop(k, None)
    use_alarm = hasattr(signal, "SIGALRM")
    if use_alarm:
        signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(timeout)
    try:
        a = load_file(path, Options(resource_paths=search))
        diags = sorted(a.diagnostics, key=lambda d: (d.path or "", d.span.start))
    except _Timeout:
        return Verdict(False, {"TIMEOUT"}, f"TIMEOUT after {timeout} s")
    except Exception as exc:  # a crash is a finding, not the end of the run
        return Verdict(False, {"CRASH"}, f"CRASH {type(exc).__name__}: {exc}")
    finally:
        if use_alarm:
            signal.alarm(0)
    errors = [d for d in diags if d.severity == Severity.ERROR]
    placeholders = _absent_from_the_mirror(path)
    said = [
        d
        for d in diags
        if d.severity in (Severity.WARNING, Severity.INFORMATION) and not _on_a_placeholder(d, placeholders)
    ]
    noise = Counter(d.code for d in said)
    lines = [
        f"{d.severity.name.lower()} {d.code} L{a.lines.position(d.span.start, 'utf-32')[0] + 1}: {d.message[:200]}"
        for d in said
        if d.path in (None, a.path)
    ]
    lines += [
        f"{d.severity.name.lower()} {d.code} in {d.path}: {d.message[:200]}"
        for d in said
        if d.path not in (None, a.path)
    ]
    shown = (
        errors[0]
        if errors
        else next((d for d in diags if d.severity == Severity.INFORMATION and d.code == "URI_REMOTE"), None)
    )
    first = f"{shown.code}: {shown.message}" if shown else ""
    remote = any(d.code == "URI_REMOTE" for d in diags)
    return Verdict(not errors, {d.code for d in errors}, first[:300], noise, lines, remote)


# --------------------------------------------------------------------------- libsdformat


def reference(sdf_check: str, path: str, search: tuple, timeout: int) -> Verdict:
    env = dict(os.environ)
    for k in ENV_PATHS:
        env.pop(k, None)
    env["GZ_SIM_RESOURCE_PATH"] = env["SDF_PATH"] = os.pathsep.join(search)
    try:
        p = subprocess.run(
            [sdf_check, path],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            env=env,
            cwd=os.path.dirname(path),
        )
    except subprocess.TimeoutExpired:
        return Verdict(False, {"TIMEOUT"}, f"TIMEOUT after {timeout} s")
    if p.returncode == 0:
        return Verdict(True)
    codes, messages = set(), []
    text = re.sub(r"\x1b\[[0-9;]*m", "", p.stderr)
    # sdferr messages carry no line end of their own: split where each message starts
    for line in re.split(r"\n|(?=Error Code \d+:)|(?=Error \[)|(?=Warning \[)", text):
        line = line.strip()
        if not line:
            continue
        m = CODED.search(line)
        if m:
            n = int(m.group(1))
            code = ERROR_CODES[n] if n < len(ERROR_CODES) else f"CODE_{n}"
            codes.add(code)
            messages.append(f"{code}: {m.group(2)}")
            continue
        if line.lower().startswith("warning") or "callback is empty" in line:
            continue
        for key, code in UNCODED:
            if key in line.lower():
                codes.add(code)
                messages.append(f"{code}?: {line}")
                break
        else:
            messages.append(line)
    if p.returncode < 0 or p.returncode > 1:
        codes.add("CRASH")
        messages.insert(0, f"CRASH exit {p.returncode}")
    # the include of a remote (Fuel) model failed, and no local one did: what follows may be its consequences
    lookups = [m for m in messages if m.startswith("URI_LOOKUP:")]
    remote = bool(lookups) and all(REMOTE.search(m) for m in lookups)
    return Verdict(False, codes, (messages[0] if messages else "")[:300], remote_only=remote)


# --------------------------------------------------------------------------- report


def agree(d: Doc) -> bool:
    if d.ours.valid == d.ref.valid:
        return True
    # the documented deviation (docs/deviations.md): a Fuel model offline is an information here
    return d.ours.valid and d.ref.remote_only and d.ours.remote_only


def codes_agree(d: Doc) -> bool:
    return bool(d.ours.codes & d.ref.codes) or any(r in d.ref.codes and o in d.ours.codes for r, o in DEVIATING_CODES)


def report(docs: list[Doc], has_ref: bool, show_noise: bool = False, out=sys.stdout) -> None:
    n = len(docs)
    w = lambda s="": print(s, file=out)  # noqa: E731
    w(f"documents: {n}")
    if has_ref:
        strict = sum(d.ours.valid == d.ref.valid for d in docs)
        fuel = sum(agree(d) and d.ours.valid != d.ref.valid for d in docs)
        ok = strict + fuel
        w(
            f"verdict agreement: {ok}/{n} = {100 * ok / max(1, n):.1f}% ({fuel} by the Fuel-offline deviation; strict {strict}/{n} = {100 * strict / max(1, n):.1f}%)"
        )
        both_invalid = [d for d in docs if not d.ours.valid and not d.ref.valid]
        strict = sum(bool(d.ours.codes & d.ref.codes) for d in both_invalid)
        codes = sum(codes_agree(d) for d in both_invalid)
        w(
            f"codes (documents both call invalid): {codes}/{len(both_invalid)} = {100 * codes / max(1, len(both_invalid)):.1f}%"
            f" ({codes - strict} by the documented code deviations; strict {strict}/{len(both_invalid)} = {100 * strict / max(1, len(both_invalid)):.1f}%)"
        )
        valid = [d for d in docs if d.ours.valid and d.ref.valid]
    else:
        valid = [d for d in docs if d.ours.valid]
        w(f"valid here: {len(valid)}/{n} (no reference: verdict and code columns skipped)")
    noise = Counter()
    for d in valid:
        noise.update(d.ours.counts)
    total = sum(noise.values())
    label = "both call valid" if has_ref else "valid here"
    w(f"warnings+informations per document {label}: {total}/{len(valid)} = {total / max(1, len(valid)):.2f}")
    if has_ref:
        fuel = [d for d in docs if agree(d) and d.ours.valid != d.ref.valid]
        with_fuel = total + sum(sum(d.ours.counts.values()) for d in fuel)
        n_fuel = len(valid) + len(fuel)
        w(
            f"  with the {len(fuel)} documents libsdformat refuses only for Fuel models offline: "
            f"{with_fuel}/{n_fuel} = {with_fuel / max(1, n_fuel):.2f} (their URI_REMOTE information included)"
        )
    if noise:
        w(
            "  by code: "
            + ", ".join(f"{c} {k}" for c, k in sorted(((k, c) for c, k in noise.items()), reverse=True)[:10])
        )
    if show_noise:
        w("\nwarnings and informations on valid documents:")
        for d in valid:
            for line in d.ours.noise:
                w(f"- {d.path}: {line}")
    if not has_ref:
        return
    bad = [d for d in docs if not agree(d)]
    wrong_codes = [d for d in docs if not d.ours.valid and not d.ref.valid and not codes_agree(d)]
    if bad:
        w(f"\nverdict disagreements ({len(bad)}):")
        for d in bad:
            w(
                f"- {d.path}\n    libsdformat: {'valid' if d.ref.valid else d.ref.first}\n    ours:        {'valid' if d.ours.valid else d.ours.first}"
            )
    deviating = [
        d for d in docs if not d.ours.valid and not d.ref.valid and codes_agree(d) and not d.ours.codes & d.ref.codes
    ]
    if deviating:
        w(f"\ncodes agreeing by a documented deviation ({len(deviating)}):")
        for d in deviating:
            w(f"- {d.path}: libsdformat {sorted(d.ref.codes)}, ours {sorted(d.ours.codes)}")
    fuel = [d for d in docs if agree(d) and d.ours.valid != d.ref.valid]
    if fuel:
        w(
            f"\nverdicts agreeing by the Fuel-offline deviation: {len(fuel)} (libsdformat cannot download: URI_LOOKUP on remote URIs only)"
        )
    if wrong_codes:
        w(f"\ncode disagreements ({len(wrong_codes)}):")
        for d in wrong_codes:
            w(
                f"- {d.path}\n    libsdformat: {sorted(d.ref.codes)} {d.ref.first}\n    ours:        {sorted(d.ours.codes)} {d.ours.first}"
            )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "paths",
        nargs="*",
        help="directories or files (default: $REALWORLD_CORPUS or %s, with --repos)" % DEFAULT_CORPUS,
    )
    ap.add_argument(
        "--reference", help="libsdformat's check program (default: $SDF_CHECK or %s when it exists)" % DEFAULT_REFERENCE
    )
    ap.add_argument("--no-reference", action="store_true", help="only the project's columns")
    ap.add_argument(
        "--repos",
        action="store_true",
        help="each directory directly under a given directory is a repository with its own model search path",
    )
    ap.add_argument("--jobs", "-j", type=int, default=2, help="processes at once (default and maximum 2)")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per document and tool (default 60)")
    ap.add_argument(
        "--exclude",
        action="append",
        default=None,
        help="skip paths matching GLOB (default: %s)" % ", ".join(DEFAULT_EXCLUDE),
    )
    ap.add_argument("--urdf", action="store_true", help="also .urdf documents (libsdformat converts them to SDFormat)")
    ap.add_argument(
        "--noise", action="store_true", help="also list every warning and information on the documents counted as valid"
    )
    args = ap.parse_args()
    paths = args.paths
    if not paths:
        paths = [os.environ.get("REALWORLD_CORPUS", DEFAULT_CORPUS)]
        args.repos = True
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        print(f"no such path: {', '.join(missing)}", file=sys.stderr)
        return 2
    ref = None
    if not args.no_reference:
        ref = args.reference or os.environ.get("SDF_CHECK") or DEFAULT_REFERENCE
        if not os.access(ref, os.X_OK):
            if args.reference:
                print(f"reference checker {ref} is not executable", file=sys.stderr)
                return 2
            ref = None
    jobs = max(1, min(2, args.jobs))
    suffixes = SUFFIXES + ((".urdf",) if args.urdf else ())
    docs = collect(paths, args.repos, args.exclude if args.exclude is not None else list(DEFAULT_EXCLUDE), suffixes)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for d, v in zip(docs, pool.map(ours, [(d.path, d.search, args.timeout) for d in docs], chunksize=4)):
            d.ours = v
    if ref:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for d, v in zip(docs, pool.map(lambda d: reference(ref, d.path, d.search, args.timeout), docs)):
                d.ref = v
    report(docs, ref is not None, args.noise)
    return 0


if __name__ == "__main__":
    sys.exit(main())
