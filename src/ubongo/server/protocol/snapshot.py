"""The room snapshot: the room as everybody in it sees it, which ``welcome``, every room event
and ``GET /api/rooms/{code}`` carry, and :class:`Sent`, the base of every model the server
sends (``docs/protocol.md``, "The room snapshot").

The events that change a room are in :mod:`.events`, the other WebSocket messages in
:mod:`.outgoing`. Times are server times in integer milliseconds since the Unix epoch
(:data:`Ms`); seats are ``0..3``; maps keyed by seat use the seat number as a string (JSON
object keys).

>>> Score.model_validate({"points": 3, "gems": None, "cards": 3}).points
3
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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


class SeatTicket(Sent):
    """``POST /api/rooms`` and ``POST /api/rooms/{code}/seats``: a seat and its token."""

    code: str
    seat: int
    token: str = Field(description="keep it: hello sends it to act as this seat")
    invite: str


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
    puzzles: Literal["fresh", "standard", "daily", "pack"] = Field(
        description="fresh: tasks made for this game from its seed; standard: the shipped deck;"
        " daily: the daily challenge (solo); pack: the puzzles of the pack ``pack``, one a "
        'round for everyone (docs/editor.md, "Packs")'
    )
    pack: str | None = Field(
        default=None, description="the pack's link id (a room made with a pack; else null)"
    )
    pack_title: str = Field(default="", description="the pack's title")
    day: str | None = Field(
        description="the daily challenge's day (YYYY-MM-DD); null: the day the run starts"
    )
    rated: bool = Field(
        default=False, description="a rated game: its players' ratings change at its end"
    )
    listed: bool = Field(
        default=False,
        description="listed among the open games (GET /api/open-games) while it waits: anyone"
        " may take a free seat",
    )
    arena: str | None = Field(
        default=None, description="the arena whose race this room is (docs/arenas.md)"
    )
    arena_race: int | None = Field(default=None, description="the arena race's number")
    deck_seed: int | None = Field(
        default=None, description="an arena's races: the seed of the fresh cards they share"
    )
    deck_sides: list[str] = Field(
        default_factory=list, description="an arena's races: the sides their shared deck has"
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
    account: int | None = Field(
        description="the account playing the seat (its profile); null for a guest or a bot"
    )


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


class RatingMove(Sent):
    """A seat's account's shown rating before and after a rated game."""

    before: int
    after: int


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
    ratings: dict[str, RatingMove] | None = Field(
        default=None,
        description="a rated game's rating moves by seat, once stored (seats whose rating"
        " moved: an account's; not a guest's, a bot's, nor an unrated seat's)",
    )
