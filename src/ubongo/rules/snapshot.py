"""What a player sees of a game: its public snapshot (:func:`view`) and a task as printed
(:func:`task_json`), both JSON-ready.

Nobody sees the seed, the order of the stack or the bag's draws; a player sees their own
task, a spectator every task.

>>> from ubongo.rules import Settings, StartRound, apply, new_game
>>> from ubongo.rules.testing import fixture_deck
>>> game = new_game(Settings("classic", ("ann", "bob")), seed=1, deck=fixture_deck("classic"))
>>> seen = view(apply(game, StartRound(0.0)), "bob")
>>> seen["phase"], seen["round"]["roller"], sorted(seen["round"]["task"])[:3]
('playing', 'ann', ['area', 'card', 'difficulty'])
"""

from __future__ import annotations

from typing import Any

from .engine import entry_task, solo_record
from .state import Entry, Game, Round


def task_json(game: Game, entry: Entry) -> dict[str, Any]:
    """A player's task as JSON: card, side, key, pieces and area cells (what is printed)."""
    side, task = entry_task(game, entry)
    return {
        "card": entry.card,
        "side": entry.side,
        "key": entry.key,
        "pieces": list(task.pieces),
        "area": [list(c) for c in sorted(side.area.cells)],
        "layers": side.area.layers,
        "difficulty": task.difficulty,
    }


def view(game: Game, player: str | None = None) -> dict[str, Any]:
    """The public snapshot of ``game`` as ``player`` sees it (``None``: a spectator).

    Everybody sees the phase, the clock, scores, gems, won cards, the display, how many gems
    are in the bag and cards in the stack, and who has finished.  A player sees their own task;
    a spectator sees every task.  Nobody sees the seed, the order of the stack or the bag's
    draws."""
    s = game.settings
    return {
        "edition": s.edition,
        "mode": s.mode,
        "phase": game.phase,
        "now": game.now,
        "deadline": game.deadline,
        "rounds": s.rounds,
        "rounds_played": game.rounds_played,
        "next": game.next_kind if game.phase == "waiting" else None,
        "you": player,
        "players": _players(game),
        "display": dict(game.display),
        "bag": sum(game.bag.values()),
        "stack": None if s.own_sides else len(game.stack),
        "tied": list(game.tied),
        "winners": list(game.winners),
        "round": None if game.round is None else _round(game, game.round, player),
        "solo": solo_record(game) if game.solo is not None else None,
    }


def _players(game: Game) -> list[dict[str, Any]]:
    """Each player's side and score, gems (gem editions) and won cards: how many, the top one."""
    scores = game.scores()
    gems = game.settings.gems
    return [
        {
            "id": p.id,
            "side": p.side,
            "score": scores[p.id],
            "gems": dict(p.gems) if gems else None,
            "cards": len(p.cards),
            "top_card": p.cards[-1] if p.cards else None,
        }
        for p in game.players
    ]


def _round(game: Game, r: Round, player: str | None) -> dict[str, Any]:
    """The round as ``player`` sees it: who rolled what, who finished when, and the tasks
    (``task``: the player's own; ``tasks``: a spectator's, everybody's)."""
    seen: dict[str, Any] = {
        "kind": r.kind,
        "number": r.number,
        "roller": r.roller,
        "die": r.die,
        "started_at": r.started_at,
        "ended_at": r.ended_at,
        "hourglass_turns": r.hourglass_turns,
        "finish_order": list(r.finish_order),
        "entries": [
            {
                "player": e.player,
                "card": e.card,
                "finished_at": e.finished_at,
                "place": e.place,
                "gave_up": e.gave_up,
            }
            for e in r.entries
        ],
    }
    if player is None:
        seen["tasks"] = {e.player: task_json(game, e) for e in r.entries}
    else:
        mine = r.entry(player)
        seen["task"] = task_json(game, mine) if mine is not None else None
    return seen
