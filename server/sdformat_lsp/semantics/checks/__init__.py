"""The checks run on a built analysis: names, joints, frames, libsdformat's loaders, inertials.

Holds the validation phases of the composition proposal (``phases.py`` puts together
``name_checks.py``, ``joint_checks.py`` and ``frame_checks.py`` over the helpers of ``base.py``),
the top-level joint check on merged joints (``checks/checks.merged_checks.py``), the checks libsdformat's
loaders make beyond the schema (``checks/domain.py``), the comparison of sibling names
(``checks/checks.sibling_names.py``), verdicts remembered by an element's source text (``checks/checks.same_text.py``),
mass properties and inertial warnings (``mass_properties.py``), the parameters of the Gazebo plugins
the catalogue knows (``plugins.py``, imported only for a text holding ``<plugin``), and the suppression comments and
per-code severities applied last (``checks/checks.suppressions.py``).

Exports nothing at package level: import from the modules. Never builds the frame graphs
(they are given), never reads a file, and reports each root cause once (``Checker.broken``).
"""
