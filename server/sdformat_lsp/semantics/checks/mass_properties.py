"""Mass properties: each link's inertial as written, and per model the total mass, centre of mass
and inertia about it in the model frame, summed over its links and nested models.

What ``gz sdf --inertial-stats`` computes, as plain data for the CLI (and anything else), and
the warnings that a physically impossible or useless inertial deserves in ``check`` and the
editor. The errors libsdformat itself raises (negative mass, moments that break the triangle
inequality) are checks/domain.py's; the warnings here are for inertials libsdformat loads but no
physics engine can simulate well: a zero mass, a singular inertia, a moving link with no mass.
"""

from __future__ import annotations

import math

from ...diagnostics import Diagnostic, Related, warning
from ...model.builder import Builder
from ...model.transform import IDENTITY, Transform, rotation_matrix, symmetric_eigenvalues, transform_of
from ...records import record
from ...text import LineIndex
from ...xml import XmlDocument, XmlElement
from ...collector_pause import collector_paused
from .same_text import SameText

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
_NAMES = ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")
_DEFAULTS = (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)  # libsdformat's defaults when <inertial> or a value is absent


@record
class LinkInertial:
    """A link's mass, the pose of its inertial frame in the link frame, and its inertia there."""

    mass: float
    pose: Transform  # X_link_inertial
    inertia: Matrix  # about the centre of mass, in the inertial frame
    element: XmlElement | None  # <inertial>, None when absent (libsdformat's defaults apply)
    auto: bool = False  # <inertial auto="true">: computed by libsdformat from collisions, unknown here


@record
class MassProperties:
    """Totals in one frame: mass, centre of mass and the inertia about the centre of mass."""

    mass: float
    com: tuple[float, float, float]
    inertia: Matrix
    links: int
    unknown: tuple[str, ...] = ()  # links left out: auto inertials, unresolved poses


def _scalar(el: XmlElement | None, default: float) -> float | None:
    """The number an element holds; ``default`` when it is absent or empty (libsdformat sets an element's
    value from its text only: ``<mass value="500"/>`` is a mass of 1 kg, not an unknown one)."""
    if el is None:
        return default
    words = el.text.split()
    if not words and not el.children:
        return default
    if len(words) != 1:
        return None
    try:
        value = float(words[0])
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def link_inertial(link: XmlElement, builder: Builder | None) -> LinkInertial | None:
    """The inertial of a ``<link>`` element; None when a value is not a number (the schema check says so)."""
    inertial = link.child("inertial")
    if inertial is None:
        return LinkInertial(1.0, IDENTITY, _matrix(_DEFAULTS), None)
    auto = (inertial.get("auto") or "").strip().lower() in ("true", "1")
    mass = _scalar(inertial.child("mass"), 1.0)
    inertia_el = inertial.child("inertia")
    values = [_scalar(inertia_el.child(n) if inertia_el is not None else None, d) for n, d in zip(_NAMES, _DEFAULTS)]
    if mass is None or None in values:
        return None
    pose = transform_of(builder.pose(inertial)) if builder is not None else IDENTITY  # without a builder: not needed
    return LinkInertial(mass, pose, _matrix(values), inertial, auto)


def _matrix(v) -> Matrix:
    ixx, iyy, izz, ixy, ixz, iyz = v
    return ((ixx, ixy, ixz), (ixy, iyy, iyz), (ixz, iyz, izz))


