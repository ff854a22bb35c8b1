"""The primitive geoms of an MJCF body, for the frame view's 3D drawing.

MuJoCo's ``size`` is in half-extents where SDFormat's shapes take full ones:
a box's three half-sizes, a capsule's or cylinder's radius and half-length, a
plane's half-extents (0 meaning infinite: drawn 1 x 1); a sphere's radius and
an ellipsoid's radii are as written. ``fromto`` (capsule, cylinder, box,
ellipsoid) places the geom between two points, its Z axis along the segment.
Meshes and height fields name assets and are not drawn. The geom's class and
the body's ``childclass`` give what it does not write, as for any element
(``reader.MjcfReader``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...model.transform import Transform
from ...xml import XmlElement
from .orientation import orientation
from .reader import MjcfReader, Source

DEFAULT_RGBA = (0.5, 0.5, 0.5, 1.0)


@dataclass(frozen=True)
class Geom:
    """One primitive geom: SDFormat's shape name, its pose in the body frame, full sizes, colour."""

    name: str
    shape: str  # sphere, box, capsule, cylinder, ellipsoid, plane
    pose: Transform
    size: tuple[float, ...]
    color: tuple[float, float, float, float]


def _floats(text: str | None) -> list[float] | None:
    if text is None:
        return None
    try:
        return [float(t) for t in text.split()]
    except ValueError:
        return None


def _childclass(reader: MjcfReader, body: XmlElement) -> str:
    el: XmlElement | None = body
    while el is not None and el.tag in ("body", "frame", "worldbody"):
        cc = el.get("childclass")
        if cc is not None and cc in reader.classes:
            return cc
        el = el.parent
    return "main"


def body_geoms(reader: MjcfReader, body: XmlElement, limit: int = 64) -> list[Geom]:
    """The primitive geoms written directly in ``body`` (at most ``limit``), posed in its frame."""
    out: list[Geom] = []
    inner = _childclass(reader, body)
    for g in body.children:
        if g.tag != "geom" or len(out) >= limit:
            continue
        src = Source(g, None)
        cls = g.get("class") if g.get("class") in reader.classes else inner
        kind = reader.value(src, "type", cls) or "sphere"
        size = _floats(reader.value(src, "size", cls)) or []
        rgba = _floats(reader.value(src, "rgba", cls))
        color = tuple(rgba[:4]) if rgba is not None and len(rgba) >= 4 else DEFAULT_RGBA
        fromto = (
            _floats(reader.value(src, "fromto", cls)) if kind in ("capsule", "cylinder", "box", "ellipsoid") else None
        )
        if fromto is not None and len(fromto) == 6:
            a, b = fromto[:3], fromto[3:]
            d = [a[i] - b[i] for i in range(3)]  # as MuJoCo: Z from the second point to the first
            half = math.sqrt(sum(v * v for v in d)) / 2
            if half <= 0:
                continue
            pose = Transform(tuple((a[i] + b[i]) / 2 for i in range(3)), orientation("zaxis", d, False, "xyz"))  # type: ignore[arg-type]
            if kind == "box" and len(size) >= 2:
                full: tuple[float, ...] = (2 * size[0], 2 * size[1], 2 * half)
            elif kind == "ellipsoid" and len(size) >= 2:
                full = (size[0], size[1], half)
            elif len(size) >= 1:
                full = (size[0], 2 * half)
            else:
                continue
        else:
            pose = reader.placement(src, cls)
            if kind == "sphere" and len(size) >= 1:
                full = (size[0],)
            elif kind == "box" and len(size) >= 3:
                full = (2 * size[0], 2 * size[1], 2 * size[2])
            elif kind in ("capsule", "cylinder") and len(size) >= 2:
                full = (size[0], 2 * size[1])
            elif kind == "ellipsoid" and len(size) >= 3:
                full = (size[0], size[1], size[2])
            elif kind == "plane":
                full = tuple(2 * s if s > 0 else 1.0 for s in (size + [0.0, 0.0])[:2])
            else:
                continue
        if all(math.isfinite(s) and s >= 0 for s in full):
            out.append(Geom(g.get("name") or "", kind, pose, full, color))  # type: ignore[arg-type]
    return out


def reader_for(root: XmlElement, path: str | None) -> MjcfReader:
    """A reader holding the classes of the document whose root is ``root`` (for :func:`body_geoms`)."""
    from ...text import LineIndex
    from ...xml import XmlDocument

    r = MjcfReader(XmlDocument(text="", lines=LineIndex(""), root=root), path)
    r.settings(r.children(Source(root, None)))
    return r
