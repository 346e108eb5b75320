"""The puzzle editor's verdict (``POST /api/puzzles/verdict``, docs/editor.md) against a real
``ubongo serve``: the figures of a drawn puzzle, the reasons of one that has no solution, and
a scripted attacker: the solver asked about a task being played (under new piece names), a
puzzle too large for the bound, more verdicts than the limits allow, and bodies that are not
puzzles, the server answering each with a clear refusal and staying up."""

from __future__ import annotations

import itertools
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, server_in

from ubongo import editions, puzzlefile
from ubongo.board import Placement, check_cover
from ubongo.pieces import edition

EDITION = editions.names()[0]
VERDICT = "/api/puzzles/verdict"
#: a puzzle nobody plays, with one solution (the example of ubongo.puzzles.hints)
FREE = {"edition": "classic", "area": [".##..", "####.", ".####", ".###."], "pieces": list("DIG")}

#: a fresh client address for each account (TEST-NET-3, never routed; the server trusts
#: ``X-Forwarded-For`` from 127.0.0.1, as from a proxy on the machine)
_addresses = (f"203.0.113.{i}" for i in itertools.count(1))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from server_in(
        tmp_path_factory.mktemp("editor"),
        args=(
            # a quick match's bot comes at once: its task is dealt in a room now
            "--quickmatch-wait=0.5",
            '--quickmatch-settings={"rounds": 1, "hourglass_seconds": 30}',
            "--accounts-per-hour=1000",
        ),
    )


def new_account(server: ServerProcess, name: str) -> dict[str, Any]:
    address = next(_addresses)
    status, body = server.post("/api/accounts", {"name": name}, address=address)
    assert status == 201, body
    return {**body, "address": address}


def ask(server: ServerProcess, puzzle: Any, who: dict[str, Any] | None) -> tuple[int, Any]:
    token = who["token"] if who else None
    address = who["address"] if who else next(_addresses)
    return server.post(VERDICT, {"puzzle": puzzle}, token, address=address)


def test_a_drawn_puzzle_has_its_figures(server: ServerProcess) -> None:
    ann = new_account(server, "Ann")
    status, body = ask(server, FREE, ann)
    assert status == 200, body
    assert (body["solvable"], body["solutions"], body["unique"], body["more"]) == (
        True,
        1,
        True,
        False,
    )
    assert body["grade"] in {"A", "B"} and 0 <= body["faster_than"] <= 1
    assert 5 < body["median_seconds"] < 120 and body["reason"] is None
    # the solution given covers the area
    puzzle = puzzlefile.from_json(FREE)
    placements = [
        Placement(str(p["piece"]), p["transform"], tuple(p["offset"])) for p in body["solution"]
    ]
    assert check_cover(puzzle.area, list(puzzle.pieces), placements).ok
    assert body["message"].startswith("Solvable: a unique solution")


