"""Names that the SDFormat libsdformat converts a URDF to cannot hold.

libsdformat writes a converted URDF as SDFormat 1.11 (since libsdformat 14.1,
Gazebo Harmonic; libsdformat 12 wrote 1.7) and then reads it with the rules of
that version, which reserve ``::`` for scoped names: any ``name`` attribute
holding ``::`` in the converted document makes the whole file fail to load
(``RESERVED_NAME``, ``parser.cc`` ``recursiveSiblingNoDoubleColonInNames``).
The converted document carries the robot's name, the names of links, joints,
visuals and collisions, and everything a ``<gazebo>`` block copies in, except
``<plugin>`` contents and namespaced elements, which libsdformat does not
validate. This project follows libsdformat's main branch, so these are errors;
libsdformat 12 (Gazebo Fortress) still loads such files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...diagnostics import Related
from ...xml import XmlAttribute, XmlElement

if TYPE_CHECKING:
    from .reader import Reader

RESERVED_NAME = "RESERVED_NAME"


def _copied(ext: XmlElement) -> Iterator[XmlElement]:
    """The elements of a ``<gazebo>`` block that libsdformat validates once copied: not inside a
    ``<plugin>`` or a namespaced element."""
    stack = list(reversed(ext.children))
    while stack:
        el = stack.pop()
        if el.tag == "plugin" or ":" in el.tag:
            continue
        yield el
        stack.extend(reversed(el.children))


def _named(robot: XmlElement) -> Iterator[tuple[XmlAttribute, str]]:
    a = robot.attr("name")
    if a is not None:
        yield a, "robot"
    for el in robot.children:
        if el.tag in ("link", "joint"):
            a = el.attr("name")
            if a is not None:
                yield a, el.tag
            if el.tag == "link":
                for part in el.children:
                    if part.tag in ("visual", "collision") and part.attr("name") is not None:
                        yield part.attr("name"), part.tag  # type: ignore[misc]
        elif el.tag == "gazebo":
            for c in _copied(el):
                a = c.attr("name")
                if a is not None:
                    yield a, f"<{c.tag}> in a <gazebo> block"


def check_scoped_names(rd: "Reader") -> None:
    """One error for every name with ``::`` (the others as related locations)."""
    found = [(a, what) for a, what in _named(rd.robot) if "::" in a.value]
    if not found:
        return
    (first, what), rest = found[0], found[1:]
    msg = (
        f"'{first.value}' ({what}) contains '::': libsdformat (14.1 and later) reads a URDF as SDFormat 1.11, "
        "where '::' only separates scopes, and refuses the file"
    )
    if rest:
        msg += f"; {len(rest)} more name{'s' if len(rest) != 1 else ''} here contain '::'"
    msg += f"; rename {'them' if rest else 'it'} (for example with '_' or '__' in place of '::')"
    rd.error(
        msg,
        first.value_span,
        "scoped_name",
        RESERVED_NAME,
        related=tuple(Related(a.value_span, f"'{a.value}' ({w}) also contains '::'") for a, w in rest),
    )
