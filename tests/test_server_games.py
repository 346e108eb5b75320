"""Whole games over real WebSockets against a real ``ubongo serve`` process (SQLite file).

People are simulated by test clients that solve their task with the solver; bots play on the
server. Timers are short (a 2 s hourglass, a 1 s countdown) so the suite stays quick.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import (
    Client,
    ServerProcess,
    race_to_the_end,
    replayed,
    server_in,
    solution,
)
from waiting import eventually

FAST: dict[str, dict[str, Any]] = {
    "classic": {"hourglass_seconds": 2.0},
    "3d": {"hourglass_seconds": 2.0, "side": "green"},
    "extreme": {"countdown_seconds": 1.0, "side": "B"},
    "trigo": {"countdown_seconds": 1.0},
}


ROUND_OR_END = ("round_started", "playoff", "game_over")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from server_in(tmp_path_factory.mktemp("server"))


#: (room code, seat) -> token, as a browser keeps them
TOKENS: dict[tuple[str, int | None], str] = {}


def seated(server: ServerProcess, names: list[str], **settings: Any) -> list[Client]:
    """A room with these people seated and connected; the first is the host."""
    created = server.create_room(names[0], **settings)
    code = created["code"]
    tokens = [created["token"]]
    for name in names[1:]:
        tokens.append(server.take_seat(code, name)["token"])
    clients = []
    for token in tokens:
        c = Client(server)
        assert c.hello(code, token)["type"] == "welcome"
        TOKENS[(code, c.seat)] = token
        clients.append(c)
    return clients


def play_round(c: Client, edition: str, game: dict[str, Any]) -> dict[str, Any]:
    task = game["tasks"][str(c.seat)]
    return c.reply(
        {"type": "submit", "round": game["round"], "placements": solution(task, edition)},
        "verdict",
    )


@pytest.mark.parametrize("edition", ["classic", "3d", "extreme", "trigo"])
def test_a_whole_game_with_two_people_and_a_bot(server: ServerProcess, edition: str) -> None:
    ada, bob = seated(
        server,
        ["Ada", "Bob"],
        edition=edition,
        rounds=2,
        between_seconds=0.2,
        seed=7,
        **FAST[edition],
    )
    code = ada.room["code"] if ada.room else ""
    assert ada.reply({"type": "add_bot", "level": "hard"}, "bot_added")["kind"] == "bot_added"
    assert bob.reply({"type": "ready"}, "ready")["kind"] == "ready"
    ada.send({"type": "start"})
    rounds_played = 0
    while True:
        ev = ada.wait(
            lambda m: (
                m["type"] == "event" and m["kind"] in ("round_started", "playoff", "game_over")
            ),
            30,
        )
        if ev["kind"] == "game_over":
            break
        game = ev["room"]["game"]
        assert game["stage"] in ("playing", "playoff")
        deadline_left = game["deadline"] - time.time() * 1000 if game["deadline"] else None
        # the hourglass (2 s), or in card editions the round limit until someone finishes
        limit = 2500 if edition in ("classic", "3d") else 300_500
        assert deadline_left is None or 0 < deadline_left <= limit
        mine = game["tasks"].get("0")
        if mine is None:  # a tie-break round without Ada
            continue
        rounds_played += 1
        # a wrong arrangement: the reason comes back and Ada plays on
        wrong = solution(mine, edition)[:-1]
        verdict = ada.reply(
            {"type": "submit", "round": game["round"], "placements": wrong}, "verdict"
        )
        assert verdict["ok"] is False and verdict["code"] == "missing_piece"
        assert "not placed" in verdict["reason"]
        verdict = play_round(ada, edition, game)
        assert verdict["ok"] is True, verdict
        if "1" in game["tasks"]:

            def this_round_started(m: dict[str, Any], r: int = game["round"]) -> bool:
                return (
                    m["type"] == "event"
                    and m["kind"] in ("round_started", "playoff")
                    and m["data"]["round"] == r
                )

            bob_ev = bob.wait(this_round_started)
            assert bob_ev["room"]["game"]["round"] == game["round"]
            later = play_round(bob, edition, game)
            if later["type"] == "verdict":
                # receive order decides the finish order: Ada's came first
                assert later["received_at"] >= verdict["received_at"]
            if later.get("ok"):
                # the room as of Bob's finish (a later one may be the next round's already)
                finish = bob.wait(bobs_finish(game["round"]))
                places = {f["seat"]: f["place"] for f in finish["room"]["game"]["finished"]}
                assert places[0] < places[1]
            else:  # Ada's finish (or the bot's) ended the round, or the countdown ran out
                assert later["code"] in (
                    "too_late",
                    "already_finished",
                    "wrong_phase",
                    "stale_round",
                )
    assert rounds_played >= 2
    over = ev["data"]
    assert over["game_id"] is not None
    stored = server.get(f"/api/games/{over['game_id']}")
    assert stored["room"] == code and stored["edition"] == edition
    kinds = [p["kind"] for p in stored["players"]]
    assert kinds == ["person", "person", "bot"]
    # the stored game replays to the same result
    game = replayed(stored)
    assert game.phase == "over"
    assert [int(w) for w in game.winners] == over["winners"]
    assert {k: v for k, v in game.scores().items()} == over["scores"]
    # the bot took part through the same submission path (with the seed fixed, its times are
    # fixed: well inside the 2 s hourglass; in card editions it races the 1 s countdown)
    bot_submits = [a for a in stored["events"] if a["type"] == "submit" and a["player"] == "2"]
    if edition in ("classic", "3d"):
        assert bot_submits
    assert all(
        e["data"]["tasks"].get("2")
        for e in stored["result"]["events"]
        if e["kind"] == "round_started" and e["data"]["kind"] == "round"
    )
    for c in (ada, bob):
        c.close()


def bobs_finish(round_no: int) -> Callable[[dict[str, Any]], bool]:
    """Matches the event of seat 1's finish in round ``round_no``."""

    def match(m: dict[str, Any]) -> bool:
        return bool(
            m["type"] == "event"
            and m["kind"] == "finished"
            and m["data"]["seat"] == 1
            and m["data"]["round"] == round_no
        )

    return match


