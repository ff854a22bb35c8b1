"""MJCF (MuJoCo's model format) as an interface model: the project's own reader of its kinematic tree.

An ``<include>`` of a ``.xml`` file whose root is ``<mujoco>`` brings in the
bodies, sites, cameras and joints of its ``<worldbody>`` (``reader.py``, with
MuJoCo's orientations in ``orientation.py``); the including SDFormat model can
attach to them and place relative to them like to any included model's frames.
"""

from .name_references import MJCF_REFERENCE_UNKNOWN
from .reader import MJCF_ERROR, is_mjcf, read_mjcf

__all__ = ["MJCF_ERROR", "MJCF_REFERENCE_UNKNOWN", "is_mjcf", "read_mjcf"]
