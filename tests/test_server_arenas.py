"""Arenas against a real ``ubongo serve`` (docs/arenas.md): players who join and keep the
arena's page open are seated in races, each race is scored by its finishing order (a streak
doubles, the harder side adds a point), and what a scripted client tries against them
(joining what does not exist, a second account of one address, a malformed socket frame, the
harder side where there is none, making arenas past the limit)."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, replayed, server_in, solution
from test_social import Notices as SocialNotices
from test_social import challenge, follow
from waiting import eventually
from websockets.sync.client import ClientConnection, connect

from ubongo import editions
from ubongo.server.protocol.arenas import encode_arena_message
from ubongo.server.protocol.social import encode_notice

EDITION = editions.names()[0]
_addresses = (f"198.51.100.{i}" for i in itertools.count(1))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("arenas")
    yield from server_in(
        folder,
        args=(
            "--accounts-per-hour=1000",
            "--arena-schedule=none",
            "--arena-gather-seconds=0.5",
            "--quickmatch-wait=30",
            "--arenas-per-day=2",
            # the scripted players submit at once: no floor (tests/test_fair_play.py has it)
            "--record-seconds-per-piece=0",
            "--no-require-traces",
        ),
    )


def account(server: ServerProcess, address: str | None = None) -> dict[str, Any]:
    address = address or next(_addresses)
    status, body = server.post("/api/accounts", {}, address=address)
    assert status == 201, body
    return {**body, "address": address}


def make_arena(server: ServerProcess, who: dict[str, Any], **extra: Any) -> dict[str, Any]:
    body = {"title": "Test arena", "edition": EDITION, "minutes": 10, "seats": 2, "starts_in": 0}
    status, view = server.post("/api/arenas", {**body, **extra}, who["token"])
    assert status == 201, view
    return dict(view)


def join(server: ServerProcess, arena: str, who: dict[str, Any]) -> dict[str, Any]:
    status, view = server.post(
        f"/api/arenas/{arena}/join", {}, who["token"], address=who["address"]
    )
    assert status == 200, view
    return dict(view)


class Page:
    """An arena's page: its socket, hello with the account's token, then views as they come."""

    def __init__(self, server: ServerProcess, arena: str, token: str | None) -> None:
        url = f"{server.ws_url}/arenas/{arena}"
        self.ws: ClientConnection = connect(url, open_timeout=10).__enter__()
        self.view: dict[str, Any] = {}
        #: the rooms of the races its player was seated in
        self.raced: set[str] = set()
        self.ws.send(json.dumps({"type": "hello", "token": token}))

    def next(self, timeout: float = 20.0) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        message: dict[str, Any] = json.loads(text)
        assert encode_arena_message(message) == text  # every frame is the protocol's
        if message["type"] == "arena":
            me = message["me"]
            if me is not None and me["results"] is None:
                # sent only when they change: the page keeps the last ones, as the web client
                me["results"] = (self.view.get("me") or {}).get("results", [])
            self.view = message
        return message

    def until(self, what: str, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        """The first view (this one or one to come) that satisfies ``pred``."""
        end = time.monotonic() + timeout
        while not (self.view and pred(self.view)):
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"waited {timeout} s for {what}; the view: {self.view}")
            self.next(left)
        return self.view

    def close(self) -> None:
        self.ws.close()


def seated(page: Page, or_the_end: bool = False) -> dict[str, Any]:
    """The seat of the page's player's next race (not one it has raced already); with
    ``or_the_end``, ``{}`` if the arena's clock ends first."""

    def new_seat(v: dict[str, Any]) -> bool:
        return bool(v["me"] and v["me"]["seat"] and v["me"]["seat"]["code"] not in page.raced)

    view = page.until("a seat", lambda v: new_seat(v) or (or_the_end and v["phase"] != "running"))
    if not new_seat(view):
        return {}
    seat = dict(view["me"]["seat"])
    page.raced.add(seat["code"])
    return seat