def test_reconnect_mid_round_gets_the_missed_events_and_plays_on(server: ServerProcess) -> None:
    ada, bob = seated(server, ["Ada", "Bob"], edition="classic", hourglass_seconds=20, rounds=1)
    code = ada.room["code"] if ada.room else ""
    bob.reply({"type": "ready"}, "ready")
    ada.send({"type": "start"})
    started = ada.event("round_started")
    bob.event("round_started")
    game = started["room"]["game"]
    last_seq = ada.seq
    token = TOKENS[(code, 0)]
    ada.close()  # the network drops
    bob.wait(lambda m: m.get("kind") == "connection" and not m["data"]["connected"])
    assert play_round(bob, "classic", game)["ok"]
    # Ada comes back with the last number she saw
    back = Client(server)
    back.seq = last_seq
    welcome = back.hello(code, token, last_seq=last_seq)
    assert welcome["resumed"] is True and welcome["seat"] == 0
    missed = [back.recv(5) for _ in range(welcome["seq"] - last_seq)]
    assert [m["seq"] for m in missed] == list(range(last_seq + 1, welcome["seq"] + 1))
    assert "finished" in [m["kind"] for m in missed]
    # the same round goes on: Ada finishes second
    verdict = play_round(back, "classic", game)
    assert verdict["ok"], verdict
    end = back.event("round_ended")
    assert end["data"]["finish_order"] == [1, 0]
    # a client without last_seq (or with a number from elsewhere) gets the full snapshot
    fresh = Client(server)
    w = fresh.hello(code, token, last_seq=10_000)
    assert w["resumed"] is False and w["room"]["code"] == code
    for c in (bob, back, fresh):
        c.close()


