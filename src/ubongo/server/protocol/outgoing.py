"""What the server sends over the room WebSocket, as pydantic models (``docs/protocol.md``).

The client's messages are in :mod:`.incoming`, the HTTP bodies in :mod:`.answers`. These models
are the one description of the protocol: ``make protocol`` turns them into a JSON Schema and
the web client's TypeScript types (``web/src/protocol.gen.ts``), and
``tests/test_protocol.py`` checks every frame a real server sends against them. Every model
refuses unknown fields, and a field is nullable only where the server really sends ``null``.

Times are server times in integer milliseconds since the Unix epoch (:data:`Ms`); seats are
``0..3``; maps keyed by seat use the seat number as a string (JSON object keys).

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

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ubongo.rules.settings import Mode, SoloGoal, Variant
from ubongo.rules.state import RoundKind

from .incoming import Level, Placement

#: a server time: integer milliseconds since the Unix epoch
Ms = int
#: the four gem colours (Classic, 3D)
GemName = Literal["ruby", "sapphire", "emerald", "amber"]


class Sent(BaseModel):
    """Something the server sends: unknown fields are errors, so the models stay exact."""

    model_config = ConfigDict(extra="forbid")


# --- the room snapshot -----------------------------------------------------------------------


class RoomSettingsView(Sent):
    """The room's settings in force (every field present; see "Room settings")."""

    edition: str = Field(description="an edition name, as in GET /api/editions")
    mode: Mode
    variant: Variant
    side: str = Field(description="the side everyone plays (3D: the default level)")
    rounds: int | None = Field(description="null: the rulebook's number")
    hourglass_seconds: float | None = Field(description="null: the edition's default")
    countdown_seconds: float | None = Field(description="null: the edition's default")
    round_limit_seconds: float | None
    solo_goal: SoloGoal
    solo_amount: int
    seat_hold_seconds: float
    between_seconds: float
    seed: int | None = Field(description="null: a random seed chosen at the start")
    puzzles: Literal["fresh", "standard", "daily"] = Field(
        description="fresh: tasks made for this game from its seed; standard: the shipped deck;"
        " daily: the daily challenge (solo)"
    )
    day: str | None = Field(
        description="the daily challenge's day (YYYY-MM-DD); null: the day the run starts"
    )
    rated: bool = Field(
        default=False, description="a rated game: its players' ratings change at its end"
    )


class SeatView(Sent):
    """A taken seat."""

    seat: int
    kind: Literal["person", "bot"]
    name: str
    level: Level | None = Field(description="a bot's level; null for a person")
    side: str = Field(description="the side or 3D level this seat plays")
    ready: bool
    connected: bool
    held_until: Ms | None = Field(description="a disconnected person's seat is held until then")
    replaced: bool = Field(description="a bot playing on for a person who left for good")


class TaskView(Sent):
    """One seat's task: the card, its side and task key, the pieces and the area to fill."""

    card: int
    side: str
    key: str = Field(description='die face "1".."6", a corner, or "card"')
    pieces: list[str]
    area: list[list[int]] = Field(description="area cells in the edition's lattice coordinates")
    layers: int = Field(description="2 for Ubongo 3D, else 1")
    difficulty: float


class Finish(Sent):
    """Someone who finished this round (place 1 = first, by server receive time)."""

    seat: int
    place: int
    at: Ms


class Gems(Sent):
    """A player's gems by colour (all four always present)."""

    ruby: int
    sapphire: int
    emerald: int
    amber: int


class Score(Sent):
    """A seat's score: points (gems' value, or the number of cards)."""

    points: int
    gems: Gems | None = Field(description="gem editions; null in card editions")
    cards: int


class EndlessProgress(Sent):
    """An endless run's ratings (Glicko-2, ``docs/ratings.md``)."""

    rating: float = Field(description="the player's rating now")
    rd: float = Field(description="its deviation (how unsure it is)")
    task_rating: float | None = Field(description="the task in hand's rating, with its limit")
    task_limit: float | None = Field(description="seconds the task in hand is given")
    rated: int = Field(description="tasks rated so far (solved, put aside, out of time)")
    timed_out: int = Field(description="tasks whose time ran out")


