"""Several ``ubongo serve`` processes sharing rooms through a real Redis (docs/server.md).

The set-up starts Debian's ``redis-server`` on a free port (nothing saved to disk) and three
server processes on their own ports, all on the same Redis and the same SQLite file, as
behind a load balancer without sticky sessions: every client below picks its process.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from redis import Redis
from server_harness import (
    Client,
    RedisProcess,
    ServerProcess,
    metric,
    replayed,
    scrape,
    solution,
)
from test_social import Notices, account, challenge, follow, online
from waiting import eventually


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cluster")


@pytest.fixture(scope="module")
def redis(folder: Path) -> Iterator[RedisProcess]:
    server = RedisProcess(folder).start()  # raises (the suite fails) if it cannot start
    yield server
    server.stop()


def serve(folder: Path, redis: RedisProcess, name: str) -> ServerProcess:
    db = f"sqlite:///{folder / 'games.sqlite3'}"
    return ServerProcess(db, log=folder / f"{name}.log", redis_url=redis.url).start()


@pytest.fixture(scope="module")
def cluster(folder: Path, redis: RedisProcess) -> Iterator[list[ServerProcess]]:
    servers = [serve(folder, redis, name) for name in ("a", "b", "c")]
    yield servers
    for s in servers:
        s.stop()
    for name in ("a", "b", "c"):
        log = (folder / f"{name}.log").read_text()
        assert "Traceback" not in log, f"server {name} logged a crash:\n{log}"


def drain(c: Client, quiet: float = 0.3) -> None:
    """Read whatever has arrived (kept in ``inbox``) until ``quiet`` seconds pass."""
    try:
        while True:
            c.inbox.append(c.recv(quiet))
    except TimeoutError:
        pass


def connect(server: ServerProcess, code: str, token: str | None = None, **extra: Any) -> Client:
    c = Client(server)
    if token is None:
        welcome = c.hello(code, spectate=True, **extra)
    else:
        welcome = c.hello(code, token, **extra)
    assert welcome["type"] == "welcome", welcome
    return c


def play_to_the_end(players: list[Client], timeout: float = 60) -> dict[str, Any]:
    """Each client solves its task in every round it is in; the ``game_over`` event."""
    host = players[0]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ev = host.wait(
            lambda m: (
                m["type"] == "event" and m["kind"] in ("round_started", "playoff", "game_over")
            ),
            30,
        )
        if ev["kind"] == "game_over":
            return ev
        game = ev["room"]["game"]
        for c in players:
            task = game["tasks"].get(str(c.seat))
            if task is None:
                continue
            verdict = c.reply(
                {
                    "type": "submit",
                    "round": game["round"],
                    "placements": solution(task, "classic"),
                },
                "verdict",
            )
            # the bot or the hourglass may have ended the round (or the game) first
            late = ("too_late", "stale_round", "wrong_phase")
            if verdict["type"] == "error":
                assert verdict["code"] in late, verdict
            else:
                assert verdict["ok"] or verdict["code"] in late, verdict
    raise TimeoutError("the game did not end")


def test_people_on_two_processes_play_one_room_with_a_bot_and_a_spectator_on_a_third(
    cluster: list[ServerProcess],
) -> None:
    a, b, c = cluster
    created = a.create_room(
        "Ada", edition="classic", hourglass_seconds=2.0, rounds=2, between_seconds=0.2, seed=11
    )
    code = created["code"]
    # HTTP on a process that does not run the room, as Bob's account (made on a third)
    status, bob_account = c.post("/api/accounts", {"name": "Bob"})
    assert status == 201
    bob_seat = b.take_seat(code, "Bob", account=bob_account["token"])
    assert bob_seat["seat"] == 1 and bob_seat["code"] == code
    # b timed that request to the owner through Redis (its /metrics)
    assert (metric(scrape(b.url), "ubongo_redis_seconds_count") or 0) >= 1
    ada = connect(a, code, created["token"])
    bob = connect(b, code, bob_seat["token"])
    watcher = connect(c, code)
    assert watcher.seat is None and bob.seat == 1
    assert ada.reply({"type": "add_bot", "level": "hard"}, "bot_added")["kind"] == "bot_added"
    # Bob's "ready" goes from b to the owner; everyone hears it, in order
    assert bob.reply({"type": "ready"}, "ready")["data"] == {"seat": 1, "ready": True}
    # the snapshot over HTTP is the same on every process
    views = [s.get(f"/api/rooms/{code}") for s in cluster]
    assert all(v["seats"][1]["ready"] for v in views) and views[0] == views[1] == views[2]
    # a ping from b is answered by the room's clock
    pong = bob.reply({"type": "ping", "id": 1, "t": 5.0}, "pong")
    assert pong["id"] == 1 and abs(pong["server_time"] - time.time() * 1000) < 5000
    ada.send({"type": "start"})
    # a wrong arrangement from b gets its reason back, and Bob plays on
    started = bob.event("round_started")
    game = started["room"]["game"]
    wrong = solution(game["tasks"]["1"], "classic")[:-1]
    verdict = bob.reply({"type": "submit", "round": game["round"], "placements": wrong}, "verdict")
    assert verdict["ok"] is False and verdict["code"] == "missing_piece"
    bob.inbox.insert(0, started)
    over = play_to_the_end([ada, bob])
    bob_over = bob.event("game_over")
    watched_over = watcher.event("game_over")
    # the three processes delivered the same numbered events (Client checks there is no gap)
    assert over["seq"] == bob_over["seq"] == watched_over["seq"]
    kinds = [e["kind"] for e in watcher.events]
    assert kinds == [e["kind"] for e in bob.events[-len(kinds) :]]
    assert "finished" in kinds and kinds.count("round_started") >= 2
    stored = c.get(f"/api/games/{over['data']['game_id']}")
    assert [p["name"] for p in stored["players"]] == ["Ada", "Bob", "Bot 3 (hard)"]
    assert [p["account"] for p in stored["players"]] == [None, bob_account["id"], None]
    assert any(e["type"] == "submit" and e["player"] == "1" for e in stored["events"])
    assert [int(w) for w in replayed(stored).winners] == over["data"]["winners"]
    for client in (ada, bob, watcher):
        client.close()


def test_reconnect_to_another_process_resumes_with_the_missed_events(
    cluster: list[ServerProcess],
) -> None:
    a, b, c = cluster
    created = b.create_room("Ada", edition="classic", hourglass_seconds=20, rounds=1)
    code = created["code"]
    bob_token = a.take_seat(code, "Bob")["token"]
    ada = connect(a, code, created["token"])
    bob = connect(c, code, bob_token)
    bob.reply({"type": "ready"}, "ready")
    ada.send({"type": "start"})
    game = ada.event("round_started")["room"]["game"]
    bob.event("round_started")
    last_seq = ada.seq
    ada.close()  # Ada's network drops (she was on a)
    bob.wait(lambda m: m.get("kind") == "connection" and not m["data"]["connected"])
    bob_task = game["tasks"]["1"]
    done = bob.reply(
        {"type": "submit", "round": game["round"], "placements": solution(bob_task, "classic")},
        "verdict",
    )
    assert done["ok"], done
    # Ada comes back through c (where the room is not run either) with the last number seen
    back = Client(c)
    back.seq = last_seq
    welcome = back.hello(code, created["token"], last_seq=last_seq)
    assert welcome["resumed"] is True and welcome["seat"] == 0
    missed = [back.recv(5) for _ in range(welcome["seq"] - last_seq)]
    assert [m["seq"] for m in missed] == list(range(last_seq + 1, welcome["seq"] + 1))
    assert "finished" in [m["kind"] for m in missed]
    verdict = back.reply(
        {
            "type": "submit",
            "round": game["round"],
            "placements": solution(game["tasks"]["0"], "classic"),
        },
        "verdict",
    )
    assert verdict["ok"], verdict
    assert back.event("round_ended")["data"]["finish_order"] == [1, 0]
    # a number the room never gave out: the full snapshot instead
    fresh = Client(a)
    w = fresh.hello(code, created["token"], last_seq=10_000)
    assert w["resumed"] is False and w["room"]["code"] == code
    # the older connection with the same token (on c) is closed by the owner, across processes
    with pytest.raises(Exception):  # noqa: B017 - closed by the server (code 4001)
        while True:
            back.recv(5)
    assert back.ws.close_code == 4001
    for client in (bob, fresh):
        client.close()


def test_a_bad_message_forwarded_to_the_owner_gets_its_error_and_changes_nothing(
    cluster: list[ServerProcess],
) -> None:
    a, b, _c = cluster
    created = a.create_room("Ada", edition="classic")
    code = created["code"]
    bob = connect(b, code, b.take_seat(code, "Bob")["token"])
    before = a.get(f"/api/rooms/{code}")
    seq = bob.seq
    bad: list[tuple[dict[str, Any] | str, str]] = [
        ("{not json", "bad_json"),
        ({"type": "dance"}, "unknown_type"),
        ({"type": "ready", "ready": "very"}, "bad_message"),
        ({"type": "add_bot", "level": "hard"}, "not_host"),
        ({"type": "start"}, "not_host"),
        ({"type": "submit", "round": 1, "placements": []}, "wrong_phase"),
        ({"type": "remove_bot", "seat": 3}, "not_host"),
        ({"type": "hello", "room": code, "spectate": True}, "already_joined"),
        ("x" * 20_000, "too_large"),
    ]
    for message, code_expected in bad:
        err = bob.reply(message, "error")
        assert err["type"] == "error" and err["code"] == code_expected, (message, err)
    # nothing changed: no event, the same room on every process
    drain(bob)
    assert bob.seq == seq and not [m for m in bob.inbox if m["type"] == "event"]
    assert b.get(f"/api/rooms/{code}") == before == a.get(f"/api/rooms/{code}")
    # unknown rooms and tokens are refused wherever the hello lands
    stranger = Client(b)
    assert stranger.hello("ZZZZZ", "not-a-real-token-at-all")["code"] == "no_room"
    assert stranger.hello(code, "not-a-token-of-this-room")["code"] == "bad_token"
    assert stranger.reply({"type": "ready"}, "error")["code"] == "not_joined"
    status, body = b.post("/api/rooms/ZZZZZ/seats", {"name": "Eve"})
    assert status == 404 and body["error"]["code"] == "no_room"
    for client in (bob, stranger):
        client.close()


def test_the_game_goes_on_when_its_process_is_killed(
    folder: Path, redis: RedisProcess, cluster: list[ServerProcess]
) -> None:
    _a, b, c = cluster
    owner = serve(folder, redis, "owner")
    try:
        created = owner.create_room(
            "Ada", edition="classic", hourglass_seconds=2.0, rounds=3, between_seconds=0.3, seed=5
        )
        code = created["code"]
        bob = connect(b, code, owner.take_seat(code, "Bob")["token"])
        watcher = connect(c, code)
        ada = connect(owner, code, created["token"])
        ada.reply({"type": "add_bot", "level": "medium"}, "bot_added")
        bob.reply({"type": "ready"}, "ready")
        ada.send({"type": "start"})
        first = bob.event("round_started")
        seed_round = first["room"]["game"]["round"]
        drain(ada)
        ada_seq = ada.seq
        owner.stop(kill=True)  # SIGKILL: no goodbye, the lease is still held
    finally:
        owner.stop()
    # Bob's "Ubongo!" right after the kill is kept by b and reaches the new owner
    task = first["room"]["game"]["tasks"]["1"]
    verdict = bob.reply(
        {"type": "submit", "round": seed_round, "placements": solution(task, "classic")},
        "verdict",
    )
    # answered by the new owner: covered, or (the takeover outlasting a loaded machine's 2 s
    # hourglass and its second chance) too late for that round, or the next round already on
    late = verdict["type"] == "error" and verdict["code"] == "stale_round"
    assert late or (
        verdict["type"] == "verdict" and (verdict["ok"] or verdict["code"] == "too_late")
    ), verdict
    # Ada's browser reconnects through b; Bob (b) and the spectator (c) stay connected and are
    # attached to the new owner, with the events they missed
    back = Client(b)
    back.seq = ada_seq
    welcome = back.hello(code, created["token"], last_seq=ada_seq)
    assert welcome["type"] == "welcome" and welcome["seat"] == 0, welcome
    assert welcome["room"]["phase"] == "playing"
    assert welcome["room"]["game"]["round"] >= seed_round
    if welcome["resumed"]:
        for _ in range(welcome["seq"] - ada_seq):
            back.recv(5)
    over = play_to_the_end([back, bob])
    for client in (bob, watcher):
        got = client.event("game_over")
        assert got["seq"] == over["seq"]
        # still on the same connection: attached to the new owner, told so by a welcome that
        # resumed where it was (Client checks that no event number was skipped)
        rewelcome = [m for m in client.inbox if m["type"] == "welcome"]
        assert rewelcome and all(m["resumed"] for m in rewelcome), rewelcome
    logs = "".join((folder / f"{n}.log").read_text() for n in ("a", "b", "c"))
    assert f"took over room {code}" in logs
    assert over["data"]["game_id"] is not None
    stored = b.get(f"/api/games/{over['data']['game_id']}")
    # one game from the first action to the last: the actions taken before the kill are in it
    game = replayed(stored)
    assert game.phase == "over" and stored["seed"] == 5
    assert sum(1 for a in stored["events"] if a["type"] == "start_round") >= 3
    bot_submits = [a for a in stored["events"] if a["type"] == "submit" and a["player"] == "2"]
    assert bot_submits  # the bot was re-armed by the new owner
    for client in (back, bob, watcher):
        client.close()


def rooms_at_once(server: ServerProcess, n: int) -> list[int]:
    """The statuses of ``n`` rooms asked of ``server`` at the same time: each request takes
    a connection of the process's Redis pool, so the pool holds at least ``n`` of them."""
    with ThreadPoolExecutor(n) as pool:
        asked = pool.map(
            lambda i: server.post("/api/rooms", {"name": f"P{i}", "settings": {}}), range(n)
        )
        return [status for status, _ in asked]