def test_a_seat_token_used_by_someone_else(server: ServerProcess) -> None:
    (ada,) = seated(server, ["Ada"], edition="classic")
    code = ada.room["code"] if ada.room else ""
    other = server.create_room("Eve")
    # a made-up token, and a token of another room, hold no seat here
    for token in ("not-a-real-token-at-all", other["token"]):
        stranger = Client(server)
        err = stranger.hello(code, token)
        assert err["type"] == "error" and err["code"] == "bad_token"
        # refused: the connection has no seat and cannot act
        assert stranger.reply({"type": "add_bot"}, "error")["code"] == "not_joined"
        stranger.close()
    # a spectator sees the room but cannot act
    watcher = Client(server)
    assert watcher.hello(code, spectate=True)["seat"] is None
    assert watcher.reply({"type": "add_bot"}, "error")["code"] == "spectator"
    # the same token on a second device: the newer connection holds the seat, the older closes
    twin = Client(server)
    assert twin.hello(code, TOKENS[(code, 0)])["seat"] == 0
    with pytest.raises(Exception):  # noqa: B017 - closed by the server (code 4001)
        while True:
            ada.recv(5)
    assert ada.ws.close_code == 4001
    # a person who is not the host cannot start
    bob_seat = server.take_seat(code, "Bob")
    bob = Client(server)
    bob.hello(code, bob_seat["token"])
    assert bob.reply({"type": "start"}, "error")["code"] == "not_host"
    for c in (watcher, twin, bob):
        c.close()


def test_every_kind_of_bad_message_changes_nothing(server: ServerProcess) -> None:
    (ada,) = seated(server, ["Ada"], edition="extreme")
    code = ada.room["code"] if ada.room else ""
    before = server.get(f"/api/rooms/{code}")
    seq = ada.seq
    bad: list[tuple[str | bytes, str]] = [
        ("garbage", "bad_json"),
        ("[]", "bad_json"),
        ('{"type": "fly"}', "unknown_type"),
        ('{"type": "add_bot", "level": "superhuman"}', "bad_message"),
        ('{"type": "ready", "extra": 1}', "bad_message"),
        (json.dumps({"type": "ping", "id": 1, "t": 0, "x": "y" * 20000}), "too_large"),
        ('{"type": "hello", "room": "ZZZZZ", "spectate": true}', "already_joined"),
        ('{"type": "submit", "round": 1, "placements": []}', "wrong_phase"),
        ('{"type": "skip", "round": 1}', "wrong_phase"),
        ('{"type": "rematch"}', "wrong_phase"),
        ('{"type": "remove_bot", "seat": 2}', "no_such_seat"),
        ('{"type": "start"}', "bad_seats"),  # Extreme needs 2 players
        ('{"type": "choose_side", "side": "red"}', "bad_setting"),
        ('{"type": "settings", "settings": {"side": "Q"}}', "bad_setting"),
        ('{"type": "settings", "settings": {"hourglass_seconds": 5}}', "bad_setting"),
    ]
    for raw, code_expected in bad:
        ada.send(raw)  # type: ignore[arg-type]
        err = ada.wait(lambda m: m["type"] == "error", 5)
        assert err["code"] == code_expected, (raw, err)
    ada.ws.send(b"\x00\x01binary")
    assert ada.wait(lambda m: m["type"] == "error", 5)["code"] == "bad_json"
    # nothing changed: no event, the same room
    assert ada.seq == seq
    assert server.get(f"/api/rooms/{code}") == before
    # before hello, a connection can only ping
    fresh = Client(server)
    assert fresh.reply({"type": "ready"}, "error")["code"] == "not_joined"
    assert fresh.reply({"type": "ping", "id": 3, "t": 1.5}, "pong")["id"] == 3
    # a flood is cut to the rate limit and the connection stays usable
    for i in range(100):
        fresh.send({"type": "ping", "id": i, "t": 0})
    answers = [fresh.wait(lambda m: m["type"] in ("pong", "error"), 5) for _ in range(100)]
    limited = [a for a in answers if a["type"] == "error"]
    assert limited and all(a["code"] == "rate_limited" for a in limited)
    assert len(limited) >= 100 - 45
    # the limit refills: a ping is answered again (asked ten times a second, under the limit)
    eventually(
        lambda: fresh.reply({"type": "ping", "id": 999, "t": 0}, "pong").get("id") == 999,
        "a ping answered after the flood",
        every=0.1,
    )
    # a frame over the transport limit closes that connection only
    huge = Client(server)
    huge.ws.send("x" * (2 << 20))
    with pytest.raises(Exception):  # noqa: B017 - closed with 1009
        huge.recv(5)
    assert server.get("/api/health")["ok"] is True
    fresh.close()
    ada.close()


