"""The web client's files (``web/dist``): any path that is not ``/api/...`` or ``/ws`` gets
``index.html`` (the client routes ``/room/CODE`` itself); without a build, a page saying how
to build it."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from ..ops.security import quote
from ..protocol.incoming import ProtocolError
from .deps import WebDistDep
from .errors import error_response

router = APIRouter()

NO_CLIENT_PAGE = """<!doctype html><meta charset="utf-8"><title>Ubongo</title>
<body style="font-family:sans-serif;max-width:40em;margin:3em auto">
<h1>Ubongo server is running</h1>
<p>The web client has not been built yet. Build it with <code>make run</code> (or
<code>cd web &amp;&amp; npm ci &amp;&amp; npm run build</code>) and reload this page.</p>
<p>The API is at <a href="/api/health">/api/health</a>; the protocol is described in
<code>docs/protocol.md</code>.</p></body>"""


@router.get("/{path:path}", include_in_schema=False)
async def web(path: str, dist: WebDistDep, request: Request) -> Response:
    """A file of the client, or its ``index.html``; an unknown ``/api/...``, a path no file
    can have (a NUL byte) and, out of ``--dev``, a source map are 404s."""
    if path.startswith("api/"):
        return error_response(404, ProtocolError("not_found", f"no route {quote('/' + path)}"))
    if "\x00" in path or (path.endswith(".map") and not request.app.state.dev):
        return error_response(404, ProtocolError("not_found", "no such file"))
    index = dist / "index.html"
    if not index.is_file():
        return HTMLResponse(NO_CLIENT_PAGE)
    if path:
        target = _file_in(dist, path)
        if target is not None:
            return FileResponse(target)
    return FileResponse(index)  # the client routes /room/CODE and the like itself


def _file_in(dist: Path, path: str) -> Path | None:
    """The file ``path`` names inside ``dist``, if there is one (a name the file system
    refuses, e.g. too long, names none)."""
    try:
        target = (dist / path).resolve()
        if target.is_file() and dist.resolve() in target.parents:
            return target
    except (OSError, ValueError):
        pass
    return None
