"""One diagnostic for a mistake repeated across a document.

A model that writes ``<mu1>`` in every ``<ode>`` block has made one mistake,
not sixteen: a reader wants it once, with every place listed, instead of a
wall of identical lines. Diagnostics are repeats when they say exactly the
same thing (code, severity, message and file); the first place keeps its
quick fix (fixing it leaves the others, again as one diagnostic). A check
marks what it wants folded so with ``data[REPEATS]`` (material scripts), or
the caller names the codes (unknown elements and attributes).
"""

from __future__ import annotations

from dataclasses import replace

from ...diagnostics import Diagnostic, Related

__all__ = ["REPEATS", "collapse_repeats"]

REPEATS = "repeats"  # a diagnostic's data key: fold the repeats of this one, whatever its code


def collapse_repeats(diagnostics: list[Diagnostic], codes: frozenset[str]) -> list[Diagnostic]:
    """``diagnostics`` with the repeats of those whose code is in ``codes`` folded into the first."""
    groups: dict[tuple, list[Diagnostic]] = {}
    kept: list[Diagnostic | tuple] = []
    for d in diagnostics:
        if (d.code not in codes and not d.data.get(REPEATS)) or d.related:
            kept.append(d)
            continue
        key = (d.code, d.severity, d.message, d.path)
        group = groups.get(key)
        if group is None:
            groups[key] = [d]
            kept.append(key)
        else:
            group.append(d)
    out = []
    for k in kept:
        if isinstance(k, Diagnostic):
            out.append(k)
            continue
        first, *rest = sorted(groups[k], key=lambda d: d.span.start)
        if not rest:
            out.append(first)
            continue
        more = len(rest)
        related = tuple(Related(d.span, "the same here", d.path) for d in rest)
        message = f"{first.message} (here and in {more} more place{'s' if more != 1 else ''}, listed as related)"
        out.append(replace(first, message=message, related=related))
    return out
