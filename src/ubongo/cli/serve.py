"""``ubongo serve``: the game server at http://127.0.0.1:8000 (the web client, rooms, records)."""

from __future__ import annotations

import argparse
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
        "--upstreams",
        default=os.environ.get("UBONGO_UPSTREAMS") or None,
        metavar="HOST:PORT,...",
        help="with --redis-url behind nginx's 'hash $room consistent': every process's "
        "address as nginx's upstream block names it; rooms made here get codes that nginx "
        "sends here (default $UBONGO_UPSTREAMS; docs/operations.md)",
    )
    parser.add_argument(
        "--upstream-name",
        default=None,
        metavar="HOST:PORT",
        help="this process's address among --upstreams (default HOST:PORT)",
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
    parser.add_argument(
        "--quickmatch-wait",
        type=float,
        default=10.0,
        help="seconds a quick match waits for other players before bots fill the seats (10)",
    )
    parser.add_argument(
        "--quickmatch-settings",
        type=_settings_json,
        default={},
        metavar="JSON",
        help="room settings of quick-match rooms, e.g. '{\"rounds\": 1}' for a demo or a test",
    )
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning"])
    parser.add_argument(
        "--log-format",
        default="auto",
        choices=["auto", "json", "text"],
        help="log lines as JSON objects or text (auto: text at a terminal, JSON otherwise)",
    )
    _limits(parser)
    parser.set_defaults(func=run)


#: (flag, ServerConfig field, type, help): the limits an operator may tune (docs/server.md)
LIMITS: tuple[tuple[str, str, type, str], ...] = (
    ("--rooms-per-minute", "rooms_per_minute", int, "rooms one address may create a minute"),
    ("--accounts-per-hour", "accounts_per_hour", int, "accounts one address may create an hour"),
    (
        "--failed-lookups-per-hour",
        "failed_lookups_per_hour",
        int,
        "wrong room codes one address may try an hour (after a first burst of 20)",
    ),
    (
        "--connections-per-address",
        "connections_per_address",
        int,
        "WebSockets one address may have open at once",
    ),
    (
        "--messages-per-second",
        "messages_per_second",
        float,
        "messages one WebSocket may send a second (bursts of twice as many)",
    ),
    ("--spectators-per-room", "spectators_per_room", int, "spectators one room accepts"),
    ("--hello-seconds", "hello_seconds", float, "seconds a new WebSocket has to say hello"),
    (
        "--idle-room-seconds",
        "idle_room_seconds",
        float,
        "seconds a room nobody is connected to is kept",
    ),
    (
        "--unjoined-room-seconds",
        "unjoined_room_seconds",
        float,
        "seconds a room nobody ever joined is kept",
    ),
    (
        "--presence-seconds",
        "presence_seconds",
        float,
        "at most one spectator-count event per room in this many seconds (0: one per change)",
    ),
    (
        "--max-queued-messages",
        "max_queued_messages",
        int,
        "messages waiting for a client that does not read before it is dropped",
    ),
)


def _limits(parser: argparse.ArgumentParser) -> None:
    from ubongo.server.rooms import ServerConfig

    defaults = ServerConfig()
    group = parser.add_argument_group("limits (docs/server.md, 'Rooms and limits')")
    for flag, field, kind, text in LIMITS:
        default = getattr(defaults, field)
        group.add_argument(flag, type=kind, default=default, help=f"{text} (default {default})")
    group.add_argument(
        "--request-seconds",
        type=float,
        default=REQUEST_SECONDS,
        help="seconds an HTTP request has to arrive whole (slow senders are cut off; "
        f"default {REQUEST_SECONDS:g})",
    )


#: the default read deadline of an HTTP request (headers and body)
REQUEST_SECONDS = 10.0


def _settings_json(text: str) -> dict[str, Any]:
    """Room settings as ``POST /api/rooms`` takes them (checked now, not at the first match)."""
    import json

    from ubongo.server.protocol import SettingsPatch

    try:
        data = json.loads(text)
        SettingsPatch.model_validate(data)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"not room settings: {e}") from None
    return dict(data)


