"""Fair play against a real ``ubongo serve``: each test is a scripted client trying one way to
top rated play or its leaderboards as a cheater would (the project's solver is public), and
the server's answer to it (docs/fair-play.md)."""

from __future__ import annotations

import contextlib
import itertools
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, race_to_the_end, server_in, solution
from server_harness import made_up_trace as traced
from waiting import eventually

from ubongo import editions
from ubongo.pieces import edition
from ubongo.server.online import ratings

EDITION = editions.names()[0]
WAIT = 1.0
#: the playban of the module's server: two rated games left, then 6 s; one more, 10 min
PLAYBAN_MINUTES = (0.1, 10.0)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("fairplay")
    yield from server_in(
        folder,
        args=(
            f"--quickmatch-wait={WAIT}",
            # one short round: a game against a bot is over a few seconds after its start; a
            # closed tab's seat is held 5 s (the least) before a bot takes it
            '--quickmatch-settings={"rounds": 1, "hourglass_seconds": 4, "seat_hold_seconds": 5}',
            "--accounts-per-hour=1000",
            "--playban-leaves=2",
            "--playban-minutes=" + ",".join(map(str, PLAYBAN_MINUTES)),
        ),
    )


#: a fresh client address for each use (TEST-NET-3, never routed): the server trusts
#: ``X-Forwarded-For`` from 127.0.0.1, as from a proxy on the machine
_addresses = (f"203.0.113.{i}" for i in itertools.count(1))


def new_address() -> str:
    return next(_addresses)


def new_account(server: ServerProcess, name: str, address: str | None = None) -> dict[str, Any]:
    """A new account, made from ``address`` (kept in ``address``; none: 127.0.0.1)."""
    status, body = server.post("/api/accounts", {"name": name}, address=address)
    assert status == 201, body
    return {**body, "address": address}


def ask(server: ServerProcess, account: dict[str, Any], address: str | None = None) -> Any:
    """A quick match for two, from ``address`` (else the account's own): status and answer."""
    return server.post(
        "/api/quickmatch",
        {"edition": EDITION, "players": 2},
        account["token"],
        address=address or account["address"],
    )


def quick_match_against_a_bot(server: ServerProcess, account: dict[str, Any]) -> dict[str, Any]:
    status, seat = ask(server, account)
    assert status == 201, seat
    return dict(seat)


def rated_games(server: ServerProcess, account: dict[str, Any]) -> list[dict[str, Any]]:
    profile = server.get(f"/api/accounts/{account['id']}")
    return list(profile["history"].get(EDITION, []))


def test_leaving_a_rated_game_is_a_loss_and_the_game_is_stored(server: ServerProcess) -> None:
    """The dodge: leave a quick match before the bot finishes, so that the loss never counts.
    The bots play the game out; it is stored and rated, the leaver placed last."""
    ada = new_account(server, "Ada")
    seat = quick_match_against_a_bot(server, ada)
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    c.event("round_started")
    c.send({"type": "leave"})
    c.close()
    history = eventually(lambda: rated_games(server, ada), "the game rated", timeout=30)
    assert history[0]["after"] < history[0]["before"]
    game = server.get(f"/api/games/{history[0]['game_id']}")
    assert game["result"]["left"] == [seat["seat"]]
    rating = server.get(f"/api/accounts/{ada['id']}")["ratings"][EDITION]
    assert rating["games"] == 1 and rating["mu"] < ratings.MU


def test_closing_the_tab_is_leaving_too(server: ServerProcess) -> None:
    """The same dodge without a word: the socket closes and never comes back. The seat is
    held a while, then a bot takes it and the game is played out, stored and rated."""
    bo = new_account(server, "Bo")
    seat = quick_match_against_a_bot(server, bo)
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    c.event("round_started")
    c.close()
    history = eventually(lambda: rated_games(server, bo), "the game rated", timeout=30)
    assert history[0]["after"] <= history[0]["before"]


