"""`sdformat-lsp view FILE`: the 3D view of a document in the browser, for every editor.

Serves the page the VS Code extension shows (``sdformat_lsp.viewer``) on
127.0.0.1, follows the file as it is saved, and opens the default browser
unless ``--no-browser``. Runs until interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys


def register(sub) -> None:
    v = sub.add_parser(
        "view",
        help="show a document's frames, geometry and joint sliders in the browser (follows the file as saved)",
        description="Serve the 3D view of FILE on 127.0.0.1 (a free port unless --port) with a random token in the printed "
        "URL, and open it in the default browser. The page follows the file and the files it includes as they "
        "are saved. Only the document, its includes and the meshes they resolve are served.",
    )
    v.add_argument(
        "file",
        metavar="FILE",
        help="the document; a leading ~/ is the home directory even where no shell expanded it (Helix's "
        "%%{buffer_name} names a file under the home directory so, and a quoted ~ is not expanded)",
    )
    v.add_argument("--port", type=int, default=0, help="the port to listen on (default: a free one)")
    v.add_argument("--no-browser", action="store_true", help="print the URL without opening a browser")
    v.add_argument(
        "--resource-path", action="append", metavar="DIR", help="a directory searched for model:// URIs (repeatable)"
    )
    v.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..semantics import Options
    from ..viewer.http import ViewServer

    if not os.path.isfile(args.file) and args.file.startswith("~"):
        args.file = os.path.expanduser(args.file)
    if not os.path.isfile(args.file):
        print(f"sdformat-lsp view: {args.file}: not a file", file=sys.stderr)
        return 2
    options = Options(
        resource_paths=tuple(os.path.abspath(p) for p in args.resource_path or []),
        schema=False,
        model_roots=_model_roots(args.file),
    )
    try:
        server = ViewServer(args.file, options, args.port)
    except OSError as exc:
        print(f"sdformat-lsp view: cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"sdformat-lsp view: {server.url}", flush=True)
    if not args.no_browser and not _graphical_session():
        port = server.server_address[1]
        try:
            print(
                "sdformat-lsp view: no browser opened: no display here (DISPLAY and WAYLAND_DISPLAY unset, no BROWSER); "
                f"open the URL in a browser on this machine, or from another one through ssh -L {port}:127.0.0.1:{port}",
                file=sys.stderr,
                flush=True,
            )
        except OSError:  # nobody reads it (Helix's binding keeps only the URL line): serve all the same
            pass
    elif not args.no_browser:
        import threading
        import webbrowser

        # webbrowser waits for a browser named by $BROWSER (or a console browser) to exit: a browser that was not
        # running yet would keep the page waiting for a server that never answers. Serve while it opens.
        threading.Thread(target=webbrowser.open, args=(server.url,), daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _graphical_session() -> bool:
    """Whether a browser that can draw the page (WebGL) may open here. Without a display on Linux and the other
    X11/Wayland systems, Python's webbrowser falls back to console browsers (lynx, w3m, ...), which draw no WebGL
    and take over the terminal, or the editor's pipe, of whoever started the view. $BROWSER is the user's own
    choice and is always used; macOS and Windows open their default browser without a display variable."""
    if os.environ.get("BROWSER") or sys.platform in ("darwin", "win32", "cygwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _model_roots(path: str) -> tuple[str, ...]:
    """The model directories' parents in the file's repository (the nearest directory with ``.git``, else the
    file's parent directory), as the language server finds them in its workspace folders: a world in
    ``worlds/`` finds ``model://`` models in ``models/`` without configuration."""
    from ..semantics.includes.resources import find_model_roots

    here = os.path.dirname(os.path.abspath(path))
    top = here
    while not os.path.exists(os.path.join(top, ".git")):
        up = os.path.dirname(top)
        if up == top:
            top = os.path.dirname(here)
            break
        top = up
    return tuple(find_model_roots(top))
