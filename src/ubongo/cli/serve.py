"""``ubongo serve``: the game server at http://127.0.0.1:8000 (the web client, rooms, records)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ubongo.cli import SUMMARY, CommandError
from ubongo.cli.console import choice
from ubongo.server.config import ServerConfig

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
        "--finished-room-seconds",
        "finished_room_seconds",
        float,
        "seconds a room whose game is over is kept once nobody is connected",
    ),
    (
        "--full-collection-seconds",
        "full_collection_seconds",
        float,
        "seconds between the garbage collector's full collections (each stops the server a moment)",
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


#: the default read deadline of an HTTP request (headers and body)
REQUEST_SECONDS = 10.0


def _settings_json(text: str) -> dict[str, Any]:
    """Room settings as ``POST /api/rooms`` takes them (checked now, not at the first match)."""
    import json

    from ubongo.server.protocol.incoming import SettingsPatch

    try:
        data = json.loads(text)
        SettingsPatch.model_validate(data)
    except ValueError as e:
        raise typer.BadParameter(f"not room settings: {e}") from None
    return dict(data)


def _check_floors(quickmatch_wait: float, record_seconds_per_piece: float) -> None:
    """The flags where 0 means something (no floor, no wait) but less is nonsense."""
    if not quickmatch_wait >= 0:
        raise CommandError("--quickmatch-wait must be 0 (bots at once) or more seconds")
    if not record_seconds_per_piece >= 0:
        raise CommandError("--record-seconds-per-piece must be 0 (no floor) or more")


def _upstreams(
    upstreams: str | None, upstream_name: str | None, redis_url: str | None, address: str
) -> tuple[tuple[str, ...], str]:
    """nginx's upstream servers and this process's name among them (checked)."""
    if not upstreams:
        if upstream_name:
            raise CommandError("--upstream-name needs --upstreams")
        return (), ""
    if not redis_url:
        raise CommandError("--upstreams needs --redis-url (several processes share rooms)")
    from ubongo.server.cluster.ring import Ring

    servers = tuple(s.strip() for s in upstreams.split(",") if s.strip())
    name = upstream_name or address
    try:
        Ring(servers)
    except ValueError as e:
        raise CommandError(f"--upstreams: {e}") from None
    if name not in servers:
        raise CommandError(f"this process ({name}) is not among --upstreams; see --upstream-name")
    return servers, name


def register(app: typer.Typer) -> None:
    app.command(
        "serve",
        help="Run the game server: the web client, rooms over WebSockets, stored games and "
        "records. The database is a SQLite file in the user's data directory unless "
        "--database-url (or $UBONGO_DATABASE_URL) names another, e.g. "
        "postgresql+psycopg://user:pass@host/ubongo. With --redis-url (or $UBONGO_REDIS_URL) "
        "several server processes share rooms: any of them serves any room.",
        short_help=SUMMARY["serve"],
    )(run)


_D = ServerConfig()
_LIMITS_PANEL = "Limits (docs/server.md, 'Rooms and limits')"
_STORE_PANEL = "Storing games"


def _limit(field: str) -> Any:
    """The option of one of :data:`LIMITS`, in the limits' panel of the help."""
    flag, _field, _kind, text = next(limit for limit in LIMITS if limit[1] == field)
    return typer.Option(flag, help=text, rich_help_panel=_LIMITS_PANEL)


