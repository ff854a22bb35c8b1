"""What the schema says at the cursor: shared by schema completion and hover.

Three questions are answered here, all from plain text and the spec tables:

* which elements are open at an offset (:func:`cursor_context`), read from the
  raw text before the cursor, because while the user types the tolerant tree
  may place a half-typed tag anywhere; the tree only serves as a shortcut to
  the innermost element that is certainly open (its end tag comes after the
  cursor), so a large world is not rescanned from its first line;
* which spec an element path has in a version, and in which versions it
  exists (:func:`version_range`), with the specification page to link to;
* which values an attribute or element accepts, when the spec tables cannot
  say (:data:`ENUMS`, see below).

Nothing here copies the spec's ``<description>`` prose; the words are ours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, TypeGuard

from ..semantics.analysis import Analysis
from ..spec import AttributeSpec, ElementSpec, Schema, known_versions, latest_version, schema_for, version_key
from ..xml import XmlElement

ROOT_TAGS = ("sdf", "gazebo")  # SDFormat 1.0 and 1.2 called the root <gazebo>

# -- enumerated values ---------------------------------------------------------
#
# The spec tables carry no enumerations: the spec files state the accepted
# values only in prose. This table lists the values themselves, as facts,
# read off the attribute descriptions of the spec files of each version in
# gazebosim/sdformat (``sdf/<version>/joint.sdf``, ``sensor.sdf``,
# ``light.sdf``, ``physics.sdf``, ``noise.sdf``, ``pose.sdf``), checked for
# every version from 1.2 to 1.12. Each value is (value, first version, last
# version); None means "from the first version" or "still accepted". 1.0
# states no lists and is offered what 1.2 accepts. Booleans are not listed:
# every attribute or element of spec type ``bool`` is offered true/false;
# the root's ``version`` is offered every version with a table, newest first.
#
# Keyed by (element tag, attribute name); None as the attribute names the
# element's own text. The attribute must still exist in the declared
# version's spec for its values to be offered.

EnumValue = tuple[str, str | None, str | None]

ENUMS: dict[tuple[str, str | None], tuple[EnumValue, ...]] = {
    ("joint", "type"): (
        ("revolute", None, None),
        ("prismatic", None, None),
        ("fixed", "1.5", None),
        ("continuous", "1.6", None),
        ("ball", None, None),
        ("universal", None, None),
        ("revolute2", None, None),
        ("screw", "1.5", None),
        ("gearbox", "1.4", None),
        ("piston", None, "1.4"),
    ),
    ("light", "type"): (("point", None, None), ("directional", None, None), ("spot", None, None)),
    ("physics", "type"): (
        ("ode", None, None),
        ("bullet", "1.4", None),
        ("simbody", "1.4", None),
        ("dart", "1.6", None),
        ("rtql8", "1.4", "1.5"),
    ),
    ("noise", "type"): (("none", None, None), ("gaussian", None, None), ("gaussian_quantized", None, None)),
    ("pose", "rotation_format"): (("euler_rpy", None, None), ("quat_xyzw", None, None)),
    ("sensor", "type"): (
        ("camera", None, None),
        ("depth", None, None),
        ("depth_camera", "1.6", None),
        ("rgbd_camera", "1.6", None),
        ("rgbd", "1.6", None),
        ("thermal_camera", "1.6", None),
        ("thermal", "1.6", None),
        ("multicamera", "1.3", None),
        ("stereocamera", None, "1.2"),
        ("boundingbox_camera", "1.9", None),
        ("boundingbox", "1.9", None),
        ("segmentation_camera", "1.9", None),
        ("segmentation", "1.9", None),
        ("logical_camera", "1.5", None),
        ("lidar", "1.6", None),
        ("gpu_lidar", "1.6", None),
        ("ray", None, None),
        ("gpu_ray", "1.5", None),
        ("sonar", "1.5", None),
        ("ir", None, "1.4"),
        ("contact", None, None),
        ("imu", None, None),
        ("force_torque", "1.5", None),
        ("magnetometer", "1.5", None),
        ("altimeter", "1.5", None),
        ("air_pressure", "1.6", None),
        ("air_speed", "1.10", None),
        ("navsat", "1.7", None),
        ("gps", "1.4", None),
        ("rfid", "1.5", None),
        ("rfidtag", "1.5", None),
        ("wireless_receiver", "1.5", None),
        ("wireless_transmitter", "1.5", None),
        ("custom", "1.9", None),
    ),
}

#: Older names kept for compatibility, with the name to prefer (a fact of the sensor spec since the version given).
LEGACY = {
    ("sensor", "type", "ray"): ("lidar", "1.6"),
    ("sensor", "type", "gpu_ray"): ("gpu_lidar", "1.6"),
    ("sensor", "type", "gps"): ("navsat", "1.9"),
}

BOOLS = ("true", "false")


def enum_values(tag: str, attr: str | None, value_type: str | None, version: str) -> tuple[str, ...]:
    """The values offered for ``attr`` of ``<tag>`` (or its text when None) in ``version``."""
    if tag in ROOT_TAGS and attr == "version":
        return tuple(reversed(known_versions()))  # newest first
    listed = ENUMS.get((tag, attr))
    if listed is not None:
        key = version_key(version)
        return tuple(
            v
            for v, since, until in listed
            if (since is None or version_key(since) <= key) and (until is None or key <= version_key(until))
        )
    if value_type == "bool":
        return BOOLS
    return ()


def meaningful(default: str | None) -> TypeGuard[str]:
    """A default worth showing or inserting (the spec writes ``__default__`` for "none")."""
    return default is not None and default != "" and default != "__default__"


# -- schema and paths ---------------------------------------------------------------


def schema_of(analysis: Analysis) -> Schema:
    """The schema of the declared version, or the newest one when it is missing or unknown."""
    version = (analysis.version or "").strip()
    schema = schema_for(version) if version else None
    if schema is None:
        schema = schema_for(latest_version())
    assert schema is not None
    return schema


def rooted(schema: Schema, path: tuple[str, ...]) -> tuple[str, ...] | None:
    """``path`` (tag names from the document root) with the root named as ``schema`` names it;
    None when the document root is not an SDFormat root."""
    if not path or path[0] not in ROOT_TAGS:
        return None
    return (schema.root().name,) + path[1:]


def spec_at(schema: Schema, path: tuple[str, ...]) -> ElementSpec | None:
    p = rooted(schema, path)
    return schema.element_at(p) if p is not None else None


def element_path(el: XmlElement) -> tuple[str, ...]:
    tags = [el.tag]
    tags.extend(a.tag for a in el.ancestors())
    return tuple(reversed(tags))


@dataclass(frozen=True, slots=True)
class VersionRange:
    first: str  # the first version of the run that contains the asked version
    last: str  # its last version
    removed_in: str | None  # the version after ``last``, when there is one


def version_range(path: tuple[str, ...], attr: str | None, around: str) -> VersionRange | None:
    """The uninterrupted run of versions around ``around`` in which ``path`` (and ``attr`` on it) exists."""
    versions = list(known_versions())
    if around not in versions:
        return None

    def has(v: str) -> bool:
        schema = schema_for(v)
        spec = spec_at(schema, path) if schema is not None else None
        return spec is not None and (attr is None or attr in spec.attributes)

    i = versions.index(around)
    if not has(around):
        return None
    lo = i
    while lo > 0 and has(versions[lo - 1]):
        lo -= 1
    hi = i
    while hi + 1 < len(versions) and has(versions[hi + 1]):
        hi += 1
    return VersionRange(versions[lo], versions[hi], versions[hi + 1] if hi + 1 < len(versions) else None)


def nearest_version_having(path: tuple[str, ...], attr: str | None, declared: str) -> str | None:
    """The closest version to ``declared`` (later ones first) in which the element or attribute exists."""
    versions = list(known_versions())
    key = version_key(declared)
    later = [v for v in versions if version_key(v) > key]
    earlier = [v for v in reversed(versions) if version_key(v) < key]
    for v in later + earlier:
        schema = schema_for(v)
        spec = spec_at(schema, path) if schema is not None else None
        if spec is not None and (attr is None or attr in spec.attributes):
            return v
    return None


# The pages (tabs) of the specification site; every other definition is shown
# on the page of the nearest of these that contains it.
SPEC_PAGES = frozenset(
    {
        "sdf",
        "world",
        "scene",
        "state",
        "physics",
        "light",
        "actor",
        "model",
        "link",
        "sensor",
        "joint",
        "collision",
        "visual",
        "material",
        "geometry",
    }
)
SPEC_URL = "http://sdformat.org/spec?ver={version}&elem={page}"


def spec_page(schema: Schema, path: tuple[str, ...]) -> str:
    """The specification page for the element at ``path``: its own definition's, or the nearest enclosing one's."""
    p = rooted(schema, path)
    if p is None:
        return "sdf"
    page = "sdf"
    spec: ElementSpec | None = schema.root()
    for name in p[1:]:
        spec = spec.child(name) if spec is not None else None
        if spec is None:
            break
        if spec.definition in SPEC_PAGES:
            page = spec.definition
    return page


def spec_url(schema: Schema, path: tuple[str, ...]) -> str:
    return SPEC_URL.format(version=schema.version, page=spec_page(schema, path))


# -- our own words for the facts ------------------------------------------------------

_MULTIPLICITY = {
    "1": "required, exactly once",
    "+": "required, one or more",
    "0": "optional, at most once",
    "*": "optional, any number",
    "-1": "deprecated",
}


def multiplicity(required: str) -> str:
    return _MULTIPLICITY.get(required, f"multiplicity {required}")


def attribute_need(spec: AttributeSpec) -> str:
    return "required" if spec.is_required else "optional"


def bounds(low: str | None, high: str | None) -> str | None:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return None


def versions_text(r: VersionRange) -> str:
    if r.removed_in is not None:
        span = f"SDFormat {r.first}" if r.first == r.last else f"SDFormat {r.first} to {r.last}"
        return f"{span}; removed in {r.removed_in}"
    if r.first == known_versions()[0]:
        return f"every version (since SDFormat {r.first})"
    return f"since SDFormat {r.first}"


# -- where the cursor is -------------------------------------------------------------


_START = re.compile(r"<([^\s<>/!?\"'=]*)")
_END = re.compile(r"</([^\s<>/!?\"'=]*)")
# The rest of a start tag: attributes (quoted values may hold '>', never '<') up to '>' or '/>'.
_TAG_REST = re.compile(r"(?:[^<>\"']|\"[^\"<]*\"|'[^'<]*')*?(/?)>")


@dataclass(frozen=True, slots=True)
class Open:
    tag: str
    lt: int  # offset of the '<' of its start tag


@dataclass(frozen=True, slots=True)
class CursorContext:
    """Where ``offset`` is: in an element's content, or in a start tag not yet ended."""

    where: Literal["content", "start_tag"]
    stack: tuple[Open, ...]  # open elements enclosing the cursor, outermost first (not the tag the cursor is in)
    tag: str = ""  # the start tag's name as typed so far ("start_tag")
    lt: int = -1  # the '<' of that start tag ("start_tag"), or where the content run starts ("content")


