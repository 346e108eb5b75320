"""What clients see of a game: the rules' state as the protocol's ``game`` object and events.

The rules speak of players ``"0"`` .. ``"3"`` and times in server seconds; the protocol of
seats (ints) and milliseconds. This module is that translation and nothing else: no rule is
decided here. Its output is described in ``docs/protocol.md`` ("The room snapshot", "Room
events").
"""

from __future__ import annotations

from typing import Any

from ubongo import rules
from ubongo.rules.events import EventKind


def ms(seconds: float | None) -> int | None:
    return None if seconds is None else round(seconds * 1000)


def seat(player: str | None) -> int | None:
    return None if player is None else int(player)


def stage(game: rules.Game) -> str:
    """``playing``, ``second_chance``, ``countdown``, ``playoff``, ``between`` or ``over``."""
    if game.phase == "over":
        return "over"
    if game.phase == "waiting":
        return "between"
    r = game.round
    assert r is not None
    if r.kind in ("playoff", "tie-round"):
        return "playoff"
    if r.kind == "round" and r.hourglass_turns >= 2:
        return "second_chance"
    if r.kind == "round" and game.settings.record.timer.kind == "countdown" and r.finish_order:
        return "countdown"
    return "playing"


def game_json(
    game: rules.Game, round_no: int, next_round_at: float | None, solutions: dict[str, Any]
) -> dict[str, Any]:
    """The public table (the same for every player and spectator: at a real table everybody
    sees every board)."""
    s = game.settings
    gems = s.gems
    r = game.round
    tasks, finished, key = _round_json(game, r)
    return {
        "round": round_no,
        "rounds": s.rounds,
        "kind": None if r is None else r.kind,
        "stage": stage(game),
        "key": key,
        "roller": None if r is None else seat(r.roller),
        "deadline": ms(game.deadline),
        "tasks": tasks,
        "finished": finished,
        "gave_up": [] if r is None else [int(e.player) for e in r.entries if e.gave_up],
        "scores": _scores_json(game),
        "display": dict(game.display) if gems else None,
        "bag": sum(game.bag.values()) if gems else None,
        "solo": _solo_json(game),
        "next_round_at": ms(next_round_at),
        "solutions": solutions,
        "tied": [int(p) for p in game.tied],
        "winners": [int(p) for p in game.winners],
    }


def _round_json(
    game: rules.Game, r: rules.Round | None
) -> tuple[dict[str, Any], list[dict[str, Any]], str | None]:
    """The round's tasks by seat (``None`` before a solo run's first), its finishers in
    place order (a race's: a solo run has no places), and its key (the die's face, if any)."""
    tasks: dict[str, Any] = {}
    finished: list[dict[str, Any]] = []
    if r is None:
        return tasks, finished, None
    for e in r.entries:
        tasks[e.player] = rules.task_json(game, e) if e.card else None
        if e.finished_at is not None and e.place is not None and r.kind != "solo":
            finished.append({"seat": int(e.player), "place": e.place, "at": ms(e.finished_at)})
    finished.sort(key=lambda f: f["place"])
    key = r.die if r.die is not None else (r.entries[0].key if r.entries else None)
    return tasks, finished, key


def _scores_json(game: rules.Game) -> dict[str, dict[str, Any]]:
    """Each seat's points, gems (gem editions) and number of won cards."""
    points = game.scores()
    gems = game.settings.gems
    return {
        p.id: {
            "points": points[p.id],
            "gems": dict(p.gems) if gems else None,
            "cards": len(p.cards),
        }
        for p in game.players
    }


def _solo_json(game: rules.Game) -> dict[str, Any] | None:
    """A solo run so far (``None`` in a race): its goal, tasks done, its clock in ms."""
    if game.solo is None:
        return None
    s = game.settings
    started = game.solo.started_at
    ends_at = None
    if started is not None and s.solo_goal == "time":
        # the clock's end (hints bring it nearer); once over, when it ended
        ends_at = game.deadline if game.deadline is not None else game.solo.ended_at
    return {
        "goal": s.solo_goal,
        "amount": s.solo_target or 0,
        "done": game.solo.solved,
        "skipped": game.solo.skipped,
        "gave_up": game.solo.gave_up,
        "hints": game.solo.hints,
        "started_at": ms(started),
        "ends_at": ms(ends_at),
        "ended_at": ms(game.solo.ended_at),
        "endless": endless_json(game),
    }


