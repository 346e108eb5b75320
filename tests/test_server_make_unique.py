"""The editor's "Make it unique" (``POST /api/puzzles/unique``, docs/editor.md) against a real
``ubongo serve`` on an SQLite file: a proposed set really has one solution, "none" is said
clearly, and a scripted cheater is refused: a task being played (its pieces asked to be
kept), a custom puzzle, too large an area, and more asks than the verdicts' one budget."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, server_in

from ubongo import editions, puzzlefile
from ubongo.puzzles.deck import standard_deck
from ubongo.solver import count

EDITION = editions.names()[0]
UNIQUE = "/api/puzzles/unique"
AREA = [".##..", "####.", ".####", ".###."]
_addresses = (f"203.0.113.{i}" for i in itertools.count(101))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from server_in(
        tmp_path_factory.mktemp("unique"),
        args=(
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


def ask(server: ServerProcess, puzzle: Any, who: dict[str, Any]) -> tuple[int, Any]:
    return server.post(UNIQUE, {"puzzle": puzzle}, who["token"], address=who["address"])


def test_a_proposal_has_one_solution_and_keeps_the_chosen_pieces(server: ServerProcess) -> None:
    ann = new_account(server, "Ann")
    status, body = ask(server, {"edition": "classic", "area": AREA, "pieces": list("DIA")}, ann)
    assert status == 200, body
    assert body["found"] and {"D", "I"} <= set(body["pieces"]) and not body["complete"]
    puzzle = puzzlefile.from_json({"edition": "classic", "area": AREA, "pieces": body["pieces"]})
    assert count(puzzle.area, list(puzzle.pieces), limit=2) == 1
    assert body["message"].startswith("Exactly one solution with")
    # no piece chosen yet: a set all the same
    status, body = ask(server, {"edition": "classic", "area": AREA, "pieces": []}, ann)
    assert status == 200 and body["found"], body
    # Trigo's two areas together, numbered pieces answered as numbers
    side = standard_deck("trigo").cards[0].sides[0]
    drawn = {"edition": "trigo", "area": [list(c) for c in sorted(side.area.cells)], "pieces": []}
    status, body = ask(server, drawn, ann)
    assert status == 200 and body["found"] and all(isinstance(p, int) for p in body["pieces"])


def test_none_is_said_clearly(server: ServerProcess) -> None:
    ben = new_account(server, "Ben")
    status, body = ask(server, {"edition": "classic", "area": ["#"], "pieces": []}, ben)
    assert status == 200, body
    assert (body["found"], body["pieces"], body["complete"], body["candidates"]) == (
        False,
        [],
        True,
        0,
    )
    assert body["message"].startswith("No set of this edition's pieces")
    side = standard_deck("3d").cards[0].sides[0]
    slab = {"edition": "3d", "area": [list(c) for c in sorted(side.area.cells)], "pieces": []}
    status, body = ask(server, slab, ben)
    assert status == 200 and not body["found"] and body["complete"], body
    assert body["tried"] == body["candidates"] > 0


def test_a_task_in_play_gets_no_proposal(server: ServerProcess) -> None:
    """The cheater takes the task just dealt in a rated room and asks to keep its pieces."""
    cy = new_account(server, "Cy")
    status, seat = server.post(
        "/api/quickmatch", {"edition": EDITION, "players": 2}, cy["token"], address=cy["address"]
    )
    assert status == 201, seat
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    task = c.event("round_started")["room"]["game"]["tasks"][str(seat["seat"])]
    status, body = ask(
        server, {"edition": EDITION, "area": task["area"], "pieces": task["pieces"]}, cy
    )
    assert (status, body["error"]["code"]) == (403, "no_help"), body
    c.close()


def test_bad_asks_are_refused(server: ServerProcess) -> None:
    dee = new_account(server, "Dee")
    custom = {"lattice": "square", "area": ["##"], "pieces": [{"id": "a", "cells": [[0, 0]]}]}
    for puzzle in (
        custom,
        {"edition": "classic", "area": ["#" * 9] * 8, "pieces": []},
        {"edition": "chess", "area": ["#"], "pieces": []},
        {"edition": "classic", "area": ["#"], "pieces": ["Z"]},
    ):
        status, body = ask(server, puzzle, dee)
        assert (status, body["error"]["code"]) == (422, "bad_puzzle"), (puzzle, body)
    status, body = server.post(UNIQUE, {"puzzle": {"edition": "classic"}})
    assert (status, body["error"]["code"]) == (401, "bad_token")
    assert server.get("/api/health")["ok"] is True


def test_it_spends_the_verdicts_budget(tmp_path: Path) -> None:
    for strict in server_in(tmp_path, args=("--verdicts-per-minute=3",)):
        address = next(_addresses)
        status, who = strict.post("/api/accounts", {"name": "Eve"}, address=address)
        who = {**who, "address": address}
        free = {"edition": "classic", "area": AREA, "pieces": list("DIG")}
        verdict = strict.post("/api/puzzles/verdict", {"puzzle": free}, who["token"], address)
        assert verdict[0] == 200
        assert [ask(strict, free, who)[0] for _ in range(3)] == [200, 200, 429]
        status, body = strict.post("/api/puzzles/verdict", {"puzzle": free}, who["token"], address)
        assert (status, body["error"]["code"]) == (429, "rate_limited")
