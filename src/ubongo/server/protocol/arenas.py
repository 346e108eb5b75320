"""Arenas in the protocol (``docs/arenas.md``): the HTTP bodies and answers, and the arena
socket ``/ws/arenas/{arena_id}``, which an arena's page keeps open.

On the arena socket the client says ``hello`` first, with its account's token (``null``: a
visitor, who watches); the server answers with the arena's view (``arena``) at once and then
whenever what the page shows has changed, at most once a second. A player seated in a race
finds the seat in their view (``me.seat``) and goes to its room. While a player's arena page
is open they are paired; with none open they are not.

>>> arena_client_message('{"type": "hello", "token": null}').token is None
True
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, RootModel, TypeAdapter

from .incoming import EditionName, Strict
from .outgoing import ProtocolCode
from .snapshot import Ms, SeatTicket, Sent

ArenaPhase = Literal["soon", "running", "ending", "over"]

# --- HTTP ------------------------------------------------------------------------------------


class NewArena(Strict):
    """``POST /api/arenas``: an arena made by an account (``docs/arenas.md``, "Limits")."""

    title: str = Field(min_length=1, max_length=40)
    edition: EditionName
    minutes: int = Field(ge=10, le=60, description="how long it runs")
    seats: int = Field(default=4, ge=2, le=4, description="players per race")
    side: str | None = Field(
        default=None, max_length=16, description="the side (3D: level); null: the edition's default"
    )
    starts_in: int = Field(
        default=5, ge=0, le=24 * 60, description="minutes from now until it starts"
    )
    private: bool = Field(default=False, description="found only by its link")


class ArenaMe(Strict):
    """``PATCH /api/arenas/{arena_id}/me``: pause (not seated again until back) or come back;
    take the harder side in the next races or not. Fields left out stay as they are."""

    paused: bool | None = None
    harder: bool | None = None


class ArenaSummary(Sent):
    """An arena in a list."""

    id: str
    title: str
    edition: str
    side: str
    seats: int
    minutes: int
    starts_at: Ms
    ends_at: Ms
    phase: ArenaPhase
    players: int = Field(description="players who joined")
    scheduled: bool = Field(description="made by the schedule, not by a player")


class ArenaList(Sent):
    """``GET /api/arenas``: the public arenas coming, running and over in the last hour."""

    arenas: list[ArenaSummary]
    server_time: Ms


class StandingRow(Sent):
    """A player's line in the standings."""

    rank: int
    account: int
    name: str
    points: int
    wins: int
    races: int
    on_fire: bool = Field(description="won the last two races: the next counts double")
    paused: bool


class RaceScore(Sent):
    """One race of a player: its number, the place (null: not finished or not counted), the
    points, whether it counted double, whether it was on the harder side, and its game."""

    race: int
    place: int | None
    points: int
    fire: bool
    harder: bool
    game_id: int | None = Field(description="the race's stored game: its replay")


class MyArena(Sent):
    """The page's own player in the arena."""

    rank: int | None = Field(description="null: removed from the standings")
    points: int
    streak: int
    on_fire: bool
    paused: bool
    harder: bool
    present: bool = Field(description="an arena page of theirs is open: they are paired")
    seat: SeatTicket | None = Field(description="the seat of their race in play")
    results: list[RaceScore] | None = Field(
        description="every race of theirs scored; null (the arena socket only): the same as in "
        "the last message on this socket (sent again only when it changes)"
    )


class RaceInPlayView(Sent):
    number: int
    room: str
    names: list[str]


class ArenaView(Sent):
    """``GET /api/arenas/{arena_id}`` and the arena socket's ``arena``: the arena, its clock,
    the top of the standings, the page's player and their neighbourhood, the races in play."""

    id: str
    title: str
    edition: str
    side: str
    harder_side: str | None = Field(description="null: the arena plays the hardest side")
    seats: int
    minutes: int
    starts_at: Ms
    ends_at: Ms
    phase: ArenaPhase
    private: bool
    server_time: Ms
    players: int
    races_in_play: int
    top: list[StandingRow]
    near: list[StandingRow] = Field(description="around the page's player, when not in top")
    me: MyArena | None = Field(description="null: a visitor, or not joined")
    races: list[RaceInPlayView]


class ArenaResults(Sent):
    """``GET /api/arenas/{arena_id}/results``: every player's line, in the standings' order."""

    id: str
    phase: ArenaPhase
    standings: list[StandingRow]


class ArenaPlayed(Sent):
    """An arena an account played in: its points and final place (null: not over yet)."""

    id: str
    title: str
    edition: str
    starts_at: Ms
    points: int
    place: int | None


class ArenasPlayed(RootModel[list[ArenaPlayed]]):
    """``GET /api/accounts/{account_id}/arenas``: the arenas it raced in, latest first."""


# --- the arena socket ---------------------------------------------------------------------------


class ArenaHello(Strict):
    """The first message: the account's token, or ``null`` to watch."""

    type: Literal["hello"]
    token: str | None = Field(max_length=200)


#: what a client says on the arena socket: only its hello
ArenaClientMessage = ArenaHello