def race(
    server: ServerProcess,
    first: tuple[Page, dict[str, Any]],
    second: tuple[Page, Any],
    seated_then: Callable[[], None] = lambda: None,
) -> str:
    """One race of two pages' players: the first solves, then the second. The room's code.
    ``seated_then``: done once both have their seats, before they play."""
    seats = [seated(first[0]), seated(second[0])]
    seated_then()
    assert seats[0]["code"] == seats[1]["code"]
    clients = []
    for seat in seats:
        c = Client(server)
        assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
        clients.append(c)
    games = [c.event("round_started")["room"]["game"] for c in clients]
    for c, game in zip(clients, games, strict=True):
        task = game["tasks"][str(c.seat)]
        message = {"type": "submit", "round": game["round"]}
        message["placements"] = solution(task, EDITION)
        assert c.reply(message, "verdict")["ok"]
    for c in clients:
        over = c.event("game_over")
        assert over["data"]["game_id"] is not None
        c.close()
    return str(seats[0]["code"])


def test_two_players_race_and_are_scored_with_the_streak_and_the_harder_side(
    server: ServerProcess,
) -> None:
    ada, bob = account(server), account(server)
    arena = make_arena(server, ada)
    assert arena["phase"] == "running" and arena["harder_side"] == "B"
    for who in (ada, bob):
        assert join(server, arena["id"], who)["me"]["points"] == 0
    pages = {
        "ada": Page(server, arena["id"], ada["token"]),
        "bob": Page(server, arena["id"], bob["token"]),
    }
    a, b = (pages["ada"], ada), (pages["bob"], bob)
    code = race(server, a, b)
    room = server.get(f"/api/rooms/{code}")
    assert room["settings"]["arena"] == arena["id"] and room["settings"]["arena_race"] == 1
    assert room["settings"]["rated"] and room["settings"]["rounds"] == 1
    # the stored race replays by the rules, its cards made again from the arena's deck
    game_id = room["game_id"]
    stored = server.get(f"/api/games/{game_id}")
    assert stored["settings"]["rules"]["deck_sides"] == ["A", "B"]
    assert replayed(stored).round.finish_order == ["0", "1"]
    pages["ada"].until("ada's win", lambda v: v["me"]["points"] == 2)
    pages["bob"].until("bob's finish", lambda v: v["me"]["points"] == 1)
    second = race(server, a, b)  # a second win in a row: ada is on fire
    # both races drew from one deck: the arena's (its cards made once)
    deck_seeds = {server.get(f"/api/rooms/{c}")["settings"]["deck_seed"] for c in (code, second)}
    assert len(deck_seeds) == 1 and None not in deck_seeds
    view = pages["ada"].until("on fire", lambda v: v["me"]["on_fire"])
    assert view["me"]["points"] == 4 and view["top"][0]["name"] == ada["name"]
    # counted double; bob closes his arena page once seated: he is not seated again after it
    race(server, a, b, seated_then=pages["bob"].close)
    pages["ada"].until("a doubled win", lambda v: v["me"]["points"] == 8)
    assert server.get(f"/api/arenas/{arena['id']}")["races_in_play"] == 0
    # bob takes the harder side, comes back, and wins on it: one point more
    status, mine = server.request(
        "PATCH", f"/api/arenas/{arena['id']}/me", {"harder": True}, token=bob["token"]
    )
    assert status == 200 and mine["me"]["harder"] and not mine["me"]["present"]
    pages["bob"] = Page(server, arena["id"], bob["token"])
    code = race(server, (pages["bob"], bob), a)
    room = server.get(f"/api/rooms/{code}")
    sides = {s["account"]: s["side"] for s in room["seats"] if s}
    assert sides == {bob["id"]: "B", ada["id"]: "A"}
    bob_view = pages["bob"].until("bob's harder win", lambda v: v["me"]["points"] == 6)
    assert [r["points"] for r in bob_view["me"]["results"]] == [1, 1, 1, 3]
    # each race of a player's keeps its game: its replay
    replay = server.get(f"/api/games/{bob_view['me']['results'][-1]['game_id']}/replay")
    assert replay["rounds"]
    ada_view = pages["ada"].until("ada's streak ends", lambda v: len(v["me"]["results"]) == 4)
    assert [r["points"] for r in ada_view["me"]["results"]] == [2, 2, 4, 2]  # on fire: x2
    assert not ada_view["me"]["on_fire"]
    # ada pauses: she is not seated again while paused
    status, _ = server.request(
        "PATCH", f"/api/arenas/{arena['id']}/me", {"paused": True}, token=ada["token"]
    )
    assert status == 200
    results = server.get(f"/api/arenas/{arena['id']}/results")
    assert [(r["name"], r["points"]) for r in results["standings"]] == [
        (ada["name"], 10),
        (bob["name"], 6),
    ]
    for page in pages.values():
        page.close()