def test_the_cluster_outlives_a_restart_of_redis(tmp_path: Path) -> None:
    redis = RedisProcess(tmp_path).start()
    a = serve(tmp_path, redis, "a")
    b = serve(tmp_path, redis, "b")
    try:
        for process in (a, b):
            assert rooms_at_once(process, 8) == [201] * 8
        created = a.create_room("Ada", edition="classic", hourglass_seconds=30, rounds=1)
        ada = connect(a, created["code"], created["token"])
        assert a.get("/api/health")["redis"] is True
        redis.stop()
        # what needs Redis gets a clear answer, not a crash
        eventually(lambda: not a.get("/api/health")["redis"], "Redis's absence noticed", every=0.1)
        status, body = a.post("/api/rooms", {"name": "Cy", "settings": {}})
        assert (status, body["error"]["code"]) == (503, "unavailable"), body
        # the room its owner runs goes on for the people connected to it
        ada.send({"type": "start"})
        assert ada.event("round_started", 10)["room"]["phase"] == "playing"

        # Redis comes back, empty (nothing saved), on the same address
        again = RedisProcess(tmp_path)
        again.port, again.url = redis.port, redis.url
        again.start()
        try:
            # each process says in its health check when it hears Redis again
            eventually(
                lambda: all(s.get("/api/health")["redis"] for s in (a, b)),
                "the processes to reconnect to Redis",
                timeout=15,
                every=0.1,
            )
            # the connections the pool had open to the Redis that went away are not handed
            # out again: rooms asked at once, which take many of them, are all made
            for process in (a, b):
                assert rooms_at_once(process, 8) == [201] * 8
            # rooms are shared across processes again: Bob joins through the other one
            room = a.create_room(
                "Eve", edition="classic", hourglass_seconds=5, rounds=1, between_seconds=0.2
            )
            eve = connect(a, room["code"], room["token"])
            bob = connect(b, room["code"], b.take_seat(room["code"], "Bob")["token"])
            bob.reply({"type": "ready"}, "ready")
            eve.send({"type": "start"})
            over = play_to_the_end([eve, bob])
            assert over["data"]["game_id"] is not None
            for c in (ada, eve, bob):
                c.close()
        finally:
            again.stop()
    finally:
        a.stop()
        b.stop()


