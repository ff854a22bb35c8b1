"""ROS's xacro (PyPI `xacro` 2.1.1) as an oracle, run in a process of its own.

Used by ``scripts/xacro_compare.py`` and ``benchmarks/bench_xacro.py``: the child process
imports `xacro` with a stand-in for ``ament_index_python`` that finds packages the way
``packages_index`` does (directories holding a ``package.xml``, by its ``<name>``), expands
each file it is given and answers one JSON line per file: the output or the error, and the
CPU seconds the expansion took (``process_file`` and ``toprettyxml``, as the `xacro` command runs).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

_NAME = re.compile(r"<name>\s*([^<\s]+)\s*</name>")


def packages_index(roots: list[str]) -> dict[str, str]:
    """Every package below ``roots``: name -> directory (the first found wins; packages do not
    nest)."""
    found: dict[str, str] = {}
    for root in roots:
        for d, dirs, files in os.walk(root):
            dirs.sort()
            if "package.xml" in files:
                try:
                    with open(os.path.join(d, "package.xml"), encoding="utf-8", errors="replace") as f:
                        m = _NAME.search(f.read())
                except OSError:
                    m = None
                if m and m.group(1) not in found:
                    found[m.group(1)] = d
                dirs[:] = []
    return found


_SHIM = """
import json, os
_INDEX = json.loads(os.environ["XACRO_ORACLE_PACKAGES"])
class PackageNotFoundError(KeyError):
    pass
def get_package_share_directory(name, print_warning=True):
    try:
        return _INDEX[name]
    except KeyError:
        raise PackageNotFoundError("package '%s' not found" % name) from None
"""

_DRIVER = r"""
import io, json, sys, time, contextlib
import xacro
for line in sys.stdin:
    job = json.loads(line)
    err = io.StringIO()
    start = time.process_time()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            xacro.all_includes = []
            doc = xacro.process_file(job["path"], mappings=dict(job.get("args", {})))
            text = doc.toprettyxml(indent="  ")
        answer = {"ok": True, "text": text}
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        answer = {"ok": False, "error": (str(exc) or repr(exc)) + " | " + err.getvalue()[-300:]}
    answer["seconds"] = time.process_time() - start
    answer["path"] = job["path"]
    print(json.dumps(answer), flush=True)
"""


class RosXacro:
    """A child process running ROS's xacro on the files it is sent."""

    def __init__(self, packages: dict[str, str]) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        shim = os.path.join(self.tmp.name, "ament_index_python")
        os.makedirs(shim)
        open(os.path.join(shim, "__init__.py"), "w").close()
        with open(os.path.join(shim, "packages.py"), "w") as f:
            f.write(_SHIM)
        env = dict(os.environ, PYTHONPATH=self.tmp.name, XACRO_ORACLE_PACKAGES=json.dumps(packages))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _DRIVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )

    def expand(self, path: str, args: dict | None = None) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"path": path, "args": args or {}}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"ROS's xacro died on {path}")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.tmp.cleanup()