class SoloProgress(Sent):
    """A solo run so far."""

    goal: SoloGoal
    amount: int = Field(description="minutes (goal time) or tasks (goal tasks); 0 endless")
    done: int
    skipped: int
    gave_up: int = Field(description="tasks given up (their solution shown)")
    hints: int
    started_at: Ms | None
    ends_at: Ms | None = Field(description="null for the tasks goal")
    ended_at: Ms | None
    endless: EndlessProgress | None = Field(description="an endless run's ratings, else null")


class GameTable(Sent):
    """The public game table (the same for every player and spectator)."""

    round: int = Field(description="rounds started in this game; submit and skip carry it")
    rounds: int
    kind: RoundKind | None
    stage: Literal["playing", "second_chance", "countdown", "playoff", "between", "over"]
    key: str | None
    roller: int | None
    deadline: Ms | None
    tasks: dict[str, TaskView | None] = Field(description="by seat")
    finished: list[Finish]
    gave_up: list[int]
    scores: dict[str, Score] = Field(description="by seat")
    display: dict[GemName, int] | None = Field(
        description="gem editions: the gems laid out for the first and second finishers"
        " (sapphire, amber; empty in solo); null in card editions"
    )
    bag: int | None = Field(description="gems in the bag; null in card editions")
    solo: SoloProgress | None
    next_round_at: Ms | None
    solutions: dict[str, list[Placement]] = Field(
        description="after a round, by seat: one arrangement for each seat that did not finish"
    )
    tied: list[int]
    winners: list[int]


class SoloResult(Sent):
    """How a solo run ended: tasks solved, put aside and given up, hints asked for, seconds
    played (a tasks run: with the hints' penalty), goal met or not."""

    goal: SoloGoal
    target: int
    solved: int
    skipped: int
    gave_up: int = Field(description="tasks given up (their solution shown)")
    hints: int = Field(description="hints asked for")
    seconds: float
    complete: bool
    rating: float | None = Field(default=None, description="endless: the rating at the end")
    rd: float | None = Field(default=None, description="endless: its deviation")
    rated: int | None = Field(default=None, description="endless: the tasks rated")


class RoomSnapshot(Sent):
    """A room as everybody in it sees it (also ``GET /api/rooms/{code}``)."""

    code: str
    invite: str
    phase: Literal["lobby", "playing", "over"]
    host: int | None
    settings: RoomSettingsView
    seats: list[SeatView | None] = Field(description="4 entries (1 in solo); null = free")
    spectators: int
    locked: bool = Field(description="the host closed the free seats (spectators may come)")
    game: GameTable | None
    game_id: int | None = Field(description="the stored game, once it is over")
    record: SoloResult | None = Field(description="the solo result, once it is over")
    daily: DailyResult | None = Field(description="a daily challenge run's result, once over")


# --- room events: the data of each kind ------------------------------------------------------


class SeatData(Sent):
    seat: int


class SeatNameData(Sent):
    seat: int
    name: str


class SeatLevelData(Sent):
    seat: int
    level: Level


class SettingsData(Sent):
    settings: RoomSettingsView


class SideData(Sent):
    seat: int
    side: str


class ReadyData(Sent):
    seat: int
    ready: bool


class ConnectionData(Sent):
    seat: int
    connected: bool
    held_until: Ms | None


class SpectatorsData(Sent):
    count: int = Field(description="how many are watching now")


class LockedData(Sent):
    locked: bool


class GameStartedData(Sent):
    seed: int


class RoundStartedData(Sent):
    round: int
    kind: RoundKind
    key: str | None = Field(description='die face "1".."6", a corner or "card"')
    roller: int | None = Field(description="the seat that rolled the die (gem editions)")
    deadline: Ms | None


class PlayoffData(Sent):
    round: int
    kind: Literal["playoff", "tie-round"]
    seats: list[int]
    key: str | None
    deadline: Ms | None


class FinishedData(Sent):
    seat: int
    place: int
    round: int


class DeadlineData(Sent):
    round: int
    deadline: Ms


class GaveUpData(Sent):
    seat: int
    round: int
    task: TaskView | None = Field(description="solo: the task given up")
    solution: list[Placement] = Field(description="solo: an arrangement of that task")


class HintedData(Sent):
    seat: int
    round: int
    penalty: float = Field(description="seconds the hint cost (0 in practice)")
    deadline: Ms | None = Field(description="a time run's end, brought nearer by the penalty")


