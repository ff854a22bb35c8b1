"""`sdformat-lsp check`: check files and directories for CI and pre-commit.

This module drives: it reads the command line and the configuration,
asks :mod:`.inputs` which files to read, analyses them (in worker
processes with ``--jobs``) and hands plain :mod:`.report` data to one
writer (text, json, sarif, github). Exit status: 0 clean, 1 a diagnostic
at or above the fail level, 2 a usage or configuration error.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import field
from importlib import import_module

from ..files import DEFAULT_MAX_BYTES, MB
from ..collector_pause import collector_paused
from ..config import ConfigCache, ConfigError, ProjectConfig, load_config
from ..records import record
from ..semantics import Options
from ..semantics.checks.suppressions import apply_severities
from .inputs import NAMES, STDIN, SUFFIXES, Collector, Input
from .lifetime import keep_until_exit
from .loading import load_file, unreadable, xacro_arguments
from .report import SEVERITY_BY_NAME, FileResult, summarize

# Each --format is written by this package's module output_<format> (only the one asked for is imported).
FORMATS = ("text", "json", "sarif", "github")
LEVELS = ("error", "warning", "info", "hint")
EXIT_CLEAN, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


@record(frozen=False)
class Run:
    """Everything a writer needs: the results (items already filtered for printing) and the counts."""

    results: list[FileResult]
    counts: dict[str, int]  # every severity, printed or not
    hidden: dict[str, int]  # severities counted but not printed
    frames: bool = False
    color: bool = False
    cwd: str = field(default_factory=os.getcwd)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _task(task: tuple, keep: bool = False) -> FileResult:
    """One file, in a worker process (or in this one): analysis in, plain report out.

    ``keep``: the analysis lives until the program ends (see lifetime.py), which
    saves freeing a big document object by object; only for a lone file, so that
    checking a thousand does not hold a thousand analyses.
    """
    path, display, data, problem, resource_paths, severity, frames, max_bytes, package_paths, parsers, xacro_args = task
    if problem is not None:
        level, reason = problem
        a = unreadable(path, reason)
        if level != "error":
            from dataclasses import replace

            a.diagnostics = [replace(d, severity=SEVERITY_BY_NAME[level]) for d in a.diagnostics]
        a.diagnostics = apply_severities(a.diagnostics, severity)
        return summarize(a, display)
    options = Options(
        resource_paths=resource_paths,
        severity=severity,
        max_document_bytes=max_bytes,
        package_paths=package_paths,
        model_parsers=parsers,
        xacro_args=xacro_args,
    )
    # The analysis is built with the collector paused (semantics.analysis): its objects all sit in the
    # youngest generation when it resumes, and the first allocation after that started a pass over every
    # one of them (197 ms of a 100k-line world's check, found nothing). Paused until the analysis is
    # frozen (kept) or freed (summarized), the collector resumes with nothing of it left to walk.
    with collector_paused():
        a = (
            load_file(path, options, data=data)
            if path is not None or data is not None
            else unreadable(None, "no input")
        )
        if keep:
            keep_until_exit(a)
        result = summarize(a, display, frames)
        del a
    return result


def _run_tasks(tasks: list[tuple], jobs: int) -> list[FileResult]:
    if not tasks:
        return []
    if len(tasks) == 1:
        return [_task(tasks[0], keep=True)]
    if jobs <= 1:
        return [_task(t) for t in tasks]
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    workers = min(jobs, len(tasks))
    try:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            # small chunks keep the workers evenly busy; order is kept by map
            return list(pool.map(_task, tasks, chunksize=max(1, len(tasks) // (workers * 8))))
    except (OSError, BrokenProcessPool, NotImplementedError) as exc:
        print(
            f"sdformat-lsp: parallel checking failed ({exc or type(exc).__name__}); checking in this process",
            file=sys.stderr,
        )
        return [_task(t) for t in tasks]


def _configs(args: argparse.Namespace):
    if args.config:
        fixed = load_config(args.config)
        return lambda directory: fixed
    if args.no_config:
        empty = ProjectConfig()
        return lambda directory: empty
    return ConfigCache().lookup


def _usage(message: str) -> int:
    print(f"sdformat-lsp check: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def check_command(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 1:
        return _usage("--jobs must be at least 1")
    if args.files.count(STDIN) > 1:
        return _usage("standard input ('-') can be read only once")
    if args.stdin_filename and STDIN not in args.files:
        return _usage("--stdin-filename needs '-' among the paths")
    cwd = os.getcwd()
    try:
        config_for = _configs(args)
        collector = Collector(args.exclude or [], config_for, cwd, use_gitignore=not args.no_gitignore)
        for f in args.files:
            collector.add(f, args.stdin_filename)
        inputs = collector.inputs()
        tasks, fail_levels = [], []
        cli_paths = tuple(os.path.abspath(p) for p in args.resource_path or [])
        for item in inputs:
            cfg = config_for(os.path.dirname(item.path) if item.path else cwd)
            tasks.append(_make_task(item, cfg, cli_paths, args))
            fail_levels.append(SEVERITY_BY_NAME[args.fail_on or cfg.fail_on or "error"])
    except ConfigError as exc:
        print(f"sdformat-lsp: configuration error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not tasks:
        _say_nothing_found(collector)
    results = _run_tasks(tasks, args.jobs or default_jobs())
    lowest = SEVERITY_BY_NAME[args.severity]
    counts = dict.fromkeys(LEVELS, 0)
    hidden = dict.fromkeys(LEVELS, 0)
    failed = False
    for r, fail in zip(results, fail_levels):
        shown = []
        for i in r.items:
            counts[i.severity_name] += 1
            failed = failed or i.severity <= fail
            if i.severity <= max(lowest, fail):  # what fails the run is always shown
                shown.append(i)
            else:
                hidden[i.severity_name] += 1
        r.items = shown
    color = _color(args.color)
    writer = import_module(f"{__package__}.output_{args.format}")
    writer.write(Run(results, counts, hidden, args.frames, color, cwd), sys.stdout)
    sys.stdout.flush()
    return EXIT_FAIL if failed else EXIT_CLEAN


def _say_nothing_found(collector: Collector) -> None:
    """A run that found no file to check says so, and why, on stderr (the output stays a valid
    empty report in every format, and the exit code 0: nothing checked, nothing failed)."""
    looked = ", ".join(SUFFIXES) + " or " + " ".join(NAMES)
    why = ""
    if collector.passed_over:
        counted = ", ".join(f"{n} {suffix}" for suffix, n in sorted(collector.passed_over.items()))
        why = f"; passed over {counted} file(s): check reads them only once expanded (run xacro, then check the .urdf it writes)"
    print(f"sdformat-lsp check: no file to check ({looked}) under the given paths{why}", file=sys.stderr)


def _make_task(item: Input, cfg: ProjectConfig, cli_paths: tuple[str, ...], args: argparse.Namespace) -> tuple:
    data = None
    if item.stdin:
        data = sys.stdin.buffer.read()
    resource_paths = cli_paths + tuple(p for p in cfg.resource_paths if p not in cli_paths)
    max_bytes = None if args.max_size <= 0 else int(args.max_size * MB)
    return (
        item.path,
        item.display,
        data,
        item.problem,
        resource_paths,
        dict(cfg.severity) or None,
        args.frames,
        max_bytes,
        cfg.package_paths,
        cfg.model_parsers,
        {**cfg.xacro_args, **xacro_arguments(args.xacro_arg)},
    )


def _color(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):  # https://no-color.org: set and not empty
        return False
    return sys.stdout.isatty()


def register(sub) -> None:
    c = sub.add_parser(
        "check",
        help="check SDFormat, URDF and xacro files and directories (exit 1 on problems, 2 on usage or configuration errors)",
        description="Check files and directories (searched for .sdf, .world, .urdf, .xacro and model.config). "
        "Exit status: 0 clean, 1 a diagnostic at or above the fail level, 2 a usage or configuration error.",
    )
    c.add_argument("files", nargs="+", metavar="PATH", help="a file, a directory to search, or '-' for standard input")
    c.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (default), json, sarif (SARIF 2.1.0) or github (workflow annotations)",
    )
    c.add_argument(
        "--severity",
        choices=LEVELS,
        default="warning",
        help="the lowest severity printed (default: warning; 'info' or 'hint' add portability and style notes)",
    )
    c.add_argument(
        "--fail-on",
        choices=("error", "warning"),
        default=None,
        help="the lowest severity that makes the exit status 1 (default: the configuration's fail-on, else error)",
    )
    c.add_argument(
        "-j", "--jobs", type=int, default=None, metavar="N", help="check N files at once (default: the number of cores)"
    )
    c.add_argument(
        "--exclude",
        action="append",
        metavar="GLOB",
        help="skip paths matching GLOB, relative to the working directory (repeatable)",
    )
    c.add_argument("--no-gitignore", action="store_true", help="search directories without honouring .gitignore")
    c.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="the name of the document read from '-': used for messages, relative includes and the configuration lookup",
    )
    c.add_argument(
        "--config", metavar="FILE", help="use this configuration file for every input instead of the nearest one"
    )
    c.add_argument("--no-config", action="store_true", help="ignore configuration files")
    c.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour text output (auto: on a terminal, unless NO_COLOR is set)",
    )
    c.add_argument(
        "--frames", action="store_true", help="also list every frame of the root scope with its resolved pose"
    )
    c.add_argument(
        "--resource-path",
        action="append",
        metavar="DIR",
        help="a directory searched for model:// includes, before the configuration's (repeatable)",
    )
    c.add_argument(
        "--xacro-arg",
        action="append",
        metavar="NAME:=VALUE",
        help="the value of a xacro argument ($(arg NAME)) for every xacro document, over the configuration's [xacro] (repeatable)",
    )
    c.add_argument(
        "--max-size",
        type=float,
        default=DEFAULT_MAX_BYTES / MB,
        metavar="MB",
        help=f"files (and included files) larger than this are not analysed: one error says so (default {DEFAULT_MAX_BYTES // MB}; 0: no limit)",
    )
    c.set_defaults(run=check_command)