def run(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy database URL", show_default=False)
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(
            envvar="UBONGO_REDIS_URL",
            help="share rooms with the other processes on this Redis, e.g. "
            "redis://host:6379/0 (without it rooms live in this process only)",
            show_default=False,
        ),
    ] = None,
    upstreams: Annotated[
        str | None,
        typer.Option(
            envvar="UBONGO_UPSTREAMS",
            metavar="HOST:PORT,...",
            help="with --redis-url behind nginx's 'hash $room consistent': every process's "
            "address as nginx's upstream block names it; rooms made here get codes that nginx "
            "sends here (docs/operations.md)",
            show_default=False,
        ),
    ] = None,
    upstream_name: Annotated[
        str | None,
        typer.Option(
            metavar="HOST:PORT",
            help="this process's address among --upstreams (default HOST:PORT)",
            show_default=False,
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="the address players use, for invite links (default http://HOST:PORT)",
            show_default=False,
        ),
    ] = None,
    max_body_bytes: Annotated[
        int | None,
        typer.Option(
            help="the largest HTTP request body (default 65536); larger ones get 413 too_large",
            show_default=False,
        ),
    ] = None,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            metavar="ORIGIN",
            help="an origin (https://host\\[:port]) whose pages may open WebSockets, besides "
            "this server's own host and --public-url's; repeatable",
            show_default=False,
        ),
    ] = None,
    dev: Annotated[
        bool,
        typer.Option(
            help="development mode: serve the API pages /docs and /redoc and the client's "
            "source maps (production mode, the default, serves neither)"
        ),
    ] = False,
    store_timeout: Annotated[
        float,
        typer.Option(
            help="seconds a database write waits for a lock before it fails and is retried",
            rich_help_panel=_STORE_PANEL,
        ),
    ] = 30.0,
    store_retry: Annotated[
        float,
        typer.Option(
            help="seconds before a failed write is tried again, doubling each time",
            rich_help_panel=_STORE_PANEL,
        ),
    ] = 1.0,
    store_retry_max: Annotated[
        float,
        typer.Option(
            help="the longest wait between two tries of a failed write",
            rich_help_panel=_STORE_PANEL,
        ),
    ] = 60.0,
    record_seconds_per_piece: Annotated[
        float,
        typer.Option(
            help="solo tasks solved faster than this per piece are not ranked (0: no floor)"
        ),
    ] = 0.6,
    quickmatch_wait: Annotated[
        float,
        typer.Option(
            help="seconds a quick match waits for other players before bots fill the seats"
        ),
    ] = 10.0,
    quickmatch_settings: Annotated[
        dict[str, Any] | None,
        typer.Option(
            parser=_settings_json,
            metavar="JSON",
            help="room settings of quick-match rooms, e.g. '{\"rounds\": 1}' for a demo or a test",
            show_default=False,
        ),
    ] = None,
    log_level: Annotated[
        str,
        typer.Option(parser=choice(("debug", "info", "warning")), metavar="[debug|info|warning]"),
    ] = "info",
    log_format: Annotated[
        str,
        typer.Option(
            parser=choice(("auto", "json", "text")),
            metavar="[auto|json|text]",
            help="log lines as JSON objects or text (auto: text at a terminal, JSON otherwise)",
        ),
    ] = "auto",
    rooms_per_minute: Annotated[int, _limit("rooms_per_minute")] = _D.rooms_per_minute,
    accounts_per_hour: Annotated[int, _limit("accounts_per_hour")] = _D.accounts_per_hour,
    failed_lookups_per_hour: Annotated[
        int, _limit("failed_lookups_per_hour")
    ] = _D.failed_lookups_per_hour,
    connections_per_address: Annotated[
        int, _limit("connections_per_address")
    ] = _D.connections_per_address,
    messages_per_second: Annotated[float, _limit("messages_per_second")] = _D.messages_per_second,
    spectators_per_room: Annotated[int, _limit("spectators_per_room")] = _D.spectators_per_room,
    hello_seconds: Annotated[float, _limit("hello_seconds")] = _D.hello_seconds,
    idle_room_seconds: Annotated[float, _limit("idle_room_seconds")] = _D.idle_room_seconds,
    finished_room_seconds: Annotated[
        float, _limit("finished_room_seconds")
    ] = _D.finished_room_seconds,
    unjoined_room_seconds: Annotated[
        float, _limit("unjoined_room_seconds")
    ] = _D.unjoined_room_seconds,
    full_collection_seconds: Annotated[
        float, _limit("full_collection_seconds")
    ] = _D.full_collection_seconds,
    presence_seconds: Annotated[float, _limit("presence_seconds")] = _D.presence_seconds,
    max_queued_messages: Annotated[int, _limit("max_queued_messages")] = _D.max_queued_messages,
    request_seconds: Annotated[
        float,
        typer.Option(
            help="seconds an HTTP request has to arrive whole (slow senders are cut off)",
            rich_help_panel=_LIMITS_PANEL,
        ),
    ] = REQUEST_SECONDS,
) -> int:
    if not 0 < port < 65536:
        raise CommandError(f"no such port: {port}")
    import uvicorn

    from ubongo.server import create_app
    from ubongo.server.ops.logs import configure
    from ubongo.server.ops.security import MAX_BODY_BYTES, HttpConfig

    configure(log_level, log_format)  # type: ignore[arg-type]  # checked by its parser
    public = public_url or f"http://{host}:{port}"
    redis_url = redis_url or None
    if redis_url and not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise CommandError(f"not a Redis URL (redis://host:port/db): {redis_url}")
    from ubongo.server.ops.transport import ReleasingWebSocketProtocol, deadline_protocol

    max_body = MAX_BODY_BYTES if max_body_bytes is None else max_body_bytes
    if max_body < 1024:
        raise CommandError(f"--max-body-bytes must be at least 1024: {max_body}")
    origins = tuple(allowed_origin or ())
    for origin in origins:
        if not origin.startswith(("http://", "https://")):
            raise CommandError(f"not an origin (https://host[:port]): {origin}")
    http = HttpConfig(max_body_bytes=max_body, allowed_origins=origins, dev=dev)
    limits: dict[str, Any] = {  # every field of LIMITS (checked just below)
        "rooms_per_minute": rooms_per_minute,
        "accounts_per_hour": accounts_per_hour,
        "failed_lookups_per_hour": failed_lookups_per_hour,
        "connections_per_address": connections_per_address,
        "messages_per_second": messages_per_second,
        "spectators_per_room": spectators_per_room,
        "hello_seconds": hello_seconds,
        "idle_room_seconds": idle_room_seconds,
        "finished_room_seconds": finished_room_seconds,
        "unjoined_room_seconds": unjoined_room_seconds,
        "full_collection_seconds": full_collection_seconds,
        "presence_seconds": presence_seconds,
        "max_queued_messages": max_queued_messages,
    }
    for flag, field, _kind, _text in LIMITS:
        if limits[field] < 0 or (limits[field] == 0 and field != "presence_seconds"):
            raise CommandError(f"{flag} must be more than 0")
    if request_seconds <= 0:
        raise CommandError("--request-seconds must be more than 0")
    for flag, value in (
        ("store-timeout", store_timeout),
        ("store-retry", store_retry),
        ("store-retry-max", store_retry_max),
    ):
        if not value > 0:
            raise CommandError(f"--{flag} must be a positive number of seconds")
    _check_floors(quickmatch_wait, record_seconds_per_piece)
    servers, this_server = _upstreams(upstreams, upstream_name, redis_url, f"{host}:{port}")
    config = ServerConfig(
        upstreams=servers,
        upstream_name=this_server,
        public_url=public.rstrip("/"),
        store_timeout=store_timeout,
        store_retry_seconds=store_retry,
        store_retry_max_seconds=max(store_retry, store_retry_max),
        record_seconds_per_piece=record_seconds_per_piece,
        quickmatch_wait=quickmatch_wait,
        quickmatch_settings=quickmatch_settings or {},
        **limits,
    )
    app = create_app(database_url, config, redis_url=redis_url, http=http)
    print(f"Ubongo: open {public} in a browser (Ctrl-C stops the server)", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=1 << 20,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        http=deadline_protocol(request_seconds),
        ws=ReleasingWebSocketProtocol,
        # our handler formats uvicorn's lines too (JSON lines or text: ubongo.server.ops.logs)
        log_config=None,
    )
    return 0