def test_a_rated_win_faster_than_a_hand_is_not_rated(server: ServerProcess) -> None:
    """The instant solver: the answer submitted as soon as the task is dealt. The game counts
    (the seat finished first) but the seat's rating does not move."""
    cy = new_account(server, "Cy")
    seat = quick_match_against_a_bot(server, cy)
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    over = race_to_the_end(c, c.event("round_started")["room"]["game"], EDITION)
    c.close()
    stored = server.get(f"/api/games/{over['data']['game_id']}")
    assert stored["result"]["unrated"] == {str(seat["seat"]): "too_fast"}
    profile = server.get(f"/api/accounts/{cy['id']}")
    assert EDITION not in profile["ratings"] or profile["ratings"][EDITION]["games"] == 0
    board = server.get(f"/api/ratings?edition={EDITION}&min_games=1")
    assert cy["id"] not in [p["account"] for p in board["players"]]


# --- hints ------------------------------------------------------------------------------------


#: a puzzle nobody plays (the example of ubongo.puzzles.hints): its first hint is the I
FREE = {"edition": "classic", "area": [".##..", "####.", ".####", ".###."], "pieces": list("DIG")}


def hint(server: ServerProcess, puzzle: dict[str, Any], token: str | None) -> tuple[int, Any]:
    return server.post("/api/hint", {"puzzle": puzzle, "placements": []}, token)


def renamed(task: dict[str, Any]) -> dict[str, Any]:
    """The same task as a custom puzzle: its edition's pieces given as cells, under new names."""
    ed = edition(EDITION)
    pieces = [
        {"id": f"x{i}", "cells": [list(c) for c in sorted(ed.piece(p).cells)]}
        for i, p in enumerate(task["pieces"])
    ]
    return {"edition": EDITION, "area": task["area"], "pieces": pieces}


def test_a_task_in_rated_play_gets_no_hint_under_any_name(server: ServerProcess) -> None:
    """The probe: the task of a rated room, taken from its snapshot, sent to the hint route
    one piece at a time. Refused, and so is the same task with its pieces renamed."""
    di = new_account(server, "Di")
    seat = quick_match_against_a_bot(server, di)
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    task = c.event("round_started")["room"]["game"]["tasks"][str(seat["seat"])]
    puzzle = {"edition": EDITION, "area": task["area"], "pieces": task["pieces"]}
    for asked in (puzzle, renamed(puzzle)):
        status, body = hint(server, asked, di["token"])
        assert (status, body["error"]["code"]) == (403, "no_help"), body
    c.close()


def test_todays_daily_gets_no_hint_but_a_free_puzzle_does(server: ServerProcess) -> None:
    eve = new_account(server, "Eve")
    today = server.get(f"/api/daily?edition={EDITION}")["tasks"][0]
    status, body = hint(server, today, eve["token"])
    assert (status, body["error"]["code"]) == (403, "no_help")
    free = {
        "edition": "classic",
        "area": [".##..", "####.", ".####", ".###."],
        "pieces": list("DIG"),
    }
    status, body = hint(server, free, eve["token"])
    assert status == 200 and body["placement"]["piece"] == "I"


def test_hints_need_an_account(server: ServerProcess) -> None:
    status, body = hint(server, FREE, None)
    assert (status, body["error"]["code"]) == (401, "bad_token")


def test_a_puzzle_too_big_for_a_hint_is_refused_at_once(server: ServerProcess) -> None:
    """The probe's load: 48 cells and all 12 Classic pieces, a second of solver time a call."""
    fay = new_account(server, "Fay")
    pieces = [p.id for p in edition(EDITION).pieces]
    big = {"edition": EDITION, "area": ["#" * 8] * 6, "pieces": pieces}
    status, body = hint(server, big, fay["token"])
    assert (status, body["error"]["code"]) == (422, "bad_puzzle")
    assert "at most 8 pieces" in body["error"]["message"]


def test_hints_are_limited_per_account_and_address(tmp_path: Path) -> None:
    free = FREE
    args = ("--hints-per-minute=3", "--hints-per-minute-per-address=5")
    for strict in server_in(tmp_path, args=args):
        one, two = new_account(strict, "Gus"), new_account(strict, "Hal")
        assert [hint(strict, free, one["token"])[0] for _ in range(4)] == [200, 200, 200, 429]
        # the address's own limit: the second account gets two before the address's five
        assert [hint(strict, free, two["token"])[0] for _ in range(3)] == [200, 200, 429]
        refused = strict.request("POST", "/api/hint", {"puzzle": free}, two["token"])[1]
        assert refused["error"]["code"] == "rate_limited"


