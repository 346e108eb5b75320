"""Nothing acknowledged is lost, event numbers are never reused, records are plausible.

Real servers (``ubongo serve`` subprocesses) on a real SQLite file: killed with SIGKILL right
after they told a player something, started again on the same file; the database locked from
here (an exclusive SQLite transaction) for longer than the server's store timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, open_rooms_file, solution, wait_saved
from sqlalchemy import insert, select
from waiting import eventually_async

from ubongo.server.rooms.bus import Event
from ubongo.server.rooms.durable import durable
from ubongo.server.rooms.room import Room, RoomSettings
from ubongo.server.rooms.saved import SavedRoomsHub
from ubongo.server.store import Backoff, Store
from ubongo.server.store.tables import OpenRoomRow, SoloRecordRow, to_datetime

#: short store timeouts and retries, so that a locked database shows in a second
QUICK_STORE = ("--store-timeout", "0.3", "--store-retry", "0.2", "--store-retry-max", "0.4")
#: the tests' players are machines: no plausibility floor unless a test sets one
NO_FLOOR = ("--record-seconds-per-piece", "0", "--no-require-traces")


def finished_seats(room: dict[str, Any]) -> list[int]:
    return [f["seat"] for f in room["game"]["finished"]]


@contextmanager
def locked(*files: Path) -> Iterator[None]:
    """The database ``files`` locked for writing by another process (this test) meanwhile."""
    with contextlib.ExitStack() as stack:
        for file in files:
            con = sqlite3.connect(file, timeout=5, isolation_level=None)
            stack.callback(con.close)
            con.execute("BEGIN EXCLUSIVE")
            stack.callback(con.execute, "ROLLBACK")
        yield


def two_player_round(server: ServerProcess) -> tuple[str, str, dict[str, Any], Client]:
    """A room of Ada (host) and Bob playing round 1: (code, Ada's token, the game, Ada)."""
    created = server.create_room(
        "Ada", edition="classic", rounds=2, hourglass_seconds=60, between_seconds=0.2, seed=7
    )
    code = created["code"]
    bob_seat = server.take_seat(code, "Bob")
    ada, bob = Client(server), Client(server)
    ada.hello(code, created["token"])
    bob.hello(code, bob_seat["token"])
    bob.reply({"type": "ready"}, "ready")
    ada.send({"type": "start"})
    game = ada.event("round_started")["room"]["game"]
    return code, created["token"], game, ada


def test_a_finish_told_survives_a_crash_right_after(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    first = ServerProcess(url, log=tmp_path / "first.log").start()
    try:
        code, token, game, ada = two_player_round(first)
        placements = solution(game["tasks"]["0"], "classic")  # solved before: no delay below
        # everything before the finish is saved: the finish is what the crash may lose
        wait_saved(tmp_path / "rooms.sqlite3", code, ada.seq)
        message = {"type": "submit", "round": game["round"], "placements": placements}
        verdict = ada.reply(message, "verdict")
        first.stop(kill=True)  # SIGKILL a moment after Ada was told
        assert verdict["ok"] is True, verdict
    finally:
        first.stop(kill=True)
    second = ServerProcess(url, log=tmp_path / "second.log").start()
    try:
        back = Client(second)
        room = back.hello(code, token)["room"]
        assert room["phase"] == "playing" and room["game"]["round"] == game["round"]
        assert finished_seats(room) == [0]  # what Ada was told is what the server kept
        back.close()
    finally:
        second.stop()


def test_event_numbers_are_not_reused_after_a_crash(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    first = ServerProcess(url, log=tmp_path / "first.log").start()
    try:
        created = first.create_room("Ada", edition="classic")
        code = created["code"]
        bob_seat = first.take_seat(code, "Bob")
        ada, bob = Client(first), Client(first)
        ada.hello(code, created["token"])
        bob.hello(code, bob_seat["token"])
        wait_saved(tmp_path / "rooms.sqlite3", code, ada.seq)  # all saved so far
        # cheap events (Bob's connection drops and comes back): Ada sees them, then the crash
        bob.close()
        ada.wait(lambda m: m.get("kind") == "connection" and not m["data"]["connected"])
        bob = Client(first)
        bob.hello(code, bob_seat["token"])
        ada.wait(lambda m: m.get("kind") == "connection" and m["data"]["connected"])
        seen = ada.seq
        first.stop(kill=True)
    finally:
        first.stop(kill=True)
    second = ServerProcess(url, log=tmp_path / "second.log").start()
    try:
        # the restarted room makes new events (Bob back, spectators) before Ada returns
        bob = Client(second)
        bob.hello(code, bob_seat["token"])
        watchers = []
        for _ in range(6):
            watcher = Client(second)
            watchers.append(watcher)
            if watcher.hello(code, spectate=True)["seq"] >= seen:
                break
        back = Client(second)
        back.seq = seen
        welcome = back.hello(code, created["token"], last_seq=seen)
        # Ada's events up to `seen` may differ from the new ones: the whole room, not a resume
        assert welcome["resumed"] is False, welcome
        assert welcome["seq"] > seen
        ahead = Client(second)
        assert ahead.hello(code, spectate=True, last_seq=welcome["seq"] + 5)["resumed"] is False
        for c in (bob, back, ahead, *watchers):
            c.close()
    finally:
        second.stop()


def play_solo(
    server: ServerProcess, name: str, think: float = 0.0, last: Any = None
) -> dict[str, Any]:
    """A Classic solo run of 5 tasks; ``think`` seconds per piece before each submission;
    ``last(client, message)`` sends the last one instead. The ``game_over`` event."""
    room = server.create_room(
        name, edition="classic", mode="solo", solo_goal="tasks", solo_amount=5, side="A"
    )
    c = Client(server)
    c.hello(room["code"], room["token"])
    c.send({"type": "start"})
    game = c.event("round_started")["room"]["game"]
    while True:
        task = game["tasks"]["0"]
        message = {
            "type": "submit",
            "round": game["round"],
            "placements": solution(task, "classic"),
        }
        # the wait is the test: a person's thinking time, which the records' plausibility
        # floor measures on the server's clock (no way to move that clock from here)
        time.sleep(think * len(task["pieces"]))
        if last is not None and game["solo"]["done"] == 4:
            return dict(last(c, message, room))
        assert c.reply(message, "verdict")["ok"] is True
        nxt = c.wait(lambda m: m.get("kind") in ("task_drawn", "game_over"))
        if nxt["kind"] == "game_over":
            c.close()
            return nxt
        game = nxt["room"]["game"]


@contextmanager
def quick_store_server(db: Path, log: Path) -> Iterator[ServerProcess]:
    """A server on the SQLite file ``db`` whose store gives up and tries again quickly."""
    server = ServerProcess(f"sqlite:///{db}", log=log, args=QUICK_STORE + NO_FLOOR).start()
    try:
        yield server
    finally:
        server.stop()


def test_a_game_over_waits_for_a_locked_database(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with quick_store_server(db, tmp_path / "a.log") as server:

        def finish_while_locked(
            c: Client, message: dict[str, Any], _room: dict[str, Any]
        ) -> dict[str, Any]:
            with locked(db, open_rooms_file(db)):
                c.send(message)
                # nothing is told while nothing can be stored (a few store timeouts)
                with pytest.raises(TimeoutError):
                    c.recv(1.2)
            assert c.wait(lambda m: m["type"] == "verdict")["ok"] is True
            return c.wait(lambda m: m.get("kind") == "game_over")

        over = play_solo(server, "Solveig", last=finish_while_locked)
        game_id = over["data"]["game_id"]
        assert game_id is not None  # stored, then announced
        assert server.get(f"/api/games/{game_id}")["mode"] == "solo"
        board = server.get("/api/leaderboard?edition=classic&goal=tasks&amount=5&side=A")
        assert [r["name"] for r in board] == ["Solveig"]
    logged = (tmp_path / "a.log").read_text()
    assert "trying again" in logged
    # the database's refusals are logged without the statements' values (invite keys, hashes)
    assert "[parameters:" not in logged and "parameters hidden" in logged


def test_a_verdict_does_not_wait_for_the_games_being_stored(tmp_path: Path) -> None:
    """Open rooms are saved in a file of their own: with the games' file locked (a game being
    stored, or an operator's query), a finishing "Ubongo!" is answered once its room is saved,
    and only its game's end waits for the games' file. In one file, the verdict waited too."""
    db = tmp_path / "games.sqlite3"
    with quick_store_server(db, tmp_path / "a.log") as server:

        def finish_while_games_locked(
            c: Client, message: dict[str, Any], _room: dict[str, Any]
        ) -> dict[str, Any]:
            with locked(db):
                assert c.reply(message, "verdict")["ok"] is True
                # the game over waits for its game to be stored (a few store timeouts)
                with pytest.raises(TimeoutError):
                    c.wait(lambda m: m.get("kind") == "game_over", 1.2)
            return c.wait(lambda m: m.get("kind") == "game_over")

        over = play_solo(server, "Solveig", last=finish_while_games_locked)
        assert server.get(f"/api/games/{over['data']['game_id']}")["mode"] == "solo"


def test_a_server_killed_while_the_database_is_locked_loses_nothing_told(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    url = f"sqlite:///{db}"
    first = ServerProcess(url, log=tmp_path / "a.log", args=QUICK_STORE + NO_FLOOR).start()
    kept: dict[str, Any] = {}
    try:

        def killed_while_locked(
            c: Client, message: dict[str, Any], room: dict[str, Any]
        ) -> dict[str, Any]:
            kept.update(code=room["code"], token=room["token"], message=message)
            with locked(db, open_rooms_file(db)):
                c.send(message)
                with pytest.raises(TimeoutError):
                    c.recv(1.0)
                first.stop(kill=True)
            return {}

        play_solo(first, "Solveig", last=killed_while_locked)
    finally:
        first.stop(kill=True)
    second = ServerProcess(url, log=tmp_path / "b.log", args=QUICK_STORE + NO_FLOOR).start()
    try:
        c = Client(second)
        room = c.hello(kept["code"], kept["token"])["room"]
        # the last "Ubongo!" was never answered: the run goes on from before it
        assert room["phase"] == "playing" and room["game"]["solo"]["done"] == 4
        assert c.reply(kept["message"], "verdict")["ok"] is True
        over = c.wait(lambda m: m.get("kind") == "game_over")
        assert second.get(f"/api/games/{over['data']['game_id']}")["mode"] == "solo"
        c.close()
    finally:
        second.stop()


@contextmanager
def refusing_games(db: Path) -> Iterator[None]:
    """The database refuses to store finished games meanwhile (a trigger: the rooms are
    still saved, so this is the game's store failing on its own)."""
    con = sqlite3.connect(db, timeout=5, isolation_level=None)
    try:
        con.execute(
            "CREATE TRIGGER refuse_games BEFORE INSERT ON games "
            "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )
        yield
        con.execute("DROP TRIGGER refuse_games")
    finally:
        con.close()


@pytest.mark.parametrize("kill", [False, True], ids=["kept-running", "killed"])
def test_a_finished_game_is_stored_once_the_database_takes_it(tmp_path: Path, kill: bool) -> None:
    db = tmp_path / "games.sqlite3"
    url = f"sqlite:///{db}"
    first = ServerProcess(url, log=tmp_path / "a.log", args=QUICK_STORE + NO_FLOOR).start()
    kept: dict[str, Any] = {}
    try:

        def finish_while_refused(
            c: Client, message: dict[str, Any], room: dict[str, Any]
        ) -> dict[str, Any]:
            kept.update(code=room["code"], token=room["token"])
            with refusing_games(db):
                # the finish is told (the room is saved with it) ...
                assert c.reply(message, "verdict")["ok"] is True
                # ... but the game is not announced while it cannot be stored
                with pytest.raises(TimeoutError):
                    c.wait(lambda m: m.get("kind") == "game_over", 1.2)
                if kill:
                    first.stop(kill=True)
                    return {}
            return c.wait(lambda m: m.get("kind") == "game_over")

        over = play_solo(first, "Solveig", last=finish_while_refused)
    finally:
        first.stop(kill=True)
    assert "trying again" in (tmp_path / "a.log").read_text()
    if kill:
        # the saved room holds the finished game: the next run stores and announces it
        second = ServerProcess(url, log=tmp_path / "b.log", args=QUICK_STORE + NO_FLOOR).start()
        try:
            c = Client(second)
            welcome = c.hello(kept["code"], kept["token"])
            assert welcome["room"]["phase"] == "over"
            if welcome["room"]["game_id"] is None:
                over = c.wait(lambda m: m.get("kind") == "game_over")
            else:
                over = {"data": {"game_id": welcome["room"]["game_id"]}}
            c.close()
            board = second.get("/api/leaderboard?edition=classic&goal=tasks&amount=5&side=A")
        finally:
            second.stop()
    else:
        second = ServerProcess(url, log=tmp_path / "b.log", args=NO_FLOOR).start()
        try:
            board = second.get("/api/leaderboard?edition=classic&goal=tasks&amount=5&side=A")
        finally:
            second.stop()
    assert over["data"]["game_id"] is not None
    assert [(r["name"], r["game_id"]) for r in board] == [("Solveig", over["data"]["game_id"])]


def test_a_run_faster_than_hands_is_stored_but_not_ranked(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    per_piece = 0.15
    server = ServerProcess(
        url,
        log=tmp_path / "a.log",
        args=("--record-seconds-per-piece", str(per_piece), "--no-require-traces"),
    ).start()
    try:
        bot = play_solo(server, "Robo")  # the solver's arrangement at once, every task
        human = play_solo(server, "Hana", think=per_piece + 0.05)
        assert bot["data"]["game_id"] is not None and human["data"]["game_id"] is not None
        board = server.get("/api/leaderboard?edition=classic&goal=tasks&amount=5&side=A")
        assert [r["name"] for r in board] == ["Hana"]
        assert server.get("/api/records?name=Robo") == []
        assert [r["name"] for r in server.get("/api/records?name=Hana")] == ["Hana"]
        # the bot's run is kept, marked
        assert server.get(f"/api/games/{bot['data']['game_id']}")["mode"] == "solo"
    finally:
        server.stop()
    store = Store(url)
    with store.database.session() as s:
        rows = s.execute(select(SoloRecordRow.name, SoloRecordRow.plausible)).all()
    store.close()
    assert sorted(tuple(r) for r in rows) == [("Hana", True), ("Robo", False)]


def test_rooms_an_older_version_saved_with_the_games_move_to_their_own_file(
    tmp_path: Path,
) -> None:
    """Before open rooms had a file of their own, they were saved in the games' file: after
    an upgrade they reopen all the same, and a move cut short (the rooms already copied) keeps
    the newer save."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = Store(url)
    store.migrate()
    old = {code: {"code": code, "seq": 1} for code in ("OLD1", "OLD2", "BOTH")}
    with store.database.engine.begin() as main:  # where the version before saved them
        main.execute(
            insert(OpenRoomRow),
            [{"code": c, "room": r, "saved_at": to_datetime(1.0)} for c, r in old.items()],
        )
    store.open_rooms.save({"BOTH": {"code": "BOTH", "seq": 2}}, [], saved_at=2.0)
    store.close()

    store = Store(url)
    store.migrate()  # at the next start
    try:
        assert sorted((r["code"], r["seq"]) for r in store.open_rooms.all()) == [
            ("BOTH", 2),
            ("OLD1", 1),
            ("OLD2", 1),
        ]
        with store.database.session() as s:
            assert s.scalars(select(OpenRoomRow.code)).all() == []
    finally:
        store.close()
    assert open_rooms_file(tmp_path / "games.sqlite3").exists()


def test_a_database_file_made_anew_reopens_no_rooms_of_the_one_before(tmp_path: Path) -> None:
    """An operator who deletes the database file to start over leaves the open rooms' file
    beside it: its rooms' seats named accounts of the file deleted, and are not reopened."""
    db = tmp_path / "games.sqlite3"
    store = Store(f"sqlite:///{db}")
    store.migrate()
    store.open_rooms.save({"GONE": {"code": "GONE", "seq": 1}}, [], saved_at=1.0)
    store.close()
    for file in tmp_path.glob("games.sqlite3*"):
        file.unlink()
    assert open_rooms_file(db).exists()
    store = Store(f"sqlite:///{db}")
    store.migrate()
    try:
        assert store.open_rooms.all() == []
    finally:
        store.close()
    store = Store(f"sqlite:///{db}")  # the next start on that file keeps what it saves
    store.migrate()
    store.open_rooms.save({"KEPT": {"code": "KEPT", "seq": 1}}, [], saved_at=2.0)
    store.close()
    store = Store(f"sqlite:///{db}")
    store.migrate()
    try:
        assert [r["code"] for r in store.open_rooms.all()] == ["KEPT"]
    finally:
        store.close()


def test_reopening_many_rooms_logs_a_short_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    store = Store(url)
    store.migrate()
    rooms = {}
    for i in range(60):
        code = f"R{i:04d}"
        rooms[code] = durable(Room(code, RoomSettings(), f"http://x/room/{code}"), seq=0)
    store.open_rooms.save(rooms, [], time.time())
    store.close()
    server = ServerProcess(url, log=tmp_path / "a.log").start()
    server.stop()
    log = (tmp_path / "a.log").read_text().splitlines()
    # the log is JSON lines: the message is the line's "event"
    lines = [json.loads(line)["event"] for line in log if "reopened" in line]
    assert len(lines) == 1 and "reopened 60 rooms" in lines[0] and "and 50 more" in lines[0]
    assert len(lines[0]) < 300, lines[0]


def test_a_held_room_is_saved_and_told_while_the_loops_threads_are_all_busy(
    tmp_path: Path,
) -> None:
    """Store, then answer, with the event loop's shared threads all taken (finished games
    waiting there for SQLite's one writer, at 1,000 players in an arena): the held room's
    save has a thread of its own, so its event is stored and told meanwhile. In the shared
    threads it queued behind them, and every verdict with it."""
    store = Store(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    store.migrate()

    async def scenario() -> list[int]:
        hub = SavedRoomsHub(store)
        hub.add("ROOM", Room("ROOM", RoomSettings(), "http://x/room/ROOM"))
        told: list[int] = []
        heard = asyncio.Event()

        def listener(event: Event) -> None:
            told.append(event.seq)
            heard.set()

        hub.subscribe("ROOM", listener)
        release = threading.Event()
        # more than any default pool has threads (at most 32)
        busy = [asyncio.ensure_future(asyncio.to_thread(release.wait)) for _ in range(40)]
        try:
            hub.hold("ROOM")
            hub.publish("ROOM", {"kind": "finished"})
            assert told == []  # held: told once saved
            await asyncio.wait_for(heard.wait(), timeout=20)
        finally:
            release.set()
            await asyncio.gather(*busy)
            await hub.stop()
        return told

    try:
        assert asyncio.run(scenario()) == [1]
        assert [r["code"] for r in store.open_rooms.all()] == ["ROOM"]
    finally:
        store.close()


def test_the_next_save_waits_behind_the_one_under_way_and_a_failed_one_overwrites_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A held room's next save is taken while the one before is still being written (it waits
    behind it in the saves' thread, not for it to come back to the event loop). When the one
    before fails, the next is stored and its events told; the failed one, tried again, writes
    the room as it is then, never the older form it was taken with."""
    store = Store(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    store.migrate()
    written: list[int] = []
    release = threading.Event()
    save = store.open_rooms.save

    def first_fails(rooms: dict[str, dict[str, Any]], closed: Any, at: float) -> None:
        written.append(rooms["ROOM"]["seq"])
        if len(written) == 1:
            release.wait(20)
            raise sqlite3.OperationalError("database is locked")
        save(rooms, closed, at)

    monkeypatch.setattr(store.open_rooms, "save", first_fails)

    async def scenario() -> list[int]:
        hub = SavedRoomsHub(store, retry=Backoff(0.05, 0.05))
        hub.add("ROOM", Room("ROOM", RoomSettings(), "http://x/room/ROOM"))
        told: list[int] = []
        both = asyncio.Event()

        def listener(event: Event) -> None:
            told.append(event.seq)
            if len(told) == 2:
                both.set()

        hub.subscribe("ROOM", listener)
        try:
            hub.hold("ROOM")
            hub.publish("ROOM", {"kind": "finished"})
            await eventually_async(lambda: written == [1], "the first save under way")
            hub.hold("ROOM")
            hub.publish("ROOM", {"kind": "finished"})
            # the second save taken while the first is still in the saves' thread
            await eventually_async(lambda: len(hub._writing) == 2, "the next save taken")
            release.set()
            await asyncio.wait_for(both.wait(), timeout=20)
            await eventually_async(lambda: len(written) == 3, "the failed save tried again")
        finally:
            release.set()
            await hub.stop()
        return told

    try:
        assert asyncio.run(scenario()) == [1, 2]
        # the first save (seq 1) failed, the second wrote seq 2, the first's retry seq 2 again
        assert written == [1, 2, 2]
        assert [r["seq"] for r in store.open_rooms.all()] == [2]
    finally:
        store.close()


def test_a_held_rooms_save_is_not_put_off_by_the_rooms_held_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A held room is saved at the next turn of the event loop, however many rooms the turns
    after it hold. A busy loop holds a room in nearly every turn (a player's finish, a bot's
    move), and the save due used to be put off by each: re-armed for the turn after, again and
    again, while every held verdict waited (up to 190 ms in bench/arena.py)."""
    store = Store(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    store.migrate()
    writes: list[set[str]] = []
    save = store.open_rooms.save

    def recorded(rooms: dict[str, dict[str, Any]], closed: Any, at: float) -> None:
        writes.append(set(rooms))
        save(rooms, closed, at)

    monkeypatch.setattr(store.open_rooms, "save", recorded)
    others = [f"R{n:02}" for n in range(50)]

    async def scenario() -> None:
        hub = SavedRoomsHub(store)
        for code in ["ROOM", *others]:
            hub.add(code, Room(code, RoomSettings(), f"http://x/room/{code}"))
        loop = asyncio.get_running_loop()
        turns = iter(others)

        def a_turn_that_holds_a_room() -> None:
            # the next turn's call is queued before this hold, as a handler's next message is
            # (a room held in every turn, each before the save due runs)
            code = next(turns, None)
            if code is not None:
                loop.call_soon(a_turn_that_holds_a_room)
                hub.hold(code)

        try:
            loop.call_soon(a_turn_that_holds_a_room)
            hub.hold("ROOM")
            await eventually_async(
                lambda: set().union(*writes) >= {"ROOM", *others}, "every held room saved"
            )
        finally:
            await hub.stop()

    try:
        asyncio.run(scenario())
        # taken at the next turn, with the one room held in that turn before it
        assert writes[0] == {"ROOM", "R00"}
    finally:
        store.close()