def test_a_player_who_withdrew_and_joins_again_from_the_open_page_is_paired(
    server: ServerProcess,
) -> None:
    """Withdrawing before a first race takes the player out of the standings, not their page
    out of the arena: joining again from it, they race."""
    ada, bob = account(server), account(server)
    arena = make_arena(server, ada)
    join(server, arena["id"], bob)
    bob_page = Page(server, arena["id"], bob["token"])
    bob_page.until("present", lambda v: v["me"] and v["me"]["present"])
    status, view = server.request("DELETE", f"/api/arenas/{arena['id']}/join", token=bob["token"])
    assert status == 200 and view["me"] is None and view["players"] == 0
    join(server, arena["id"], bob)
    join(server, arena["id"], ada)
    ada_page = Page(server, arena["id"], ada["token"])
    assert seated(ada_page)["code"] == seated(bob_page)["code"]
    for page in (ada_page, bob_page):
        page.close()


def test_two_accounts_of_one_address_are_never_seated_together(server: ServerProcess) -> None:
    maker = account(server)
    arena = make_arena(server, maker)
    one, two = account(server, "203.0.113.9"), account(server, "203.0.113.9")
    pages = [Page(server, arena["id"], who["token"]) for who in (one, two)]
    for who in (one, two):
        join(server, arena["id"], who)
    # both are free and present: they would be a race of two at once, but are kept apart
    for page in pages:
        page.until("present", lambda v: v["me"] and v["me"]["present"])
    third = account(server)
    join(server, arena["id"], third)
    page3 = Page(server, arena["id"], third["token"])
    seat3 = seated(page3)
    seats = [p.until("seated", lambda v: v["me"]["seat"] or v["races_in_play"]) for p in pages]
    codes = {s["me"]["seat"]["code"] for s in seats if s["me"]["seat"]}
    assert codes == {seat3["code"]}  # exactly one of the two races the third player
    for page in (*pages, page3):
        page.close()


def test_scripted_clients_are_refused_and_nothing_changes(server: ServerProcess) -> None:
    ada = account(server)
    assert (
        server.request("POST", "/api/arenas", {"title": "x", "edition": EDITION, "minutes": 10})[0]
        == 401
    )
    status, body = server.post(
        "/api/arenas", {"title": "x", "edition": EDITION, "minutes": 5}, ada["token"]
    )
    assert (status, body["error"]["code"]) == (422, "bad_message")
    status, body = server.post(
        "/api/arenas",
        {"title": "x", "edition": EDITION, "minutes": 10, "seats": 2, "side": "Z"},
        ada["token"],
    )
    assert (status, body["error"]["code"]) == (422, "bad_setting")
    hardest = make_arena(server, ada, side="B")
    assert hardest["harder_side"] is None
    join(server, hardest["id"], ada)
    status, body = server.request(
        "PATCH", f"/api/arenas/{hardest['id']}/me", {"harder": True}, token=ada["token"]
    )
    assert (status, body["error"]["code"]) == (422, "bad_setting")
    make_arena(server, ada)
    status, body = server.post(
        "/api/arenas", {"title": "x", "edition": EDITION, "minutes": 10}, ada["token"]
    )
    assert (status, body["error"]["code"]) == (429, "rate_limited")  # --arenas-per-day=2
    for bad in ("nothere", "x" * 40, "a-b"):
        status, body = server.request("GET", f"/api/arenas/{bad}")
        assert status == 404 and body["error"]["code"] == "no_arena", bad
    status, body = server.post("/api/arenas/nothere/join", {}, ada["token"])
    assert (status, body["error"]["code"]) == (404, "no_arena")
    bob = account(server)
    status, body = server.request(
        "PATCH", f"/api/arenas/{hardest['id']}/me", {"paused": True}, token=bob["token"]
    )
    assert (status, body["error"]["code"]) == (409, "not_joined")
    # a malformed hello, and a page that says more than hello, are answered and closed
    url = f"{server.ws_url}/arenas/{hardest['id']}"
    with connect(url, open_timeout=10) as ws:
        ws.send("{not json")
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_message"
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(ws.recv(timeout=10))["type"] == "arena"
        ws.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_message"
    # a flood of pauses and returns: each a write, so an account's commands are limited
    answers = [
        server.request(
            "PATCH", f"/api/arenas/{hardest['id']}/me", {"paused": i % 2 == 0}, token=ada["token"]
        )
        for i in range(14)
    ]
    statuses = [status for status, _ in answers]
    assert 429 in statuses and statuses[0] == 200, statuses
    last_paused = next(b["me"]["paused"] for s, b in reversed(answers) if s == 200)
    # the arena is as it was, but for the last pause taken: one player, no race
    view = server.get(f"/api/arenas/{hardest['id']}")
    assert view["players"] == 1 and view["races_in_play"] == 0
    sheet = server.get(f"/api/arenas/{hardest['id']}/results")["standings"][0]
    assert sheet["paused"] == last_paused
    played = server.get(f"/api/accounts/{ada['id']}/arenas")
    assert played == []
    assert editions.record(EDITION).deck.side_names == ("A", "B")