def test_players_hear_spectators_come_and_go(server: ServerProcess) -> None:
    ada, bob = seated(server, ["Ada", "Bob"], edition="classic")
    code = ada.room["code"] if ada.room else ""

    def watching(c: Client) -> dict[str, Any]:
        return c.event("spectators", 5)

    first = Client(server)
    welcome = first.hello(code, spectate=True)
    # the newcomer's own arrival is in its welcome (snapshot and seq), not an event to it
    assert welcome["room"]["spectators"] == 1
    for player in (ada, bob):
        ev = watching(player)
        # the count alone, not the whole room again for every arrival
        assert ev["data"] == {"count": 1} and "room" not in ev
        assert player.room is not None and player.room["spectators"] == 1
    second = Client(server)
    second.hello(code, spectate=True)
    assert watching(first)["data"] == {"count": 2}
    for player in (ada, bob):
        assert watching(player)["data"] == {"count": 2}
    first.close()
    seen = watching(second)
    if seen["data"] == {"count": 2}:  # its own arrival, sent late (presence events coalesce)
        seen = watching(second)
    assert seen["data"] == {"count": 1}
    for player in (ada, bob):
        assert watching(player)["data"] == {"count": 1}
    # a player who was away gets the count they missed with the other missed events
    token = TOKENS[(code, 0)]
    last_seq = ada.seq
    ada.close()
    bob.wait(lambda m: m.get("kind") == "connection" and not m["data"]["connected"])
    second.close()
    assert watching(bob)["data"] == {"count": 0}
    back = Client(server)
    back.seq = last_seq
    welcome = back.hello(code, token, last_seq=last_seq)
    assert welcome["resumed"] is True
    missed = [back.recv(5) for _ in range(welcome["seq"] - last_seq)]
    counts = [m["data"]["count"] for m in missed if m["kind"] == "spectators"]
    assert counts == [0]
    assert server.get(f"/api/rooms/{code}")["spectators"] == 0
    for c in (back, bob):
        c.close()


def test_a_person_gone_for_good_is_replaced_by_a_bot(server: ServerProcess) -> None:
    ada, bob = seated(
        server,
        ["Ada", "Bob"],
        edition="classic",
        hourglass_seconds=8,
        rounds=2,
        seat_hold_seconds=5,  # the least the protocol allows
        between_seconds=0.2,
    )
    bob.reply({"type": "ready"}, "ready")
    ada.send({"type": "start"})
    ada.event("round_started")
    bob.close()
    held = ada.wait(lambda m: m.get("kind") == "connection" and not m["data"]["connected"])
    assert held["data"] == {"seat": 1, "connected": False, "held_until": held["data"]["held_until"]}
    assert held["data"]["held_until"] > held["at"]
    replaced = ada.event("replaced_by_bot", 15)
    assert replaced["data"]["seat"] == 1
    assert replaced["room"]["seats"][1]["kind"] == "bot"
    # the game still ends: the bot plays Bob's seat
    over = ada.event("game_over", 30)
    stored = server.get(f"/api/games/{over['data']['game_id']}")
    assert stored["players"][1]["kind"] == "bot"
    # Bob's old token no longer works
    back = Client(server)
    assert back.hello(ada.room["code"], TOKENS[(ada.room["code"], 1)])["code"] == "bad_token"  # type: ignore[index]
    back.close()
    ada.close()


def test_rematch_returns_to_the_lobby_with_the_same_seats(server: ServerProcess) -> None:
    (ada,) = seated(server, ["Ada"], edition="classic", hourglass_seconds=1, rounds=1)
    ada.reply({"type": "add_bot", "level": "easy"}, "bot_added")
    ada.send({"type": "start"})
    # played to its end, a playoff too (a tie on points is played off, and waits for Ada: a
    # run that only waited for game_over timed out once)
    race_to_the_end(ada, ada.event("round_started", 30)["room"]["game"], "classic")
    ev = ada.reply({"type": "rematch"}, "rematch")
    assert ev["kind"] == "rematch"
    room = ev["room"]
    assert room["phase"] == "lobby" and room["game"] is None
    assert [s and s["kind"] for s in room["seats"]] == ["person", "bot", None, None]
    ada.close()


