"""Inertials as rigid-body physics: read from URDF, moved between frames, added, checked.

libsdformat adds the inertial of a link lumped by fixed-joint reduction to
the link it goes into, and then refuses a link whose inertia no rigid body
can have (``LINK_INERTIA_INVALID``). The sum is computed here the textbook
way (rotate into the common frame, parallel axis theorem about the combined
centre of mass); the validity test is gz-math's: principal moments
non-negative and each at most the sum of the other two.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...model.transform import Transform, rotation_matrix, symmetric_eigenvalues
from ...xml import XmlElement
from .values import number

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]


@dataclass(frozen=True)
class Body:
    """Mass, centre of mass and inertia about it, all in one frame."""

    mass: float
    com: tuple[float, float, float]
    inertia: Matrix  # about com, axes of the frame

    @staticmethod
    def of(mass: float, origin: Transform, values: tuple[float, ...]) -> "Body":
        """From a URDF-style inertial: ``origin`` in the frame, inertia (ixx ixy ixz iyy iyz izz) in the origin's axes."""
        ixx, ixy, ixz, iyy, iyz, izz = values
        local = ((ixx, ixy, ixz), (ixy, iyy, iyz), (ixz, iyz, izz))
        return Body(mass, origin.p, _rotate(rotation_matrix(origin.q), local))

    def moved(self, t: Transform) -> "Body":
        """The same body seen from the frame in which ``t`` is this body's frame."""
        r = rotation_matrix(t.q)
        c = tuple(t.p[i] + sum(r[i][k] * self.com[k] for k in range(3)) for i in range(3))
        return Body(self.mass, c, _rotate(r, self.inertia))  # type: ignore[arg-type]

    def __add__(self, other: "Body") -> "Body":
        m = self.mass + other.mass
        if m <= 0:
            return Body(0.0, (0.0, 0.0, 0.0), _add(self.inertia, other.inertia))
        c = tuple((self.mass * a + other.mass * b) / m for a, b in zip(self.com, other.com))
        total = _add(_shift(self, c), _shift(other, c))
        return Body(m, c, total)  # type: ignore[arg-type]

    def values(self) -> tuple[float, float, float, float, float, float]:
        i = self.inertia
        return (i[0][0], i[0][1], i[0][2], i[1][1], i[1][2], i[2][2])


def _rotate(r: Matrix, i: Matrix) -> Matrix:
    """R I R^T."""
    ri = [[sum(r[a][k] * i[k][b] for k in range(3)) for b in range(3)] for a in range(3)]
    return tuple(tuple(sum(ri[a][k] * r[b][k] for k in range(3)) for b in range(3)) for a in range(3))  # type: ignore[return-value]


def _add(a: Matrix, b: Matrix) -> Matrix:
    return tuple(tuple(a[i][j] + b[i][j] for j in range(3)) for i in range(3))  # type: ignore[return-value]


def _shift(body: Body, point) -> Matrix:
    """Inertia of ``body`` about ``point`` (parallel axis theorem)."""
    d = [body.com[k] - point[k] for k in range(3)]
    dd = sum(v * v for v in d)
    return tuple(
        tuple(body.inertia[i][j] + body.mass * ((dd if i == j else 0.0) - d[i] * d[j]) for j in range(3))
        for i in range(3)
    )  # type: ignore[return-value]


def problem(body: Body) -> str | None:
    """Why no rigid body has this mass and inertia, or None when one can."""
    if body.mass < 0:
        return f"a negative mass ({body.mass:g})"
    moments = symmetric_eigenvalues(body.inertia)
    eps = 10 * 2.220446049250313e-16 * max(abs(x) for x in moments) if any(moments) else 0.0
    a, b, c = moments
    if min(moments) < -eps or a + b + eps < c or b + c + eps < a or a + c + eps < b:
        return (
            f"an inertia no rigid body can have (principal moments {a:.6g}, {b:.6g}, {c:.6g} must be non-negative "
            "and each at most the sum of the other two)"
        )
    return None


def read(inertial: XmlElement | None, origin: Transform) -> Body | None:
    """The ``<inertial>`` of a URDF link (None without one or when its numbers do not read)."""
    if inertial is None:
        return None
    mass_el = inertial.child("mass")
    mass = number(mass_el.get("value") or "") if mass_el is not None else None
    el = inertial.child("inertia")
    names = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
    values = [number(el.get(n) or "") if el is not None else None for n in names]
    if mass is None or any(v is None for v in values):
        return None
    return Body.of(mass, origin, tuple(values))  # type: ignore[arg-type]


def origin_of(owner: XmlElement) -> Transform:
    """The ``<origin>`` of ``owner`` (identity when absent; unreadable parts count as zero, as reported elsewhere)."""
    el = owner.child("origin")
    if el is None:
        return Transform()

    def three(name: str) -> tuple[float, float, float]:
        parts = [number(v) for v in (el.get(name) or "").split()]
        return tuple(parts) if len(parts) == 3 and None not in parts else (0.0, 0.0, 0.0)  # type: ignore[return-value]

    return Transform.from_xyzrpy(*three("xyz"), *three("rpy"))
