"""The messages of ``docs/protocol.md`` as pydantic models, and the parsing of raw frames.

Every client message is validated here before anything else sees it: a frame that is not JSON,
too large, of an unknown ``type`` or with a bad field becomes a :class:`ProtocolError` with the
code the protocol documents, and nothing else happens.

>>> parse_client_message('{"type": "ping", "id": 1, "t": 5.0}')
Ping(type='ping', id=1, t=5.0)
>>> try:
...     parse_client_message('{"type": "dance"}')
... except ProtocolError as e:
...     print(e.code)
unknown_type
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from ubongo import editions

#: the largest frame a client may send (bytes of UTF-8 text)
MAX_MESSAGE_BYTES = 16 * 1024

#: the most steps of a play trace a submission carries (the client keeps the latest ones:
#: each piece's last step is what the check needs, docs/fair-play.md)
MAX_TRACE_STEPS = 180

#: the longest room code a client may name: a short code, or an invite key (code and secret, 26)
MAX_CODE_CHARS = 32

BOT_LEVELS = ("easy", "medium", "hard")

Level = Literal["easy", "medium", "hard"]


def _known_edition(name: str) -> str:
    if name not in editions.names():
        raise ValueError(f"expected one of {', '.join(editions.names())}")
    return name


#: the name of an edition (:func:`ubongo.editions.names`)
EditionName = Annotated[str, AfterValidator(_known_edition)]


class ProtocolError(Exception):
    """A message that cannot be acted on; ``code`` is one of the protocol's error codes."""

    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref

    def to_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message, "ref": self.ref}