@pytest.fixture(scope="module")
def minutely(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose schedule makes a one-minute arena every minute."""
    folder: Path = tmp_path_factory.mktemp("arenas-minutely")
    line: dict[str, Any] = {"name": "minute", "title": "Minute {title}", "edition": EDITION}
    line |= {"every_minutes": 1, "offset_minutes": 0, "minutes": 1, "seats": 2}
    schedule = folder / "schedule.json"
    schedule.write_text(json.dumps({"arenas": [line]}), encoding="utf-8")
    yield from server_in(
        folder,
        args=(
            f"--arena-schedule={schedule}",
            "--arena-gather-seconds=0.5",
            "--quickmatch-wait=30",
            "--record-seconds-per-piece=0",
            "--no-require-traces",
        ),
    )


def test_a_scheduled_arena_starts_by_itself_ends_on_its_clock_and_freezes(
    minutely: ServerProcess,
) -> None:
    """The schedule's arenas are listed ahead; one runs without anybody starting it, its
    players race, the race in play when the clock ends still counts, and then the standings
    freeze: the page shows the arena over, and the profiles the final places."""

    # the director makes the schedule's arenas one by one on its first tick, which may still be
    # under way when the server answers; the first two may both have begun by the time they are
    # read (made a second before a minute's turn: CI loop run 160), the next ones are to come
    def some_soon() -> list[dict[str, Any]] | None:
        listed: list[dict[str, Any]] = minutely.get("/api/arenas")["arenas"]
        return listed if any(a["phase"] == "soon" for a in listed) else None

    listed = eventually(some_soon, "the schedule's arenas listed, one of them to come")
    assert all(a["scheduled"] for a in listed)
    assert [a["title"] for a in listed[:1]] == [f"Minute {editions.record(EDITION).title}"]
    soon = [a for a in listed if a["phase"] == "soon"]
    arena = soon[0]
    ada, bob = account(minutely), account(minutely)
    for who in (ada, bob):
        join(minutely, arena["id"], who)  # before it starts
    # Ada's other page (her notice socket) hears that the arena has started
    with connect(f"{minutely.ws_url}/notices", open_timeout=10) as notices:
        notices.send(json.dumps({"type": "hello", "token": ada["token"]}))
        assert json.loads(notices.recv(timeout=10))["type"] == "welcome"
        pages = [Page(minutely, arena["id"], who["token"]) for who in (ada, bob)]
        pages[0].until("the start", lambda v: v["phase"] == "running", timeout=70)
        told = json.loads(notices.recv(timeout=10))
        assert encode_notice(told) == json.dumps(told, separators=(",", ":"))
        assert (told["type"], told["arena"], told["title"]) == (
            "arena",
            arena["id"],
            arena["title"],
        )
    raced = 0
    while seat := seated(pages[0], or_the_end=True):
        seats = [seat, seated(pages[1])]
        assert seats[0]["code"] == seats[1]["code"]
        clients = [Client(minutely), Client(minutely)]
        for c, s in zip(clients, seats, strict=True):
            c.hello(s["code"], s["token"])
        games = [c.event("round_started")["room"]["game"] for c in clients]
        if pages[0].view["server_time"] >= pages[0].view["ends_at"] - 10_000:
            # the last race: played past the arena's clock, and counted all the same
            pages[0].until("the clock's end", lambda v: v["phase"] != "running")
        for c, game in zip(clients, games, strict=True):
            message = {"type": "submit", "round": game["round"]}
            message["placements"] = solution(game["tasks"][str(c.seat)], EDITION)
            assert c.reply(message, "verdict")["ok"]
        for c in clients:
            c.event("game_over")
            c.close()
        raced += 1
        pages[0].until("the race scored", lambda v, n=raced: len(v["me"]["results"]) == n)
    over = pages[0].until("the freeze", lambda v: v["phase"] == "over")
    assert over["races_in_play"] == 0 and raced >= 2
    assert over["me"]["results"][-1]["race"] > over["me"]["results"][0]["race"]
    results = minutely.get(f"/api/arenas/{arena['id']}/results")
    assert results["phase"] == "over"
    order = [(r["account"], r["points"]) for r in results["standings"]]
    assert {a for a, _ in order} == {ada["id"], bob["id"]} and order[0][1] >= order[1][1]
    for place, (who, points) in enumerate(order, start=1):
        played = minutely.get(f"/api/accounts/{who}/arenas")
        assert [(p["id"], p["place"], p["points"]) for p in played] == [
            (arena["id"], place, points)
        ]
    for page in pages:
        page.close()


@pytest.fixture(scope="module")
def fair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with fair play as it is by default: a speed floor, play traces required."""
    folder: Path = tmp_path_factory.mktemp("arenas-fair")
    yield from server_in(
        folder,
        args=("--accounts-per-hour=1000", "--arena-schedule=none", "--quickmatch-wait=30"),
    )


def test_scripts_that_solve_at_once_score_nothing(fair: ServerProcess) -> None:
    """The arena's cheat: two scripts (or one player's two sockets) that submit the solver's
    answer as soon as the task is dealt, with no play trace. The race is played and stored,
    but fair play counts neither finish: no points, no win, the standings stay level."""
    one, two = account(fair), account(fair)
    arena = make_arena(fair, one)
    for who in (one, two):
        join(fair, arena["id"], who)
    pages = [Page(fair, arena["id"], who["token"]) for who in (one, two)]
    code = race(fair, (pages[0], one), (pages[1], two))
    for page in pages:
        view = page.until("the race scored", lambda v: len(v["me"]["results"]) == 1)
        scored = view["me"]["results"][0]
        game_id = scored.pop("game_id")
        assert scored == {"race": 1, "place": None, "points": 0, "fire": False, "harder": False}
        # the race is stored all the same, and replays: a moderator sees what the scripts did
        assert fair.get(f"/api/games/{game_id}")["result"]["unrated"]
    room = fair.get(f"/api/rooms/{code}")
    assert room["settings"]["arena"] == arena["id"]
    results = fair.get(f"/api/arenas/{arena['id']}/results")
    assert [(r["points"], r["wins"]) for r in results["standings"]] == [(0, 0), (0, 0)]
    for page in pages:
        page.close()


def test_a_friends_arena_starting_is_told_to_friends_only(server: ServerProcess) -> None:
    """Ada's public arena starts as she makes it: Bob (her friend: they follow each other)
    hears of it on his notice socket; Eve, who follows Ada one way, does not (the next notice
    she gets is a challenge sent after the arena started); nor does anybody of a private one."""
    ada, bob, eve = account(server), account(server), account(server)
    for who, whom in ((ada, bob), (bob, ada), (eve, ada)):
        follow(server, who, whom)
    pages = {}
    for name, who in (("bob", bob), ("eve", eve)):
        pages[name] = SocialNotices(server, who["token"])
        assert pages[name].next()["type"] == "welcome"
    private = make_arena(server, ada, private=True)
    arena = make_arena(server, ada)
    told = pages["bob"].next()
    assert (told["type"], told["arena"], told["friend"]) == ("arena", arena["id"], ada["name"])
    assert told["arena"] != private["id"]
    status, _ = challenge(server, bob, eve)
    assert status == 201
    assert pages["eve"].next()["type"] == "challenge"
    for page in pages.values():
        page.close()