def test_every_process_lists_the_live_games_of_all(cluster: list[ServerProcess]) -> None:
    """A running game on one process is on every process's live list (within a beat), and
    its replay is served by any process once it is over."""
    a, b, c = cluster
    created = a.create_room(
        "Ada", edition="classic", hourglass_seconds=2.0, rounds=1, between_seconds=0.2
    )
    code = created["code"]
    ada = connect(a, code, created["token"])
    ada.reply({"type": "add_bot", "level": "easy"}, "bot_added")
    ada.send({"type": "start"})
    started = ada.event("round_started", 30)
    ada.inbox.insert(0, started)
    assert code in [r["code"] for r in a.get("/api/live")]
    eventually(
        lambda: all(code in [r["code"] for r in s.get("/api/live")] for s in (b, c)),
        "the other processes to list the game",
        timeout=5,
        every=0.2,
    )
    listed = next(r for r in c.get("/api/live") if r["code"] == code)
    assert listed["players"][0]["name"] == "Ada" and created["token"] not in str(listed)
    over = play_to_the_end([ada])
    replay = b.get(f"/api/games/{over['data']['game_id']}/replay")
    assert replay["result"]["winners"] == over["data"]["winners"]
    eventually(
        lambda: not any(code in [r["code"] for r in s.get("/api/live")] for s in cluster),
        "the finished game to leave every live list",
        timeout=5,
        every=0.2,
    )
    ada.close()