# --- seats and rooms -----------------------------------------------------------------------------


def test_one_account_holds_one_seat_of_a_room(server: ServerProcess) -> None:
    """The probe: the same token asks for two seats of one room (to play against itself)."""
    ivy = new_account(server, "Ivy")
    host = new_account(server, "Jo")
    created = server.create_room_as(host["token"], "Jo", edition=EDITION)
    status, _ = server.post(f"/api/rooms/{created['code']}/seats", {"name": "Ivy"}, ivy["token"])
    assert status == 201
    status, body = server.post(
        f"/api/rooms/{created['code']}/seats", {"name": "Ivy 2"}, ivy["token"]
    )
    assert (status, body["error"]["code"]) == (409, "already_seated")
    status, body = server.post(
        f"/api/rooms/{created['code']}/seats", {"name": "Jo 2"}, host["token"]
    )
    assert (status, body["error"]["code"]) == (409, "already_seated")
    seats = server.get(f"/api/rooms/{created['code']}")["seats"]
    assert [s["name"] for s in seats if s] == ["Jo", "Ivy"]


def test_quick_matches_count_against_the_rooms_an_address_may_make(tmp_path: Path) -> None:
    """The probe: 320 quick-match requests from one address made 80 rooms, unlimited."""
    args = ("--rooms-per-minute=2", "--quickmatch-wait=0.5", "--accounts-per-hour=100")
    for strict in server_in(tmp_path, args=args):
        accounts = [new_account(strict, f"Kit {i}") for i in range(3)]
        asked = [
            strict.post("/api/quickmatch", {"edition": EDITION, "players": 2}, a["token"])
            for a in accounts
        ]
        assert [status for status, _ in asked] == [201, 201, 429]
        assert asked[2][1]["error"]["code"] == "rate_limited"


# --- play traces -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def no_floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server without the hand's floor per piece, so that a script's instant answer is judged
    by its trace alone."""
    folder: Path = tmp_path_factory.mktemp("traces")
    args = (
        f"--quickmatch-wait={WAIT}",
        '--quickmatch-settings={"rounds": 1, "hourglass_seconds": 4}',
        "--accounts-per-hour=1000",
        "--record-seconds-per-piece=0",
    )
    yield from server_in(folder, args=args)


def rated_race_won_with(
    server: ServerProcess, name: str, trace: Any
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A quick match against a bot, won at once by the solver's answer sent with ``trace``
    (a function of the answer, or ``None``): the account, its seat and the stored game."""
    account = new_account(server, name)
    seat = quick_match_against_a_bot(server, account)
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    over = race_to_the_end(c, c.event("round_started")["room"]["game"], EDITION, trace)
    c.close()
    return account, seat, server.get(f"/api/games/{over['data']['game_id']}")


def test_a_rated_finish_without_a_trace_is_not_rated(no_floor: ServerProcess) -> None:
    """The script of the probe, which sends the arrangement and nothing else: it wins the
    game, but its rating does not move."""
    account, seat, stored = rated_race_won_with(no_floor, "Lu", None)
    # it counts in its game (its place and score; the gems drawn decide the win)
    assert stored["result"]["scores"][str(seat["seat"])] > 0
    assert stored["result"]["unrated"] == {str(seat["seat"]): "no_trace"}
    assert "traces" not in stored["result"]  # the moderators' (and nobody's here: no trace)
    assert EDITION not in no_floor.get(f"/api/accounts/{account['id']}")["ratings"]


def test_a_trace_that_does_not_end_in_the_answer_is_not_rated(no_floor: ServerProcess) -> None:
    """A trace copied from an earlier task (or made up carelessly): its pieces end elsewhere."""

    def elsewhere(placements: list[dict[str, Any]]) -> list[dict[str, Any]]:
        steps = traced(placements)
        return [*steps, {"t": 5.0, "op": "lift", "piece": placements[0]["piece"]}]

    account, seat, stored = rated_race_won_with(no_floor, "Mo", elsewhere)
    assert stored["result"]["unrated"] == {str(seat["seat"]): "bad_trace"}
    assert EDITION not in no_floor.get(f"/api/accounts/{account['id']}")["ratings"]


