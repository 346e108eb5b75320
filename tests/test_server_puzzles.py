"""The daily challenge and hints over HTTP, against a real server: every daily task is a puzzle
file the solver solves, the set is the same on every call and differs by day and edition, and
following the server's hints always ends in a cover the board's checker accepts."""

from __future__ import annotations

import datetime
import json
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest
from server_harness import Client, ServerProcess, server_in

from ubongo import editions, puzzlefile
from ubongo.board import Area, Placement, check_cover
from ubongo.geometry import SQUARE
from ubongo.pieces import edition
from ubongo.puzzles.deck import standard_deck
from ubongo.solver import solve


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # many hints from one account here: the limits are tested in tests/test_fair_play.py
    args = ("--hints-per-minute=1000", "--hints-per-minute-per-address=1000")
    yield from server_in(tmp_path_factory.mktemp("puzzles"), args=args)


@pytest.fixture(scope="module")
def token(server: ServerProcess) -> str:
    """An account's token: hints are for accounts."""
    status, body = server.post("/api/accounts", {"name": "Hinted"})
    assert status == 201, body
    return str(body["token"])


def _error(server: ServerProcess, path: str) -> tuple[int, Any]:
    with pytest.raises(urllib.error.HTTPError) as e:
        server.get(path)
    return e.value.code, json.loads(e.value.read() or b"null")


@pytest.mark.parametrize("edition", editions.names())
def test_the_daily_tasks_are_solvable_puzzle_files_the_same_for_everyone(
    server: ServerProcess, edition: str
) -> None:
    day = server.get(f"/api/daily?edition={edition}&date=2026-11-20")
    assert day["date"] == "2026-11-20" and day["edition"] == edition
    assert len(day["tasks"]) == len(day["seconds"]) == 5
    assert day["seconds"] == sorted(day["seconds"])  # easiest first
    for task in day["tasks"]:
        puzzle = puzzlefile.from_json(task)
        assert puzzle.edition == edition
        assert solve(puzzle.area, puzzle.pieces) is not None
    assert server.get(f"/api/daily?edition={edition}&date=2026-11-20") == day
    other = server.get(f"/api/daily?edition={edition}&date=2026-11-21")
    assert other["tasks"] != day["tasks"]


def test_today_is_the_default_day_and_the_future_is_refused(server: ServerProcess) -> None:
    today = datetime.datetime.now(datetime.UTC).date()
    # the server's day, read around the call (a test run at midnight sees either)
    day = server.get("/api/daily")["date"]
    assert day in {today.isoformat(), datetime.datetime.now(datetime.UTC).date().isoformat()}
    tomorrow = today + datetime.timedelta(days=2)
    for bad in (tomorrow.isoformat(), "2025-12-31", "yesterday", "2026-13-01"):
        status, body = _error(server, f"/api/daily?date={bad}")
        assert (status, body["error"]["code"]) == (422, "bad_date"), bad
    status, body = _error(server, "/api/daily?edition=" + "x" * 500)
    assert (status, body["error"]["code"]) == (404, "no_edition")
    assert len(body["error"]["message"]) < 100  # the name is not echoed whole


@pytest.mark.parametrize("edition", editions.names())
def test_following_the_servers_hints_solves_a_daily_task(
    server: ServerProcess, token: str, edition: str
) -> None:
    task = server.get(f"/api/daily?edition={edition}&date=2026-11-22")["tasks"][-1]
    puzzle = puzzlefile.from_json(task)
    placements: list[dict[str, Any]] = []
    for _ in puzzle.pieces:
        status, answer = server.post("/api/hint", {"puzzle": task, "placements": placements}, token)
        assert status == 200 and answer["placement"] is not None, answer
        placements.append(
            {"piece": answer["placement"]["piece"], "cells": answer["placement"]["cells"]}
        )
    status, answer = server.post("/api/hint", {"puzzle": task, "placements": placements}, token)
    assert answer["solved"] is True and answer["placement"] is None
    by_id = {p.id: p for p in puzzle.pieces}
    covered = [
        Placement.covering(by_id[str(pl["piece"])], [tuple(c) for c in pl["cells"]])
        for pl in placements
    ]
    assert check_cover(puzzle.area, puzzle.pieces, covered).ok


