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
        "--store-timeout",
        type=float,
        default=30.0,
        help="seconds a database write waits for a lock before it fails and is retried (30)",
    )
    parser.add_argument(
        "--store-retry",
        type=float,
        default=1.0,
        help="seconds before a failed write is tried again, doubling each time (1)",
    )
    parser.add_argument(
        "--store-retry-max",
        type=float,
        default=60.0,
        help="the longest wait between two tries of a failed write (60)",
    )
    parser.add_argument(
        "--record-seconds-per-piece",
        type=float,
        default=0.6,
        help="solo tasks solved faster than this per piece are not ranked (0.6; 0: no floor)",
    )
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning"])
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise CommandError(f"no such port: {args.port}")
    import uvicorn

    from ubongo.server import create_app
    from ubongo.server.rooms import ServerConfig

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    public = args.public_url or f"http://{args.host}:{args.port}"
    if args.redis_url and not args.redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise CommandError(f"not a Redis URL (redis://host:port/db): {args.redis_url}")
    for flag in ("store_timeout", "store_retry", "store_retry_max"):
        if not getattr(args, flag) > 0:
            raise CommandError(f"--{flag.replace('_', '-')} must be a positive number of seconds")
    if not args.record_seconds_per_piece >= 0:
        raise CommandError("--record-seconds-per-piece must be 0 (no floor) or more")
    config = ServerConfig(
        public_url=public.rstrip("/"),
        store_timeout=args.store_timeout,
        store_retry_seconds=args.store_retry,
        store_retry_max_seconds=max(args.store_retry, args.store_retry_max),
        record_seconds_per_piece=args.record_seconds_per_piece,
    )
    app = create_app(args.database_url, config, redis_url=args.redis_url)
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
