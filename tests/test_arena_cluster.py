"""Arenas on several ``ubongo serve`` processes sharing a real Redis (docs/arenas.md, "Several
processes"): one process leads the arenas, the others carry their players' requests and pages
to it; players on different processes are seated together, scored once, and when the leader
dies the next process leads from the database, with the pages watched there again.

The set-up starts Debian's ``redis-server`` and two server processes on one SQLite file, as
behind a load balancer: each player below uses the process it is given.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, RedisProcess, ServerProcess, cluster_in, solution
from test_server_arenas import EDITION, Page, account, join, make_arena, seated
from waiting import eventually

ARGS = (
    "--accounts-per-hour=1000",
    "--arena-schedule=none",
    # two who raced each other wait this long to be seated together again: no second race
    # begins before the leader is killed (the new leader has no memory of the last race)
    "--arena-gather-seconds=120",
    "--quickmatch-wait=30",
    "--record-seconds-per-piece=0",
    "--no-require-traces",
)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[RedisProcess, list[ServerProcess]]]:
    with cluster_in(tmp_path, ("a", "b"), ARGS) as running:
        yield running


def leading(servers: list[ServerProcess]) -> list[ServerProcess]:
    """The processes that say they lead the arenas (``/api/health``)."""
    return [s for s in servers if s.get("/api/health")["leads_arenas"]]


def play(seats: list[tuple[ServerProcess, dict[str, Any]]]) -> None:
    """Each player, on their own process, solves their task: the first one first."""
    clients = []
    for server, seat in seats:
        c = Client(server)
        assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
        clients.append(c)
    games = [c.event("round_started")["room"]["game"] for c in clients]
    for c, game in zip(clients, games, strict=True):
        message = {"type": "submit", "round": game["round"]}
        message["placements"] = solution(game["tasks"][str(c.seat)], EDITION)
        assert c.reply(message, "verdict")["ok"]
    for c in clients:
        assert c.event("game_over")["data"]["game_id"] is not None
        c.close()


def test_players_on_two_processes_race_in_one_arena_and_survive_its_leader(
    cluster: tuple[RedisProcess, list[ServerProcess]],
) -> None:
    _, (a, b) = cluster
    ada, bob = account(a), account(b)
    arena = make_arena(b, ada)  # made through b, whichever process leads
    arena_id = arena["id"]
    assert join(a, arena_id, ada)["me"]["points"] == 0
    assert join(b, arena_id, bob)["players"] == 2
    # each page on the other process than its player's requests
    ada_page, bob_page = Page(b, arena_id, ada["token"]), Page(a, arena_id, bob["token"])
    seats = [seated(ada_page), seated(bob_page)]
    assert seats[0]["code"] == seats[1]["code"]
    play([(a, seats[0]), (b, seats[1])])
    # scored once, seen alike from both processes and both pages
    ada_page.until("ada's win", lambda v: v["me"]["points"] == 2)
    bob_page.until("bob's finish", lambda v: v["me"]["points"] == 1)
    for server in (a, b):
        rows = server.get(f"/api/arenas/{arena_id}/results")["standings"]
        assert [(r["name"], r["points"]) for r in rows] == [
            (ada["name"], 2),
            (bob["name"], 1),
        ]
    # one process leads; it dies (no goodbye: its lease is still held); the other one leads
    # from the database
    [dead] = leading([a, b])
    alive = b if dead is a else a
    dead.stop(kill=True)
    eventually(lambda: leading([alive]) == [alive], "the other process to lead", 20)
    # the pages on the dead process reconnect to the live one; the others are watched again
    pages = [Page(alive, arena_id, ada["token"]), Page(alive, arena_id, bob["token"])]
    for page in pages:
        page.until("the standings kept", lambda v: v["me"] is not None and v["players"] == 2)
    assert pages[0].view["me"]["points"] == 2 and pages[1].view["me"]["points"] == 1
    for page, race in zip(pages, (ada_page, bob_page), strict=True):
        page.raced = set(race.raced)
    seats = [seated(pages[1]), seated(pages[0])]
    assert seats[0]["code"] == seats[1]["code"]
    play([(alive, seats[0]), (alive, seats[1])])
    # bob won this one: 1 + 2; ada's streak ends with her 1
    pages[1].until("bob's win", lambda v: v["me"]["points"] == 3)
    rows = alive.get(f"/api/arenas/{arena_id}/results")["standings"]
    assert {r["name"]: r["points"] for r in rows} == {ada["name"]: 3, bob["name"]: 3}
    for page in (*pages, ada_page, bob_page):
        page.close()


def test_two_accounts_of_one_address_on_two_processes_are_never_seated_together(
    cluster: tuple[RedisProcess, list[ServerProcess]],
) -> None:
    """A scripted player's second account, joined through the other process: the leader
    knows both addresses, and seats the honest player with one of them."""
    _, (a, b) = cluster
    eve, eve_again = account(a, "203.0.113.66"), account(b, "203.0.113.66")
    carl = account(b)
    arena_id = make_arena(a, carl)["id"]
    for server, who in ((a, eve), (b, eve_again), (b, carl)):
        join(server, arena_id, who)
    pages = [
        Page(b, arena_id, eve["token"]),
        Page(a, arena_id, eve_again["token"]),
        Page(a, arena_id, carl["token"]),
    ]
    seat = seated(pages[2])
    view = pages[2].until("carl's race listed", lambda v: bool(v["races"]))
    [race] = view["races"]
    assert race["room"] == seat["code"] and carl["name"] in race["names"]
    assert {eve["name"], eve_again["name"]} - set(race["names"]), race
    for page in pages:
        page.close()
