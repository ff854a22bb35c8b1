"""``sdformat-lsp print`` (``gz sdf -p``): the document as the analysis sees it, written out.

One feature in a few modules: ``writer`` splices the changes into the source texts,
``poses`` computes what ``--resolve-poses`` writes.
"""

from .writer import LATEST, PrintRefused, printed

__all__ = ["LATEST", "PrintRefused", "printed"]