def _check_floors(args: argparse.Namespace) -> None:
    """The flags where 0 means something (no floor, no wait) but less is nonsense."""
    if not args.quickmatch_wait >= 0:
        raise CommandError("--quickmatch-wait must be 0 (bots at once) or more seconds")
    if not args.record_seconds_per_piece >= 0:
        raise CommandError("--record-seconds-per-piece must be 0 (no floor) or more")


def _upstreams(args: argparse.Namespace) -> tuple[tuple[str, ...], str]:
    """nginx's upstream servers and this process's name among them (checked)."""
    if not args.upstreams:
        if args.upstream_name:
            raise CommandError("--upstream-name needs --upstreams")
        return (), ""
    if not args.redis_url:
        raise CommandError("--upstreams needs --redis-url (several processes share rooms)")
    from ubongo.server.cluster.ring import Ring

    servers = tuple(s.strip() for s in args.upstreams.split(",") if s.strip())
    name = args.upstream_name or f"{args.host}:{args.port}"
    try:
        Ring(servers)
    except ValueError as e:
        raise CommandError(f"--upstreams: {e}") from None
    if name not in servers:
        raise CommandError(f"this process ({name}) is not among --upstreams; see --upstream-name")
    return servers, name


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise CommandError(f"no such port: {args.port}")
    import uvicorn

    from ubongo.server import create_app
    from ubongo.server.logs import configure
    from ubongo.server.rooms import ServerConfig
    from ubongo.server.security import MAX_BODY_BYTES, HttpConfig

    configure(args.log_level, args.log_format)
    public = args.public_url or f"http://{args.host}:{args.port}"
    if args.redis_url and not args.redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise CommandError(f"not a Redis URL (redis://host:port/db): {args.redis_url}")
    from ubongo.server.transport import deadline_protocol

    max_body = MAX_BODY_BYTES if args.max_body_bytes is None else args.max_body_bytes
    if max_body < 1024:
        raise CommandError(f"--max-body-bytes must be at least 1024: {max_body}")
    for origin in args.allowed_origin:
        if not origin.startswith(("http://", "https://")):
            raise CommandError(f"not an origin (https://host[:port]): {origin}")
    http = HttpConfig(
        max_body_bytes=max_body, allowed_origins=tuple(args.allowed_origin), dev=args.dev
    )
    limits = {field: getattr(args, field) for _flag, field, _kind, _text in LIMITS}
    for flag, field, _kind, _text in LIMITS:
        if limits[field] < 0 or (limits[field] == 0 and field != "presence_seconds"):
            raise CommandError(f"{flag} must be more than 0")
    if args.request_seconds <= 0:
        raise CommandError("--request-seconds must be more than 0")
    for flag in ("store_timeout", "store_retry", "store_retry_max"):
        if not getattr(args, flag) > 0:
            raise CommandError(f"--{flag.replace('_', '-')} must be a positive number of seconds")
    _check_floors(args)
    upstreams, upstream_name = _upstreams(args)
    config = ServerConfig(
        upstreams=upstreams,
        upstream_name=upstream_name,
        public_url=public.rstrip("/"),
        store_timeout=args.store_timeout,
        store_retry_seconds=args.store_retry,
        store_retry_max_seconds=max(args.store_retry, args.store_retry_max),
        record_seconds_per_piece=args.record_seconds_per_piece,
        quickmatch_wait=args.quickmatch_wait,
        quickmatch_settings=args.quickmatch_settings,
        **limits,
    )
    app = create_app(args.database_url, config, redis_url=args.redis_url, http=http)
    print(f"Ubongo: open {public} in a browser (Ctrl-C stops the server)", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=1 << 20,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        http=deadline_protocol(args.request_seconds),
        # our handler formats uvicorn's lines too (JSON lines or text: ubongo.server.logs)
        log_config=None,
    )
    return 0
