"""Included models in other formats: the registered model parsers and the built-in MJCF reader.

Both give an :class:`~sdformat_lsp.interface.InterfaceModel`; here it becomes
the analysis of the included file that the include resolver places like any
other (``interface.to_model``): a document model of SDFormat 1.11 and its
frame graphs, every element pointing into the included file. libsdformat does
not check an interface model beyond what its frame graphs need, so neither do
we: what the reader found wrong in an MJCF file is reported there, what a
parser returned that the graphs cannot hold is the parser's fault.

:func:`parsed_include` runs the registered parsers for an included file
(``interface.registry``): a model, an error of the parser
(:class:`~sdformat_lsp.interface.ParseError`, one error on the include with
the file's line as related location), the parser's fault (one error on the
include naming the parser), or :data:`NOT_PARSED` when no parser took the file
(it is then read as SDFormat, URDF or MJCF).
"""

from __future__ import annotations

import enum
import os
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from ...diagnostics import Diagnostic, Related, error
from ...model import Document, Include
from ...text import LineIndex, Span
from ...xml import XmlDocument

if TYPE_CHECKING:  # pragma: no cover
    from ...interface import InterfaceModel
    from ..analysis import Analysis, Options
    from .cache import Analyze
    from .resolver import IncludeResolver

INTERFACE_SDF_VERSION = "1.11"  # the version whose rules the frame graphs apply to an interface model
MODEL_PARSER_ERROR = "MODEL_PARSER_ERROR"
MODEL_PARSER_FAULT = "MODEL_PARSER_FAULT"


class _Parsed(enum.Enum):
    NOT_PARSED = "not parsed"  # no registered parser took the file (an enum member: a sentinel typed as itself)


NOT_PARSED = _Parsed.NOT_PARSED


def model_into(result: "Analysis", iface: "InterfaceModel") -> str | None:
    """Give ``result`` the document model and frame graphs of ``iface``; the fault, if any."""
    from ...interface.to_model import InterfaceFault, interface_to_model
    from ...model import version_tuple
    from ..frames import FrameGraphs

    try:
        model = interface_to_model(iface, result.text)
    except InterfaceFault as exc:
        return str(exc)
    result.extra_dependencies = tuple(str(f) for f in iface.files if isinstance(f, str))
    result.document = Document(INTERFACE_SDF_VERSION, None, result.xml.root, models=(model,))
    result.version = INTERFACE_SDF_VERSION
    result.graphs = FrameGraphs(model, version_tuple(INTERFACE_SDF_VERSION), None)
    return None


def analyze_mjcf(result: "Analysis") -> None:
    """A ``<mujoco>`` document: its kinematic tree through the MJCF reader."""
    from ...formats.mjcf import read_mjcf

    iface, diags = read_mjcf(result.xml, result.path)
    result.diagnostics.extend(diags)
    if iface is None:
        return
    fault = model_into(result, iface)
    if fault is not None:  # the reader's own result: a bug of ours, said so at the root
        assert result.xml.root is not None
        result.diagnostics.append(
            error("INTERNAL_ERROR", f"the MJCF model cannot be placed: {fault}", result.xml.root.tag_span)
        )


def line_span(text: str, line: int) -> Span:
    """The text of line ``line`` (1-based; the end of the text past the last line)."""
    start = 0
    for _ in range(max(0, line - 1)):
        nl = text.find("\n", start)
        if nl < 0:
            return Span(len(text), len(text))
        start = nl + 1
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    return Span(start, end - 1 if end > start and text[end - 1] == "\r" else end)


def _parsers(options: "Options", analyze: "Analyze | None" = None):
    """The configured parsers, the entry points, then the built-in ones (xacro). ``analyze`` is the
    function the built-in xacro parser analyses the expansion with (the include machinery is handed
    it, never imports it); without it the parsers are only matched, never run."""
    from ...interface.registry import ModelParser, active_parsers
    from . import xacro_models

    def parse_xacro(file):
        if analyze is None:
            raise RuntimeError("the built-in xacro parser runs only with the analysis' analyze")
        return xacro_models.parse_xacro(file, analyze, type(options))

    parse_xacro.__qualname__ = xacro_models.parse_xacro.__qualname__  # its label names the built-in parser
    return (
        *active_parsers(options.model_parsers or ()),
        ModelParser(xacro_models.SUFFIX, parse_xacro, "built in"),
    )