def test_solo_record_survives_a_killed_server(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'solo.sqlite3'}"
    # a machine plays here: no plausibility floor (tests/test_server_durable.py has one)
    srv = ServerProcess(
        url, log=tmp_path / "a.log", args=("--record-seconds-per-piece", "0", "--no-require-traces")
    ).start()
    try:
        room = srv.create_room(
            "Solveig", edition="extreme", mode="solo", solo_goal="tasks", solo_amount=5
        )
        c = Client(srv)
        c.hello(room["code"], room["token"])
        c.send({"type": "start"})
        game = c.event("round_started")["room"]["game"]
        # put the first task aside, then solve five (the smallest amount the edition offers)
        assert (
            c.reply({"type": "skip", "round": game["round"]}, "task_skipped")["kind"]
            == "task_skipped"
        )
        game = c.event("task_drawn")["room"]["game"]
        for _ in range(5):
            verdict = play_round(c, "extreme", game)
            assert verdict["ok"], verdict
            nxt = c.wait(
                lambda m: m["type"] == "event" and m["kind"] in ("task_drawn", "game_over")
            )
            game = nxt["room"]["game"]
        assert nxt["kind"] == "game_over"
        record = nxt["data"]["record"]
        assert record["solved"] == 5 and record["skipped"] == 1 and record["complete"]
        c.close()
    finally:
        srv.stop(kill=True)  # no clean shutdown: what was announced must be on disk
    srv = ServerProcess(url, log=tmp_path / "b.log").start()
    try:
        board = srv.get("/api/leaderboard?edition=extreme&goal=tasks&amount=5&side=A")
        assert [(r["name"], r["score"]) for r in board] == [("Solveig", 5)]
        assert board[0]["seconds"] == pytest.approx(record["seconds"])
        bests = srv.get("/api/records?name=Solveig")
        assert len(bests) == 1 and bests[0]["runs"] == 1
        stored = srv.get(f"/api/games/{board[0]['game_id']}")
        assert stored["mode"] == "solo" and stored["result"]["record"]["solved"] == 5
    finally:
        srv.stop()


@pytest.mark.parametrize("goal", ["tasks", "time"])
def test_a_run_stopped_after_one_quick_task_is_not_ranked(tmp_path: Path, goal: str) -> None:
    """A script solves one task in a flash and stops: shown to it, stored with the game, but
    not on the leaderboard (ordered by time, it would top a board of whole runs)."""
    srv = ServerProcess(
        f"sqlite:///{tmp_path / 'stop.sqlite3'}",
        log=tmp_path / "s.log",
        args=("--record-seconds-per-piece", "0", "--no-require-traces"),
    ).start()
    try:
        room = srv.create_room("Quitter", edition="classic", mode="solo", solo_goal=goal)
        c = Client(srv)
        c.hello(room["code"], room["token"])
        c.send({"type": "start"})
        started = c.event("round_started")["room"]
        amount, game = started["settings"]["solo_amount"], started["game"]
        assert play_round(c, "classic", game)["ok"]
        game = c.event("task_drawn")["room"]["game"]
        c.send({"type": "stop", "round": game["round"]})
        over = c.event("game_over")
        assert over["data"]["record"]["solved"] == 1 and not over["data"]["record"]["complete"]
        c.close()
        board = srv.get(f"/api/leaderboard?edition=classic&goal={goal}&amount={amount}&side=A")
        assert board == []
        assert srv.get(f"/api/games/{over['data']['game_id']}")["result"]["record"]["solved"] == 1
    finally:
        srv.stop()


def test_http_routes(server: ServerProcess) -> None:
    assert server.get("/api/editions") == ["classic", "3d", "extreme", "trigo"]
    opts = server.get("/api/options")
    assert opts["3d"]["per_player_side"] is True and opts["extreme"]["variants"][1] == "only-first"
    status, err = server.post("/api/rooms/NOPE9/seats", {"name": "X"})
    assert status == 404 and err["error"]["code"] == "no_room"
    status, err = server.post("/api/rooms", {"name": "", "settings": {}})
    assert status == 422
    status, err = server.post(
        "/api/rooms", {"name": "A", "settings": {"edition": "trigo", "hourglass_seconds": 30}}
    )
    assert status == 422 and err["error"]["code"] == "bad_setting"
    solo = server.create_room("S", mode="solo")
    status, err = server.post(f"/api/rooms/{solo['code']}/seats", {"name": "T"})
    assert status == 409 and err["error"]["code"] == "room_full"
    # the web client (or the page saying how to build it) is served at / and at invite links
    with urllib.request.urlopen(server.url + "/room/ABCDE") as r:
        assert r.status == 200 and b"<" in r.read(200)
