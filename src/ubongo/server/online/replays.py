"""A stored game's replay (``GET /api/games/{id}/replay``): the game rebuilt by the rules from
its stored settings, seed and actions (:func:`ubongo.rules.timeline`), in the protocol's words.

Nothing here decides anything about the game: the rules replay it; this module only turns
their players (``"0"`` .. ``"3"``) into seats, their times into seconds since the first round
started (a round's tasks: since that round started) and their awards into the ``round_ended``
event's shape. A fresh game's cards are made again from its seed (the same cards: the deck
is a function of the edition, the seed and the sides), which takes a while, so replays
are kept (:class:`ReplayCache`): a stored game never changes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ubongo import rules
from ubongo.rules.events import Event, EventKind

from ..protocol import table
from ..store import ChatLine, StoredGame


def stored_settings(stored: StoredGame) -> rules.Settings:
    """The rules' settings a stored game was played with."""
    s = dict(stored.settings["rules"])
    for k in ("players", "levels", "deck_sides"):
        s[k] = tuple(s.get(k, ()))
    return rules.Settings(**s)


def replay_json(stored: StoredGame) -> dict[str, Any]:
    """The replay of a stored game, as ``docs/protocol.md`` describes it ("Replays")."""
    actions = [rules.action_from_json(a) for a in stored.events]
    told = rules.timeline(stored_settings(stored), stored.seed, actions)
    rounds = told["rounds"]
    origin = rounds[0]["started_at"] if rounds else 0.0
    end = max((r["ended_at"] for r in rounds if r["ended_at"] is not None), default=origin)
    tie = told["tie"]
    return {
        "id": stored.id,
        "room": stored.room,
        "edition": stored.edition,
        "mode": stored.mode,
        "variant": stored.variant,
        "puzzles": stored.settings["rules"].get("puzzles", "standard"),
        "players": stored.players,
        "started_at": stored.started_at,
        "finished_at": stored.finished_at,
        "seconds": end - origin,
        "origin": origin if rounds else stored.started_at,
        "rounds": [_round(r, origin) for r in rounds],
        "result": {
            "winners": [int(p) for p in told["winners"]],
            "scores": dict(told["scores"]),
            "tie": None
            if tie is None
            else {
                "seats": [int(p) for p in tie.get("players", [])],
                "next": tie.get("next"),
                "resolved": tie.get("resolved"),
            },
            "record": told["solo"],
        },
        "chat": None,  # the route adds the players' lines for a player (chat_json)
    }


def chat_json(replay: dict[str, Any], lines: list[ChatLine]) -> list[dict[str, Any]]:
    """A stored game's chat in its replay (``ReplayChatLine``): times since its first round
    started, as the replay's."""
    origin = float(replay["origin"])
    return [
        {"seat": c.seat, "phrase": c.phrase, "text": c.text, "at": round(c.at - origin, 3)}
        for c in lines
    ]


def _round(r: dict[str, Any], origin: float) -> dict[str, Any]:
    awards: dict[str, Any] = {}
    if r["awards"] is not None:
        data = {k: v for k, v in r["awards"].items() if k != "kind"}
        awards = table.awards(Event(EventKind(r["awards"]["kind"]), r["started_at"], data)) or {}
    return {
        "number": r["number"],
        "kind": r["kind"],
        "at": r["started_at"] - origin,
        "seconds": r["seconds"],
        "key": r["key"],
        "roller": table.seat(r["roller"]),
        "tasks": [
            {
                "seat": int(t["player"]),
                "task": t["task"],
                "shown": t["shown"],
                "outcome": t["outcome"],
                "at": t["at"],
                "place": t["place"],
                "placements": t["placements"],
            }
            for t in r["tasks"]
        ],
        "finish_order": [int(p) for p in r["finish_order"]],
        "awards": awards,
        "scores": r["scores"],
    }


class ReplayCache:
    """The latest replays made, by game id (a stored game never changes, and a fresh game's
    replay makes its cards again: a second viewer should not wait for that again)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._kept: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int) -> dict[str, Any] | None:
        with self._lock:
            found = self._kept.get(game_id)
            if found is not None:
                self._kept.move_to_end(game_id)
            return found

    def put(self, game_id: int, replay: dict[str, Any]) -> None:
        with self._lock:
            self._kept[game_id] = replay
            self._kept.move_to_end(game_id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
