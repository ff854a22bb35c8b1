"""The SDFormat document model built from the XML layer."""

from .builder import build, parse_bool, version_tuple
from .elements import NO_POSE, Document, Frame, Include, Joint, Link, Model, Named, PoseSpec, Ref, World

__all__ = [
    "NO_POSE",
    "Document",
    "Frame",
    "Include",
    "Joint",
    "Link",
    "Model",
    "Named",
    "PoseSpec",
    "Ref",
    "World",
    "build",
    "parse_bool",
    "version_tuple",
]