class Strict(BaseModel):
    """Unknown fields are errors, so that typos are caught rather than ignored; so are
    ``NaN`` and infinities (not JSON, and no setting or time means them), and values of
    another JSON type (strict: ``false`` is not ``0``, ``"5"`` is not ``5``; an integer is
    a number)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, strict=True)


class SettingsPatch(Strict):
    """Room settings, every field optional (``None`` = leave as it is / the default)."""

    edition: EditionName | None = None
    mode: Literal["race", "solo"] | None = None
    variant: Literal["standard", "only-first"] | None = None
    side: str | None = Field(default=None, max_length=16)
    rounds: int | None = Field(default=None, ge=1, le=20)
    hourglass_seconds: float | None = Field(default=None, ge=0.5, le=3600)
    countdown_seconds: float | None = Field(default=None, ge=0.5, le=600)
    solo_goal: Literal["time", "tasks", "endless", "practice"] | None = None
    solo_amount: int | None = Field(default=None, ge=1, le=60)
    seat_hold_seconds: float | None = Field(default=None, ge=5, le=600)
    round_limit_seconds: float | None = Field(default=None, ge=1, le=3600)
    seed: int | None = Field(default=None, ge=0, le=2**53)
    between_seconds: float | None = Field(default=None, ge=0, le=60)
    puzzles: Literal["fresh", "standard", "daily", "pack"] | None = None
    #: a pack's link id (``POST /api/rooms`` only: a room's pack is chosen when it is made)
    pack: str | None = Field(default=None, min_length=1, max_length=16)
    #: the daily challenge's day (``puzzles="daily"``); null: the day the run starts (UTC)
    day: str | None = Field(default=None, pattern=r"^\d{4}-\d{2}-\d{2}$")
    rated: bool | None = None
    listed: bool | None = None

    @model_validator(mode="before")
    @classmethod
    def _null_leaves_as_is(cls, data: Any) -> Any:
        # a room always has these: null cannot be their value, so it leaves them as they are
        # (the others' null is "the rules' default", a value of its own)
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if v is not None or k not in _ALWAYS_SET}
        return data


#: the settings a room always has a value for (``null`` in a patch: unchanged)
_ALWAYS_SET = frozenset(
    (
        "edition",
        "mode",
        "variant",
        "solo_goal",
        "seat_hold_seconds",
        "between_seconds",
        "rated",
        "listed",
    )
)


class QuickMatch(Strict):
    """``POST /api/quickmatch``: the edition and the number of players (2-4) to play with."""

    edition: str = Field(min_length=1, max_length=32)
    players: int = Field(ge=2, le=4)


# --- client -> server over the WebSocket ---------------------------------------------------


class Hello(Strict):
    type: Literal["hello"]
    #: the room's short code or its invite key (code and secret, 26 characters)
    room: str = Field(min_length=1, max_length=MAX_CODE_CHARS)
    token: str | None = Field(default=None, min_length=8, max_length=128)
    spectate: bool = False
    last_seq: int | None = Field(default=None, ge=0)


class Ping(Strict):
    type: Literal["ping"]
    id: int = Field(ge=0, le=2**53)
    t: float


class ChangeSettings(Strict):
    type: Literal["settings"]
    settings: SettingsPatch


class ChooseSide(Strict):
    type: Literal["choose_side"]
    side: str = Field(min_length=1, max_length=16)


class AddBot(Strict):
    type: Literal["add_bot"]
    level: Level = "medium"


class RemoveBot(Strict):
    type: Literal["remove_bot"]
    seat: int = Field(ge=0, le=3)


class BotLevel(Strict):
    type: Literal["bot_level"]
    seat: int = Field(ge=0, le=3)
    level: Level


class Ready(Strict):
    type: Literal["ready"]
    ready: bool = True


#: the chat's quick phrases (docs/social.md): sent as keys, each reader sees them in their own
#: language; no free text reaches strangers
Phrase = Literal["hello", "good_luck", "well_played", "thanks", "rematch", "oops", "wow", "bye"]


#: the longest line of free text (docs/social.md)
MAX_SAID_CHARS = 200


class Say(Strict):
    """A quick phrase to the room, or a line of free text where the room allows it (players
    only; exactly one of the two)."""

    type: Literal["say"]
    phrase: Phrase | None = None
    text: str | None = Field(default=None, min_length=1, max_length=MAX_SAID_CHARS)

    @model_validator(mode="after")
    def _one_of_them(self) -> Say:
        if (self.phrase is None) == (self.text is None):
            raise ValueError("say a phrase or a text, one of them")
        return self


class Report(Strict):
    """A line of free text said in the room (its event number), to the moderators."""

    type: Literal["report"]
    seq: int = Field(ge=1)


class Start(Strict):
    type: Literal["start"]


class Placement(Strict):
    """A piece placed: its id, a transform index and the offset of its smallest cell."""

    piece: str = Field(min_length=1, max_length=8)
    transform: int = Field(ge=0, le=255)
    offset: list[int] = Field(min_length=2, max_length=3)


class TraceStep(Strict):
    """One thing the player did with a piece, ``t`` seconds after the task was dealt (by the
    client's clock, to the millisecond): picked it up (``pick``), turned or flipped it to
    ``transform`` (``turn``), put it on the area (``place``, with ``transform`` and ``offset`` as
    in :class:`Placement`; moving a placed piece is placing it again) or took it off
    (``lift``)."""

    t: float = Field(ge=0, le=3600)
    op: Literal["pick", "turn", "place", "lift"]
    piece: str = Field(min_length=1, max_length=8)
    transform: int | None = Field(default=None, ge=0, le=255)
    offset: list[int] | None = Field(default=None, min_length=2, max_length=3)


class Submit(Strict):
    """An "Ubongo!": the arrangement, and (rated and ranked play) the play trace that led to it,
    oldest step first (``docs/fair-play.md``)."""

    type: Literal["submit"]
    round: int = Field(ge=0, le=1000)
    placements: list[Placement] = Field(max_length=16)
    trace: list[TraceStep] | None = Field(default=None, max_length=MAX_TRACE_STEPS)


class Skip(Strict):
    type: Literal["skip"]
    round: int = Field(ge=0, le=1000)


class Stop(Strict):
    """Solo, not the daily challenge: end the run now (an endless run ends only so, the task
    in hand not rated; a time or tasks run so ended is not ranked)."""

    type: Literal["stop"]
    round: int = Field(ge=0, le=1000)


class Hint(Strict):
    """Solo and practice: the next piece to put down after ``placements`` (as in ``submit``)."""

    type: Literal["hint"]
    round: int = Field(ge=0, le=1000)
    placements: list[Placement] = Field(max_length=16)


class GiveUp(Strict):
    """Solo, practice and endless: give this task up and see a solution of it (endless: a
    lost task)."""

    type: Literal["give_up"]
    round: int = Field(ge=0, le=1000)


class Lock(Strict):
    type: Literal["lock"]
    locked: bool = True


class Kick(Strict):
    type: Literal["kick"]
    seat: int = Field(ge=0, le=3)


class Rematch(Strict):
    type: Literal["rematch"]


class Leave(Strict):
    type: Literal["leave"]


ClientMessage = Annotated[
    Hello
    | Ping
    | ChangeSettings
    | ChooseSide
    | AddBot
    | RemoveBot
    | BotLevel
    | Ready
    | Start
    | Submit
    | Skip
    | Stop
    | Hint
    | GiveUp
    | Rematch
    | Leave
    | Lock
    | Kick
    | Say
    | Report,
    Field(discriminator="type"),
]

MESSAGE_TYPES = (
    "hello",
    "ping",
    "settings",
    "choose_side",
    "add_bot",
    "remove_bot",
    "bot_level",
    "ready",
    "start",
    "submit",
    "skip",
    "stop",
    "hint",
    "give_up",
    "rematch",
    "leave",
    "lock",
    "kick",
    "say",
    "report",
)

_client_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def _describe(error: ValidationError) -> str:
    # a location can be a key the client made up: cut short, so that no answer echoes it
    first = error.errors()[0]
    parts = [str(p) if len(str(p)) <= 24 else str(p)[:21] + "..." for p in first["loc"][1:]]
    return f"{'.'.join(parts) or 'message'}: {first['msg']}"


def _not_json(name: str) -> Any:
    # Python's json reads NaN, Infinity and -Infinity, which JSON does not have
    raise ValueError(f"{name} is not JSON")


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """A validated client message, or :class:`ProtocolError` saying what is wrong."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"message of {size} bytes (at most {MAX_MESSAGE_BYTES})")
    try:
        # NaN and Infinity are not JSON (Python's reader takes them; no answer may echo them)
        data = json.loads(raw, parse_constant=_not_json)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MESSAGE_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {str(kind)[:32]!r}", ref=None)
    try:
        return _client_adapter.validate_python(data)
    except ValidationError as e:
        raise ProtocolError("bad_message", _describe(e), ref=kind) from None


# --- HTTP bodies -----------------------------------------------------------------------------


class CreateRoom(Strict):
    name: str = Field(min_length=1, max_length=32)
    settings: SettingsPatch = SettingsPatch()


class TakeSeat(Strict):
    name: str = Field(min_length=1, max_length=32)


class NewAccount(Strict):
    """``POST /api/accounts``: a name, or none for a random one."""

    name: str | None = Field(default=None, min_length=1, max_length=32)


class Rename(Strict):
    """``PATCH /api/accounts/me``."""

    name: str = Field(min_length=1, max_length=32)


#: a piece's id as puzzle files write it: a letter or name (``"D"``, ``"red2"``) or a number
PieceId = str | int
#: a cell: 2 coordinates (squares, hexagons), 3 (triangles: x, y, up/down; 3D cubes: x, y, z)
CellCoords = list[int]


class PlacedPiece(Strict):
    """A piece on the board, by the cells it covers (as ``ubongo solve --json`` writes them)."""

    piece: PieceId
    cells: list[CellCoords] = Field(min_length=1, max_length=64)


class HintRequest(Strict):
    """``POST /api/hint``: a puzzle in the puzzle-file format and the pieces placed so far."""

    puzzle: dict[str, Any] = Field(description="a puzzle file's JSON (docs/puzzle-format.md)")
    placements: list[PlacedPiece] = Field(default=[], max_length=16)


class GameFile(Strict):
    """``POST /api/replays``: a game file (docs/social.md, "Replay analysis"): a stored game as
    ``GET /api/games/{id}`` gives it (checked against that answer's model), and its tasks as
    puzzle files (read by ``ubongo solve``; the server replays the game from its actions)."""

    format: Literal["ubongo-game"]
    version: Literal[1]
    game: dict[str, Any] = Field(description="GET /api/games/{id}'s answer")
    tasks: list[dict[str, Any]] = Field(default=[], max_length=200)
