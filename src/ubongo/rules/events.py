"""What the engine reports: :class:`Event` objects of a typed :class:`EventKind`."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class EventKind(StrEnum):
    """What an :class:`Event` reports.  A ``StrEnum``: a kind equals its string value."""

    ROUND_STARTED = "round_started"
    SECOND_CHANCE = "second_chance"
    FINISHED = "finished"
    COUNTDOWN = "countdown"
    GAVE_UP = "gave_up"
    TASK_SKIPPED = "task_skipped"
    TASK_DRAWN = "task_drawn"
    #: endless solo: the task in hand ended (solved, put aside, out of time) and was rated
    TASK_RATED = "task_rated"
    HINTED = "hinted"
    SOLO_OVER = "solo_over"
    GEMS = "gems"
    CARDS = "cards"
    TIE = "tie"
    PLAYOFF_ENDED = "playoff_ended"
    TIE_ROUND_ENDED = "tie-round_ended"
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class Event:
    """Something that happened, for logs and for clients: ``kind`` and plain JSON ``data``.

    Never changed once made: each game after an action shares its events with the game before
    (:func:`~ubongo.rules.engine.apply` copies the rest)."""

    kind: EventKind
    at: float
    data: dict[str, Any] = field(default_factory=dict)