class GemAwards(Sent):
    """What a gem round gave: each finisher's gems in the order drawn, and the display gems
    nobody claimed (back into the bag)."""

    gems: dict[str, list[GemName]] = Field(description="by seat")
    to_bag: list[GemName]


class CardAwards(Sent):
    """Where a card round's cards went, by seat."""

    first: int | None
    kept: dict[str, int]
    handed: dict[str, int]
    discarded: dict[str, int]


class NoAwards(Sent):
    """A tie-break round awards nothing (``{}``)."""


class RoundEndedData(Sent):
    round: int
    kind: RoundKind
    finish_order: list[int]
    awards: GemAwards | CardAwards | NoAwards
    solutions: dict[str, list[Placement]]
    next_round_at: Ms | None


class TieData(Sent):
    seats: list[int]
    next: Literal["playoff", "tie-round"] | None = Field(description="the tie-break to come")
    resolved: str | None = Field(description="why the win is shared, when there is no tie-break")


class CardData(Sent):
    seat: int
    round: int
    card: int


class TaskRatedData(Sent):
    seat: int
    round: int
    why: Literal["solved", "skipped", "time", "gave_up"] = Field(
        description="solved in time (a win), put aside, given up or out of time (a loss)"
    )
    score: float = Field(description="1 solved in time, 0 not")
    seconds: float = Field(description="from the task's deal to its end")
    task_rating: float = Field(description="the task's rating, with its limit")
    rating: float = Field(description="the player's rating after it")
    rd: float
    change: float = Field(description="how much the player's rating moved")


class DailyResult(Sent):
    """A daily challenge run: each task's time, whether it counts on the day's leaderboard,
    and the text to share (no spoilers)."""

    edition: str
    date: str = Field(description="YYYY-MM-DD")
    times: list[float | None] = Field(
        description="seconds for each task in order; null: put aside (or not reached)"
    )
    solved: int
    skipped: int
    seconds: float
    rated: bool = Field(description="on the day's leaderboard")
    unrated: str | None = Field(description="why the run is not rated; null when it is")
    share: str = Field(description="the result to share, as text")


class GameOverData(Sent):
    game_id: int | None = Field(description="GET /api/games/{id}; null if it was not stored")
    winners: list[int]
    scores: dict[str, int] = Field(description="points (gems) or cards, by seat")
    record: SoloResult | None = Field(description="the solo result; null in a race")
    daily: DailyResult | None = Field(description="a daily challenge run's result")


class EmptyData(Sent):
    pass


# --- room events -----------------------------------------------------------------------------


class EventBase(Sent):
    """A change in the room, numbered ``seq`` (from 1, per room), with the room after it.

    Each kind narrows ``kind`` and ``data``; they are declared here so that every event's
    text starts with its type, number, time and kind (readers may look at the head only)."""

    type: Literal["event"]
    seq: int
    at: Ms
    kind: str
    data: Sent
    room: RoomSnapshot


class SeatTakenEvent(EventBase):
    """A person took a seat."""

    kind: Literal["seat_taken"]
    data: SeatNameData


class SeatFreedEvent(EventBase):
    """A seat became free (a person left the lobby, a bot was removed)."""

    kind: Literal["seat_freed"]
    data: SeatData


class BotAddedEvent(EventBase):
    """A bot took the lowest free seat."""

    kind: Literal["bot_added"]
    data: SeatLevelData


class BotChangedEvent(EventBase):
    """A bot's level changed."""

    kind: Literal["bot_changed"]
    data: SeatLevelData


class SettingsChangedEvent(EventBase):
    """The host changed the settings; everyone's ready is cleared."""

    kind: Literal["settings_changed"]
    data: SettingsData


class SideChosenEvent(EventBase):
    """A seat chose its own side (3D levels)."""

    kind: Literal["side_chosen"]
    data: SideData


class ReadyChangedEvent(EventBase):
    """A seated person is ready, or no longer."""

    kind: Literal["ready"]
    data: ReadyData


class ConnectionChangedEvent(EventBase):
    """A person connected, or disconnected (their seat is held until ``held_until``)."""

    kind: Literal["connection"]
    data: ConnectionData


class SpectatorsChangedEvent(Sent):
    """Someone started or stopped watching: the count only, without the room's snapshot (a
    client sets the snapshot's ``spectators`` to it). Arrivals and departures are coalesced;
    each of them sending the whole room to everyone made a crowd's arrival quadratic."""

    type: Literal["event"]
    seq: int
    at: Ms
    kind: Literal["spectators"]
    data: SpectatorsData


