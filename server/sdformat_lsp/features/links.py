"""Document links: each ``<include><uri>`` of the document to the file it brings in.

The target is the file the core analysed for the include: for ``model://``
URIs and model directories the SDFormat file ``model.config`` names, for a
path the file itself. An include that does not resolve (not found, a
directory without a usable ``model.config``, a Fuel model not in the local
cache) has no link: its ``URI_LOOKUP``/``URI_REMOTE`` diagnostic says why.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..semantics.analysis import Analysis
from ..text import Span


@dataclass(frozen=True, slots=True)
class DocumentLink:
    """``span`` of this document (the ``<uri>`` text) opens ``path``."""

    span: Span
    path: str
    tooltip: str


def document_links(analysis: Analysis) -> list[DocumentLink]:
    """One link per resolved ``<include>`` written in this document, in document order."""
    out: list[DocumentLink] = []
    seen: set[Span] = set()
    for rec in analysis.includes or ():
        uri = rec.include.uri
        if uri is None or not uri.text or rec.path is None or rec.include.element is None:
            continue
        if rec.analysis is None and not os.path.isfile(rec.path):
            continue  # the model.config names a file that does not exist
        if uri.span in seen:
            continue  # an include resolved twice (several worlds share a resolver) is one link
        seen.add(uri.span)
        out.append(DocumentLink(uri.span, rec.path, _tooltip(rec)))
    out.sort(key=lambda l: l.span.start)
    return out


def _tooltip(rec) -> str:
    name = os.path.basename(rec.path)
    if rec.target is not None and rec.target != rec.path and rec.config is not None:
        return f"Open {name} ({os.path.basename(rec.config.config or 'model.config')} of {rec.target})"
    return f"Open {rec.path}"


__all__ = ["DocumentLink", "document_links"]
