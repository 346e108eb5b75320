"""Every frame of a game is the text its plain snapshot makes (issue 25, "outgoing messages").

The events and ``welcome`` carry the room's snapshot with its settings and its game's view as
models already checked (:meth:`~ubongo.server.rooms.feed.RoomFeed.snapshot`, ``checked``), made
once while they do not change instead of once an event (and each seat's task in the game's view
checked once while it stays the same task). A game is played in this process
through the gateway (lobby, seats, ready, start, every seat finishing, game over, leaving), and
each message the server encodes is encoded again with the room's plain snapshot of that moment
(what every frame was made from before): the two texts must be the same, byte for byte, and
the checked parts must be shared between the events while they do not change.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from server_harness import solution

from ubongo import editions
from ubongo.server.config import ServerConfig
from ubongo.server.protocol import outgoing
from ubongo.server.protocol.incoming import SettingsPatch
from ubongo.server.protocol.snapshot import GameTable, RoomSettingsView
from ubongo.server.rooms import connection as connection_module
from ubongo.server.rooms.bus import MemoryHub, json_text
from ubongo.server.rooms.connection import Connection
from ubongo.server.rooms.gateway import Gateway
from ubongo.server.rooms.room import Room

PLAYERS = 3


class Frames:
    """Encodes as the server does, and checks each message against its plain form."""

    def __init__(self) -> None:
        self.gateway: Gateway | None = None
        #: (message type or event kind, the text sent)
        self.sent: list[tuple[str, str]] = []
        #: the checked parts the messages carried (kept alive, so that identities are unique)
        self.parts: list[RoomSettingsView | GameTable] = []

    def encode(self, message: dict[str, Any]) -> str:
        text = outgoing.encode(message)
        room = message.get("room")
        if room is not None:
            assert self.gateway is not None
            live = self.gateway.rooms.feed.room(room["code"])
            plain = {**message, "room": self.gateway.rooms.feed.snapshot(live)}
            assert text == outgoing.encode(plain), message.get("kind", message["type"])
            assert text == outgoing.encode(json.loads(text))
            self.parts += [p for p in (room["settings"], room["game"]) if p is not None]
        self.sent.append((message.get("kind", message["type"]), text))
        return text


async def next_of(conn: Connection, *kinds: str) -> dict[str, Any]:
    """The next event of one of ``kinds`` on ``conn`` (an error fails the test)."""
    while True:
        text = await asyncio.wait_for(conn.queue.get(), 20)
        assert text is not None, "the connection was closed"
        msg: dict[str, Any] = json.loads(text)
        assert msg["type"] != "error", msg
        if msg.get("kind") in kinds:
            return msg


async def play(frames: Frames) -> Room:
    """A race of :data:`PLAYERS` people to its end, each finishing in turn, then leaving."""
    gateway = Gateway(None, ServerConfig(), MemoryHub(encode=frames.encode))
    frames.gateway = gateway
    edition = editions.names()[0]
    lobby = gateway.rooms.lobby
    # seed 1: the first two level on points, so a playoff's frames are checked too
    patch = SettingsPatch(edition=edition, rounds=1, seed=1, between_seconds=0)
    room, host = lobby.create_room("Ada", patch)
    seats = [host, *(lobby.take_seat(room.code, f"P{i}")[1] for i in range(1, PLAYERS))]
    conns = [Connection(None, gateway.clock) for _ in seats]

    def say(i: int, body: dict[str, Any]) -> None:
        gateway.handle(conns[i], json.dumps(body), gateway.clock.now())

    for i, seat in enumerate(seats):
        say(i, {"type": "hello", "room": room.code, "token": seat.token})
    for i in range(1, PLAYERS):
        say(i, {"type": "ready"})
    say(0, {"type": "start"})
    started = await next_of(conns[0], "round_started")
    # every player finishes in turn; level on points, the tied play off and the first of them
    # finishes it (with a random seed, CI loop run 117 waited for the end during a playoff)
    while started["kind"] != "game_over":
        game = started["room"]["game"]
        tasks = list(game["tasks"].items())
        for player, task in tasks if game["kind"] == "round" else tasks[:1]:
            cover = solution(task, edition)
            say(int(player), {"type": "submit", "round": game["round"], "placements": cover})
        started = await next_of(conns[0], "game_over", "playoff")
    for conn in conns:
        gateway.disconnected(conn)
    gateway.rooms.timers.stop(room)
    return room


def test_frames_are_the_plain_snapshots_text(monkeypatch: pytest.MonkeyPatch) -> None:
    frames = Frames()
    monkeypatch.setattr(connection_module, "encode", frames.encode)  # the welcomes
    room = asyncio.run(play(frames))
    kinds = [kind for kind, _text in frames.sent]
    assert kinds.count("welcome") == PLAYERS
    assert {"round_started", "finished", "round_ended", "playoff", "game_over"} <= set(kinds)
    # each message checked (above); the checked parts are shared while they do not change:
    # undone, each event would carry parts of its own
    with_room = [k for k, text in frames.sent if '"room":{' in text]
    assert len(frames.parts) > len(with_room)
    assert all(isinstance(p, (RoomSettingsView, GameTable)) for p in frames.parts)
    settings = {id(p) for p in frames.parts if isinstance(p, RoomSettingsView)}
    games = [p for p in frames.parts if isinstance(p, GameTable)]
    assert len(settings) == 1  # the settings never change in this game
    assert len({id(g) for g in games}) < len(games)
    # and so is each seat's task while it is the same task, between game views that differ
    tasks = [t for g in {id(g): g for g in games}.values() for t in g.tasks.values() if t]
    assert len({id(t) for t in tasks}) < len(tasks)
    assert room.phase == "over"


def test_a_hub_of_plain_json_writes_the_checked_parts_too() -> None:
    """A hub not given the protocol's encoder (tests, doctests) still writes a snapshot."""
    settings = RoomSettingsView.model_validate(
        {
            "edition": editions.names()[0],
            "mode": "race",
            "variant": "standard",
            "side": "A",
            "rounds": None,
            "hourglass_seconds": None,
            "countdown_seconds": None,
            "round_limit_seconds": None,
            "solo_goal": "time",
            "solo_amount": 3,
            "seat_hold_seconds": 60.0,
            "between_seconds": 3.0,
            "seed": None,
            "puzzles": "fresh",
            "day": None,
        }
    )
    text = json_text({"settings": settings})
    assert json.loads(text) == {"settings": settings.model_dump(mode="json")}
    with pytest.raises(TypeError):
        json_text({"x": object()})