class LockedEvent(EventBase):
    """The host closed the free seats to newcomers, or opened them again."""

    kind: Literal["locked"]
    data: LockedData


class KickedEvent(EventBase):
    """The host removed the person in this seat (lobby); the seat is free."""

    kind: Literal["kicked"]
    data: SeatData


class ReplacedByBotEvent(EventBase):
    """A person gone for good; a bot plays on for them."""

    kind: Literal["replaced_by_bot"]
    data: SeatLevelData


class HostChangedEvent(EventBase):
    """The host left; this seat hosts now."""

    kind: Literal["host"]
    data: SeatData


class GameStartedEvent(EventBase):
    """The game started with this seed."""

    kind: Literal["game_started"]
    data: GameStartedData


class RoundStartedEvent(EventBase):
    """A round (or the solo run) started."""

    kind: Literal["round_started"]
    data: RoundStartedData


class PlayoffStartedEvent(EventBase):
    """A tie-break round (playoff or tie round) started."""

    kind: Literal["playoff"]
    data: PlayoffData


class FinishedEvent(EventBase):
    """A seat finished its task (place 1 = first)."""

    kind: Literal["finished"]
    data: FinishedData


class CountdownEvent(EventBase):
    """Card editions: the first finisher started the countdown."""

    kind: Literal["countdown"]
    data: DeadlineData


class SecondChanceEvent(EventBase):
    """Gem editions: nobody finished; the same tasks again with the hourglass turned."""

    kind: Literal["second_chance"]
    data: DeadlineData


class GaveUpEvent(EventBase):
    """A seat gave its task up (solo: with a solution of it; the next task follows)."""

    kind: Literal["gave_up"]
    data: GaveUpData


class HintedEvent(EventBase):
    """Solo: a hint was given (what it showed goes to the player alone, in ``hint``)."""

    kind: Literal["hinted"]
    data: HintedData


class RoundEndedEvent(EventBase):
    """A round ended: finish order, awards, solutions for those who did not finish."""

    kind: Literal["round_ended"]
    data: RoundEndedData


class TieEvent(EventBase):
    """The game ended in a tie: a tie-break follows, or the win is shared."""

    kind: Literal["tie"]
    data: TieData


class TaskSkippedEvent(EventBase):
    """Solo: the task was put aside."""

    kind: Literal["task_skipped"]
    data: CardData


class TaskDrawnEvent(EventBase):
    """Solo: the next task is on the table."""

    kind: Literal["task_drawn"]
    data: CardData


class TaskRatedEvent(EventBase):
    """Endless solo: the task in hand ended and the player's rating moved (the next task
    follows in a ``task_drawn``)."""

    kind: Literal["task_rated"]
    data: TaskRatedData


class GameOverEvent(EventBase):
    """The game is over and stored."""

    kind: Literal["game_over"]
    data: GameOverData


class RematchEvent(EventBase):
    """Back to the lobby with the same seats and settings."""

    kind: Literal["rematch"]
    data: EmptyData


RoomEvent = Annotated[
    SeatTakenEvent
    | SeatFreedEvent
    | BotAddedEvent
    | BotChangedEvent
    | SettingsChangedEvent
    | SideChosenEvent
    | ReadyChangedEvent
    | ConnectionChangedEvent
    | SpectatorsChangedEvent
    | LockedEvent
    | KickedEvent
    | ReplacedByBotEvent
    | HostChangedEvent
    | GameStartedEvent
    | RoundStartedEvent
    | PlayoffStartedEvent
    | FinishedEvent
    | CountdownEvent
    | SecondChanceEvent
    | GaveUpEvent
    | HintedEvent
    | RoundEndedEvent
    | TieEvent
    | TaskSkippedEvent
    | TaskDrawnEvent
    | TaskRatedEvent
    | GameOverEvent
    | RematchEvent,
    Field(discriminator="kind"),
]

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
]
ErrorCode = Literal[ProtocolCode, RuleCode]


class Error(Sent):
    """The answer to a message that changed nothing."""

    type: Literal["error"]
    code: ErrorCode
    message: str
    ref: str | None = Field(description="the type of the message at fault, if known")


ServerMessage = Annotated[
    Welcome | RoomEvent | Pong | Verdict | HintReply | Error,
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
