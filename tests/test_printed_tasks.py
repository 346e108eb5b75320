"""A printed deck's task by its code (issue 28, docs/web.md "Solutions for the box"), against a
real ``ubongo serve``: each code names its task as a puzzle file, whose solution the hint
route gives a piece at a time; a code that names nothing says why; and the scripted probe: a
task dealt in a room now, found by its printed code, gets no hint."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from server_harness import Client, ServerProcess, server_in

from ubongo import editions, puzzlefile
from ubongo.board import check_cover
from ubongo.puzzles.codes import task_code
from ubongo.puzzles.deck import standard_deck
from ubongo.rules.actions import placement_from_json

_addresses = (f"198.51.100.{i}" for i in itertools.count(120))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from server_in(tmp_path_factory.mktemp("printed"), args=("--accounts-per-hour=1000",))


def account(server: ServerProcess) -> dict[str, Any]:
    address = next(_addresses)
    status, body = server.post("/api/accounts", {}, address=address)
    assert status == 201, body
    return {**body, "address": address}


def solved_by_hints(
    server: ServerProcess, puzzle: dict[str, Any], who: dict[str, Any]
) -> list[dict[str, Any]]:
    """The hint route asked again and again, each answer put down, until it says solved: the
    hints (``piece``, ``cells``, ``transform``, ``offset``)."""
    hints: list[dict[str, Any]] = []
    for _ in range(10):
        placed = [{"piece": h["piece"], "cells": h["cells"]} for h in hints]
        body = {"puzzle": puzzle, "placements": placed}
        status, answer = server.post("/api/hint", body, who["token"], address=who["address"])
        assert status == 200, answer
        if answer["solved"]:
            return hints
        hints.append(answer["placement"])
    raise AssertionError(f"no solution after 10 hints: {hints}")


@pytest.mark.parametrize("edition", editions.names())
def test_a_printed_code_gives_its_task_and_the_hints_solve_it(
    server: ServerProcess, edition: str
) -> None:
    deck = standard_deck(edition)
    card = deck.card(deck.size)  # the last card: the code's number is read whole
    side = card.sides[-1]
    task = side.tasks[-1]
    code = task_code(edition, card.number, side.name, task.keys[0])
    got = server.get(f"/api/printed/{code.lower()}")
    assert (got["code"], got["edition"], got["card"], got["side"]) == (
        code,
        edition,
        card.number,
        side.name,
    )
    assert got["key"] in task.keys
    puzzle = puzzlefile.from_json(got["puzzle"])
    assert puzzle.area == side.area
    assert sorted(p.id for p in puzzle.pieces) == sorted(task.pieces)
    # the solution a piece at a time covers the area
    hints = solved_by_hints(server, got["puzzle"], account(server))
    assert len(hints) == len(task.pieces)
    placements = [placement_from_json({**h, "piece": str(h["piece"])}) for h in hints]
    assert check_cover(puzzle.area, list(puzzle.pieces), placements).ok


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("chess-1-A-1", "no edition"),
        ("classic-37-A-1", "cards 1 to 36"),
        ("extreme-3-A", "has tasks UL, UR, LL, LR"),
        ("x" * 41, "too long"),
    ],
)
def test_a_code_that_names_no_task_says_why(server: ServerProcess, code: str, says: str) -> None:
    status, body = server.request("GET", f"/api/printed/{code}")
    assert (status, body["error"]["code"]) == (404, "no_task")
    assert says in body["error"]["message"]


def test_a_task_dealt_in_a_room_gets_no_hint_through_its_printed_code(
    server: ServerProcess,
) -> None:
    """The probe: a player in a room of the printed deck's tasks reads the card and key of
    their task, types its code, and asks for the solution: refused (403 no_help)."""
    ada = account(server)
    made = server.create_room_as(ada["token"], "Ada", edition="classic", puzzles="standard")
    c = Client(server)
    assert c.hello(made["code"], made["token"])["type"] == "welcome"
    c.reply({"type": "add_bot", "level": "easy"}, "bot_added")
    c.send({"type": "start"})
    dealt = c.event("round_started")["room"]["game"]["tasks"][str(made["seat"])]
    code = task_code("classic", dealt["card"], dealt["side"], dealt["key"])
    puzzle = server.get(f"/api/printed/{code}")["puzzle"]
    body = {"puzzle": puzzle, "placements": []}
    status, answer = server.post("/api/hint", body, ada["token"], address=ada["address"])
    assert (status, answer["error"]["code"]) == (403, "no_help"), answer
    c.close()
