"""A parser's pose, whatever of the accepted forms it is written in, as a transform.

Six numbers are x y z roll pitch yaw in radians (libsdformat's ``Pose3d``
convention: fixed-axis roll, then pitch, then yaw); a 4x4 homogeneous matrix
is given by rows; a :class:`Transform` is taken as is. Anything else, or a
number that is not finite, is the parser's fault (:class:`ValueError`).
"""

from __future__ import annotations

import math
import numbers

from ..model.transform import Transform


def _number(v: object) -> float:
    if isinstance(v, bool) or not isinstance(v, numbers.Real):  # numpy's scalars are Reals too
        raise ValueError(f"{v!r} is not a number")
    f = float(v)
    if not math.isfinite(f):
        raise ValueError(f"{f} is not finite")
    return f


def _rows(m: list) -> list[list[float]] | None:
    try:
        rows = [list(r) for r in m]
    except TypeError:
        return None
    return [[_number(v) for v in r] for r in rows]


def as_transform(pose: object) -> Transform:
    """The transform ``pose`` stands for; ValueError when it is none of the accepted forms."""
    if isinstance(pose, Transform):
        for v in (*pose.p, *pose.q):
            _number(v)
        return pose
    if isinstance(pose, (str, bytes)) or pose is None:
        raise ValueError(f"a pose is six numbers, a 4x4 matrix or a Transform, not {pose!r}")
    try:
        items = list(pose)  # type: ignore[call-overload]
    except TypeError:
        raise ValueError(f"a pose is six numbers, a 4x4 matrix or a Transform, not {pose!r}") from None
    if len(items) == 6 and not any(hasattr(v, "__len__") for v in items):
        return Transform.from_xyzrpy(*(_number(v) for v in items))
    if len(items) == 4:
        rows = _rows(items)
        if rows is not None and all(len(r) == 4 for r in rows):
            return _from_matrix(rows)
    raise ValueError(f"a pose is six numbers, a 4x4 matrix or a Transform, not {pose!r}")


def _from_matrix(m: list[list[float]]) -> Transform:
    if any(abs(a - b) > 1e-9 for a, b in zip(m[3], (0.0, 0.0, 0.0, 1.0))):
        raise ValueError("the last row of a 4x4 pose matrix must be 0 0 0 1")
    r = [row[:3] for row in m[:3]]
    for i in range(3):  # orthonormal with determinant +1, to a tolerance a float parser keeps
        for j in range(3):
            dot = sum(r[k][i] * r[k][j] for k in range(3))
            if abs(dot - (1.0 if i == j else 0.0)) > 1e-6:
                raise ValueError("the rotation of a 4x4 pose matrix is not orthonormal")
    det = (
        r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1])
        - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0])
        + r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0])
    )
    if det < 0:
        raise ValueError("the rotation of a 4x4 pose matrix is a reflection")
    return Transform((m[0][3], m[1][3], m[2][3]), quat_from_matrix(r))


def quat_from_matrix(r: list[list[float]]) -> tuple[float, float, float, float]:
    """(w, x, y, z) of a rotation matrix (Shepperd's method, the largest pivot), w >= 0."""
    t = r[0][0] + r[1][1] + r[2][2]
    if t > 0:
        s = math.sqrt(t + 1.0) * 2
        q = (0.25 * s, (r[2][1] - r[1][2]) / s, (r[0][2] - r[2][0]) / s, (r[1][0] - r[0][1]) / s)
    elif r[0][0] > r[1][1] and r[0][0] > r[2][2]:
        s = math.sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]) * 2
        q = ((r[2][1] - r[1][2]) / s, 0.25 * s, (r[0][1] + r[1][0]) / s, (r[0][2] + r[2][0]) / s)
    elif r[1][1] > r[2][2]:
        s = math.sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]) * 2
        q = ((r[0][2] - r[2][0]) / s, (r[0][1] + r[1][0]) / s, 0.25 * s, (r[1][2] + r[2][1]) / s)
    else:
        s = math.sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]) * 2
        q = ((r[1][0] - r[0][1]) / s, (r[0][2] + r[2][0]) / s, (r[1][2] + r[2][1]) / s, 0.25 * s)
    n = math.sqrt(sum(v * v for v in q))
    w, x, y, z = (v / n for v in q)
    return (w, x, y, z) if w >= 0 else (-w, -x, -y, -z)
