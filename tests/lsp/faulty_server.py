"""The real server with injected faults, to prove one failure costs one answer.

Used by ``test_faults.py`` as the server command. Production code has no
fault hooks: the faults are patched in here, from the outside.
"""

from __future__ import annotations

import os
import sys

import sdformat_lsp.server.app as app
from sdformat_lsp import features
from sdformat_lsp.server import serve

_analyze = app.analyze


def analyze(text, path=None, options=None, extra=None):
    """The core, except for documents that ask for trouble."""
    if "INJECT-CORE-CRASH" in text:
        raise RuntimeError("injected core failure")
    if "INJECT-STDOUT" in text:
        # A dependency that prints: must not reach the protocol stream.
        print("garbage from print()")
        os.write(1, b"garbage written to fd 1\n")
    return _analyze(text, path, options, extra)


def _crashing(name):
    real = getattr(features, name)

    def feature(analysis, *args, **kwargs):
        if "INJECT-FEATURE-CRASH" in analysis.text:
            raise ZeroDivisionError(f"injected {name} failure")
        return real(analysis, *args, **kwargs)

    return feature


app.analyze = analyze
for _name in (
    "hover",
    "definition",
    "references",
    "complete",
    "document_symbols",
    "code_actions",
    "prepare_rename",
    "rename",
):
    if hasattr(features, _name):
        setattr(features, _name, _crashing(_name))

if __name__ == "__main__":
    sys.exit(serve(None, "debug" if "--log-level" in sys.argv and sys.argv[-1] == "debug" else "info"))