def _rotate(r: Matrix, m: Matrix) -> Matrix:
    """R M R^T."""
    rm = [[sum(r[i][k] * m[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    # a 3x3 made by comprehensions over range(3), which a type checker reads as tuples of any length
    return tuple(tuple(sum(rm[i][k] * r[j][k] for k in range(3)) for j in range(3)) for i in range(3))  # type: ignore[return-value]


def combine(parts: list[tuple[float, Transform, Matrix]]) -> tuple[float, tuple[float, float, float], Matrix]:
    """Sum bodies given as (mass, X_frame_com, inertia about com in the com frame): total mass,
    centre of mass and inertia about it, both in the frame (parallel axis theorem)."""
    total = sum(m for m, _, _ in parts)
    if total <= 0.0:
        return total, (0.0, 0.0, 0.0), ((0.0,) * 3,) * 3
    com = tuple(sum(m * x.p[i] for m, x, _ in parts) / total for i in range(3))
    acc = [[0.0] * 3 for _ in range(3)]
    for m, x, inertia in parts:
        rotated = _rotate(rotation_matrix(x.q), inertia)
        d = [x.p[i] - com[i] for i in range(3)]
        d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
        for i in range(3):
            for j in range(3):
                acc[i][j] += rotated[i][j] + m * ((d2 if i == j else 0.0) - d[i] * d[j])
    # a point and a 3x3 made by comprehensions over range(3), which a type checker reads as tuples of any length
    return total, com, tuple(tuple(row) for row in acc)  # type: ignore[return-value]


def principal_moments(m: Matrix) -> tuple[float, float, float]:

    a, b, c = symmetric_eigenvalues([list(row) for row in m])
    return (a, b, c)


# -- warnings ---------------------------------------------------------------------------------


def inertial_warnings(xml: XmlDocument) -> list[Diagnostic]:
    """Inertials libsdformat loads but a simulation cannot use well (errors are checks/domain.py's)."""
    out: list[Diagnostic] = []
    root = xml.root
    if root is None:
        return out
    kinds = _Kinds(SameText(xml))
    stack = [(root, False)]
    while stack:
        el, static = stack.pop()
        if el.tag == "model":
            s = el.child("static")
            static = static or (s is not None and s.text.strip().lower() in ("true", "1"))
            if not static:
                _model_warnings(el, kinds, out)
        stack.extend((c, static) for c in el.children if c.tag in ("world", "model"))
    return out


# What a link's <inertial> is, for the warnings: all that they ask of it besides spans and names.
_UNKNOWN = "unknown"  # a value that is not a number, or auto="true": its mass is unknown here
_ZERO = "zero"  # mass 0
_SINGULAR = "singular"  # a positive mass with an inertia that is not positive definite
_FINE = "fine"  # nothing to warn about (errors, such as a negative mass, are checks/domain.py's)


class _Kinds:
    """The kind of each <inertial>, worked out once per distinct source text (checks/same_text.py)."""

    __slots__ = ("same", "known")

    def __init__(self, same: SameText) -> None:
        self.same = same
        self.known: dict[str, str] = {}

    def of(self, link: XmlElement, inertial: XmlElement) -> str:
        key = self.same.key(inertial)
        if key is None:
            return _kind(link_inertial(link, None))
        kind = self.known.get(key)
        if kind is None:
            kind = self.known[key] = _kind(link_inertial(link, None))
        return kind


def _kind(found: LinkInertial | None) -> str:
    if found is None or found.auto:
        return _UNKNOWN
    if found.mass == 0.0:
        return _ZERO
    if found.mass < 0:
        return _FINE  # an error (checks/domain.py)
    a, b, c = principal_moments(found.inertia)
    eps = 10 * 2.220446049250313e-16 * max(abs(a), abs(b), abs(c))
    if a < -eps or a + b + eps < c:
        return _FINE  # an error (checks/domain.py)
    return _SINGULAR if a <= eps else _FINE


def _model_warnings(model: XmlElement, kinds: _Kinds, out: list[Diagnostic]) -> None:
    """A non-static model: massless links that move, a model with no mass at all, singular inertias."""
    moving: dict[str, XmlElement] | None = None  # read when a link has zero mass (most models have none)
    massless: list[tuple[str, XmlElement]] = []
    links = 0
    for link in model.children_named("link"):
        links += 1
        inertial = link.child("inertial")
        if inertial is None:
            continue  # libsdformat's defaults: mass 1, unit inertia
        kind = kinds.of(link, inertial)
        if kind is _FINE:
            continue
        if kind is _UNKNOWN:
            massless.append(("", link))  # unknown here: never "the whole model is massless"
            continue
        name = link.get("name") or ""
        mass_el = inertial.child("mass")
        where = mass_el.text_span if mass_el is not None and mass_el.text_span else inertial.tag_span
        if kind is _ZERO:
            massless.append((name, link))
            if moving is None:
                moving = _moving_links(model)
            joint = moving.get(name)
            if joint is not None:
                jname = joint.get("name") or ""
                out.append(
                    warning(
                        "LINK_MASSLESS_MOVING",
                        f"link '{name}' has zero mass but joint '{jname}' moves it: physics engines cannot simulate a "
                        "massless moving body; give it a small positive mass and inertia, or make the joint fixed",
                        where,
                        related=(Related(joint.tag_span, f"joint '{jname}' moves link '{name}'"),),
                    )
                )
            continue
        found = link_inertial(link, None)  # _SINGULAR: the message gives the values
        assert found is not None
        a, b, c = principal_moments(found.inertia)
        inertia_el = inertial.child("inertia")
        span = inertia_el.tag_span if inertia_el is not None else inertial.tag_span
        out.append(
            warning(
                "LINK_INERTIA_SINGULAR",
                f"link '{name}' has mass {found.mass:g} but an inertia that is not positive definite (principal moments "
                f"{a:.6g}, {b:.6g}, {c:.6g}): it turns freely about an axis of zero inertia; give every principal moment "
                "a positive value",
                span,
            )
        )
    if links and len(massless) == links and all(name for name, _ in massless):
        first = massless[0][1]
        inertial_el = first.child("inertial")  # (a massless link has its <inertial><mass>)
        mass_el = inertial_el.child("mass") if inertial_el is not None else None
        span = (mass_el.text_span or mass_el.tag_span) if mass_el is not None else first.tag_span
        out.append(
            warning(
                "LINK_MASS_NOT_POSITIVE",
                f"every link of model '{model.get('name') or ''}' has zero mass: a model that is not static needs mass to be "
                "simulated; give its links positive masses, or make it <static>true</static>",
                span,
                related=tuple(Related(l.tag_span, f"link '{n}' has zero mass") for n, l in massless[1:20]),
            )
        )


def _moving_links(model: XmlElement) -> dict[str, XmlElement]:
    """Child links of this model's joints that are not fixed: link name -> the joint."""
    out: dict[str, XmlElement] = {}
    for joint in model.children_named("joint"):
        kind = (joint.get("type") or "").strip()
        if kind in ("fixed", ""):
            continue
        child = joint.child("child")
        if child is not None:
            out.setdefault(child.text.strip(), joint)
    return out


# -- statistics ---------------------------------------------------------------------------------


@record
class ModelStats:
    """The mass properties of one model (its links and nested models') in its own model frame."""

    name: str  # scoped from the document's root model or world ("outer::inner")
    static: bool
    props: MassProperties


def model_statistics(graphs, version: tuple[int, int]) -> list[ModelStats]:
    """Per model scope of ``graphs`` (a FrameGraphs), depth first in document order."""
    with collector_paused():
        return _model_statistics(graphs, version)


def _model_statistics(graphs, version: tuple[int, int]) -> list[ModelStats]:
    """Children before parents: each model sums its own links and its nested models' totals
    (each a rigid body at its centre of mass), so deep nesting stays linear."""
    builder = Builder(_NO_DOCUMENT)
    builder.version = version
    order = [s for s in graphs.root.iter_scopes() if s.kind == "model" and s.node is not None]
    totals: dict[
        int, tuple[float, Transform, Matrix, tuple[str, ...], int]
    ] = {}  # id(scope) -> com frame in the model, ...
    out: dict[int, ModelStats] = {}
    for scope in reversed(order):  # iter_scopes lists parents first
        base = graphs.pose(scope.node)
        inverse = base.inverse() if base is not None else None
        parts: list[tuple[float, Transform, Matrix]] = []
        unknown: list[str] = []
        links = 0
        for node in scope.frames.values():
            if node.kind != "link" or node.entity is None:
                continue
            element = getattr(node.entity, "element", None)
            found = link_inertial(element, builder) if element is not None else None
            pose = graphs.pose(node)
            if found is None or found.auto or pose is None or inverse is None:
                unknown.append(node.scoped_name())
                continue
            parts.append((found.mass, inverse * pose * found.pose, found.inertia))
            links += 1
        for child in scope.children.values():
            total = totals.get(id(child))
            if total is None:
                continue
            mass, x_child_com, inertia, child_unknown, child_links = total
            x_child = graphs.pose(child.node) if child.node is not None else None
            unknown.extend(child_unknown)
            if x_child is None or inverse is None:
                continue
            parts.append((mass, inverse * x_child * x_child_com, inertia))
            links += child_links
        mass, com, inertia = combine(parts)
        totals[id(scope)] = (mass, Transform(com), inertia, tuple(unknown), links)
        static = bool(getattr(scope.entity, "static", False))
        name = scope.name if scope.parent is None else _scoped(scope)
        out[id(scope)] = ModelStats(name, static, MassProperties(mass, com, inertia, links, tuple(unknown)))
    return [out[id(s)] for s in order]


def _scoped(scope) -> str:
    parts = []
    s = scope
    while s.parent is not None:
        parts.append(s.name)
        s = s.parent
    if s.kind == "model":
        parts.append(s.name)  # a model file: names start at its model
    return "::".join(reversed(parts))


# The builder's reader of poses needs a document only for its text, unused for poses: an empty one.
_NO_DOCUMENT = XmlDocument("", LineIndex(""), None)
