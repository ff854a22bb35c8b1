"""The schema check: one walk of the element tree against the declared version's spec tables.

Holds the walk (``validation.py``), what other versions of the spec say of a name
(``versions.py``), names the declared version lacks (``unknown.py``), the keys that let the
models of a populated world be checked once (``keys.py``), which once-only children
libsdformat's classes read (``schema/schema.read_once.py``) and one diagnostic for a mistake repeated across
a document (``repeated_mistakes.py``). The domain checks and the sibling-name comparison of
``checks`` ride on this walk.

Exports nothing at package level: import from the modules. Never looks at the frame graphs or
at included files, and never judges an element twice when its source text repeats.
"""
