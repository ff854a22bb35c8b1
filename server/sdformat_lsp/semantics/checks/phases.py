"""The validation phases of the composition proposal (1.6.1 models, 1.6.2 worlds).

Each phase reports a root cause once. Nodes whose problem was already
reported are remembered in ``broken`` so that later phases (graph sinks,
poses) stay quiet about the consequences: one mistake, one diagnostic.

The phases live in modules of their own (``checks.name_checks``, ``checks.joint_checks``,
``checks.frame_checks``) over the shared helpers of ``checks.base``; :class:`Checker`
puts them together in order. ``ROOT_ONLY``, ``ROOT_NOT_STATIC`` and
``top_level_scope`` stay importable from here.
"""

from __future__ import annotations

from ...diagnostics import Diagnostic
from ...xml import XmlDocument
from .base import UNKNOWN_REFERENCE, ROOT_NOT_STATIC, ROOT_ONLY, top_level_scope
from .frame_checks import FrameChecks
from .joint_checks import JointChecks
from .name_checks import NameChecks
from ..frames import FrameGraphs

__all__ = ["ROOT_NOT_STATIC", "ROOT_ONLY", "Checker", "check", "top_level_scope"]


class Checker(NameChecks, JointChecks, FrameChecks):
    """Every phase, run in the order of the composition proposal."""

    def run(self, names: bool = True, duplicates: list[Diagnostic] | None = None) -> list[Diagnostic]:
        if names:
            self.names(duplicates)
        self.joints()
        self.models()
        self.attached_to()
        self.relative_to()
        self.axes()
        self.inner_poses()
        return [d for d in self.out if not d.data.get(UNKNOWN_REFERENCE)]


def check(
    xml: XmlDocument,
    graphs: FrameGraphs,
    version: tuple[int, int],
    names: bool = True,
    duplicates: list[Diagnostic] | None = None,
    more_names: tuple[str, ...] = (),
) -> list[Diagnostic]:
    """Every phase over ``graphs``; ``names=False`` leaves out the name phase (done elsewhere);
    ``duplicates``: the repeated sibling names, when the schema check's walk found them; ``more_names``:
    names of the top scope its text leaves out (``Options.top_scope_names``), offered as suggestions."""
    return Checker(xml, graphs, version, more_names).run(names, duplicates)
