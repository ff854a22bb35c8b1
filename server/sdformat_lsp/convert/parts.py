"""What a SDFormat link holds, as URDF parts: inertial, visuals, collisions, geometry, materials, mesh URIs.

Every pose comes back in the chosen model's frame ``B`` (``X_B_part``); the
caller expresses it in the URDF frame of the link. Values follow the spec's
defaults (a link without ``<inertial>`` has a mass of 1 and a unit inertia in
SDFormat, so its URDF link gets exactly that).
"""

from __future__ import annotations

import math
import os
import urllib.parse
from dataclasses import dataclass, field

from ..formats.urdf.description import Geometry, Inertial, Material
from ..model.builder import Builder
from ..model.transform import Transform, transform_of
from ..semantics.includes.resources import lookup
from ..xml import XmlElement, parse
from .flatten import Body, Flat


@dataclass
class Notes:
    """What the conversion says besides the URDF: refusals (errors) and what ``--lossy`` changed."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    lossy: bool = False

    def lost(self, text: str) -> None:
        """Something URDF cannot say: a warning with ``--lossy``, else a refusal."""
        (self.warnings if self.lossy else self.errors).append(text)


def floats(text: str | None, count: int, default: tuple[float, ...]) -> tuple[float, ...]:
    if text is None:
        return default
    try:
        values = tuple(float(v) for v in text.split())
    except ValueError:
        return default
    return values if len(values) == count and all(map(math.isfinite, values)) else default


def vec3(text: str | None, default: tuple[float, float, float]) -> tuple[float, float, float]:
    """:func:`floats` of three numbers."""
    values = floats(text, 3, default)
    return values if len(values) == 3 else default  # always three


def value(el: XmlElement | None, tag: str, default: float) -> float:
    c = el.child(tag) if el is not None else None
    return floats(c.text if c is not None else None, 1, (default,))[0]


class PartReader:
    """Reads the parts of the links of one flattened model."""

    def __init__(
        self,
        flat: Flat,
        notes: Notes,
        mesh_uri: str,
        resource_paths: tuple[str, ...],
        package_paths: tuple[str, ...] = (),
    ) -> None:
        self.flat = flat
        self.notes = notes
        self.mesh_uri = mesh_uri
        self.resource_paths = resource_paths
        self.package_paths = package_paths
        self.builder = Builder(parse(""))  # reads poses only: the document it was made for does not matter
        self.builder.version = flat.version

    def pose(self, body: Body, el: XmlElement) -> Transform:
        """``X_B_el`` for an element inside ``body``'s link (its ``<pose>``, ``relative_to`` honoured)."""
        spec = self.builder.pose(el)
        rel = spec.relative_to
        if rel is not None and rel.text:
            res = self.flat.graphs.resolve(rel, body.scope, record=False)
            base = self.flat.in_base(res.target) if res.target is not None else None
            if base is not None:
                return base * transform_of(spec)
        return body.pose * transform_of(spec)

    def inertial(self, body: Body) -> tuple[Transform, float, tuple[float, ...]]:
        el = body.node.entity.element.child("inertial")
        if el is None:
            return body.pose, 1.0, (1.0, 0.0, 0.0, 1.0, 0.0, 1.0)
        if (el.get("auto") or "").strip().lower() in ("true", "1"):
            self.notes.warnings.append(
                f"link '{body.name}' asks for inertia computed from its collisions (auto=\"true\"): "
                "the URDF gets the values written in the file (or the defaults)"
            )
        i = el.child("inertia")
        inertia = tuple(
            value(i, n, d) for n, d in (("ixx", 1), ("ixy", 0), ("ixz", 0), ("iyy", 1), ("iyz", 0), ("izz", 1))
        )
        return self.pose(body, el), value(el, "mass", 1.0), inertia

    def inertial_in(self, body: Body, inverse: Transform) -> Inertial:
        """The inertial in the link's URDF frame; ``inverse`` is that frame's inverse (``X_F_B``)."""
        pose, mass, inertia = self.inertial(body)
        return Inertial(inverse * pose, mass, inertia)  # type: ignore[arg-type]

    def geometry(self, what: str, el: XmlElement) -> tuple[Geometry | None, Transform | None]:
        """A URDF geometry, and a rotation to add to the part's origin (a plane's normal), or None."""
        geom = el.child("geometry")
        shape = next((c for c in geom.children if c.tag != "pose"), None) if geom is not None else None
        if shape is None:
            self.notes.warnings.append(f"{what} has no geometry: left out")
            return None, None
        tag = shape.tag
        if tag == "box":
            return Geometry("box", size=vec3(_text(shape, "size"), (1.0, 1.0, 1.0))), None
        if tag == "cylinder":
            return Geometry("cylinder", radius=value(shape, "radius", 1.0), length=value(shape, "length", 1.0)), None
        if tag == "sphere":
            return Geometry("sphere", radius=value(shape, "radius", 1.0)), None
        if tag == "mesh":
            if shape.child("submesh") is not None:
                self.notes.lost(f"{what} uses a <submesh>: URDF meshes are whole files")
            scale = vec3(_text(shape, "scale"), (1.0, 1.0, 1.0))
            return Geometry(
                "mesh",
                filename=self.uri(_text(shape, "uri") or "", what),
                scale=None if scale == (1.0, 1.0, 1.0) else scale,
            ), None
        if tag == "capsule":
            r, length = value(shape, "radius", 0.5), value(shape, "length", 1.0)
            self.notes.lost(f"{what} is a capsule, which URDF lacks: the nearest is a cylinder of its full length")
            return Geometry("cylinder", radius=r, length=length + 2 * r), None
        if tag == "ellipsoid":
            radii = floats(_text(shape, "radii"), 3, (1.0, 1.0, 1.0))
            self.notes.lost(f"{what} is an ellipsoid, which URDF lacks: the nearest is a box around it")
            return Geometry("box", size=tuple(2 * v for v in radii)), None  # type: ignore[arg-type]
        if tag == "cone":
            r, length = value(shape, "radius", 0.5), value(shape, "length", 1.0)
            self.notes.lost(f"{what} is a cone, which URDF lacks: the nearest is a cylinder around it")
            return Geometry("cylinder", radius=r, length=length), None
        if tag == "plane":
            size = floats(_text(shape, "size"), 2, (1.0, 1.0))
            normal = floats(_text(shape, "normal"), 3, (0.0, 0.0, 1.0))
            self.notes.lost(f"{what} is a plane, which URDF lacks: the nearest is a thin box")
            return Geometry("box", size=(size[0], size[1], 0.0)), Transform(q=_z_to(normal))
        self.notes.lost(f"{what} is a <{tag}>, which URDF cannot describe: left out")
        return None, None

    def material(self, what: str, visual: XmlElement, name: str) -> tuple[Material | None, str | None]:
        """The visual's colour as a URDF material, and the name of a Gazebo material script if it has one."""
        m = visual.child("material")
        if m is None:
            return None, None
        script = m.child("script")
        script_name = _text(script, "name") if script is not None else None
        for tag in ("diffuse", "ambient"):
            c = m.child(tag)
            if c is not None:
                rgba = floats(c.text, 4, ()) or floats(c.text, 3, ())
                if len(rgba) == 3:
                    rgba = (*rgba, 1.0)
                if rgba:
                    return Material(name, rgba=rgba), script_name  # type: ignore[arg-type]
        return None, script_name

    def uri(self, uri: str, what: str) -> str:
        """A mesh URI as ``--mesh-uri`` asks: package:// (default), file:// on disk, or kept."""
        uri = uri.strip()
        if self.mesh_uri == "keep":
            return uri
        base = os.path.dirname(self.flat.path) if self.flat.path else None
        if self.mesh_uri == "package":
            if uri.startswith("model://"):
                return "package://" + uri[len("model://") :]
            if "://" in uri:
                return uri
            pkg = _model_dir_name(base)
            rel = os.path.normpath(uri) if uri and not os.path.isabs(uri) else None
            if pkg is not None and rel is not None and not rel.startswith(".."):
                return f"package://{pkg}/{rel.replace(os.sep, '/')}"
        hit = lookup(uri, base, self.resource_paths, package_paths=self.package_paths)
        if hit.path is not None:
            return "file://" + urllib.parse.quote(os.path.abspath(hit.path))
        if self.mesh_uri == "file":
            self.notes.warnings.append(f"{what}: mesh '{uri}' was not found on the resource path; kept as written")
        return uri


def _text(el: XmlElement | None, tag: str) -> str | None:
    c = el.child(tag) if el is not None else None
    return c.text if c is not None else None


def _model_dir_name(directory: str | None) -> str | None:
    """The name of the model directory holding the file (it has a model.config), for package:// URIs."""
    if directory and os.path.exists(os.path.join(directory, "model.config")):
        return os.path.basename(os.path.abspath(directory))
    return None


def _z_to(n: tuple[float, ...]) -> tuple[float, float, float, float]:
    """The shortest rotation taking +Z to ``n``, as a quaternion (w, x, y, z)."""
    norm = math.sqrt(sum(v * v for v in n)) or 1.0
    x, y, z = (v / norm for v in n)
    w = 1.0 + z
    if w < 1e-12:
        return (0.0, 1.0, 0.0, 0.0)
    s = math.sqrt(w * w + x * x + y * y)
    return (w / s, -y / s, x / s, 0.0)