def test_a_challenge_and_a_friend_online_reach_across_processes(
    cluster: list[ServerProcess],
) -> None:
    """Bob's page listens on one process; Ada, on another, sees him online and challenges
    him; he hears it at once and accepts on a third; her page there is told her seat."""
    a, b, c = cluster
    ada, bob = account(a), account(b)
    follow(a, ada, bob)
    follow(b, bob, ada)
    bob_page, ada_page = Notices(a, bob["token"]), Notices(c, ada["token"])
    assert bob_page.next()["type"] == ada_page.next()["type"] == "welcome"
    bob_page.send({"type": "here", "room": "K7QXB"})
    eventually(lambda: online(b, ada)[bob["id"]]["room"] == "K7QXB", "bob in K7QXB, from b")
    status, made = challenge(b, ada, bob, rated=True)
    assert status == 201, made
    assert bob_page.challenge("open")["challenge"]["id"] == made["id"]
    status, seat = c.post(f"/api/challenges/{made['id']}/accept", {}, bob["token"])
    assert status == 201, seat
    assert ada_page.challenge("accepted")["seat"]["code"] == seat["code"]
    bob_page.close()
    eventually(lambda: online(c, ada)[bob["id"]]["online"] is False, "bob offline, from c")
    ada_page.close()


def test_every_process_lists_the_open_games_of_all(cluster: list[ServerProcess]) -> None:
    """A listed room waiting on one process is an open game on every process (within a beat),
    and a player on another takes its free seat."""
    a, b, c = cluster
    created = a.create_room("Ada", edition="classic", listed=True)
    code = created["code"]
    ada = connect(a, code, created["token"])
    eventually(
        lambda: all(code in [g["code"] for g in s.get("/api/open-games")] for s in (b, c)),
        "the other processes to list the open game",
        timeout=5,
        every=0.2,
    )
    assert c.take_seat(code, "Cy")["seat"] == 1
    eventually(
        lambda: [g["free"] for g in b.get("/api/open-games") if g["code"] == code] == [2],
        "the seat taken, on every list",
        timeout=5,
        every=0.2,
    )
    ada.close()


