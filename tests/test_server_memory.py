"""Finished rooms and games are freed (issue 16, "Memory"): a server that has run many games
holds none of them once their players have left.

The room service runs in this process (its real SQLite storage, saved rooms, timers and card
worker) so that its objects can be counted: after several solo games played to their stored
end and left, no :class:`~ubongo.server.rooms.room.Room`, no rules :class:`~ubongo.rules.state.Game`
and no :class:`~ubongo.server.rooms.connection.Connection` is alive, the hub knows no room, and the
database keeps no open room. bench/soak.py runs the same cycle for minutes and prints the
counts over time; this test is its short, non-timed check.
"""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from pathlib import Path
from typing import Any

from server_harness import solution
from waiting import eventually_async

from ubongo.rules.state import Game
from ubongo.server.config import ServerConfig
from ubongo.server.protocol.incoming import SettingsPatch
from ubongo.server.rooms.connection import Connection
from ubongo.server.rooms.room import Room
from ubongo.server.rooms.service import LocalRoomService
from ubongo.server.store import Store

GAMES = 4
EDITION = "extreme"


class Seen:
    """Weak references to what the games made: whatever is still alive is held somewhere."""

    def __init__(self) -> None:
        # (lists: rooms and game states compare by value, so they are not hashable)
        self.rooms: list[weakref.ref[Room]] = []
        self.games: list[weakref.ref[Game]] = []
        self.conns: list[weakref.ref[Connection]] = []

    def counts(self) -> tuple[int, int, int]:
        """How many of the rooms, game states and connections seen are still alive."""
        gc.collect()
        return tuple(  # type: ignore[return-value]
            sum(r() is not None for r in refs) for refs in (self.rooms, self.games, self.conns)
        )


async def next_event(conn: Connection, kinds: set[str]) -> dict[str, Any]:
    """The next event of one of ``kinds`` on ``conn`` (errors fail the test)."""
    while True:
        text = await asyncio.wait_for(conn.queue.get(), 20)
        assert text is not None, "the connection was closed"
        msg: dict[str, Any] = json.loads(text)
        assert msg["type"] != "error", msg
        if msg["type"] == "event" and msg["kind"] in kinds:
            return msg


async def play_solo_game(
    service: LocalRoomService, n: int, seen: Seen, leave: bool = True
) -> dict[str, Any]:
    """One solo run of five tasks played to its stored end, then left (or only disconnected,
    as a closed tab is: ``leave=False``); its last event."""
    settings = SettingsPatch(
        edition=EDITION, mode="solo", solo_goal="tasks", solo_amount=5, puzzles="standard"
    )
    seat = await service.create_room(f"Solveig {n}", settings)
    conn = service.connect(None)
    room = service.gateway.rooms.hub.get(seat["code"])
    assert room is not None
    seen.rooms.append(weakref.ref(room))
    seen.conns.append(weakref.ref(conn))

    async def say(message: dict[str, Any]) -> None:
        await service.receive(conn, json.dumps(message), service.clock.now())

    await say({"type": "hello", "room": seat["code"], "token": seat["token"]})
    await say({"type": "start"})
    msg = await next_event(conn, {"round_started"})
    while msg["kind"] != "game_over":
        assert room.game is not None
        seen.games.append(weakref.ref(room.game))
        game = msg["room"]["game"]
        placements = solution(game["tasks"]["0"], EDITION)
        await say({"type": "submit", "round": game["round"], "placements": placements})
        msg = await next_event(conn, {"task_drawn", "game_over"})
    if leave:
        await say({"type": "leave"})
    service.disconnect(conn)
    return msg


def test_finished_rooms_and_games_are_freed(tmp_path: Path) -> None:
    seen = Seen()

    async def scenario() -> list[dict[str, Any]]:
        storage = Store(f"sqlite:///{tmp_path / 'memory.sqlite3'}")
        storage.migrate()
        service = LocalRoomService(
            storage, ServerConfig(record_seconds_per_piece=0.0, require_traces=False)
        )
        await service.start()
        try:
            ends = [await play_solo_game(service, n, seen) for n in range(GAMES)]
            assert list(service.gateway.rooms.hub.codes()) == []
            await service.saved.stop()  # what the hub still had to write (rooms closed)
            assert storage.open_rooms.all() == []
            assert service.gateway.connections == set()
            return ends
        finally:
            await service.stop()

    ends = asyncio.run(scenario())
    # the games did happen and were stored (each has its stored id)
    assert [e["kind"] for e in ends] == ["game_over"] * GAMES
    assert all(e["data"]["game_id"] for e in ends)
    assert all(e["data"]["record"]["solved"] == 5 for e in ends)
    assert len(seen.games) == GAMES * 5  # a state per task of each game
    assert seen.counts() == (0, 0, 0)


def test_a_finished_room_nobody_is_connected_to_is_forgotten_soon(tmp_path: Path) -> None:
    """A closed tab says no ``leave``: the finished room is forgotten after
    ``finished_room_seconds`` (its game is stored), while a lobby whose player went away is
    kept for ``idle_room_seconds`` (they may come back to it)."""
    seen = Seen()

    async def scenario() -> None:
        storage = Store(f"sqlite:///{tmp_path / 'finished.sqlite3'}")
        storage.migrate()
        config = ServerConfig(
            record_seconds_per_piece=0.0, require_traces=False, finished_room_seconds=0.4
        )
        service = LocalRoomService(storage, config)
        await service.start()
        try:
            waiting = await service.create_room("Wanda", SettingsPatch(edition=EDITION))
            conn = service.connect(None)
            await service.receive(
                conn,
                json.dumps({"type": "hello", "room": waiting["code"], "token": waiting["token"]}),
                service.clock.now(),
            )
            service.disconnect(conn)
            end = await play_solo_game(service, 0, seen, leave=False)
            assert end["kind"] == "game_over" and end["data"]["game_id"]
            hub = service.gateway.rooms.hub
            finished = [c for c in hub.codes() if c != waiting["code"]]
            assert len(finished) == 1  # kept while the sweeper has not come by
            await eventually_async(
                lambda: list(hub.codes()) == [waiting["code"]],
                "the sweeper to forget the finished room",
                every=0.1,
            )
        finally:
            await service.stop()

    asyncio.run(scenario())
    assert seen.counts() == (0, 0, 0)
