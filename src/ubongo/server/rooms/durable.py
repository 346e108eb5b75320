"""A room as plain data, and back: what outlives the process that ran it.

A room is kept as its seats (with their tokens), its settings and the game as the rules keep
it: the game's settings, seed and log of accepted actions, which :func:`ubongo.rules.replay`
turns back into the same game. Both ways of keeping rooms use it: Redis, when several
processes share rooms (:mod:`..cluster`), and the database, so that one process's rooms outlive
its restart (:mod:`.saved`).

>>> from .room import RoomSettings
>>> room = Room("ABCDE", RoomSettings(), "http://127.0.0.1:8000/room/ABCDE")
>>> room.seats[0] = Seat(0, "person", "Ada", token="t0")
>>> again = rebuilt(durable(room, seq=3))
>>> (again.code, again.seats[0].name, again.seats[0].token, again.game)
('ABCDE', 'Ada', 't0', None)
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ubongo import rules

from .room import Room, RoomSettings, Seat

SEAT_FIELDS = (
    "index",
    "kind",
    "name",
    "token",
    "level",
    "side",
    "ready",
    "held_until",
    "replaced",
    "account",
)
ROOM_FIELDS = (
    "code",
    "invite",
    "host",
    "phase",
    "seed",
    "started_at",
    "turn",
    "round_no",
    "next_round_at",
    "solutions",
    "game_id",
    "record",
    "idle_since",
)


def durable(room: Room, seq: int) -> dict[str, Any]:
    """Everything needed to rebuild ``room`` as of event ``seq`` on another process.

    The game is kept as the rules keep it: settings, seed and the log of accepted actions,
    which :func:`ubongo.rules.replay` turns back into the same game."""
    data: dict[str, Any] = {name: getattr(room, name) for name in ROOM_FIELDS}
    data["seq"] = seq
    data["locked"], data["joined_ever"] = room.locked, room.joined_ever
    data["settings"] = _fields(room.settings)
    data["daily"] = room.daily
    data["ratings"] = room.ratings
    data["traces"] = room.traces
    data["seats"] = [
        None if s is None else {name: getattr(s, name) for name in (*SEAT_FIELDS, "account")}
        for s in room.seats
    ]
    game = room.game
    data["game"] = (
        None
        if game is None
        else {
            "settings": _fields(game.settings),
            "log": [rules.action_to_json(a) for a in game.log],
        }
    )
    return data


def _fields(obj: Any) -> dict[str, Any]:
    """A flat dataclass's fields (``dataclasses.asdict`` deep-copies: slower, and not needed
    for values that are numbers, strings and tuples of them)."""
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


def rebuilt(data: dict[str, Any]) -> Room:
    """The room :func:`durable` described (the game replayed by the rules)."""
    room = Room(data["code"], RoomSettings(**data["settings"]), data["invite"])
    for name in ROOM_FIELDS:
        setattr(room, name, data[name])
    # kept since rooms could be locked; a room kept before counts as joined
    room.locked = bool(data.get("locked", False))
    room.joined_ever = bool(data.get("joined_ever", True))
    # kept since the daily challenge and accounts (a room kept before has neither)
    room.daily = data.get("daily")
    room.ratings = data.get("ratings")  # kept since the end screen shows rating moves
    room.traces = list(data.get("traces", ()))  # kept since play traces
    room.seats = [
        None if s is None else Seat(**{name: s[name] for name in SEAT_FIELDS if name in s})
        for s in data["seats"]
    ]
    game = data["game"]
    if game is not None:
        st = dict(game["settings"])
        st["players"], st["levels"] = tuple(st["players"]), tuple(st["levels"])
        settings = rules.Settings(**st)
        actions = [rules.action_from_json(a) for a in game["log"]]
        # the deck the settings name, as at the start (a fresh game's cards from its seed)
        room.game = rules.replay(settings, room.seed or 0, actions)
    return room