def test_a_trace_faster_than_a_hand_is_not_rated(no_floor: ServerProcess) -> None:
    _account, seat, stored = rated_race_won_with(no_floor, "Nat", lambda p: traced(p, gap=0.05))
    assert stored["result"]["unrated"] == {str(seat["seat"]): "bad_trace"}


def test_a_consistent_trace_made_up_at_once_is_held(no_floor: ServerProcess) -> None:
    """The trace holds together (times in order, within the server's own time, ending in the
    answer, at a hand's pace), so it is judged: a win at once with each piece moved once is a
    machine's, and it is held for review (tests/test_review.py clears one). The trace is kept,
    not published."""
    account, seat, stored = rated_race_won_with(no_floor, "Oz", traced)
    assert stored["result"]["unrated"] == {str(seat["seat"]): "held"}
    assert EDITION not in no_floor.get(f"/api/accounts/{account['id']}")["ratings"]
    assert "traces" not in stored["result"]


def test_a_malformed_trace_is_refused_and_loses_nothing(no_floor: ServerProcess) -> None:
    account = new_account(no_floor, "Pia")
    seat = quick_match_against_a_bot(no_floor, account)
    c = Client(no_floor)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    game = c.event("round_started")["room"]["game"]
    placements = solution(game["tasks"][str(seat["seat"])], EDITION)
    for bad in (
        [{"t": -1, "op": "place", "piece": "A"}],
        [{"t": 1, "op": "teleport", "piece": "A"}],
        [{"t": 1, "op": "pick", "piece": "A"}] * 181,
    ):
        message = {"type": "submit", "round": game["round"], "placements": placements}
        error = c.reply({**message, "trace": bad}, "verdict")
        assert (error["type"], error["code"]) in (("error", "bad_message"), ("error", "too_large"))
    message = {"type": "submit", "round": game["round"], "placements": placements}
    assert c.reply({**message, "trace": traced(placements)}, "verdict")["ok"]
    c.close()


# --- no boosting, no dodging ---------------------------------------------------------------------


def kinds(server: ServerProcess, code: str) -> list[str]:
    return [s["kind"] for s in server.get(f"/api/rooms/{code}")["seats"] if s]


def together(server: ServerProcess, *asked: tuple[dict[str, Any], str]) -> list[dict[str, Any]]:
    """Quick matches asked for at once (each account from its address); their seats."""
    with ThreadPoolExecutor(len(asked)) as pool:
        answers = list(pool.map(lambda a: ask(server, *a), asked))
    assert all(status == 201 for status, _ in answers), answers
    return [dict(seat) for _, seat in answers]


def test_two_accounts_of_one_address_are_never_seated_together(server: ServerProcess) -> None:
    """The probe's boosting: a second account made on the same machine queues with the first
    to lose to it. They are never put in one room, not even when the second asks from
    another address (a phone, a VPN) later: each plays a bot after the wait. An account from
    elsewhere is matched with the first at once."""
    home, elsewhere, far = new_address(), new_address(), new_address()
    main, alt = new_account(server, "Main", home), new_account(server, "Alt", home)
    apart = together(server, (main, home), (alt, home))
    assert apart[0]["code"] != apart[1]["code"]
    assert all(kinds(server, seat["code"]) == ["person", "bot"] for seat in apart)
    # from another address, the second account is still the one seen at the first's
    apart = together(server, (main, home), (alt, elsewhere))
    assert apart[0]["code"] != apart[1]["code"]
    stranger = new_account(server, "Stranger", far)
    seated = together(server, (main, home), (stranger, far))
    assert seated[0]["code"] == seated[1]["code"]
    assert kinds(server, seated[0]["code"]) == ["person", "person"]