def test_more_solutions_are_counted_to_the_bound(server: ServerProcess) -> None:
    ben = new_account(server, "Ben")
    pieces = [p.id for p in edition("classic").pieces][:6]
    size = sum(len(edition("classic").piece(p).cells) for p in pieces)
    rows = ["#" * 6] * (size // 6) + (["#" * (size % 6)] if size % 6 else [])
    status, body = ask(server, {"edition": "classic", "area": rows, "pieces": pieces}, ben)
    assert status == 200, body
    assert body["solvable"] and not body["unique"] and body["solutions"] >= 2


def test_no_solution_says_why(server: ServerProcess) -> None:
    cy = new_account(server, "Cy")
    # D, I, A: 11 cells against the area's 13
    status, body = ask(server, {**FREE, "pieces": list("DIA")}, cy)
    assert status == 200, body
    assert (body["solvable"], body["reason"]) == (False, "sizes")
    assert (body["area_cells"], body["piece_cells"]) == (13, 11)
    assert body["median_seconds"] is None and body["grade"] is None and body["solution"] == []
    assert "2 cells more" in body["message"]
    # a cell on its own that no piece reaches, the sizes adding up
    lonely = {"edition": "classic", "area": ["###.#", "###..", "###.."], "pieces": ["B", "C", "D"]}
    sizes = [len(edition("classic").piece(p).cells) for p in ("B", "C", "D")]
    assert sum(sizes) == 10, "the test's pieces must fill the ten cells"
    status, body = ask(server, lonely, cy)
    assert (body["reason"], body["unreachable"]) == ("unreachable", [[4, 0]]), body


def test_a_task_in_play_gets_no_verdict_under_any_name(server: ServerProcess) -> None:
    """The attacker: the task just dealt in a rated room, taken from its snapshot, sent to the
    editor as drawn, then with its pieces given as cells under new names. Both refused, as a
    hint would be; the same area with another piece set is answered."""
    di = new_account(server, "Di")
    status, seat = server.post(
        "/api/quickmatch", {"edition": EDITION, "players": 2}, di["token"], address=di["address"]
    )
    assert status == 201, seat
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    task = c.event("round_started")["room"]["game"]["tasks"][str(seat["seat"])]
    ed = edition(EDITION)
    drawn = {"edition": EDITION, "area": task["area"], "pieces": task["pieces"]}
    renamed = {
        "edition": EDITION,
        "area": task["area"],
        "pieces": [
            {"id": f"x{i}", "cells": [list(cell) for cell in sorted(ed.piece(p).cells)]}
            for i, p in enumerate(reversed(task["pieces"]))
        ],
    }
    for asked in (drawn, renamed):
        status, body = ask(server, asked, di)
        assert (status, body["error"]["code"]) == (403, "no_help"), body
    other = [p.id for p in ed.pieces if p.id not in task["pieces"]][: len(task["pieces"])]
    status, body = ask(server, {**drawn, "pieces": other}, di)
    assert status == 200, body
    c.close()


def test_todays_daily_gets_no_verdict(server: ServerProcess) -> None:
    eve = new_account(server, "Eve")
    today = server.get(f"/api/daily?edition={EDITION}")["tasks"][0]
    status, body = ask(server, today, eve)
    assert (status, body["error"]["code"]) == (403, "no_help")


def test_verdicts_need_an_account_and_a_puzzle_in_bounds(server: ServerProcess) -> None:
    status, body = ask(server, FREE, None)
    assert (status, body["error"]["code"]) == (401, "bad_token")
    fay = new_account(server, "Fay")
    every = [p.id for p in edition("classic").pieces]
    status, body = ask(server, {"edition": "classic", "area": ["#" * 8] * 6, "pieces": every}, fay)
    assert (status, body["error"]["code"]) == (422, "bad_puzzle")
    assert "at most 8 pieces and 64 cells, 64 steps across" in body["error"]["message"]
    status, body = ask(server, {"edition": "classic", "area": ["#" * 9] * 8, "pieces": ["A"]}, fay)
    assert (status, body["error"]["code"]) == (422, "bad_puzzle")


#: bodies that are not a verdict's request, each with the code of its refusal
MALFORMED: list[tuple[Any, str]] = [
    ({}, "bad_message"),
    ({"puzzle": "classic"}, "bad_message"),
    ({"puzzle": FREE, "extra": 1}, "bad_message"),
    ({"puzzle": {}}, "bad_puzzle"),
    ({"puzzle": {"edition": "chess", "area": ["#"], "pieces": ["A"]}}, "bad_puzzle"),
    ({"puzzle": {**FREE, "pieces": ["A", "A"]}}, "bad_puzzle"),
    ({"puzzle": {**FREE, "pieces": ["Z"]}}, "bad_puzzle"),
    ({"puzzle": {**FREE, "area": [[0, 0, 0, 0]]}}, "bad_puzzle"),
    # two cells far apart: the solver would lay out a bit grid as wide as the area
    ({"puzzle": {**FREE, "area": [[0, 0], [10**30, 0]], "pieces": ["A"]}}, "bad_puzzle"),
    ({"puzzle": {**FREE, "area": [[0, 0], [0, 10**6]], "pieces": ["A"]}}, "bad_puzzle"),
    ({"puzzle": {**FREE, "area": [["a", 1]]}}, "bad_puzzle"),
    ({"puzzle": {**FREE, "area": "####"}}, "bad_puzzle"),
    ({"puzzle": {**FREE, "area": []}}, "bad_puzzle"),
    ({"puzzle": {"lattice": "hexagon", "area": [[0, 0]], "pieces": [{"id": "a"}]}}, "bad_puzzle"),
    ([FREE], "bad_message"),
]


def test_malformed_bodies_are_refused_and_the_server_stays_up(server: ServerProcess) -> None:
    gus = new_account(server, "Gus")
    for body, code in MALFORMED:
        status, answer = server.post(VERDICT, body, gus["token"], address=gus["address"])
        assert 400 <= status < 500 and answer["error"]["code"] == code, (body, answer)
    # not JSON at all
    req = urllib.request.Request(
        server.url + VERDICT,
        data=b'{"puzzle": {"edition": ',
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {gus['token']}"},
        method="POST",
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(req, timeout=10)
    assert refused.value.code == 422
    assert json.loads(refused.value.read())["error"]["code"] == "bad_message"
    # the hint route is held to the same bounds
    far = {"puzzle": {**FREE, "area": [[0, 0], [10**9, 0]], "pieces": ["A"]}, "placements": []}
    status, answer = server.post("/api/hint", far, gus["token"], address=gus["address"])
    assert (status, answer["error"]["code"]) == (422, "bad_puzzle"), answer
    assert server.get("/api/health")["ok"] is True
    assert ask(server, FREE, gus)[0] == 200


def test_verdicts_are_limited_per_account_and_address(tmp_path: Path) -> None:
    args = ("--verdicts-per-minute=3", "--verdicts-per-minute-per-address=5")
    for strict in server_in(tmp_path, args=args):
        address = next(_addresses)
        one, two = (
            {**strict.post("/api/accounts", {"name": n}, address=address)[1], "address": address}
            for n in ("Hal", "Ida")
        )
        assert [ask(strict, FREE, one)[0] for _ in range(4)] == [200, 200, 200, 429]
        # the address's own limit: the second account gets two before the address's five
        assert [ask(strict, FREE, two)[0] for _ in range(3)] == [200, 200, 429]
        status, headers, body = strict.request_with_headers(
            "POST", VERDICT, {"puzzle": FREE}, two["token"], address
        )
        assert (status, body["error"]["code"]) == (429, "rate_limited")
        assert int(headers["retry-after"]) > 0
