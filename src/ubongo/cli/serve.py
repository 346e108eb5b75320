"""``ubongo serve``: the game server at http://127.0.0.1:8000 (the web client, rooms, records).

Its options are the fields of :class:`~ubongo.server.config.ServerConfig`, made into options by
:mod:`ubongo.cli.settings`: each is a flag, an environment variable and a row of
docs/server.md's tables, declared once.
"""

from __future__ import annotations

import os
from typing import Any

import typer

from ubongo.cli import SUMMARY, CommandError
from ubongo.cli.settings import config_from_flags, given_flags, source, with_options
from ubongo.server.config import ServerConfig

HELP = (
    "Run the game server: the web client, rooms over WebSockets, stored games and records. "
    "The database is a SQLite file in the user's data directory unless --database-url (or "
    "$UBONGO_DATABASE_URL) names another, e.g. postgresql+psycopg://user:pass@host/ubongo. "
    "With --redis-url (or $UBONGO_REDIS_URL) several server processes share rooms: any of "
    "them serves any room. Every option may be set in the environment instead (its variable "
    "is in its help; docs/server.md, 'Settings'): a flag wins over the environment."
)


def register(app: typer.Typer) -> None:
    app.command("serve", help=HELP, short_help=SUMMARY["serve"])(with_options(run))


def run(ctx: typer.Context, **values: Any) -> int:
    given = given_flags(ctx, values)
    config = config_from_flags(given)
    _check_quickmatch_settings(config, given)
    serve(config)
    return 0


def _check_quickmatch_settings(config: ServerConfig, given: dict[str, Any]) -> None:
    """Quick match's room settings, as ``POST /api/rooms`` takes them: checked now, not at the
    first match (the model cannot: the protocol is not its to import)."""
    from pydantic import ValidationError

    from ubongo.server.protocol.incoming import SettingsPatch

    try:
        SettingsPatch.model_validate(config.quickmatch_settings)
    except ValidationError as e:
        where = source("quickmatch_settings", given, os.environ)
        wrong = "; ".join(f"{'.'.join(map(str, p['loc']))}: {p['msg']}" for p in e.errors())
        raise CommandError(f"{where}: not room settings: {wrong}") from None


def serve(config: ServerConfig) -> None:
    """Serves the app ``config`` describes until stopped (Ctrl-C, SIGTERM)."""
    import uvicorn

    from ubongo.server import create_app
    from ubongo.server.ops.logs import configure
    from ubongo.server.ops.transport import ReleasingWebSocketProtocol, deadline_protocol

    configure(config.log_level, config.log_format)
    app = create_app(config=config)
    print(f"Ubongo: open {config.public_url} in a browser (Ctrl-C stops the server)", flush=True)
    uvicorn.run(
        app,
        host=config.host,
        port=config.port,
        log_level=config.log_level,
        ws_max_size=1 << 20,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        http=deadline_protocol(config.request_seconds),
        ws=ReleasingWebSocketProtocol,
        # our handler formats uvicorn's lines too (JSON lines or text: ubongo.server.ops.logs)
        log_config=None,
    )
