"""MuJoCo's frame orientations, as its XML reference documents them.

A body, site, camera, geom or frame is placed by ``pos`` and at most one of
``quat`` (w x y z, normalised), ``axisangle`` (an axis and an angle about
it), ``xyaxes`` (the frame's X and Y axes, Y made orthogonal to X), ``zaxis``
(the frame's Z axis; the rotation is the smallest one taking the parent's Z
to it) and ``euler`` (three angles about the axes named by
``<compiler eulerseq>``, lower case for axes that move with the frame, upper
case for fixed ones). Angles are in degrees unless ``<compiler angle="radian">``.
"""

from __future__ import annotations

import math

from ...model.transform import Quat, quat_mul

ORIENTATIONS = ("quat", "axisangle", "xyaxes", "zaxis", "euler")
_AXES = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0)}


def _norm(v) -> float:
    return math.sqrt(sum(c * c for c in v))


def _axis_angle(axis, angle: float) -> Quat:
    n = _norm(axis)
    if n < 1e-15:
        raise ValueError("the axis has zero length")
    s = math.sin(angle / 2) / n
    return (math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s)


def _from_matrix_columns(x, y, z) -> Quat:
    from ...interface.pose import quat_from_matrix

    r = [[x[0], y[0], z[0]], [x[1], y[1], z[1]], [x[2], y[2], z[2]]]
    return quat_from_matrix(r)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def orientation(kind: str, values: list[float], degrees: bool, eulerseq: str) -> Quat:
    """(w, x, y, z) of one orientation attribute; ValueError when its values cannot make one."""
    if kind == "quat":
        if len(values) != 4:
            raise ValueError("quat needs 4 numbers (w x y z)")
        n = _norm(values)
        if n < 1e-15:
            raise ValueError("quat has zero length")
        return (values[0] / n, values[1] / n, values[2] / n, values[3] / n)
    if kind == "axisangle":
        if len(values) != 4:
            raise ValueError("axisangle needs 4 numbers (x y z angle)")
        angle = math.radians(values[3]) if degrees else values[3]
        return _axis_angle(values[:3], angle)
    if kind == "euler":
        if len(values) != 3:
            raise ValueError("euler needs 3 numbers")
        q: Quat = (1.0, 0.0, 0.0, 0.0)
        for letter, a in zip(eulerseq, values):
            r = _axis_angle(_AXES[letter.lower()], math.radians(a) if degrees else a)
            q = quat_mul(q, r) if letter.islower() else quat_mul(r, q)  # moving axes post-multiply
        return q
    if kind == "xyaxes":
        if len(values) != 6:
            raise ValueError("xyaxes needs 6 numbers")
        x, y = values[:3], values[3:]
        nx = _norm(x)
        if nx < 1e-15:
            raise ValueError("the X axis has zero length")
        x = [c / nx for c in x]
        d = sum(a * b for a, b in zip(x, y))
        y = [b - d * a for a, b in zip(x, y)]
        ny = _norm(y)
        if ny < 1e-15:
            raise ValueError("the Y axis is parallel to the X axis")
        y = [c / ny for c in y]
        return _from_matrix_columns(x, y, _cross(x, y))
    if kind == "zaxis":
        if len(values) != 3:
            raise ValueError("zaxis needs 3 numbers")
        n = _norm(values)
        if n < 1e-15:
            raise ValueError("the Z axis has zero length")
        z = [c / n for c in values]
        # the minimal rotation taking (0, 0, 1) to z (mju_quatZ2Vec)
        axis = _cross((0.0, 0.0, 1.0), z)
        s = _norm(axis)
        if s < 1e-10:
            return (1.0, 0.0, 0.0, 0.0) if z[2] > 0 else (0.0, 1.0, 0.0, 0.0)
        angle = math.atan2(s, z[2])
        return _axis_angle(axis, angle)
    raise ValueError(f"unknown orientation {kind}")
