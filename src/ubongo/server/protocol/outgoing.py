"""What the server sends over the room WebSocket, as pydantic models (``docs/protocol.md``):
the answers to a client's messages (``welcome``, ``pong``, ``verdict``, ``hint``, ``error``),
a spectator's phrase to the other spectators (``spectator_said``), and :data:`ServerMessage`,
any frame, with the room events of :mod:`.events`.

The client's messages are in :mod:`.incoming`, the HTTP bodies in :mod:`.answers`, the room
snapshot that ``welcome`` and the events carry in :mod:`.snapshot`. These models are the one
description of the protocol: ``make protocol`` turns them into a JSON Schema and the web
client's TypeScript types (``web/src/protocol.gen.ts``), and ``tests/test_protocol.py`` checks
every frame a real server sends against them. Every model refuses unknown fields, and a field
is nullable only where the server really sends ``null``.

Times are server times in integer milliseconds since the Unix epoch (:data:`~.snapshot.Ms`);
seats are ``0..3``; maps keyed by seat use the seat number as a string (JSON object keys).

>>> msg = server_message('{"type": "pong", "id": 4, "t": 1.5, "server_time": 1763812345702}')
>>> type(msg).__name__, msg.server_time
('Pong', 1763812345702)
>>> from pydantic import ValidationError
>>> try:
...     server_message('{"type": "pong", "id": 4, "t": 1.5, "server_time": 1, "x": 0}')
... except ValidationError as e:
...     print(e.errors()[0]["type"], e.errors()[0]["loc"])
extra_forbidden ('pong', 'x')
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from .events import RoomEvent
from .incoming import Phrase, Placement
from .snapshot import Ms, Sent

# the snapshot ``welcome`` carries, as the routes that serve a room import it from here
from .snapshot import RoomSnapshot as RoomSnapshot

# --- the other messages ----------------------------------------------------------------------


class Welcome(Sent):
    """The answer to ``hello``; with ``resumed`` the missed events follow."""

    type: Literal["welcome"]
    seat: int | None = Field(description="null for a spectator")
    token_ok: bool = Field(description="whether the token holds a seat (false: spectating)")
    seq: int = Field(description="the room's last event number")
    server_time: Ms
    resumed: bool
    room: RoomSnapshot


class Pong(Sent):
    """The answer to ``ping``: its ``id`` and ``t`` echoed, and the server's time."""

    type: Literal["pong"]
    id: int
    t: float
    server_time: Ms


#: what the cover check says of an arrangement (:func:`ubongo.board.check_cover`)
CoverCode = Literal[
    "covered",
    "unknown_piece",
    "duplicate_piece",
    "bad_transform",
    "bad_position",
    "missing_piece",
    "outside",
    "overlap",
    "uncovered",
]
#: the codes of :mod:`ubongo.rules.errors` (a test checks that the two lists agree)
RuleCode = Literal[
    "rule_error",
    "bad_settings",
    "bad_action",
    "unknown_player",
    "not_in_round",
    "no_round",
    "round_running",
    "game_over",
    "time_went_backwards",
    "too_late",
    "already_finished",
    "already_gave_up",
    "not_solo",
    "unknown_piece",
    "wrong_arrangement",
]
VerdictCode = Literal[CoverCode, RuleCode]


class HintReply(Sent):
    """The answer to ``hint``, to its sender only: a piece where it lies in a solution that
    keeps every piece placed, or which placed pieces to move."""

    type: Literal["hint"]
    round: int
    placement: Placement | None = Field(description="put this piece here; null: see move")
    move: list[str] = Field(description="pieces to take away first (the board cannot be finished)")
    solved: bool = Field(description="the placements already cover the area")
    message: str = Field(description="a sentence for the player")
    penalty: float = Field(description="seconds the hint cost")


class Verdict(Sent):
    """The answer to ``submit``, to its sender only."""

    type: Literal["verdict"]
    round: int
    ok: bool
    code: VerdictCode = Field(description="covered, or why the arrangement is refused")
    reason: str = Field(description="a sentence for the player")
    received_at: Ms


#: the protocol's own error codes (docs/protocol.md, "Errors")
ProtocolCode = Literal[
    "bad_json",
    "too_large",
    "unknown_type",
    "bad_message",
    "rate_limited",
    "not_joined",
    "already_joined",
    "no_room",
    "bad_token",
    "no_account",
    "spectator",
    "not_host",
    "wrong_phase",
    "stale_round",
    "not_ready",
    "bad_seats",
    "room_full",
    "room_locked",
    "spectators_full",
    "no_such_seat",
    "bad_setting",
    "unavailable",
    "no_help",
    "bad_placement",
    "bad_date",
    "no_free_text",
    "no_arena",
    "arena_over",
]
ErrorCode = Literal[ProtocolCode, RuleCode]


class Error(Sent):
    """The answer to a message that changed nothing."""

    type: Literal["error"]
    code: ErrorCode
    message: str
    ref: str | None = Field(description="the type of the message at fault, if known")


class SpectatorSaid(Sent):
    """A spectator's quick phrase, sent to the room's spectators only, never to a seated
    player (docs/social.md). Not a room event: no number, not in the room's log, not heard
    again after a reconnect."""

    type: Literal["spectator_said"]
    spectator: int = Field(
        ge=1, description="the speaker's number in this room (one per client address)"
    )
    phrase: Phrase
    mine: bool = Field(description="said from this reader's own address")
    at: Ms


ServerMessage = Annotated[
    Welcome | RoomEvent | Pong | Verdict | HintReply | Error | SpectatorSaid,
    Field(discriminator="type"),
]

_server_adapter: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def server_message(text: str | bytes) -> ServerMessage:
    """A frame the server sent, validated (``pydantic.ValidationError`` if it is not one)."""
    return _server_adapter.validate_json(text)


def encode(message: dict[str, Any]) -> str:
    """The JSON text of a message to send, made through its model: a message that does not
    match the protocol raises ``pydantic.ValidationError`` instead of reaching a client.

    The server's one way from a message to a frame (about as fast as ``json.dumps``).

    >>> encode({"server_time": 9, "type": "pong", "id": 1, "t": 2})
    '{"type":"pong","id":1,"t":2.0,"server_time":9}'
    """
    return _server_adapter.dump_json(_server_adapter.validate_python(message)).decode()
