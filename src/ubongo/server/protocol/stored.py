"""A stored game as ``GET /api/games/{id}`` sends it: its settings, actions and rule events.

These models describe what :mod:`ubongo.rules` writes down about a game (times in game
seconds, players as the ids ``"0"`` .. ``"3"``), stored by :mod:`..store.games` when a game ends
and served as it was stored. ``tests/test_protocol.py`` checks real stored games against them.

>>> StoredAction.validate_python({"type": "advance", "now": 12.5})
AdvanceAction(type='advance', now=12.5)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter
from pydantic.json_schema import SkipJsonSchema

from ubongo.rules.settings import Mode, OthersCards, Puzzles, SoloGoal, TieBreak, Variant
from ubongo.rules.state import RoundKind

from .incoming import Placement
from .snapshot import GemName, Sent, SoloResult

#: a time in game seconds (the server's clock, in seconds since the Unix epoch)
Seconds = float


class RulesSettings(Sent):
    """The settings the rules played with, resolved (``ubongo.rules.Settings``)."""

    edition: str
    players: list[str]
    mode: Mode
    side: str | None
    levels: list[str]
    rounds: int | None
    hourglass: float | None
    second_chance: bool
    countdown: float | None
    variant: Variant
    others_cards: OthersCards
    tie_break: TieBreak | None
    round_limit: float | None
    playoff_limit: float | None
    solo_goal: SoloGoal
    solo_target: int | None
    deck: str
    puzzles: Puzzles = Field(
        default="standard", description="games stored before fresh tasks existed played standard"
    )
    rating: list[float] | None = Field(
        default=None,
        min_length=3,
        max_length=3,
        description="endless: the player's rating, RD and volatility at the start",
    )
    day: str = Field(default="", description="the daily challenge's day (puzzles daily)")
    hint_penalty: float = Field(
        default=15.0, description="seconds a solo hint costs (games stored before hints: 15)"
    )
    deck_seed: int | None = Field(
        default=None, description="fresh cards made from this seed (an arena's races share them)"
    )
    deck_sides: list[str] = Field(
        default_factory=list, description="sides the shared deck is made with beside those in play"
    )
    pack: list[list[list[list[int]] | list[str]]] = Field(
        default_factory=list,
        description="puzzles pack: each puzzle as [its area's cells, its piece ids], in the "
        "pack's order",
    )


# --- actions (what replays the game) ---------------------------------------------------------


class StartRoundAction(Sent):
    type: Literal["start_round"]
    now: Seconds


class AdvanceAction(Sent):
    type: Literal["advance"]
    now: Seconds


class SubmitAction(Sent):
    type: Literal["submit"]
    now: Seconds
    player: str
    placements: list[Placement]


class GiveUpAction(Sent):
    type: Literal["give_up"]
    now: Seconds
    player: str


class SkipTaskAction(Sent):
    type: Literal["skip_task"]
    now: Seconds
    player: str


class HintAction(Sent):
    """Solo: a hint was asked for (its cost is the rules'; what it showed is not stored)."""

    type: Literal["hint"]
    now: Seconds
    player: str


class StopRunAction(Sent):
    """Endless and practice: the player ended the run."""

    type: Literal["stop_run"]
    now: Seconds
    player: str


Action = Annotated[
    StartRoundAction
    | AdvanceAction
    | SubmitAction
    | GiveUpAction
    | SkipTaskAction
    | HintAction
    | StopRunAction,
    Field(discriminator="type"),
]
StoredAction: TypeAdapter[Action] = TypeAdapter(Action)


# --- the rules' events -----------------------------------------------------------------------


class TaskRef(Sent):
    card: int
    side: str
    key: str


class RoundStartedFacts(Sent):
    kind: RoundKind
    round: int
    roller: str | None
    die: str | None
    deadline: Seconds | None
    tasks: dict[str, TaskRef] = Field(description="by player")


class FinishedFacts(Sent):
    player: str
    place: int
    card: int
    side: str | SkipJsonSchema[None] = Field(
        default=None, description="the side played (absent in games stored before endless runs)"
    )
    key: str


class CountdownFacts(Sent):
    player: str
    deadline: Seconds


class SecondChanceFacts(Sent):
    round: int
    deadline: Seconds


class PlayerFacts(Sent):
    player: str


class CardFacts(Sent):
    player: str
    card: int
    key: str


class TaskRatedFacts(Sent):
    """Endless: a task ended and was rated (``docs/ratings.md``)."""

    player: str
    card: int
    side: str
    key: str
    why: Literal["solved", "skipped", "time", "gave_up"]
    score: float
    seconds: Seconds
    fingerprint: str
    task: list[float] = Field(description="the task's rating, RD, volatility with its limit")
    limit: Seconds
    shift: float = Field(description="rating points its limit added to the whole-limit rating")
    before: list[float] = Field(description="the player's rating, RD, volatility before")
    after: list[float] = Field(description="... and after")


class HintFacts(Sent):
    player: str
    card: int
    key: str
    penalty: Seconds = Field(description="seconds the hint cost (0 in practice)")
    deadline: Seconds | None = Field(description="a time run's end after the hint")


class SoloOverFacts(SoloResult):
    why: Literal["target", "stopped", "time", "done"] = Field(
        description="done: every task of a daily run was played; stopped: a solo run its"
        " player ended (a time or tasks run so ended is not ranked; or, stored before giving up"
        " a task, a solo run given up)"
    )


class TieBreakEndedFacts(Sent):
    winner: str | None


class TieFacts(Sent):
    players: list[str]
    scores: dict[str, int]
    next: Literal["playoff", "tie-round"] | SkipJsonSchema[None] = Field(
        default=None, description="the tie-break to come (absent when the win is shared)"
    )
    resolved: str | SkipJsonSchema[None] = Field(
        default=None, description="why the win is shared (absent when a tie-break follows)"
    )


class GameOverFacts(Sent):
    winners: list[str]
    scores: dict[str, int]


class GemsFacts(Sent):
    round: int
    rewards: dict[str, list[GemName]]
    to_bag: list[GemName]
    display: dict[GemName, int]


class CardsFacts(Sent):
    round: int
    first: str | None
    kept: dict[str, int]
    handed: dict[str, int]
    discarded: dict[str, int]


class RuleEventBase(Sent):
    at: Seconds


class RuleRoundStarted(RuleEventBase):
    kind: Literal["round_started"]
    data: RoundStartedFacts


class RuleFinished(RuleEventBase):
    kind: Literal["finished"]
    data: FinishedFacts


class RuleCountdown(RuleEventBase):
    kind: Literal["countdown"]
    data: CountdownFacts


class RuleSecondChance(RuleEventBase):
    kind: Literal["second_chance"]
    data: SecondChanceFacts


class GaveUpFacts(CardFacts):
    side: str | None = Field(default=None, description="missing in games stored before endless")


class RuleGaveUp(RuleEventBase):
    kind: Literal["gave_up"]
    data: PlayerFacts | GaveUpFacts = Field(description="solo: with the task given up")


class RuleHinted(RuleEventBase):
    kind: Literal["hinted"]
    data: HintFacts


class RuleTaskSkipped(RuleEventBase):
    kind: Literal["task_skipped"]
    data: CardFacts


class RuleTaskDrawn(RuleEventBase):
    kind: Literal["task_drawn"]
    data: CardFacts


class RuleTaskRated(RuleEventBase):
    kind: Literal["task_rated"]
    data: TaskRatedFacts


class RuleSoloOver(RuleEventBase):
    kind: Literal["solo_over"]
    data: SoloOverFacts


class RulePlayoffEnded(RuleEventBase):
    kind: Literal["playoff_ended"]
    data: TieBreakEndedFacts


class RuleTieRoundEnded(RuleEventBase):
    kind: Literal["tie-round_ended"]
    data: TieBreakEndedFacts


class RuleTie(RuleEventBase):
    kind: Literal["tie"]
    data: TieFacts


class RuleGameOver(RuleEventBase):
    kind: Literal["game_over"]
    data: GameOverFacts


class RuleGems(RuleEventBase):
    kind: Literal["gems"]
    data: GemsFacts


class RuleCards(RuleEventBase):
    kind: Literal["cards"]
    data: CardsFacts


RuleEvent = Annotated[
    RuleRoundStarted
    | RuleFinished
    | RuleCountdown
    | RuleSecondChance
    | RuleGaveUp
    | RuleTaskSkipped
    | RuleTaskDrawn
    | RuleTaskRated
    | RuleHinted
    | RuleSoloOver
    | RulePlayoffEnded
    | RuleTieRoundEnded
    | RuleTie
    | RuleGameOver
    | RuleGems
    | RuleCards,
    Field(discriminator="kind"),
]
