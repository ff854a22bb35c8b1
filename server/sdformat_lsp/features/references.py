"""Find references: every place a frame is named, through ``::`` paths too.

A frame can be named from its own scope (``L``) and from any enclosing scope
(``n::L``); each reference contributes the one segment that names it. The
aliases ``__model__`` and ``world`` denote a frame without naming it: they
are references too, but rename must leave them alone.

References stop at the file boundary, like rename: for a frame declared in
an included file (``hand::tip``, or a name merged in by ``merge="true"``)
the answer is its declaration in that file (when the declaration is asked
for) and the uses written in *this* document; uses inside the included file
(and in its other includers) are not searched: open that file to find them.
"""

from __future__ import annotations

from ..semantics.analysis import Analysis
from ..queries.frames import definition_location, target_at
from ..queries.references import reference_spans
from ..queries.results import Location


def references(analysis: Analysis, offset: int, include_declaration: bool = True) -> list[Location]:
    """Every reference in this document to the frame under the cursor (declaration or reference),
    the declaration first (``Location.path`` set when it lies in an included file)."""
    target = target_at(analysis, offset)
    if target is None or target.node is None:
        return []
    node = target.node
    out: list[Location] = []
    if include_declaration:
        decl = definition_location(analysis, node)
        if decl is not None:
            out.append(decl)
    out.extend(l for l in reference_spans(analysis, node) if l not in out)
    return out


__all__ = ["references"]
