"""Formats other than SDFormat, each in a package of its own.

They sit between the model layer and semantics: a reader turns its format
into the document model (``model``) so that semantics analyses it like
SDFormat; writers turn plain descriptions back into text. Nothing here
imports semantics, features or the shells.
"""
