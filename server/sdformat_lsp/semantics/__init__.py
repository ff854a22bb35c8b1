"""Scopes, frame graphs, pose math, include resolution and the checks."""

from .analysis import Analysis, Options, analyze

__all__ = ["Analysis", "Options", "analyze"]
