"""``ubongo serve``: the game server at http://127.0.0.1:8000 (the web client, rooms, records)."""

from __future__ import annotations

import argparse
import logging
import os
from typing import Any

from ubongo.cli import CommandError


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run the game server",
        description="Run the game server: the web client, rooms over WebSockets, stored games "
        "and records. The database is a SQLite file in the user's data directory unless "
        "--database-url (or $UBONGO_DATABASE_URL) names another, e.g. "
        "postgresql+psycopg://user:pass@host/ubongo. With --redis-url (or "
        "$UBONGO_REDIS_URL) several server processes share rooms: any of them serves any room.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument("--database-url", default=None, help="SQLAlchemy database URL")
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("UBONGO_REDIS_URL") or None,
        help="share rooms with the other processes on this Redis, e.g. redis://host:6379/0 "
        "(default $UBONGO_REDIS_URL; without it rooms live in this process only)",
    )
    parser.add_argument(
        "--public-url",
        default=None,
        help="the address players use, for invite links (default http://HOST:PORT)",
    )
    parser.add_argument(
        "--max-body-bytes",
        type=int,
        default=None,
        help="the largest HTTP request body (default 65536); larger ones get 413 too_large",
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="an origin (https://host[:port]) whose pages may open WebSockets, besides this "
        "server's own host and --public-url's; repeatable",
    )
    parser.add_argument(
        "--dev",
        action="store_true",
        help="development mode: serve the API pages /docs and /redoc and the client's source "
        "maps (production mode, the default, serves neither)",
    )
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning"])
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise CommandError(f"no such port: {args.port}")
    import uvicorn

    from ubongo.server import create_app
    from ubongo.server.rooms import ServerConfig
    from ubongo.server.security import MAX_BODY_BYTES, HttpConfig

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    public = args.public_url or f"http://{args.host}:{args.port}"
    if args.redis_url and not args.redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise CommandError(f"not a Redis URL (redis://host:port/db): {args.redis_url}")
    max_body = MAX_BODY_BYTES if args.max_body_bytes is None else args.max_body_bytes
    if max_body < 1024:
        raise CommandError(f"--max-body-bytes must be at least 1024: {max_body}")
    for origin in args.allowed_origin:
        if not origin.startswith(("http://", "https://")):
            raise CommandError(f"not an origin (https://host[:port]): {origin}")
    http = HttpConfig(
        max_body_bytes=max_body, allowed_origins=tuple(args.allowed_origin), dev=args.dev
    )
    app = create_app(
        args.database_url,
        ServerConfig(public_url=public.rstrip("/")),
        redis_url=args.redis_url,
        http=http,
    )
    print(f"Ubongo: open {public} in a browser (Ctrl-C stops the server)", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=1 << 20,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )
    return 0