def endless_json(game: rules.Game) -> dict[str, Any] | None:
    """An endless run's ratings: the player's now, the task in hand's (``docs/ratings.md``)."""
    solo = game.solo
    if solo is None or solo.rating is None:
        return None
    task = solo.task_rating
    return {
        "rating": round(solo.rating[0], 1),
        "rd": round(solo.rating[1], 1),
        "task_rating": None if task is None else round(task[0], 1),
        "task_limit": solo.task_limit,
        "rated": solo.rated,
        "timed_out": solo.timed_out,
    }


def event(ev: rules.Event, round_no: int) -> tuple[str, dict[str, Any]] | None:
    """A rules event as a protocol event (kind, data); ``None`` for the ones the server
    reports in its own words (awards go into ``round_ended``, the end into ``game_over``)."""
    d = ev.data
    k = ev.kind
    if k == EventKind.ROUND_STARTED:
        if d.get("kind") in ("playoff", "tie-round"):
            return "playoff", {
                "round": round_no,
                "kind": d.get("kind"),
                "seats": sorted(int(p) for p in d.get("tasks", {})),
                "key": d.get("die") or _first_key(d),
                "deadline": ms(d.get("deadline")),
            }
        return "round_started", {
            "round": round_no,
            "kind": d.get("kind"),
            "key": d.get("die") or _first_key(d),
            "roller": seat(d.get("roller")),
            "deadline": ms(d.get("deadline")),
        }
    if k == EventKind.FINISHED:
        return "finished", {"seat": int(d["player"]), "place": d.get("place"), "round": round_no}
    if k in (EventKind.COUNTDOWN, EventKind.SECOND_CHANCE):
        return str(k), {"round": round_no, "deadline": ms(d.get("deadline"))}
    if k in (EventKind.TASK_SKIPPED, EventKind.TASK_DRAWN):
        return str(k), {"seat": int(d["player"]), "round": round_no, "card": d.get("card")}
    if k == EventKind.TASK_RATED:
        return str(k), {
            "seat": int(d["player"]),
            "round": round_no,
            "why": d["why"],
            "score": d["score"],
            "seconds": d["seconds"],
            "task_rating": round(d["task"][0], 1),
            "rating": round(d["after"][0], 1),
            "rd": round(d["after"][1], 1),
            "change": round(d["after"][0] - d["before"][0], 1),
        }
    if k == EventKind.GAVE_UP:
        # solo: the driver adds the task given up and its solution
        return str(k), {"seat": int(d["player"]), "round": round_no, "task": None, "solution": []}
    if k == EventKind.HINTED:
        return str(k), {
            "seat": int(d["player"]),
            "round": round_no,
            "penalty": d.get("penalty", 0.0),
            "deadline": ms(d.get("deadline")),
        }
    if k == EventKind.TIE:
        return str(k), {
            "seats": [int(p) for p in d.get("players", [])],
            "next": d.get("next"),
            "resolved": d.get("resolved"),
        }
    return None


def _first_key(d: dict[str, Any]) -> str | None:
    tasks = d.get("tasks") or {}
    for t in tasks.values():
        return str(t.get("key"))
    return None


def awards(ev: rules.Event) -> dict[str, Any] | None:
    """What a round's ``gems`` or ``cards`` event gave to whom, by seat."""
    d = ev.data
    if ev.kind == EventKind.GEMS:
        return {
            "gems": {str(int(p)): g for p, g in d.get("rewards", {}).items()},
            "to_bag": d.get("to_bag", []),
        }
    if ev.kind == EventKind.CARDS:
        return {
            "first": seat(d.get("first")),
            "kept": {str(int(p)): c for p, c in d.get("kept", {}).items()},
            "handed": {str(int(p)): c for p, c in d.get("handed", {}).items()},
            "discarded": {str(int(p)): c for p, c in d.get("discarded", {}).items()},
        }
    return None
