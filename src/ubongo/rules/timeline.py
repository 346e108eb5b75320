"""A finished (or unfinished) game told round by round, rebuilt by the rules from its seed and
action log: what a replay shows.

:func:`timeline` replays the actions one by one (:func:`~.engine.apply`, the same rules that
played the game, never a second recording) and writes down, for each round, the task each
player was dealt (solo: every task drawn, in order), the placements each finisher submitted,
when each finished, gave up or put a task aside, what the round awarded and the scores after
it. Players are the rules' ids and times are in the actions' seconds; a server turns them into
its own words.

>>> from ubongo.rules import Settings, StartRound, Advance
>>> from ubongo.rules.testing import fixture_deck
>>> s = Settings("classic", ("ann", "bob"), rounds=1)
>>> t = timeline(s, 1, [StartRound(0.0), Advance(60.0), Advance(120.0)], fixture_deck("classic"))
>>> [(r["kind"], r["seconds"], [x["outcome"] for x in r["tasks"]]) for r in t["rounds"]]
[('round', 120.0, ['unfinished', 'unfinished'])]
>>> t["phase"], t["scores"], t["tie"]["next"]     # nobody finished: a playoff is to come
('waiting', {'ann': 0, 'bob': 0}, 'playoff')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ubongo.puzzles.deck import Cards

from .actions import Action, Submit, placement_to_json
from .engine import apply, new_game, solo_record
from .events import Event, EventKind
from .settings import Settings
from .snapshot import task_json
from .state import Entry, Game

#: what became of a task: solved, given up, put aside (solo), or still open when time ran out
OUTCOMES = ("finished", "gave_up", "skipped", "unfinished")


def timeline(
    settings: Settings, seed: int | str, actions: Iterable[Action], deck: Cards | None = None
) -> dict[str, Any]:
    """The game ``actions`` make from ``new_game(settings, seed, deck)``, round by round.

    ``{"rounds": [...], "phase", "winners", "scores", "tie", "solo"}``; each round is
    ``{"number", "kind", "started_at", "ended_at", "seconds", "key", "roller", "tasks",
    "finish_order", "awards", "scores"}`` and each task ``{"player", "task" (as
    :func:`task_json`), "shown", "outcome", "at", "place", "placements"}`` (``shown`` and
    ``at``: seconds since the round started; ``awards``: the round's ``gems`` or ``cards``
    event data with its ``kind``, or ``None``). Raises what :func:`apply` raises for a log
    the rules refuse."""
    book = _Book(new_game(settings, seed, deck))
    for action in actions:
        book.play(action)
    game = book.game
    return {
        "rounds": book.rounds,
        "phase": game.phase,
        "winners": list(game.winners),
        "scores": game.scores(),
        "tie": book.tie,
        "solo": solo_record(game) if game.solo is not None else None,
    }


class _Book:
    """The game so far and what its rounds were."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rounds: list[dict[str, Any]] = []
        self.tie: dict[str, Any] | None = None

    def play(self, action: Action) -> None:
        seen = len(self.game.events)
        self.game = apply(self.game, action)
        for ev in self.game.events[seen:]:
            self._note(ev, action)
        r = self.game.round
        ended = None if r is None else r.ended_at
        if ended is not None and self.rounds and self.rounds[-1]["ended_at"] is None:
            current = self.rounds[-1]
            current["ended_at"] = ended
            current["seconds"] = ended - current["started_at"]
            current["scores"] = self.game.scores()

    def _note(self, ev: Event, action: Action) -> None:
        d = ev.data
        if ev.kind == EventKind.ROUND_STARTED:
            self._round(ev)
            return
        if ev.kind == EventKind.TIE:
            self.tie = dict(d)
        if not self.rounds:
            return
        current = self.rounds[-1]
        since = ev.at - current["started_at"]
        if ev.kind == EventKind.TASK_DRAWN:
            current["tasks"].append(_task(self.game, d["player"], d["card"], d["key"], since))
        elif ev.kind == EventKind.FINISHED:
            t = _open_task(current, d["player"])
            t.update(outcome="finished", at=since, place=d["place"])
            # the submission that finished: the action that caused this event
            if isinstance(action, Submit) and action.player == d["player"]:
                t["placements"] = [placement_to_json(p) for p in action.placements]
            current["finish_order"].append(d["player"])
        elif ev.kind in (EventKind.GAVE_UP, EventKind.TASK_SKIPPED):
            outcome = "gave_up" if ev.kind == EventKind.GAVE_UP else "skipped"
            _open_task(current, d["player"]).update(outcome=outcome, at=since)
        elif ev.kind in (EventKind.GEMS, EventKind.CARDS):
            current["awards"] = {"kind": str(ev.kind), **d}

    def _round(self, ev: Event) -> None:
        d = ev.data
        tasks = d["tasks"]
        self.rounds.append(
            {
                "number": len(self.rounds) + 1,
                "kind": d["kind"],
                "started_at": ev.at,
                "ended_at": None,
                "seconds": None,
                "key": d.get("die") or _first_key(tasks),
                "roller": d.get("roller"),
                "tasks": [_task(self.game, p, t["card"], t["key"], 0.0) for p, t in tasks.items()],
                "finish_order": [],
                "awards": None,
                "scores": None,
            }
        )


def _first_key(tasks: dict[str, Any]) -> str | None:
    for t in tasks.values():
        return str(t["key"])
    return None


def _task(game: Game, player: str, card: int, key: str, shown: float) -> dict[str, Any]:
    """A task as dealt to ``player`` (every player keeps one side for the whole game)."""
    entry = Entry(player, card, game.player(player).side, key)
    return {
        "player": player,
        "task": task_json(game, entry),
        "shown": shown,
        "outcome": "unfinished",
        "at": None,
        "place": None,
        "placements": None,
    }


def _open_task(current: dict[str, Any], player: str) -> dict[str, Any]:
    """``player``'s latest task of the round (solo: the one on the table now)."""
    tasks: list[dict[str, Any]] = current["tasks"]
    mine = [t for t in tasks if t["player"] == player]
    if not mine:
        raise KeyError(player)
    return mine[-1]
