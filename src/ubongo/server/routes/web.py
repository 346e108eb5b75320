"""The web client's files (``web/dist``): any path that is not ``/api/...`` or ``/ws`` gets
``index.html`` (the client routes ``/room/CODE`` itself); without a build, a page saying how
to build it."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

from ..deps import WebDistDep
from ..errors import error_response
from ..protocol import ProtocolError

router = APIRouter()

NO_CLIENT_PAGE = """<!doctype html><meta charset="utf-8"><title>Ubongo</title>
<body style="font-family:sans-serif;max-width:40em;margin:3em auto">
<h1>Ubongo server is running</h1>
<p>The web client has not been built yet. Build it with <code>make run</code> (or
<code>cd web &amp;&amp; npm ci &amp;&amp; npm run build</code>) and reload this page.</p>
<p>The API is at <a href="/api/health">/api/health</a>; the protocol is described in
<code>docs/protocol.md</code>.</p></body>"""


@router.get("/{path:path}", include_in_schema=False)
async def web(path: str, dist: WebDistDep) -> Response:
    """A file of the client, or its ``index.html``; an unknown ``/api/...`` is a 404."""
    if path.startswith("api/"):
        return error_response(404, ProtocolError("not_found", f"no route /{path}"))
    index = dist / "index.html"
    if not index.is_file():
        return HTMLResponse(NO_CLIENT_PAGE)
    if path:
        target = (dist / path).resolve()
        if target.is_file() and dist.resolve() in target.parents:
            return FileResponse(target)
    return FileResponse(index)  # the client routes /room/CODE and the like itself
