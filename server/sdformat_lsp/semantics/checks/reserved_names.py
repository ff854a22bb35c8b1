"""Reserved names of what is not a frame: the world, collisions, visuals, lights, sensors, ...

libsdformat's classes refuse a reserved name when they load: ``World``, ``Collision``,
``Visual``, ``Light``, ``Sensor``, ``ParticleEmitter``, ``Projector`` and ``Physics`` each
call ``isReservedName`` (``Utils.cc``: ``world``, or ``__`` at both ends of a name of four
characters or more), as ``Model``, ``Link``, ``Joint`` and ``Frame`` do; those four are
frames, judged by the name phase (``checks.name_checks``). From SDFormat 1.8 on, the parser
also refuses ``::`` in the ``name`` attribute of any element it validates (everything but
``<plugin>`` contents and namespaced elements: ``recursiveSiblingNoDoubleColonInNames``),
which makes the whole file fail to load.

Most documents hold no such name: one regular expression over the text says so, and the
tree is walked only when it finds a candidate. The expression starts with the literal
``name`` (no ``\b`` before it) so that the regular expression engine skips to each
occurrence instead of trying every position: 25 times faster on a 100,000-line world.
It finds more candidates (``filename="world"``) and the walk judges them.
"""

from __future__ import annotations

import re

from ...diagnostics import Diagnostic, error
from ...xml import XmlDocument
from .sibling_names import FRAME_TAGS

# The classes of libsdformat main calling isReservedName on their name, besides the frames.
CHECKED_TAGS = frozenset(
    {"world", "collision", "visual", "light", "sensor", "particle_emitter", "projector", "physics"}
)
_CANDIDATE = re.compile(
    r"""name\s*=\s*(?:"(?:world|__[^"<]*__|[^"<]*::[^"<]*)"|'(?:world|__[^'<]*__|[^'<]*::[^'<]*)')"""
)
_PLUGIN_START = re.compile(r"<plugin[\s/>]")


def is_reserved(name: str) -> bool:
    """libsdformat's isReservedName."""
    return name == "world" or (len(name) >= 4 and name.startswith("__") and name.endswith("__"))


def _has_candidate(text: str) -> bool:
    """Whether the text holds a reserved-looking name outside a ``<plugin>`` start tag.

    A plugin's own name is free-form (``gz::sim::systems::Physics``) and the walk skips it:
    worlds name their plugins so, and a candidate found only there would walk the whole
    tree for nothing (a sixth of the analysis of gz-sim's 3k_shapes.sdf). The start tag a
    candidate stands in is the nearest ``<`` before it: attribute values hold no ``<``.
    """
    for m in _CANDIDATE.finditer(text):
        if _PLUGIN_START.match(text, text.rfind("<", 0, m.start())) is None:
            return True
    return False


def reserved_entity_names(xml: XmlDocument, version: tuple[int, int]) -> list[Diagnostic]:
    """An error on each reserved name of an element libsdformat would refuse it on (see above)."""
    root = xml.root
    if root is None or not _has_candidate(xml.text):
        return []
    out: list[Diagnostic] = []
    scoped = version >= (1, 8)
    stack = [root]
    while stack:
        el = stack.pop()
        tag = el.tag
        if tag == "plugin" or ":" in tag:
            continue  # free-form: libsdformat does not validate it
        a = el.attributes.get("name") if el.attributes else None
        if a is not None and tag not in FRAME_TAGS:  # frames: the name phase
            name = a.value
            if tag in CHECKED_TAGS and is_reserved(name):
                what = (
                    "'world' is reserved for the world frame"
                    if name == "world"
                    else "names of the form __name__ are reserved for implicit frames"
                )
                out.append(
                    error(
                        "RESERVED_NAME",
                        f"{what}: libsdformat refuses it as the name of a <{tag}>, so the file does "
                        f"not load: rename this {tag}",
                        a.value_span,
                    )
                )
            elif scoped and "::" in name:
                out.append(
                    error(
                        "RESERVED_NAME",
                        f"'::' separates scopes and cannot appear in a name from SDFormat 1.8 on: "
                        f"libsdformat refuses the whole file; rename '{name}' (this <{tag}>)",
                        a.value_span,
                    )
                )
        stack.extend(reversed(el.children))
    return out


__all__ = ["CHECKED_TAGS", "is_reserved", "reserved_entity_names"]
