"""Pose math for the semantics layer: the model layer's ``transform`` module.

The functions live in ``model.transform`` so that the URDF format package,
which sits below semantics, composes poses with the same code.
"""

from ..model.transform import (
    IDENTITY,
    Quat,
    Transform,
    Vec,
    quat_from_rpy,
    quat_mul,
    rotate,
    rotation_matrix,
    rpy_from_quat,
    transform_of,
)

__all__ = [
    "IDENTITY",
    "Quat",
    "Transform",
    "Vec",
    "quat_from_rpy",
    "quat_mul",
    "rotate",
    "rotation_matrix",
    "rpy_from_quat",
    "transform_of",
]