def test_the_processes_find_each_other_without_walking_the_keys(
    cluster: list[ServerProcess], redis: RedisProcess
) -> None:
    """The processes find each other (the live and open games of all, the processes the
    arenas' leader deals races to) in the set each adds itself to at every beat, never by
    walking Redis's keys: those keep a day's rooms, and a SCAN of them at every beat made the
    arenas' leader seconds late to renew its lease at 1,000 players (bench/arena.py). A
    process whose list has run out is taken off the set."""
    client = Redis.from_url(redis.url, decode_responses=True)
    rooms = [f"ubongo:room:T{n:05}:snap" for n in range(10_000)]  # no room has such a code

    def calls(command: str) -> int:
        return int(client.info("commandstats").get(f"cmdstat_{command}", {}).get("calls", 0))

    client.mset(dict.fromkeys(rooms, "{}"))
    try:
        scans, renewed = calls("scan"), calls("evalsha")
        for s in cluster:
            assert s.get("/api/live") is not None and s.get("/api/open-games") is not None
        # the arenas' leader renews its lease at each beat, then asks for the processes
        eventually(lambda: calls("evalsha") >= renewed + 4, "a few beats", timeout=20, every=0.5)
        assert calls("scan") == scans
        assert len(client.smembers("ubongo:processes")) == len(cluster)
        client.sadd("ubongo:processes", "a-process-gone")
        eventually(
            lambda: "a-process-gone" not in client.smembers("ubongo:processes"),
            "the process gone taken off the set",
            timeout=10,
            every=0.2,
        )
    finally:
        client.delete(*rooms)
        client.close()


