"""``workspace/executeCommand``: the conversions, for editors that offer them as commands.

``sdformat.server.convertToUrdf`` takes the URI of an open SDFormat document
(and optionally ``{"model", "lossy", "nameSeparator", "meshUri", "frames"}``)
and answers ``{"text", "warnings", "errors"}``: the URDF, or ``text: null``
with the reasons when the model cannot be converted. The editor decides what
to do with the text (VS Code opens it in a new editor). The command name is
not ``sdformat.convertToUrdf`` because vscode-languageclient registers every
server command under its own name, and the extension's command of that name
is the one users run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from .faults import RequestFailed, guarded
from .lazy import LazyModule

if TYPE_CHECKING:
    from .session import Session

convert = LazyModule("sdformat_lsp.convert")  # imported on the first conversion (see lazy.py)

CONVERT_TO_URDF = "sdformat.server.convertToUrdf"


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


def register_commands(server: Session) -> None:
    """A closure, unlike the request handlers (``requests.py``): pygls binds a command's arguments by
    the signature of the function it is given, so the server is not passed as a first parameter."""

    @server.command(CONVERT_TO_URDF)
    @guarded(types.WORKSPACE_EXECUTE_COMMAND)
    async def convert_to_urdf(
        *arguments,
    ) -> Any:  # no annotation: pygls would issubclass() it, and typing.Any is no class before 3.11
        args = list(arguments)
        uri = args[0] if args and isinstance(args[0], str) else _get(args[0], "uri") if args else None
        if not uri:
            raise RequestFailed(message=f"{CONVERT_TO_URDF} needs the URI of an open document")
        if server.documents.get(uri) is None:
            raise RequestFailed(message=f"{uri} is not open")
        analysis = await server.scheduler.analysis(uri)
        if analysis is None:
            raise RequestFailed(message=f"{uri} could not be analysed")
        if analysis.xml.root is not None and analysis.xml.root.tag == "robot":
            return {"text": None, "warnings": [], "errors": ["this document is a URDF already"]}
        opts = args[1] if len(args) > 1 and args[1] is not None else {}
        options = convert.UrdfOptions(
            model=_get(opts, "model"),
            name_separator=_get(opts, "nameSeparator") or convert.UrdfOptions.name_separator,  # '__' unless asked
            lossy=bool(_get(opts, "lossy", False)),
            mesh_uri=_get(opts, "meshUri", "package")
            if _get(opts, "meshUri") in ("package", "file", "keep")
            else "package",
            frames=bool(_get(opts, "frames", True)),
            resource_paths=tuple(server.options().resource_paths),
            package_paths=tuple(getattr(analysis.options, "package_paths", ()) or ()),
        )
        result = convert.sdf_to_urdf(analysis, options)
        return {"text": result.text, "warnings": result.warnings, "errors": result.errors}
