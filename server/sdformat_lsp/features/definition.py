"""Go to definition: from any frame reference to the name that declares it.

Each ``::`` segment goes to what it names, so ``a::b::L`` can be followed one
model at a time; ``__model__`` goes to its model's name and ``world`` to the
``<world>``'s name.
"""

from __future__ import annotations

from ..semantics.analysis import Analysis
from ..queries.frames import definition_location, target_at
from ..queries.results import Location


def definition(analysis: Analysis, offset: int) -> list[Location]:
    """Where the name under the cursor is declared (its name value); empty if it does not resolve."""
    target = target_at(analysis, offset)
    if target is None or target.node is None:
        return []
    loc = definition_location(analysis, target.node)
    return [loc] if loc is not None else []


__all__ = ["definition"]