def test_spectators_on_two_processes_chat_apart_from_the_players(
    cluster: list[ServerProcess],
) -> None:
    """A spectator's phrase reaches the room's spectators on every process (one on the room's
    process, one through another) and no player, wherever the player is connected
    (docs/social.md)."""
    a, b, c = cluster
    created = a.create_room("Ada", edition="classic")
    code = created["code"]
    ada = connect(b, code, created["token"])  # the player through another process
    near, far = connect(a, code), connect(c, code)  # on the room's process, and through a third

    def said(m: dict[str, Any]) -> bool:
        return bool(m["type"] == "spectator_said")

    try:
        spoken = far.reply({"type": "say", "phrase": "wow"}, "spectator_said")
        assert (spoken["type"], spoken["mine"]) == ("spectator_said", True)
        heard = near.wait(said)
        assert (heard["spectator"], heard["phrase"], heard["mine"]) == (
            spoken["spectator"],
            "wow",
            False,
        )
        answer = near.reply({"type": "say", "phrase": "hello"}, "spectator_said")
        assert far.wait(said)["spectator"] == answer["spectator"] != spoken["spectator"]
        # Ada's pong comes after whatever the room sent her before: no spectator's phrase
        ada.reply({"type": "ping", "id": 3, "t": 0.0}, "pong")
        assert not [m for m in ada.inbox if said(m)]
        # her own phrase reaches both spectators
        ada.reply({"type": "say", "phrase": "good_luck"}, "chat")
        for watcher in (near, far):
            assert watcher.event("chat")["data"]["phrase"] == "good_luck"
    finally:
        for client in (ada, near, far):
            client.close()
