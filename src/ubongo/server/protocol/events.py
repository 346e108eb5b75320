"""The room events: each change in a room, numbered, with the room after it
(``docs/protocol.md``, "Room events"), and the data of each kind.

Every event but ``spectators`` carries the room's snapshot (:mod:`.snapshot`); the other
WebSocket messages are in :mod:`.outgoing`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ubongo.rules.state import RoundKind

from .incoming import Level, Phrase, Placement
from .snapshot import (
    DailyResult,
    GemName,
    Ms,
    RatingMove,
    RoomSettingsView,
    RoomSnapshot,
    Sent,
    SoloResult,
    TaskView,
)

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


class SaidData(Sent):
    seat: int
    phrase: Phrase | None = Field(description="a quick phrase, or null for free text")
    text: str | None = Field(description="free text (an unrated, unlisted room); or null")


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


class GameOverData(Sent):
    game_id: int | None = Field(description="GET /api/games/{id}; null if it was not stored")
    winners: list[int]
    scores: dict[str, int] = Field(description="points (gems) or cards, by seat")
    record: SoloResult | None = Field(description="the solo result; null in a race")
    daily: DailyResult | None = Field(description="a daily challenge run's result")
    ratings: dict[str, RatingMove] | None = Field(
        default=None, description="a rated game's rating moves by seat (as the snapshot's)"
    )


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


class ChatEvent(Sent):
    """A player said a quick phrase: the phrase alone, without the room's snapshot (nothing
    else changed)."""

    type: Literal["event"]
    seq: int
    at: Ms
    kind: Literal["chat"]
    data: SaidData


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
    | ChatEvent
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
