"""Actions: everything that can happen to a game, each carrying the time it happened.

Time is a float number of seconds on a monotonic clock owned by the caller (the server);
the rules never read a clock.  Actions serialize to small JSON objects tagged by ``type``.

>>> from ubongo.board import Placement
>>> a = Submit("ann", (Placement("B", 0, (0, 0)),), 12.5)
>>> action_to_json(a)["placements"]
[{'piece': 'B', 'transform': 0, 'offset': [0, 0]}]
>>> action_from_json(action_to_json(a)) == a
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ubongo.board import Placement

from .errors import ActionError


@dataclass(frozen=True)
class StartRound:
    """Start the next round (or the playoff / tie round, or the solo run): deal the
    boards or cards, roll the die or take the corner, turn the hourglass."""

    now: float


@dataclass(frozen=True)
class Submit:
    """``player`` says "Ubongo!" with these placements."""

    player: str
    placements: tuple[Placement, ...]
    now: float


@dataclass(frozen=True)
class GiveUp:
    """``player`` stops trying this round.  When every player still in the round has
    finished or given up, the round ends without waiting for the clock.  Solo: the player
    gives up this task (it counts as not solved, its solution may be shown) and the next
    one is dealt."""

    player: str
    now: float


@dataclass(frozen=True)
class Hint:
    """Solo: ``player`` asks for a hint on the current task.  The rules charge its cost (the
    settings' ``hint_penalty``) and count it; what the hint says is not the rules' business
    (a server computes it with :mod:`ubongo.puzzles.hints`)."""

    player: str
    now: float


@dataclass(frozen=True)
class StopRun:
    """Solo: ``player`` ends an endless or practice run now (the task in hand is neither
    solved nor rated; the other runs end by their clock or their number of tasks)."""

    player: str
    now: float


@dataclass(frozen=True)
class SkipTask:
    """Solo: put the task aside and draw a new one."""

    player: str
    now: float


@dataclass(frozen=True)
class Advance:
    """The clock reached ``now``: handle every deadline that has passed (the hourglass runs
    out, the countdown reaches zero, the solo time is up).  Nothing due: nothing changes."""

    now: float


Action = StartRound | Submit | GiveUp | SkipTask | Hint | StopRun | Advance

_TYPES: dict[str, type[Action]] = {
    "start_round": StartRound,
    "submit": Submit,
    "give_up": GiveUp,
    "skip_task": SkipTask,
    "hint": Hint,
    "stop_run": StopRun,
    "advance": Advance,
}
_NAMES = {cls: name for name, cls in _TYPES.items()}


def placement_to_json(p: Placement) -> dict[str, Any]:
    return {"piece": p.piece, "transform": p.transform, "offset": list(p.offset)}


def placement_from_json(data: Any) -> Placement:
    """A placement from ``{"piece", "transform", "offset"}``; raises :class:`ActionError`."""
    try:
        offset = tuple(int(v) for v in data["offset"])
        return Placement(str(data["piece"]), int(data["transform"]), offset)
    except (KeyError, TypeError, ValueError) as e:
        raise ActionError(f"malformed placement {data!r}: {type(e).__name__}: {e}") from None


def action_to_json(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {"type": _NAMES[type(action)], "now": action.now}
    if isinstance(action, Submit | GiveUp | SkipTask | Hint | StopRun):
        data["player"] = action.player
    if isinstance(action, Submit):
        data["placements"] = [placement_to_json(p) for p in action.placements]
    return data


def action_from_json(data: Any) -> Action:
    """The action in ``data``; raises :class:`ActionError` saying what is malformed."""
    if not isinstance(data, dict) or data.get("type") not in _TYPES:
        raise ActionError(f"not an action (expected a type among {', '.join(_TYPES)}): {data!r}")
    cls = _TYPES[data["type"]]
    try:
        now = float(data["now"])
        if cls is StartRound:
            return StartRound(now)
        if cls is Advance:
            return Advance(now)
        player = data["player"]
        if not isinstance(player, str):
            raise TypeError("player must be a string")
        if cls is Submit:
            placements = tuple(placement_from_json(p) for p in data["placements"])
            return Submit(player, placements, now)
        if cls is GiveUp:
            return GiveUp(player, now)
        if cls is Hint:
            return Hint(player, now)
        if cls is StopRun:
            return StopRun(player, now)
        return SkipTask(player, now)
    except (KeyError, TypeError, ValueError) as e:
        raise ActionError(f"malformed {data['type']} action: {type(e).__name__}: {e}") from None