class ArenaUpdate(ArenaView):
    """The arena's view as the page's player sees it now."""

    type: Literal["arena"]


class ArenaSocketError(Sent):
    type: Literal["error"]
    code: ProtocolCode
    message: str


ArenaMessage = Annotated[ArenaUpdate | ArenaSocketError, Field(discriminator="type")]

_client_adapter: TypeAdapter[ArenaClientMessage] = TypeAdapter(ArenaClientMessage)
_message_adapter: TypeAdapter[ArenaMessage] = TypeAdapter(ArenaMessage)
_update_adapter: TypeAdapter[ArenaUpdate] = TypeAdapter(ArenaUpdate)
_near_adapter: TypeAdapter[list[StandingRow]] = TypeAdapter(list[StandingRow])
_me_adapter: TypeAdapter[MyArena | None] = TypeAdapter(MyArena | None)
_results_adapter: TypeAdapter[list[RaceScore]] = TypeAdapter(list[RaceScore])
#: how a page's own player ends when encoded with no results (``results`` is the model's
#: last field): where a sheet's results, encoded once, are put in
_NO_RESULTS = '"results":[]}'
if list(MyArena.model_fields)[-1] != "results":  # not an assert: it must hold under -O too
    raise RuntimeError("MyArena.results must stay its last field (ArenaUpdates.page)")
#: an update's fields that differ from page to page
_OWN = {"near", "me", "server_time"}
#: where a page's update leaves the time out (no JSON value has it)
_TIME_GAP = "\x00"


def encode_results(results: list[dict[str, Any]]) -> str:
    """A player's race results as a page's ``me.results``, checked and encoded.

    >>> encode_results([{"race": 3, "place": 1, "points": 2, "fire": False, "harder": False,
    ...     "game_id": None}])
    '[{"race":3,"place":1,"points":2,"fire":false,"harder":false,"game_id":null}]'
    """
    return _results_adapter.dump_json(_results_adapter.validate_python(results)).decode()


def arena_client_message(text: str | bytes) -> ArenaClientMessage:
    """A frame a client sent on the arena socket (``pydantic.ValidationError`` if not one)."""
    return _client_adapter.validate_json(text)


def encode_arena_message(message: dict[str, Any]) -> str:
    """The JSON text of an arena socket message, made through its model.

    >>> encode_arena_message({"type": "error", "code": "no_arena", "message": "gone"})
    '{"type":"error","code":"no_arena","message":"gone"}'
    """
    return _message_adapter.dump_json(_message_adapter.validate_python(message)).decode()


class ArenaUpdates:
    """The JSON texts of one arena's ``arena`` messages to many pages at once: what every page
    shows alike (``shared``: the arena, the top of the standings, the races) checked against
    :class:`ArenaUpdate` and encoded once, each page's own part (its neighbourhood, its sheet,
    the time) checked and encoded apart and put in its place: the same text, byte for byte,
    as :func:`encode_arena_message` makes of the whole.

    >>> from ubongo import editions
    >>> shared = {"id": "a", "title": "T", "edition": editions.names()[0], "side": "A",
    ...     "harder_side": "B", "seats": 4, "minutes": 30, "starts_at": 0, "ends_at": 9,
    ...     "phase": "running", "private": False, "players": 0, "races_in_play": 0,
    ...     "top": [], "races": []}
    >>> updates = ArenaUpdates(shared)
    >>> updates.timed(updates.page([], None), 5) == encode_arena_message(
    ...     {"type": "arena", **shared, "near": [], "me": None, "server_time": 5})
    True
    """

    def __init__(self, shared: dict[str, Any]) -> None:
        checked = _update_adapter.validate_python(
            {"type": "arena", **shared, "near": [], "me": None, "server_time": 0}
        )
        # each shared field's '"name":value' once; the model's order of fields kept
        self._fields = {
            name: _update_adapter.dump_json(checked, include={name}).decode()[1:-1]
            for name in ArenaUpdate.model_fields
            if name not in _OWN
        }

    def page(
        self, near: list[dict[str, Any]], me: dict[str, Any] | None, results: str = "[]"
    ) -> str:
        """A page's update with a gap for the time (what tells whether it changed since the
        last one sent: the clock alone moving is not news). ``me`` comes without its
        ``results``, which come encoded (:func:`encode_results`, once a sheet)."""
        mine = "null"
        if me is not None:
            empty = _me_adapter.dump_json(_me_adapter.validate_python({**me, "results": []}))
            mine = empty.decode()[: -len(_NO_RESULTS)] + '"results":' + results + "}"
        own = {
            "near": '"near":'
            + _near_adapter.dump_json(_near_adapter.validate_python(near)).decode(),
            "me": '"me":' + mine,
            "server_time": '"server_time":' + _TIME_GAP,
        }
        return "{" + ",".join(self._fields.get(n) or own[n] for n in ArenaUpdate.model_fields) + "}"

    @staticmethod
    def timed(page: str, server_time: int) -> str:
        """A page's update with the server's time (ms) in its gap: the text to send."""
        return page.replace(_TIME_GAP, str(server_time), 1)