def test_a_stuck_board_is_told_what_to_move(server: ServerProcess, token: str) -> None:
    # the D of this area, put where the I can no longer fit (see ubongo.puzzles.hints)
    task = {
        "edition": "classic",
        "area": [".##..", "####.", ".####", ".###."],
        "pieces": ["D", "I", "G"],
    }
    wrong = {"piece": "D", "cells": [[1, 1], [2, 0], [2, 1], [2, 2]]}
    status, answer = server.post("/api/hint", {"puzzle": task, "placements": [wrong]}, token)
    assert status == 200
    assert answer["placement"] is None and answer["move"] == ["D"] and not answer["solved"]
    assert "move D" in answer["message"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"puzzle": {"edition": "classic"}, "placements": []}, "bad_puzzle"),
        ({"puzzle": {"edition": "chess", "area": ["#"], "pieces": []}}, "bad_puzzle"),
        ({"puzzle": {"edition": "classic", "area": ["#" * 20] * 8, "pieces": ["A"]}}, "bad_puzzle"),
        ({"puzzle": "classic"}, "bad_message"),
        (
            {
                "puzzle": {"edition": "classic", "area": ["##"], "pieces": ["A"]},
                "placements": [{"piece": "A"}],
            },
            "bad_message",
        ),
    ],
)
def test_bad_puzzles_are_refused(
    server: ServerProcess, token: str, body: dict[str, Any], code: str
) -> None:
    status, answer = server.post("/api/hint", body, token)
    assert (status, answer["error"]["code"]) == (422, code)


def test_bad_placements_are_refused_with_a_reason(server: ServerProcess, token: str) -> None:
    task = {
        "edition": "classic",
        "area": [".##..", "####.", ".####", ".###."],
        "pieces": ["D", "I", "G"],
    }
    cases = {
        "not one of this task's pieces": [{"piece": "Z", "cells": [[0, 1]]}],
        "cannot be turned": [{"piece": "D", "cells": [[0, 1], [1, 1]]}],
        "outside the area": [{"piece": "D", "cells": [[10, 1], [11, 0], [11, 1], [11, 2]]}],
        "both cover": [
            {"piece": "D", "cells": [[1, 1], [2, 0], [2, 1], [2, 2]]},
            {"piece": "I", "cells": [[0, 1], [1, 0], [1, 1], [1, 2], [1, 3]]},
        ],
        "placed twice": [
            {"piece": "D", "cells": [[1, 1], [2, 0], [2, 1], [2, 2]]},
            {"piece": "D", "cells": [[1, 1], [2, 0], [2, 1], [2, 2]]},
        ],
    }
    for reason, placements in cases.items():
        status, answer = server.post("/api/hint", {"puzzle": task, "placements": placements}, token)
        assert (status, answer["error"]["code"]) == (422, "bad_placement"), (reason, answer)
        assert reason in answer["error"]["message"]


def _first_round(server: ServerProcess, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh room (Ada and an easy bot) with ``seed``: its first round's tasks, and the end of
    that round, which Ada lets run out."""
    created = server.create_room(
        "Ada", edition="classic", seed=seed, hourglass_seconds=1.0, rounds=1, between_seconds=0.2
    )
    ada = Client(server)
    assert ada.hello(created["code"], created["token"])["room"]["settings"]["puzzles"] == "fresh"
    ada.reply({"type": "add_bot", "level": "easy"}, "bot_added")
    ada.send({"type": "start"})
    tasks = ada.event("round_started", 30)["room"]["game"]["tasks"]
    ended = ada.event("round_ended", 30)
    ada.close()
    return tasks, ended


def test_rooms_with_the_same_seed_get_the_same_fresh_tasks(server: ServerProcess) -> None:
    first, ended = _first_round(server, seed=4242)
    again, _ = _first_round(server, seed=4242)
    other, _ = _first_round(server, seed=4343)
    assert first == again
    assert [t["area"] for t in first.values()] != [t["area"] for t in other.values()]
    # the cards were made for this game (in the server's worker), not taken from the deck
    shipped = standard_deck("classic")
    shipped_areas = {s.area.cells for c in shipped.cards for s in c.sides}
    assert not {frozenset(tuple(c) for c in t["area"]) for t in first.values()} & shipped_areas
    # Ada did not finish: the round's end shows her a solution of her fresh task, which covers it
    task = first["0"]
    shown = ended["data"]["solutions"]["0"]
    area = Area(SQUARE, frozenset(tuple(c) for c in task["area"]))
    pieces = [edition("classic").piece(p) for p in task["pieces"]]
    placements = [Placement(p["piece"], p["transform"], tuple(p["offset"])) for p in shown]
    assert check_cover(area, pieces, placements).ok
