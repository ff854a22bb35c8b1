"""Conversions between SDFormat and URDF, below the shells.

``to_urdf`` writes the URDF of one SDFormat model with the same kinematics
(built on the analysis' frame graphs, through ``flatten``, ``tree``,
``parts`` and ``extensions``); ``to_sdf`` writes the SDFormat libsdformat
makes of a URDF. Both return text and messages, never print.
"""

from .to_sdf import SdfConversion, SdfOptions, urdf_to_sdf
from .to_urdf import Conversion, UrdfOptions, sdf_to_urdf

__all__ = ["Conversion", "SdfConversion", "SdfOptions", "UrdfOptions", "sdf_to_urdf", "urdf_to_sdf"]
