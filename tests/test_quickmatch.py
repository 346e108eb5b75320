"""Quick match against a real ``ubongo serve`` (a short wait): two accounts asking together
share a room, one alone gets a bot after the wait, the game starts by itself and is rated,
leaving the queue (by DELETE or by closing the request), and bad requests refused with nothing
queued.

Each account is made and queues from an address of its own (``X-Forwarded-For``): accounts
seen at one address are never seated together (tests/test_fair_play.py)."""

from __future__ import annotations

import http.client
import itertools
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from server_harness import (
    Client,
    ServerProcess,
    cluster_in,
    metric,
    scrape,
    server_in,
    solution,
)
from waiting import eventually

from ubongo import editions
from ubongo.server.online import ratings

EDITION = editions.names()[0]
WAIT = 1.0
#: the cluster's wait: its test of two accounts asks three times (the first, the same account
#: on the other process, the second) before the first's wait is over, each a database read
#: and write of the shared file (the addresses noted), under a loaded machine's pace
CLUSTER_WAIT = 3.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("quickmatch")
    yield from server_in(
        folder,
        args=(
            f"--quickmatch-wait={WAIT}",
            # one short round: the game against a bot ends soon after the person solves
            '--quickmatch-settings={"rounds": 1, "hourglass_seconds": 4}',
            "--accounts-per-hour=1000",
            # the scripted players submit at once: no floor (tests/test_fair_play.py has it)
            "--record-seconds-per-piece=0",
            "--no-require-traces",
        ),
    )


#: a fresh client address for each account (TEST-NET-2, never routed)
_addresses = (f"198.51.100.{i}" for i in itertools.count(1))


def new_account(server: ServerProcess, name: str | None) -> dict[str, Any]:
    """A new account named ``name`` (``None``: a drawn name; names are unique), made from an
    address of its own (kept in ``address``)."""
    address = next(_addresses)
    body_in = {} if name is None else {"name": name}
    status, body = server.post("/api/accounts", body_in, address=address)
    assert status == 201, body
    return {**body, "address": address}


def ask(server: ServerProcess, account: dict[str, Any], players: int = 2) -> tuple[int, Any]:
    return server.post(
        "/api/quickmatch",
        {"edition": EDITION, "players": players},
        account["token"],
        address=account["address"],
    )


def test_two_accounts_asking_together_are_seated_in_the_same_room_and_it_starts(
    server: ServerProcess,
) -> None:
    ada, bob = new_account(server, "Ada"), new_account(server, "Bob")
    with ThreadPoolExecutor(2) as pool:
        asked = time.monotonic()
        answers = list(pool.map(lambda a: ask(server, a), [ada, bob]))
        took = time.monotonic() - asked
    (s1, one), (s2, two) = answers
    assert s1 == s2 == 201, answers
    assert one["code"] == two["code"] and {one["seat"], two["seat"]} == {0, 1}
    assert took < WAIT + 2.0
    room = server.get(f"/api/rooms/{one['code']}")
    assert room["settings"]["rated"] and room["locked"]
    assert [s["kind"] for s in room["seats"] if s] == ["person", "person"]
    # nobody presses ready or start: the game starts once both are here
    clients = [Client(server), Client(server)]
    for c, seat in zip(clients, (one, two), strict=True):
        assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    for c in clients:
        assert c.event("game_started")
        c.close()


def waiting_on_metrics(n: int, *servers: ServerProcess) -> None:
    """Until ``ubongo_quickmatch_waiting`` of the edition on ``/metrics`` of one of ``servers``
    is ``n`` (what an operator sees: the matcher counts the queue a few times a second)."""

    def counted() -> bool:
        seen = []
        for server in servers:
            found = metric(scrape(server.url), f'ubongo_quickmatch_waiting{{edition="{EDITION}"}}')
            assert found is not None, "no ubongo_quickmatch_waiting on /metrics"
            seen.append(found)
        return n in seen

    eventually(counted, f"{n} waiting for a quick match on /metrics", timeout=5)


def test_one_account_alone_plays_a_bot_after_the_wait_and_its_rated_win_counts(
    server: ServerProcess,
) -> None:
    cy = new_account(server, "Cy")
    asked = time.monotonic()
    status, seat = ask(server, cy)
    assert status == 201, seat
    assert time.monotonic() - asked >= WAIT * 0.9
    room = server.get(f"/api/rooms/{seat['code']}")
    kinds = [(s["kind"], s["level"]) for s in room["seats"] if s]
    # a new account's mu is the bots' while they are unrated: medium is the closest
    assert kinds[0] == ("person", None) and kinds[1][0] == "bot"
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    # a tie on points is played off: the person solves the playoff's task too
    started = c.event("round_started")
    while started["kind"] in ("round_started", "playoff"):
        assert c.room is not None  # the room as the event left it
        game = c.room["game"]
        placements = solution(game["tasks"][str(seat["seat"])], EDITION)
        submit = {"type": "submit", "round": game["round"], "placements": placements}
        assert c.reply(submit, "verdict")["ok"]
        started = c.wait(lambda m: m.get("kind") in ("playoff", "game_over"), 20)
    over = started
    c.close()
    # the person finished first; the gems drawn may still let the bot win on points
    won = over["data"]["winners"] == [seat["seat"]]
    profile = server.get(f"/api/accounts/{cy['id']}")
    rated = profile["ratings"][EDITION]
    assert rated["games"] == 1 and rated["provisional"]
    assert (rated["mu"] > ratings.MU) == won, (rated, over["data"])
    assert profile["history"][EDITION][0]["game_id"] == over["data"]["game_id"]
    # the bot's level is a rated player too, moved the other way
    board = server.get(f"/api/ratings?edition={EDITION}&min_games=1")
    bot = {b["level"]: b for b in board["bots"]}[kinds[1][1]]
    assert (bot["mu"] < ratings.MU) == won and bot["games"] == 1
    assert cy["id"] in [p["account"] for p in board["players"]]


