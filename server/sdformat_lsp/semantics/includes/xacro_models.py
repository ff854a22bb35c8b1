"""An included ``.xacro`` file as a model: the project's xacro processor registered as a model parser.

``<include><uri>robot.urdf.xacro</uri></include>``: the file is expanded
(``formats.xacro.expand``, as ``xacro robot.urdf.xacro`` would print it),
the expansion is read as the URDF libsdformat would convert, and its frames
(links, joints, the frames of lumped links and joints) are handed back as an
interface model: links posed in the model frame, frames and joints attached
to the link carrying them, posed there. Each element is located at the line
of the xacro file the expansion took it from (the start of the file when it
came from another file, such as a ``xacro:include``).

An expansion error (an undefined property, a macro that does not exist) or
an error of the URDF it expands to is a :class:`ParseError` at its line: one
error on the include. The parser is tried after the configured parsers and
the entry points (``foreign._parsers``), so a project can still register its
own for ``.xacro``.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from ...diagnostics import Severity
from ...interface import IncludedFile, InterfaceFrame, InterfaceJoint, InterfaceLink, InterfaceModel, ParseError

SUFFIX = ".xacro"


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, max(0, offset)) + 1


def parse_xacro(file: IncludedFile, analyze: Callable[..., Any], Options: type) -> InterfaceModel | None:
    """The model a xacro file expands to (see the module's docstring). ``analyze`` and ``Options``:
    the analysis' own (handed in by ``foreign._parsers``: the include machinery never imports them)."""
    from ...formats.xacro import expand
    from ...packages import find_package

    base = os.path.dirname(file.path)

    def find(name: str) -> str | None:
        found = find_package(name, base_dir=base)
        if found.path is None:
            raise LookupError(found.message())
        return found.path

    exp = expand(file.path, file.text, find_package=find)
    for d in exp.errors:
        if d.severity == Severity.ERROR:
            line = _line(file.text, d.span.start) if (d.path in (None, file.path)) else None
            where = "" if d.path in (None, file.path) else f" (in {os.path.basename(d.path or '')})"
            raise ParseError(f"xacro cannot expand it: {d.message}{where}", line=line)

    def line_of(offset: int | None) -> int | None:
        if offset is None:
            return None
        origin = exp.origin(offset)
        if origin is None or os.path.abspath(origin.file) != os.path.abspath(file.path):
            return None
        return _line(file.text, origin.span[0])

    # the expansion is a URDF: analysed as one (a .urdf name, so that leftover xacro namespaces are read as libsdformat reads them)
    urdf = analyze(
        exp.text,
        os.path.splitext(file.path)[0] + (".urdf" if not file.path.endswith(".urdf.xacro") else ""),
        Options(schema=False),
    )
    for d in urdf.diagnostics:
        if d.severity == Severity.ERROR and d.path is None:
            raise ParseError(f"the URDF it expands to is wrong: {d.message}", line=line_of(d.span.start))
    g = urdf.graphs
    if g is None or urdf.document is None or not urdf.document.models:
        raise ParseError("it does not expand to a URDF <robot>", line=None)
    model = urdf.document.models[0]
    links: list[InterfaceLink] = []
    frames: list[InterfaceFrame] = []
    joints: list[InterfaceJoint] = []
    canonical = ""
    for node in g.nodes:
        facts = urdf.frame_facts(node)
        span = getattr(node.entity, "name_span", None)
        at = span.start if span is not None else None
        if node.kind == "model":
            canonical = facts.link.name if facts.link is not None and facts.link.kind == "link" else canonical
            continue
        pose = facts.in_root
        if pose is None:
            continue
        if node.kind == "link":
            links.append(InterfaceLink(node.name, pose, line=line_of(at)))
            continue
        body = facts.link
        body_pose = g.pose(body) if body is not None else None
        if body is None or body.kind != "link" or body_pose is None:
            continue
        local = body_pose.inverse() * pose
        if node.kind == "joint":
            joints.append(
                InterfaceJoint(node.name, body.name, local, type=getattr(node.entity, "type", None), line=line_of(at))
            )
        elif node.kind == "frame":
            frames.append(InterfaceFrame(node.name, body.name, local, line=line_of(at)))
    name = file.name or model.name
    return InterfaceModel(
        name,
        canonical,
        links=links,
        frames=frames,
        joints=joints,
        static=bool(file.static) or model.static,
        line=line_of(model.name_span.start if model.name_span is not None else None),
        files=tuple(f for f in exp.files if os.path.abspath(f) != os.path.abspath(file.path)),
    )
