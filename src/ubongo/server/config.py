"""What an operator may tune, declared once: :class:`ServerConfig`.

Each setting is one field, with its default, its check and its help text. From the fields are
made the options of ``ubongo serve`` (``--rooms-per-minute``, :mod:`ubongo.cli.settings`), the
environment variables (``UBONGO_ROOMS_PER_MINUTE``, read by pydantic-settings) and the tables of
``docs/server.md`` ("Settings", "Rooms and limits"; ``scripts/settings`` writes them and a
test fails when they differ). A flag wins over the environment, which wins over the default.

May import: nothing of the server (it is the lowest layer, with :mod:`.protocol`).

>>> ServerConfig().rooms_per_minute
30
>>> ServerConfig(port=8001).public_url
'http://127.0.0.1:8001'
>>> from pydantic import ValidationError
>>> try:
...     ServerConfig(rooms_per_minute=0)
... except ValidationError as e:
...     print(e.errors()[0]["loc"], e.errors()[0]["msg"])
('rooms_per_minute',) Input should be greater than 0
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

#: the prefix of the environment variables (``UBONGO_`` and the field's name in capitals)
ENV_PREFIX = "UBONGO_"

#: the groups of settings, in the order ``ubongo serve --help`` shows them: the title of each
#: one's panel there (docs/server.md has one table per group, marked ``<!-- settings: id -->``)
GROUPS: dict[str, str] = {
    "server": "Server",
    "cluster": "Several processes (Redis)",
    "http": "HTTP and production mode",
    "store": "Storing games",
    "games": "Games",
    "limits": "Limits (docs/server.md, 'Rooms and limits')",
}


@dataclass(frozen=True)
class Setting:
    """How a field of :class:`ServerConfig` is shown to an operator, beside its help text (the
    field's description): its group (:data:`GROUPS`), and where the field's name, type and
    checks do not say it well enough, its flag, its metavar, its default and its check in
    words, and for a limit what a client meets past it (docs/server.md's tables)."""

    group: str
    #: the flag, when it is not ``--`` and the field's name with dashes (an older name)
    flag: str | None = None
    metavar: str | None = None
    #: the default in words, when it is made from other settings or found elsewhere
    default_text: str | None = None
    #: the check in words, when it is neither a bound, a choice nor a described check
    allowed: str | None = None
    #: what a client meets past the limit (docs/server.md, "Rooms and limits")
    past: str | None = None
    #: a tuple given as one flag per item (``--allowed-origin A --allowed-origin B``) rather
    #: than as one comma-separated value (``--upstreams A,B``); the environment has commas
    repeatable: bool = False


@dataclass(frozen=True)
class Schemes:
    """A check that a URL starts with one of ``schemes``; ``what`` names such a URL.

    >>> Schemes(("redis://",), "a Redis URL")("redis://host:6379/0")
    'redis://host:6379/0'
    >>> Schemes(("redis://",), "a Redis URL")("host:6379")
    Traceback (most recent call last):
    ...
    ValueError: not a Redis URL: 'host:6379'
    """

    schemes: tuple[str, ...]
    what: str

    @property
    def words(self) -> str:
        """The check as docs/server.md says it."""
        each = [f"`{scheme}...`" for scheme in self.schemes]
        return " or ".join([", ".join(each[:-1]), each[-1]] if len(each) > 1 else each)

    def __call__(self, value: str | None) -> str | None:
        if value is not None and not value.startswith(self.schemes):
            raise ValueError(f"not {self.what}: {_quote(value)}")
        return value


@dataclass(frozen=True)
class HostPort:
    """A check that a value is ``host:port``, as nginx's ``upstream`` block names a server.

    >>> HostPort()("10.0.0.6:8001")
    '10.0.0.6:8001'
    """

    words = "`HOST:PORT`"

    def __call__(self, value: str) -> str:
        host, _, port = value.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"not host:port, as nginx's upstream names it: {_quote(value)}")
        return value


@dataclass(frozen=True)
class DatabaseUrl:
    """A check that a value looks like a SQLAlchemy URL (``dialect[+driver]://...``)."""

    words = "a SQLAlchemy URL"

    def __call__(self, value: str | None) -> str | None:
        if value is not None and "://" not in value:
            raise ValueError(
                f"not a database URL (sqlite:///FILE, postgresql+psycopg://...): {_quote(value)}"
            )
        return value


def _quote(value: str, limit: int = 80) -> str:
    """A value for an error message, cut short."""
    return repr(value if len(value) <= limit else value[:limit] + "...")


def _none_if_empty(value: Any) -> Any:
    """An empty URL (``--redis-url ''``, ``UBONGO_REDIS_URL=``) is no URL."""
    return None if value == "" else value


def _without_final_slash(url: str) -> str:
    """``https://ubongo.example.org/`` as ``https://ubongo.example.org`` (invite links add
    ``/room/...``)."""
    return url.rstrip("/")


def _comma_list(value: Any) -> Any:
    """A list given as one text (a flag or an environment variable): comma-separated."""
    if isinstance(value, str):
        return tuple(item.strip() for item in value.split(",") if item.strip())
    return value


def _json_object(value: Any) -> Any:
    """An object given as one text (a flag or an environment variable): JSON."""
    if not isinstance(value, str):
        return value
    try:
        data = json.loads(value)
    except ValueError as e:
        raise ValueError(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise ValueError(f"not a JSON object: {_quote(value)}")
    return data


Url = Annotated[str | None, BeforeValidator(_none_if_empty)]
Origin = Annotated[
    str, AfterValidator(Schemes(("http://", "https://"), "an origin (https://host[:port])"))
]
Upstream = Annotated[str, AfterValidator(HostPort())]
REDIS_URL = "a Redis URL (redis://host:port/db, rediss://... for TLS, unix:///path)"


def _server(**shown: Any) -> Setting:
    return Setting("server", **shown)


def _limit(past: str, **shown: Any) -> Setting:
    return Setting("limits", past=past, **shown)


class ServerConfig(BaseSettings):
    """Every setting an operator may tune, checked: ``ServerConfig(rooms_per_minute=60)``, or
    from the environment (``UBONGO_ROOMS_PER_MINUTE=60``); keyword arguments win over the
    environment, which wins over the defaults. A bad value is a ``ValidationError`` naming
    the field.

    What belongs here: whatever ``ubongo serve`` takes and the running server reads (where
    it listens, its database, Redis and public URL, the ring of several processes, the HTTP
    options of production mode, logging, storing, quick match and every limit). What does
    not: a room's own settings (its host's: seat holds, timers; docs/protocol.md), constants
    of the protocol and the transport (message and frame sizes, pings) and of the rules, and
    the web client's build options (``UBONGO_WEB_SOURCEMAP``). Limits per client address are
    generous enough for a family behind one router.
    """

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, frozen=True, allow_inf_nan=False, extra="forbid"
    )

    # -- the process ------------------------------------------------------------------------
    host: Annotated[str, _server()] = Field(
        default="127.0.0.1", min_length=1, description="address to listen on"
    )
    port: Annotated[int, _server()] = Field(
        default=8000, ge=1, le=65535, description="port to listen on"
    )
    #: made from host and port when not given (below, :meth:`_public_url`)
    public_url: Annotated[
        str,
        AfterValidator(Schemes(("http://", "https://"), "an http:// or https:// URL")),
        AfterValidator(_without_final_slash),
        _server(metavar="URL", default_text="http://HOST:PORT"),
    ] = Field(default="", description="the address players use, for invite links")
    database_url: Annotated[
        Url,
        AfterValidator(DatabaseUrl()),
        _server(metavar="URL", default_text="sqlite:///<user data dir>/ubongo.sqlite3"),
    ] = Field(default=None, description="SQLAlchemy database URL")
    log_level: Annotated[Literal["debug", "info", "warning"], _server()] = Field(
        default="info", description="the least important log lines written"
    )
    log_format: Annotated[Literal["auto", "json", "text"], _server()] = Field(
        default="auto",
        description="log lines as JSON objects or text (auto: text at a terminal, JSON otherwise)",
    )

    # -- several processes ------------------------------------------------------------------
    redis_url: Annotated[
        Url,
        AfterValidator(Schemes(("redis://", "rediss://", "unix://"), REDIS_URL)),
        Setting("cluster", metavar="URL"),
    ] = Field(
        default=None,
        description="share rooms with the other processes on this Redis, e.g. "
        "redis://host:6379/0 (without it rooms live in this process only)",
    )
    #: several processes behind nginx's ``hash ... consistent``: its upstream servers as it
    #: names them, and this process's name among them; rooms made here get codes that nginx
    #: sends here (:mod:`.cluster.ring`); empty: any code
    upstreams: Annotated[
        tuple[Upstream, ...],
        NoDecode,
        BeforeValidator(_comma_list),
        Setting("cluster", metavar="HOST:PORT,...", allowed="with --redis-url"),
    ] = Field(
        default=(),
        description="with --redis-url behind nginx's 'hash $room consistent': every process's "
        "address as nginx's upstream block names it; rooms made here get codes that nginx "
        "sends here (docs/operations.md)",
    )
    upstream_name: Annotated[
        str,
        Setting(
            "cluster", metavar="HOST:PORT", default_text="HOST:PORT", allowed="one of --upstreams"
        ),
    ] = Field(default="", description="this process's address among --upstreams")

    # -- HTTP -------------------------------------------------------------------------------
    max_body_bytes: Annotated[int, Setting("http")] = Field(
        default=64 * 1024,
        ge=1024,
        description="the largest HTTP request body; larger ones get 413 too_large "
        "(every body the API takes is under 1 KiB)",
    )
    allowed_origins: Annotated[
        tuple[Origin, ...],
        NoDecode,
        BeforeValidator(_comma_list),
        Setting("http", flag="--allowed-origin", metavar="ORIGIN", repeatable=True),
    ] = Field(
        default=(),
        description="an origin (https://host[:port]) whose pages may open WebSockets, besides "
        "this server's own host and --public-url's; repeatable",
    )
    dev: Annotated[bool, Setting("http")] = Field(
        default=False,
        description="development mode: serve the API pages /docs and /redoc and the client's "
        "source maps (production mode, the default, serves neither)",
    )

    # -- storing ----------------------------------------------------------------------------
    store_timeout: Annotated[float, Setting("store")] = Field(
        default=30.0,
        gt=0,
        description="seconds a database write waits for a lock (SQLite) before it fails and "
        "is tried again",
    )
    store_retry_seconds: Annotated[float, Setting("store", flag="--store-retry")] = Field(
        default=1.0,
        gt=0,
        description="seconds before a failed write is tried again, doubling each time",
    )
    #: raised to ``store_retry_seconds`` when less (below, :meth:`_at_least_the_first_wait`)
    store_retry_max_seconds: Annotated[float, Setting("store", flag="--store-retry-max")] = Field(
        default=60.0,
        gt=0,
        description="the longest wait between two tries of a failed write (at least --store-retry)",
    )

    # -- games ------------------------------------------------------------------------------
    #: a solo task solved faster than its pieces times this is not ranked (docs/server.md,
    #: "Plausible records"): the fastest a human hand places a piece
    record_seconds_per_piece: Annotated[float, Setting("games")] = Field(
        default=0.6,
        ge=0,
        description="the fastest a hand places a piece (seconds): solo tasks solved faster are "
        "not ranked, a rated race's seat that finishes faster is not rated (0: no floor)",
    )
    #: rated and ranked play shows how it was played (docs/fair-play.md, "Play traces")
    require_traces: Annotated[bool, Setting("games")] = Field(
        default=True,
        description="a finish of rated or ranked play needs a consistent play trace to be rated "
        "or ranked (off: only for scripted test rigs)",
    )
    trace_seconds_per_move: Annotated[float, Setting("games")] = Field(
        default=0.15,
        ge=0,
        description="the least time between two pieces placed in a play trace (seconds): a trace "
        "with two placements closer is not a hand's (0: no floor)",
    )
    hold_score: Annotated[float, Setting("games")] = Field(
        default=1.0,
        ge=0,
        description="a rated or ranked result whose plausibility score (docs/fair-play.md) reaches "
        "this is held for review (0: none is held)",
    )
    quickmatch_wait: Annotated[float, Setting("games")] = Field(
        default=10.0,
        ge=0,
        description="seconds a quick match waits for other players before bots fill the seats "
        "(0: bots at once)",
    )
    #: settings an edition refuses are left out for its rooms; ``ubongo serve`` checks them
    #: against the protocol's room settings (which this module may not import)
    quickmatch_settings: Annotated[
        dict[str, Any],
        NoDecode,
        BeforeValidator(_json_object),
        Setting("games", metavar="JSON", default_text="{}", allowed="room settings, as JSON"),
    ] = Field(
        default_factory=dict,
        description="room settings of quick-match rooms beyond the edition, e.g. "
        "'{\"rounds\": 1}' for a demo or a test",
    )

    arena_gather_seconds: Annotated[float, Setting("games")] = Field(
        default=2.0,
        ge=0,
        description="seconds an arena's free player waits for a full race before racing the "
        "free players there are, bots in the seats left (docs/arenas.md)",
    )
    arena_schedule: Annotated[str, Setting("games", metavar="FILE")] = Field(
        default="standard",
        max_length=4096,
        description="the arenas made by themselves: standard (the shipped schedule), none, or "
        "a JSON file of the same shape (docs/arenas.md)",
    )

    #: boosting with a second account (docs/fair-play.md, "No boosting, no dodging")
    shared_address_days: Annotated[float, Setting("games")] = Field(
        default=7.0,
        ge=0,
        description="days quick match keeps apart two accounts seen at one address (IPv6: "
        "one /64), and a saved puzzle's rating learns from one of them (docs/editor.md); only "
        "salted hashes of addresses are stored, for as long (0: not kept apart)",
    )
    rated_games_per_pair: Annotated[int, Setting("games")] = Field(
        default=3,
        gt=0,
        description="rated games between the same two accounts in 24 hours that move their "
        "ratings; later ones are played and stored, unrated (pair_cap)",
    )

    # -- limits (docs/server.md, "Rooms and limits") ----------------------------------------
    rooms_per_minute: Annotated[int, _limit("`429 rate_limited`")] = Field(
        default=30,
        gt=0,
        description="rooms one address may create a minute (a burst of as many, then one "
        "every 60/n s)",
    )
    #: a hint is a solver call: a player asking now and then is far below these
    hints_per_minute: Annotated[int, _limit("`429 rate_limited` (docs/fair-play.md)")] = Field(
        default=30,
        gt=0,
        description="hints (POST /api/hint) one account may ask for a minute (a burst of as many)",
    )
    hints_per_minute_per_address: Annotated[int, _limit("`429 rate_limited`")] = Field(
        default=120,
        gt=0,
        description="hints (POST /api/hint) the accounts of one address may ask for a minute",
    )
    #: the editor asks again whenever the drawing rests (docs/editor.md): a player drawing
    #: fast asks about once a second, far below these
    verdicts_per_minute: Annotated[int, _limit("`429 rate_limited` (docs/editor.md)")] = Field(
        default=120,
        gt=0,
        description="editor verdicts (POST /api/puzzles/verdict) one account may ask for a "
        "minute (a burst of as many)",
    )
    verdicts_per_minute_per_address: Annotated[int, _limit("`429 rate_limited`")] = Field(
        default=480,
        gt=0,
        description="editor verdicts (POST /api/puzzles/verdict) the accounts of one address "
        "may ask for a minute",
    )
    #: a browser makes one on its first visit, so this is a school's or a family's worth
    accounts_per_hour: Annotated[int, _limit("`429 rate_limited` (docs/accounts.md)")] = Field(
        default=60, gt=0, description="accounts one address may create an hour (a burst of as many)"
    )
    #: a challenge is a notice on another player's pages: few enough that nobody is pestered
    challenges_per_hour: Annotated[int, _limit("`429 rate_limited` (docs/social.md)")] = Field(
        default=30, gt=0, description="challenges one account may make an hour"
    )
    challenge_seconds: Annotated[float, _limit("the challenge expires (docs/social.md)")] = Field(
        default=120.0, ge=5, le=3600, description="how long a challenge waits for its answer"
    )
    arenas_per_day: Annotated[int, _limit("`429 rate_limited` (docs/arenas.md)")] = Field(
        default=5, gt=0, description="arenas one account may make a day"
    )
    #: saved puzzles are kept for good and listed to everyone once published (docs/editor.md)
    puzzles_saved_per_day: Annotated[int, _limit("`429 puzzle_limit` (docs/editor.md)")] = Field(
        default=20, gt=0, description="puzzles one account may save a day"
    )
    puzzles_published_per_day: Annotated[int, _limit("`429 puzzle_limit`")] = Field(
        default=5, gt=0, description="puzzles one account may publish to the community list a day"
    )
    puzzles_per_account: Annotated[int, _limit("`429 puzzle_limit`")] = Field(
        default=200, gt=0, description="puzzles one account may keep"
    )
    #: a pack is read whole by its page and dealt whole to a room's settings (docs/editor.md)
    pack_puzzles: Annotated[int, _limit("`422 bad_pack` (docs/editor.md)")] = Field(
        default=20, ge=1, le=100, description="puzzles one pack may hold"
    )
    packs_per_day: Annotated[int, _limit("`429 puzzle_limit`")] = Field(
        default=10, gt=0, description="packs one account may make a day"
    )
    packs_per_account: Annotated[int, _limit("`429 puzzle_limit`")] = Field(
        default=50, gt=0, description="packs one account may keep"
    )
    follows_per_account: Annotated[int, _limit("`409 follow_limit` (docs/social.md)")] = Field(
        default=500, gt=0, description="accounts one account may follow"
    )
    #: lichess's playban: leaving rated games is not a way to dodge losses (docs/fair-play.md)
    playban_leaves: Annotated[
        int, _limit("`429 playban` with `Retry-After` (docs/fair-play.md)")
    ] = Field(
        default=3,
        gt=0,
        description="rated games left (of an account's last --playban-games in 24 hours) "
        "that make it wait before its next quick match",
    )
    playban_games: Annotated[int, _limit(past="as --playban-leaves")] = Field(
        default=10,
        gt=0,
        description="an account's latest rated games (of the last 24 hours) the playban looks at",
    )
    playban_minutes: Annotated[
        tuple[float, ...],
        NoDecode,
        BeforeValidator(_comma_list),
        _limit(
            past="as --playban-leaves",
            metavar="MINUTES,...",
            default_text="5,15,60",
            allowed="each > 0",
        ),
    ] = Field(
        default=(5.0, 15.0, 60.0),
        min_length=1,
        description="how long the playban lasts from the end of the last game left: the first "
        "at --playban-leaves games left, the next at one more, and so on (the last for all after)",
    )
    #: guessing a 5-letter code is hopeless at this pace (docs/server.md)
    failed_lookup_burst: Annotated[int, _limit(past="as --failed-lookups-per-hour")] = Field(
        default=20,
        gt=0,
        description="wrong room codes or invites one address may try at once, before "
        "--failed-lookups-per-hour",
    )
    failed_lookups_per_hour: Annotated[
        int,
        _limit(
            "`429 rate_limited` / `rate_limited` for every lookup of that address, right or "
            "wrong, until it has room again; logged once per address and window (not per "
            "attempt)"
        ),
    ] = Field(
        default=60,
        gt=0,
        description="wrong room codes or invites (over HTTP or hello) one address may try an "
        "hour, after a first burst of --failed-lookup-burst",
    )
    connections_per_address: Annotated[int, _limit("`error` `rate_limited`, then close 4029")] = (
        Field(default=50, gt=0, description="WebSockets one address may have open at once")
    )
    messages_per_second: Annotated[
        float, _limit("`rate_limited`; after 200 refusals close 4008")
    ] = Field(
        default=20.0,
        gt=0,
        description="messages one WebSocket may send a second (bursts of twice as many)",
    )
    hello_seconds: Annotated[float, _limit("close 4002")] = Field(
        default=10.0, gt=0, description="seconds a new WebSocket has to say hello"
    )
    spectators_per_room: Annotated[int, _limit("`error` `spectators_full`")] = Field(
        default=200, gt=0, description="spectators one room accepts at once"
    )
    max_queued_messages: Annotated[
        int,
        _limit(
            "the TCP connection is aborted (no close frame: it would wait behind the unread "
            "data); the client reconnects and resyncs"
        ),
    ] = Field(
        default=1000,
        gt=0,
        description="messages waiting for a client that does not read, before it is dropped",
    )
    request_seconds: Annotated[float, _limit("the connection is closed (slowloris)")] = Field(
        default=10.0,
        gt=0,
        description="seconds an HTTP request (headers and body) has to arrive whole",
    )
    presence_seconds: Annotated[
        float, _limit("arrivals and departures are counted in the next event")
    ] = Field(
        default=0.25,
        ge=0,
        description="at most one spectator-count event per room in this many seconds "
        "(0: one per change)",
    )
    idle_room_seconds: Annotated[float, _limit("the room is forgotten")] = Field(
        default=1800.0, gt=0, description="seconds a room nobody is connected to is kept"
    )
    finished_room_seconds: Annotated[
        float,
        _limit(
            "the room is forgotten (its replay stays; a closed tab says no `leave`, and nobody "
            "is there to ask for a rematch)"
        ),
    ] = Field(
        default=300.0,
        gt=0,
        description="seconds a room whose game is over (and stored) is kept once nobody is "
        "connected",
    )
    unjoined_room_seconds: Annotated[float, _limit("the room is forgotten")] = Field(
        default=60.0,
        gt=0,
        description="seconds a room nobody ever joined (created, never connected) is kept",
    )
    full_collection_seconds: Annotated[
        float,
        _limit(
            "a full collection runs: it stops the server for as long as it walks everything "
            "the players hold, about 1 s at 5,000 players (young and middle collections stay "
            'under 30 ms; docs/performance.md, "Capacity")'
        ),
    ] = Field(
        default=3600.0,
        gt=0,
        description="seconds between the garbage collector's full collections (each stops "
        "the server a moment)",
    )

    @field_validator("public_url", mode="before")
    @classmethod
    def _public_url(cls, value: Any, info: ValidationInfo) -> Any:
        """``http://HOST:PORT`` unless given."""
        if value == "":
            return f"http://{info.data.get('host', '127.0.0.1')}:{info.data.get('port', 8000)}"
        return value

    @field_validator("upstreams")
    @classmethod
    def _upstreams_need_redis(cls, value: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        """A ring is of several processes, which share rooms on Redis."""
        if value and "redis_url" in info.data and not info.data["redis_url"]:
            raise ValueError("needs --redis-url (several processes share rooms)")
        return value

    @field_validator("upstream_name")
    @classmethod
    def _upstream_name(cls, value: str, info: ValidationInfo) -> str:
        """This process's place in the ring: ``HOST:PORT`` unless given, among the upstreams."""
        if "upstreams" not in info.data:
            return value  # refused already
        servers: tuple[str, ...] = info.data["upstreams"]
        if not servers:
            if value:
                raise ValueError("needs --upstreams")
            return ""
        name = value or f"{info.data.get('host')}:{info.data.get('port')}"
        if name not in servers:
            raise ValueError(f"this process ({name}) is not among --upstreams; see --upstream-name")
        return name

    @field_validator("playban_minutes")
    @classmethod
    def _positive_minutes(cls, value: tuple[float, ...]) -> tuple[float, ...]:
        """A playban lasts a while."""
        if not all(minutes > 0 for minutes in value):
            raise ValueError("each must be greater than 0")
        return value

    @field_validator("store_retry_max_seconds")
    @classmethod
    def _at_least_the_first_wait(cls, value: float, info: ValidationInfo) -> float:
        """The longest wait is never shorter than the first."""
        return max(value, float(info.data.get("store_retry_seconds", value)))