def test_the_database_keeps_no_address_as_it_is(server: ServerProcess) -> None:
    """The addresses are noted as keyed hashes (docs/fair-play.md): the database says which
    accounts shared one, never which it was."""
    address = new_address()
    new_account(server, "Noted", address)
    db = server.database_url.removeprefix("sqlite:///")
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
        rows = con.execute("SELECT address FROM account_addresses").fetchall()
        dump = "\n".join(con.iterdump())
    assert rows and all(len(a) == 32 and int(a, 16) >= 0 for (a,) in rows)
    assert address not in dump


def play_as_pair(server: ServerProcess, one: dict[str, Any], two: dict[str, Any]) -> dict[str, Any]:
    """A quick match of the two (each from its address), played out: the first solves its
    task, the second does nothing until the hourglass ends the game. The stored game."""
    seats = together(server, (one, one["address"]), (two, two["address"]))
    assert seats[0]["code"] == seats[1]["code"], seats
    clients = [Client(server), Client(server)]
    for c, seat in zip(clients, seats, strict=True):
        assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    game = clients[0].event("round_started")["room"]["game"]
    placements = solution(game["tasks"][str(seats[0]["seat"])], EDITION)
    submit = {"type": "submit", "round": game["round"], "placements": placements}
    assert clients[0].reply(submit, "verdict")["ok"]
    over = clients[0].event("game_over", timeout=30)
    for c in clients:
        c.close()
    return dict(server.get(f"/api/games/{over['data']['game_id']}"))


def test_rated_games_between_two_accounts_count_a_few_times_a_day(tmp_path: Path) -> None:
    """Boosting from two addresses: the same two accounts play rated game after rated game,
    one always losing. Past ``--rated-games-per-pair`` (1 here) in 24 hours, their games are
    played and stored, but neither rating moves (``pair_cap``)."""
    args = (
        "--quickmatch-wait=10",  # they ask together: no bots
        '--quickmatch-settings={"rounds": 1, "hourglass_seconds": 3}',
        "--record-seconds-per-piece=0",  # the winner submits at once, without a trace
        "--no-require-traces",
        "--rated-games-per-pair=1",
    )
    for paired in server_in(tmp_path, args=args):
        winner = new_account(paired, "Winner", new_address())
        loser = new_account(paired, "Loser", new_address())
        first = play_as_pair(paired, winner, loser)
        assert first["result"]["unrated"] == {}
        second = play_as_pair(paired, winner, loser)
        assert second["result"]["unrated"] == {"0": "pair_cap", "1": "pair_cap"}
        for account in (winner, loser):
            profile = paired.get(f"/api/accounts/{account['id']}")
            assert profile["ratings"][EDITION]["games"] == 1
            assert [h["game_id"] for h in profile["history"][EDITION]] == [first["id"]]


def leave_a_rated_game(server: ServerProcess, seat: dict[str, Any]) -> None:
    """Take the seat, wait for the deal, leave (a bot plays the game out)."""
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    c.event("round_started")
    c.send({"type": "leave"})
    c.close()


def until_rated(server: ServerProcess, account: dict[str, Any], games: int) -> None:
    """Until the account's ``games``-th rated game is stored (the bots play a game left out)."""
    eventually(lambda: len(rated_games(server, account)) == games, f"rated game {games}", 30)


def refused_for(server: ServerProcess, account: dict[str, Any]) -> int:
    """The account's quick match refused for a playban: the seconds its Retry-After says."""
    status, headers, body = server.request_with_headers(
        "POST",
        "/api/quickmatch",
        {"edition": EDITION, "players": 2},
        account["token"],
        address=account["address"],
    )
    assert (status, body["error"]["code"]) == (429, "playban"), body
    return int(headers["retry-after"])