def has_parsers(path: str, options: "Options") -> bool:
    """Whether a registered parser may read ``path`` (the include's name then matters to the analysis)."""
    from ...interface.registry import parsers_for

    return bool(parsers_for(path, _parsers(options)))


def parsed_include(
    resolver: "IncludeResolver", path: str, text: str, inc: Include, span: Span
) -> "Analysis | Literal[_Parsed.NOT_PARSED]":
    """The analysis of ``path`` as the first registered parser that answers reads it (with, when the
    parser failed, no model and the problem for :func:`include_problems`); :data:`NOT_PARSED` when
    no parser takes it."""
    from ...interface.registry import NEVER, parsers_for, run_parsers

    if path.lower().endswith(NEVER):
        # libsdformat reads these itself: no parser is asked, so none is looked up (the entry
        # points' lookup imports importlib.metadata and reads every installed distribution's
        # metadata: 15 ms of a check of a world with includes, small_house.world's tenth)
        return NOT_PARSED
    from ...interface import IncludedFile

    parsers = parsers_for(path, _parsers(resolver.options, resolver.factory.analyze))
    if not parsers:
        return NOT_PARSED
    file = IncludedFile(
        path=path, text=text, name=inc.name or None, uri=inc.uri.text if inc.uri is not None else "", static=inc.static
    )
    outcome = run_parsers(parsers, file)
    if outcome.kind == "none":
        return NOT_PARSED
    # the analysis type, from the including analysis: the include machinery never imports the analysis
    Analysis = type(resolver.analysis)

    name = os.path.basename(path)
    assert outcome.parser is not None
    label = outcome.parser.label
    result = Analysis(
        text=text, path=path, xml=XmlDocument(text=text, lines=LineIndex(text), root=None), options=resolver.options
    )
    result.interface_parser = label
    problems: list[Diagnostic] = []
    if outcome.kind == "error":
        related = (
            (Related(line_span(text, outcome.line), outcome.message, path=path),) if outcome.line is not None else ()
        )
        problems.append(
            error(
                MODEL_PARSER_ERROR,
                f"the model parser {label} cannot read {name}: {outcome.message}",
                Span(0, 0),
                related=related,
                data={"included_path": path},
            )
        )
    else:
        fault = outcome.message if outcome.kind == "fault" else None
        if fault is None:
            assert outcome.model is not None
            fault = model_into(result, outcome.model)
            result.interface_merges = bool(outcome.model.supports_merge)
        if fault is not None:
            problems.append(
                error(
                    MODEL_PARSER_FAULT,
                    f"the model parser {label} failed on {name}: {fault}; this is a bug of that "
                    "parser, not of the file: the include is not read",
                    Span(0, 0),
                    data={"included_path": path},
                )
            )
    result.interface_problems = tuple(problems)
    return result


def include_problems(sub: "Analysis", inc: Include, span: Span) -> list[Diagnostic]:
    """What keeps a parsed file's model out of the including scope, said on this include: the parser's
    error or fault (kept with the cached analysis, so said again on every analysis), or a merge the
    parser does not support (libsdformat's MERGE_INCLUDE_UNSUPPORTED)."""
    out = [replace(d, span=span) for d in sub.interface_problems]
    if not out and inc.merge and not sub.interface_merges:
        label = sub.interface_parser or ""
        out.append(
            error(
                "MERGE_INCLUDE_UNSUPPORTED",
                f'the model parser {label} does not support merge="true" (its InterfaceModel '
                'says supports_merge=False): remove merge="true"',
                span,
            )
        )
    return out