def test_a_second_request_of_one_account_is_refused_and_delete_leaves_the_queue(
    server: ServerProcess,
) -> None:
    di = new_account(server, "Di")
    # four players: nobody else waits for that, and Di leaves before the bots come
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(ask, server, di, 4)
        waiting_on_metrics(1, server)  # the first request is in the queue
        status, body = ask(server, di, 4)
        assert status == 409 and body["error"]["code"] == "already_waiting"
        assert server.request("DELETE", "/api/quickmatch", token=di["token"]) == (
            200,
            {"left": True},
        )
        status, body = first.result()
    waiting_on_metrics(0, server)
    assert status == 409 and body["error"]["code"] == "left_queue"
    assert server.request("DELETE", "/api/quickmatch", token=di["token"]) == (200, {"left": False})


def test_a_closed_request_leaves_the_queue(server: ServerProcess) -> None:
    ed = new_account(server, "Ed")
    conn = http.client.HTTPConnection(server.url.split("//", 1)[1], timeout=5)
    conn.request(
        "POST",
        "/api/quickmatch",
        json.dumps({"edition": EDITION, "players": 3}),
        {"Content-Type": "application/json", "Authorization": f"Bearer {ed['token']}"},
    )
    waiting_on_metrics(1, server)  # in the queue
    conn.close()
    waiting_on_metrics(0, server)  # and out of it
    # no longer waiting: nothing to leave, and a new request is not refused as a second one
    assert server.request("DELETE", "/api/quickmatch", token=ed["token"]) == (200, {"left": False})


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"edition": "nothing", "players": 2}, 404, "no_edition"),
        ({"edition": EDITION, "players": 1}, 422, "bad_message"),
        ({"edition": EDITION, "players": 5}, 422, "bad_message"),
        ({"edition": EDITION}, 422, "bad_message"),
        ({"edition": EDITION, "players": "2"}, 422, "bad_message"),
    ],
)
def test_bad_requests_are_refused_and_nothing_is_queued(
    server: ServerProcess, body: dict[str, Any], status: int, code: str
) -> None:
    fay = new_account(server, None)  # one for each of the parameters: drawn names
    got = server.post("/api/quickmatch", body, fay["token"])
    assert got[0] == status and got[1]["error"]["code"] == code, got
    assert server.request("DELETE", "/api/quickmatch", token=fay["token"]) == (
        200,
        {"left": False},
    )


def test_quick_match_needs_a_valid_account_token(server: ServerProcess) -> None:
    for token in (None, "nobody-has-this-token"):
        status, body = server.post("/api/quickmatch", {"edition": EDITION, "players": 2}, token)
        assert status == 401 and body["error"]["code"] == "bad_token"
    status, body = server.request("DELETE", "/api/quickmatch")
    assert status == 401


# --- several processes sharing rooms through Redis ----------------------------------------


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    folder: Path = tmp_path_factory.mktemp("quickmatch-cluster")
    args = (f"--quickmatch-wait={CLUSTER_WAIT}", "--accounts-per-hour=1000")
    with cluster_in(folder, ("a", "b"), args) as (_, servers):
        yield servers


def test_two_accounts_asking_on_two_processes_share_a_room(cluster: list[ServerProcess]) -> None:
    a, b = cluster
    ada, bob = new_account(a, "Ada"), new_account(a, "Bob")
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(ask, a, ada)
        waiting_on_metrics(1, a, b)  # in the shared queue
        # the same account again, on the other process: refused, the first request waits on
        status, body = ask(b, ada)
        assert status == 409 and body["error"]["code"] == "already_waiting"
        second = pool.submit(ask, b, bob)
        (s1, one), (s2, two) = first.result(), second.result()
    assert s1 == s2 == 201 and one["code"] == two["code"], (one, two)
    clients = [Client(a), Client(b)]
    for c, seat in zip(clients, (one, two), strict=True):
        assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    for c in clients:
        assert c.event("game_started")
        c.close()


def test_one_account_alone_on_a_cluster_plays_a_bot(cluster: list[ServerProcess]) -> None:
    cy = new_account(cluster[1], "Cy")
    status, seat = ask(cluster[1], cy, players=3)
    assert status == 201, seat
    room = cluster[0].get(f"/api/rooms/{seat['code']}")
    assert [s["kind"] for s in room["seats"] if s] == ["person", "bot", "bot"]