def test_an_account_that_keeps_leaving_rated_games_waits_longer_each_time(
    server: ServerProcess,
) -> None:
    """The dodge repeated: leave every rated game that goes badly. Leaving loses, and after
    the second game left (this server's ``--playban-leaves``) the account waits before its
    next quick match (``429 playban``, ``Retry-After``): 6 s here, then after one more left
    10 minutes (``--playban-minutes``; lichess's playban grows the same way)."""
    quitter = new_account(server, "Quitter", new_address())
    for n in (1, 2):
        leave_a_rated_game(server, quick_match_against_a_bot(server, quitter))
        until_rated(server, quitter, n)
    assert 1 <= refused_for(server, quitter) <= 60 * PLAYBAN_MINUTES[0]

    def admitted() -> dict[str, Any] | None:
        status, seat = ask(server, quitter)
        if status == 429 and seat["error"]["code"] == "playban":
            return None
        assert status == 201, seat
        return dict(seat)

    # the first wait over, it may play again (every 0.5 s: each asking is a room made)
    leave_a_rated_game(server, eventually(admitted, "the playban over", 20, every=0.5))
    until_rated(server, quitter, 3)
    assert 60 * PLAYBAN_MINUTES[1] - 60 < refused_for(server, quitter) <= 60 * PLAYBAN_MINUTES[1]
    # others from its address are not held back by its playban
    status, seat = ask(server, new_account(server, "Sibling", quitter["address"]))
    assert status == 201, seat


# --- the daily ---------------------------------------------------------------------------------


def daily_started(server: ServerProcess, account: dict[str, Any]) -> Client:
    """A client in ``account``'s daily run of today, its first task dealt."""
    settings = {"edition": EDITION, "mode": "solo", "puzzles": "daily"}
    body = {"name": account["name"], "settings": settings}
    status, seat = server.post("/api/rooms", body, account["token"])
    assert status == 201, seat
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    c.send({"type": "start"})
    c.event("round_started")
    return c


def daily_by_script(server: ServerProcess, name: str, trace: Any) -> dict[str, Any]:
    """The probe's daily script: each of the day's five tasks answered by the solver as soon as
    it is dealt, with ``trace`` (a function of the answer, or ``None``): the daily result."""
    c = daily_started(server, new_account(server, name))
    for n in range(5):
        assert c.room is not None
        game = c.room["game"]
        placements = solution(game["tasks"]["0"], EDITION)
        message: dict[str, Any] = {"type": "submit", "round": game["round"]}
        message["placements"] = placements
        if trace is not None:
            message["trace"] = trace(placements)
        assert c.reply(message, "verdict")["ok"]
        if n < 4:
            c.event("task_drawn")
    daily = dict(c.event("game_over")["data"]["daily"])
    c.close()
    board = server.get(f"/api/daily/results?edition={EDITION}&date={daily['date']}")
    assert name not in [r["name"] for r in board["results"]], "not on the day's leaderboard"
    return daily


def test_a_daily_run_that_solves_nothing_is_not_ranked_and_still_the_days_run(
    no_floor: ServerProcess,
) -> None:
    """A script puts each of the day's tasks aside at once: the audit found it ranked. It is
    not ranked, and it was the day's run all the same (else a look at the tasks would come
    free before the counted run)."""
    account = new_account(no_floor, "Skippy")
    c = daily_started(no_floor, account)
    for n in range(5):
        assert c.room is not None
        c.send({"type": "skip", "round": c.room["game"]["round"]})
        c.event("task_skipped")
        if n < 4:
            c.event("task_drawn")
    first = dict(c.event("game_over")["data"]["daily"])
    c.close()
    assert first["solved"] == 0 and not first["rated"] and first["unrated"] == "no task solved"
    board = no_floor.get(f"/api/daily/results?edition={EDITION}&date={first['date']}")
    assert "Skippy" not in [r["name"] for r in board["results"]]
    # the day's run is stored, so the account's next run is not its first
    db = no_floor.database_url.removeprefix("sqlite:///")
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
        runs = con.execute(
            "SELECT rated, unrated FROM daily_results WHERE account = ?", (account["id"],)
        ).fetchall()
    assert runs == [(0, "no task solved")]


def test_a_daily_run_by_script_is_not_ranked_with_or_without_a_trace(
    no_floor: ServerProcess,
) -> None:
    """The probe ranked first on the daily with a script (0.62 s a piece, just over the floor).
    Without a trace it is not rated; with a trace made up to hold together it is held."""
    bare = daily_by_script(no_floor, "Rex", None)
    assert not bare["rated"] and "play trace" in bare["unrated"]
    made_up = daily_by_script(no_floor, "Sol", traced)
    assert not made_up["rated"] and made_up["unrated"] == "held for review"
