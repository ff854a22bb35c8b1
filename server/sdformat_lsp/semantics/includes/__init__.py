"""Include resolution: from an ``<include>`` to the analysis of the file it names, placed in its scope.

Holds the resolver the frame graphs call for each ``<include>`` (``resolver.py``), reading and
caching the included files' analyses (``cache.py``), the checks on an ``<include>`` itself
(``placement.py``), an included file's errors as one diagnostic on its include (``summary.py``),
where a URI points on disk (``includes/resources.py``), mesh files that are not found (``mesh_files.py``, ``MESH_LOOKUP``, the lookup the 3D view shares), ``<experimental:params>`` (``includes/params.py``) and the
check of a ``model.config`` (``includes/includes.model_config.py``).

Exports nothing at package level: import from the modules, so that a check of a document
without the word ``include`` loads none of the resolver (``tests/core/test_startup_imports.py``).
Never touches the network, never follows an include past the depth and instance budgets, and
never raises on a missing, unreadable or recursive include: each is a diagnostic on the include.
"""
