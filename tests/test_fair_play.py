"""Fair play against a real ``ubongo serve``: each test is a scripted client trying one way to
top rated play or its leaderboards as a cheater would (the project's solver is public), and
the server's answer to it (docs/fair-play.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, server_in, solution
from waiting import eventually

from ubongo import editions
from ubongo.pieces import edition
from ubongo.server.online import ratings

EDITION = editions.names()[0]
WAIT = 1.0


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
        ),
    )


def new_account(server: ServerProcess, name: str) -> dict[str, Any]:
    status, body = server.post("/api/accounts", {"name": name})
    assert status == 201, body
    return dict(body)


def quick_match_against_a_bot(server: ServerProcess, account: dict[str, Any]) -> dict[str, Any]:
    status, seat = server.post(
        "/api/quickmatch", {"edition": EDITION, "players": 2}, account["token"]
    )
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
    game = c.event("round_started")["room"]["game"]
    placements = solution(game["tasks"][str(seat["seat"])], EDITION)
    verdict = c.reply(
        {"type": "submit", "round": game["round"], "placements": placements}, "verdict"
    )
    assert verdict["ok"]
    over = c.event("game_over")
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


def traced(placements: list[dict[str, Any]], gap: float = 0.2) -> list[dict[str, Any]]:
    """A trace a script could make up for its solver's answer: each piece picked and placed
    once, ``gap`` seconds apart."""
    steps: list[dict[str, Any]] = []
    for i, p in enumerate(placements):
        steps.append({"t": round(i * gap, 3), "op": "pick", "piece": p["piece"]})
        steps.append({"t": round(i * gap + gap / 2, 3), "op": "place", **p})
    return steps


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
    game = c.event("round_started")["room"]["game"]
    placements = solution(game["tasks"][str(seat["seat"])], EDITION)
    message = {"type": "submit", "round": game["round"], "placements": placements}
    if trace is not None:
        message["trace"] = trace(placements)
    assert c.reply(message, "verdict")["ok"]
    over = c.event("game_over")
    c.close()
    return account, seat, server.get(f"/api/games/{over['data']['game_id']}")


def test_a_rated_finish_without_a_trace_is_not_rated(no_floor: ServerProcess) -> None:
    """The script of the probe, which sends the arrangement and nothing else: it wins the
    game, but its rating does not move."""
    account, seat, stored = rated_race_won_with(no_floor, "Lu", None)
    assert stored["winners"] == [seat["seat"]]
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


def test_a_consistent_trace_is_rated(no_floor: ServerProcess) -> None:
    """The trace holds together (times in order, within the server's own time, ending in the
    answer, at a hand's pace): the finish is rated, and the trace is kept, not published."""
    account, _seat, stored = rated_race_won_with(no_floor, "Oz", traced)
    assert stored["result"]["unrated"] == {}
    rating = no_floor.get(f"/api/accounts/{account['id']}")["ratings"][EDITION]
    assert rating["games"] == 1 and rating["mu"] > ratings.MU
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
