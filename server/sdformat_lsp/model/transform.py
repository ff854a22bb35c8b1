"""Rigid transforms as libsdformat computes them (ignition/gz-math conventions).

Rotations are unit quaternions ``(w, x, y, z)``; ``roll pitch yaw`` is the
extrinsic X-Y-Z sequence, R = Rz(yaw) Ry(pitch) Rx(roll), converted with the
same half-angle formulas as gz-math so results agree to rounding.

This is plain geometry on the model's ``PoseSpec`` values, kept in the model
layer so that every layer above (semantics, the URDF format package, features)
can compose poses without importing upward. ``semantics.pose`` re-exports it.
"""

from __future__ import annotations

import math

from ..records import record
from .elements import PoseSpec

Quat = tuple[float, float, float, float]
Vec = tuple[float, float, float]


def quat_from_rpy(roll: float, pitch: float, yaw: float) -> Quat:
    phi, the, psi = roll / 2.0, pitch / 2.0, yaw / 2.0
    cp, sp = math.cos(phi), math.sin(phi)
    ct, st = math.cos(the), math.sin(the)
    cs, ss = math.cos(psi), math.sin(psi)
    q = (
        cp * ct * cs + sp * st * ss,
        sp * ct * cs - cp * st * ss,
        cp * st * cs + sp * ct * ss,
        cp * ct * ss - sp * st * cs,
    )
    return _normalized(q)


def _normalized(q: Quat) -> Quat:
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    if n < 1e-300:
        return (1.0, 0.0, 0.0, 0.0)
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def quat_mul(a: Quat, b: Quat) -> Quat:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def rotate(q: Quat, v: Vec) -> Vec:
    w, x, y, z = q
    vx, vy, vz = v
    # t = 2 * cross(q.xyz, v); v' = v + w t + cross(q.xyz, t)
    tx = 2.0 * (y * vz - z * vy)
    ty = 2.0 * (z * vx - x * vz)
    tz = 2.0 * (x * vy - y * vx)
    return (
        vx + w * tx + (y * tz - z * ty),
        vy + w * ty + (z * tx - x * tz),
        vz + w * tz + (x * ty - y * tx),
    )


def rpy_from_quat(q: Quat) -> Vec:
    """Roll, pitch, yaw of ``q`` as gz-math computes them.

    At pitch = ±90° only roll ∓ yaw is defined; like gz-math we then set
    yaw to zero and put the whole rotation about X into roll.
    """
    w, x, y, z = _normalized(q)
    squ, sqx, sqy, sqz = w * w, x * x, y * y, z * z
    roll = math.atan2(2.0 * (y * z + w * x), squ - sqx - sqy + sqz)
    sarg = -2.0 * (x * z - w * y)
    if sarg <= -1.0:
        pitch = -0.5 * math.pi
    elif sarg >= 1.0:
        pitch = 0.5 * math.pi
    else:
        pitch = math.asin(sarg)
    if abs(sarg - 1.0) < 1e-15:
        yaw = 0.0
        roll = math.atan2(2.0 * (x * y - z * w), squ - sqx + sqy - sqz)
    elif abs(sarg + 1.0) < 1e-15:
        yaw = 0.0
        roll = math.atan2(-2.0 * (x * y - z * w), squ - sqx + sqy - sqz)
    else:
        yaw = math.atan2(2.0 * (x * y + w * z), squ + sqx - sqy - sqz)
    return (roll, pitch, yaw)


def rotation_matrix(q: Quat) -> tuple[Vec, Vec, Vec]:
    w, x, y, z = _normalized(q)
    return (
        (1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)),
        (2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)),
        (2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)),
    )


@record(slots=True)
class Transform:
    """``X_AB``: the pose of frame B expressed in frame A."""

    p: Vec = (0.0, 0.0, 0.0)
    q: Quat = (1.0, 0.0, 0.0, 0.0)

    def __mul__(self, other: "Transform") -> "Transform":
        """``X_AB * X_BC = X_AC``."""
        r = rotate(self.q, other.p)
        return Transform(
            (self.p[0] + r[0], self.p[1] + r[1], self.p[2] + r[2]),
            _normalized(quat_mul(self.q, other.q)),
        )

    def inverse(self) -> "Transform":
        w, x, y, z = self.q
        qi = (w, -x, -y, -z)
        r = rotate(qi, self.p)
        return Transform((-r[0], -r[1], -r[2]), qi)

    @property
    def rpy(self) -> Vec:
        return rpy_from_quat(self.q)

    def as_list(self) -> list[float]:
        """``[x, y, z, roll, pitch, yaw]`` with negative zeros cleaned."""
        return [v + 0.0 for v in (*self.p, *self.rpy)]

    @property
    def quat_xyzw(self) -> tuple[float, float, float, float]:
        w, x, y, z = self.q
        return (x, y, z, w)

    @classmethod
    def from_xyzrpy(cls, x: float, y: float, z: float, r: float, p: float, yaw: float) -> "Transform":
        return cls((x, y, z), quat_from_rpy(r, p, yaw))


IDENTITY = Transform()


def symmetric_eigenvalues(m) -> list[float]:
    """Eigenvalues of a symmetric 3x3 matrix (rows of floats), ascending (closed form).

    Shared by the inertia checks of SDFormat, URDF and the inertial statistics."""
    p1 = m[0][1] ** 2 + m[0][2] ** 2 + m[1][2] ** 2
    if p1 == 0.0:
        return sorted([m[0][0], m[1][1], m[2][2]])
    q = (m[0][0] + m[1][1] + m[2][2]) / 3.0
    p2 = (m[0][0] - q) ** 2 + (m[1][1] - q) ** 2 + (m[2][2] - q) ** 2 + 2.0 * p1
    p = math.sqrt(p2 / 6.0)
    b = [[(m[i][j] - (q if i == j else 0.0)) / p for j in range(3)] for i in range(3)]
    det = (
        b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1])
        - b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0])
        + b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0])
    )
    phi = math.acos(max(-1.0, min(1.0, det / 2.0))) / 3.0
    e1 = q + 2.0 * p * math.cos(phi)
    e3 = q + 2.0 * p * math.cos(phi + 2.0 * math.pi / 3.0)
    return sorted([e1, 3.0 * q - e1 - e3, e3])


def transform_of(spec: PoseSpec | None) -> Transform:
    """The transform a ``<pose>`` describes (identity when absent or broken)."""
    if spec is None or not spec.valid or spec.element is None or len(spec.values) < 6:
        return IDENTITY
    v = spec.values
    if spec.quaternion:
        qx, qy, qz, qw = v[3:7]
        return Transform((v[0], v[1], v[2]), _normalized((qw, qx, qy, qz)))
    r, p, y = v[3:6]
    if spec.degrees:
        r, p, y = math.radians(r), math.radians(p), math.radians(y)
    return Transform((v[0], v[1], v[2]), quat_from_rpy(r, p, y))