def _anchor(analysis: Analysis, offset: int) -> XmlElement | None:
    """The innermost element certainly open at ``offset``: start tag ended before, end tag after."""
    text = analysis.text
    el = analysis.xml.element_at(offset)
    while el is not None:
        if (
            el.etag_start >= offset
            and el.stag_end <= offset
            and not el.self_closing
            and el.stag_end > 0
            and text[el.stag_end - 1] == ">"
            and text.startswith("</" + el.tag, el.etag_start)
        ):
            return el
        el = el.parent
    return None


def _well_closed(text: str, el: XmlElement) -> bool:
    """``el`` ends with ``/>`` or with its own end tag, as written."""
    if el.self_closing:
        return text.startswith("/>", el.stag_end - 2)
    return el.etag_start >= 0 and text.startswith("</" + el.tag, el.etag_start) and text.endswith(">", 0, el.end)


def cursor_context(analysis: Analysis, offset: int) -> CursorContext | None:
    """The open elements at ``offset`` and whether it is in content or a start tag;
    None inside a comment, CDATA, a processing instruction, a declaration or an end tag."""
    text = analysis.text
    anchor = _anchor(analysis, offset)
    stack: list[Open] = []
    pos = 0
    if anchor is not None:
        chain = [anchor, *anchor.ancestors()]
        stack = [Open(e.tag, e.ts - 1) for e in reversed(chain)]
        pos = anchor.stag_end
        # children complete before the cursor leave nothing open: skip them (a world holds thousands)
        for child in anchor.children:
            if child.end > offset or not _well_closed(text, child):
                break
            pos = child.end
    content_start = pos
    find, startswith = text.find, text.startswith
    while True:
        j = find("<", pos, offset)
        if j < 0:
            return CursorContext("content", tuple(stack), lt=content_start)
        for opener, closer in (("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!", ">")):
            if startswith(opener, j):
                k = find(closer, j + len(opener))
                if k < 0 or k + len(closer) > offset:
                    return None
                pos = content_start = k + len(closer)
                break
        else:
            if startswith("</", j):
                m = _END.match(text, j)
                name = m.group(1) if m else ""
                k = find(">", j, offset)
                nxt = find("<", j + 1, offset)
                if k < 0 or (0 <= nxt < k):
                    if nxt < 0:
                        return None  # the cursor is in an end tag
                    k = nxt - 1  # an end tag never finished: read on from the next tag
                for i in range(len(stack) - 1, -1, -1):
                    if stack[i].tag == name:
                        del stack[i:]
                        break
                pos = content_start = k + 1
                continue
            m = _START.match(text, j)
            assert m is not None
            name = m.group(1)
            rest = _TAG_REST.match(text, m.end(), offset)
            if rest is not None:
                if rest.group(1) != "/" and name:
                    stack.append(Open(name, j))
                pos = content_start = rest.end()
                continue
            nxt = find("<", m.end(), offset)
            if nxt < 0:
                return CursorContext("start_tag", tuple(stack), name, j)
            if name:
                stack.append(Open(name, j))  # a start tag never finished: the scanner opens it too
            pos = content_start = nxt


def element_starting_at(analysis: Analysis, lt: int, tag: str) -> XmlElement | None:
    """The element of the tree whose start tag begins at ``lt``."""
    el = analysis.xml.element_at(lt + 1)
    while el is not None and el.ts - 1 > lt:
        el = el.parent
    if el is not None and el.ts - 1 == lt and el.tag == tag:
        return el
    return None


def line_indent(text: str, offset: int) -> str:
    """The white space that starts the line of ``offset``."""
    start = max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1
    end = start
    while end < len(text) and text[end] in " \t":
        end += 1
    return text[start:end]
