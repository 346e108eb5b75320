"""How long does finding a socket's or a request's route take?  Every room socket is matched
against the app's routers in their order (``ubongo.server.routes.ROUTERS``), and an arena race
opens four room sockets: at 1,000 players some 16 races a second, 64 sockets.

Run with ``.venv/bin/python bench/routes.py [--repeat R] [--n N]``.

The app is made as ``ubongo serve`` makes it (``create_app``, the default configuration), and
each path below is matched ``N`` times as Starlette's router matches it (each route's
``matches`` in order until one matches fully), best of ``R``, two ways in the same process:

* **served**: the routers in ``ROUTERS``'s order;
* **reference**: the order before the room socket's router came first (it came just before the
  web client's files, sixteenth of seventeen).

Paths: the room socket ``/ws``, the arena socket, an arena's page ``GET /api/arenas/{id}``
and the web client's files (last in both orders). docs/arenas.md keeps the latest figures.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from starlette.routing import BaseRoute, Match

from ubongo.server.app import create_app
from ubongo.server.config import ServerConfig
from ubongo.server.routes import web, websocket

PATHS = (
    ("websocket", "/ws"),
    ("websocket", "/ws/arenas/a1b2c3"),
    ("http", "/api/arenas/a1b2c3"),
    ("http", "/assets/app.js"),
)


def scope(kind: str, path: str) -> dict[str, Any]:
    """A request's ASGI scope as uvicorn gives it (what matching reads of it)."""
    return {
        "type": kind,
        "path": path,
        "root_path": "",
        "method": "GET",
        "headers": [],
        "query_string": b"",
        "scheme": "ws" if kind == "websocket" else "http",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 50000),
    }


def reordered(table: list[BaseRoute]) -> list[BaseRoute]:
    """``table`` with the room socket's router moved to where it was before: just before the
    web client's files."""

    def of(router: Any) -> BaseRoute:
        return next(r for r in table if getattr(r, "original_router", None) is router)

    room_socket, files = of(websocket.router), of(web.router)
    rest = [r for r in table if r is not room_socket]
    at = rest.index(files)
    return [*rest[:at], room_socket, *rest[at:]]


def matched(table: list[BaseRoute], request: dict[str, Any]) -> int:
    """The place of the route that matches ``request`` fully (as Starlette's router finds it)."""
    for i, route in enumerate(table):
        if route.matches(dict(request))[0] == Match.FULL:
            return i
    raise LookupError(request["path"])


def best_us(table: list[BaseRoute], request: dict[str, Any], n: int, repeat: int) -> float:
    """Microseconds a match, best of ``repeat`` runs of ``n``."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(n):
            matched(table, request)
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--n", type=int, default=2000)
    args = parser.parse_args(argv)
    served = list(create_app(config=ServerConfig()).router.routes)
    reference = reordered(served)
    print(f"{'path':<24} {'served us':>10} {'reference us':>13} {'ratio':>7}")
    for kind, path in PATHS:
        request = scope(kind, path)
        assert matched(served, request) >= 0 and matched(reference, request) >= 0
        now = best_us(served, request, args.n, args.repeat)
        ref = best_us(reference, request, args.n, args.repeat)
        print(f"{kind[:2]} {path:<21} {now:10.1f} {ref:13.1f} {now / ref:6.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
