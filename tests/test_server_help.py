"""Hints, giving up, practice and the daily challenge on a real server, over the WebSocket.

A hint is checked against the solver: the piece it shows, with the pieces already placed, can
still be completed to a cover of the area. The daily challenge is played through whole, stored,
put on the day's leaderboard, and a second run of the same account is stored unrated. The
accounts are real ones (``POST /api/accounts``), their tokens sent as ``Authorization: Bearer``.
"""

from __future__ import annotations

import datetime
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from server_harness import Client, ServerProcess, replayed, server_in, solution, today

from ubongo import editions
from ubongo.board import Area, Placement, check_cover
from ubongo.pieces import edition
from ubongo.solver import solve

#: the edition whose daily challenge the tests play: the first in the editions' data
DAILY = editions.names()[0]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # machines play here: no plausibility floor
    args = ("--record-seconds-per-piece", "0", "--no-require-traces")
    yield from server_in(tmp_path_factory.mktemp("help"), args=args)


#: the tests' players by number -> their account's token (made on first use)
TOKENS: dict[int, str] = {}


def token_of(server: ServerProcess, player: int) -> str:
    if player not in TOKENS:
        status, made = server.post("/api/accounts", {"name": f"Dana {player}"})
        assert status == 201, made
        TOKENS[player] = made["token"]
    return TOKENS[player]


def create(
    server: ServerProcess, account: int | None = None, **settings: Any
) -> tuple[int, dict[str, Any]]:
    """``POST /api/rooms`` (as player ``account``'s account, if given): the status and the
    answer."""
    token = None if account is None else token_of(server, account)
    return server.post("/api/rooms", {"name": "Dana", "settings": settings}, token)


def started(server: ServerProcess, account: int | None = None, **settings: Any) -> Client:
    status, seat = create(server, account, **settings)
    assert status == 201, seat
    c = Client(server)
    assert c.hello(seat["code"], seat["token"])["type"] == "welcome"
    c.send({"type": "start"})
    c.event("round_started")
    return c


def task_of(c: Client) -> tuple[int, dict[str, Any]]:
    assert c.room is not None and c.room["game"] is not None
    game = c.room["game"]
    return game["round"], game["tasks"]["0"]


def board(task: dict[str, Any], edition_name: str) -> tuple[Area, dict[str, Any]]:
    ed = edition(edition_name)
    area = Area(ed.area_lattice, frozenset(tuple(x) for x in task["area"]), task["layers"])
    return area, {p: ed.piece(p) for p in task["pieces"]}


def cells(pieces: dict[str, Any], pl: dict[str, Any]) -> frozenset[tuple[int, ...]]:
    return Placement(pl["piece"], pl["transform"], tuple(pl["offset"])).cells(pieces[pl["piece"]])


def completable(task: dict[str, Any], edition_name: str, placed: list[dict[str, Any]]) -> bool:
    """Whether the pieces not in ``placed`` can cover what ``placed`` leaves of the area."""
    area, pieces = board(task, edition_name)
    covered = frozenset().union(*(cells(pieces, pl) for pl in placed))
    if not covered <= area.solid or sum(len(cells(pieces, pl)) for pl in placed) != len(covered):
        return False
    left = [p for pid, p in pieces.items() if pid not in {pl["piece"] for pl in placed}]
    rest = area.solid - covered
    if not left:
        return not rest
    lattice = area.piece_lattice if area.layers > 1 else area.lattice
    return solve(Area(lattice, rest), left) is not None


@pytest.mark.parametrize("edition_name", ["classic", "3d", "trigo"])
def test_each_hint_in_a_solo_run_is_part_of_a_completion_and_costs_time(
    server: ServerProcess, edition_name: str
) -> None:
    c = started(server, edition=edition_name, mode="solo", solo_goal="time")
    round_no, task = task_of(c)
    assert c.room is not None
    deadline = c.room["game"]["deadline"]
    placed: list[dict[str, Any]] = []
    for n in range(len(task["pieces"]) - 1):
        hint = c.reply({"type": "hint", "round": round_no, "placements": placed}, "hint")
        assert hint["type"] == "hint" and hint["placement"] is not None, hint
        assert hint["placement"]["piece"] not in {pl["piece"] for pl in placed}
        placed.append(hint["placement"])
        assert completable(task, edition_name, placed), (placed, task)
        hinted = c.event("hinted")
        assert hinted["data"]["penalty"] == hint["penalty"] == 15.0
        assert hinted["data"]["deadline"] == deadline - 15000 * (n + 1), "the clock ends sooner"
    assert c.room["game"]["solo"]["hints"] == len(task["pieces"]) - 1
    c.close()


def test_a_hint_names_the_pieces_to_move_when_the_board_cannot_be_finished(
    server: ServerProcess,
) -> None:
    c = started(server, edition="classic", mode="solo", solo_goal="practice")
    # a task where some piece, put down somewhere it fits, leaves the rest uncoverable
    for _ in range(10):
        round_no, task = task_of(c)
        area, pieces = board(task, "classic")
        wrong = _a_dead_end(area, pieces)
        if wrong is not None:
            break
        c.reply({"type": "skip", "round": round_no}, "task_drawn")
    else:
        pytest.fail("no task with a dead end in ten")
    hint = c.reply({"type": "hint", "round": round_no, "placements": [wrong]}, "hint")
    assert hint["placement"] is None and hint["move"] == [wrong["piece"]], hint
    assert hint["penalty"] == 0.0, "practice: hints are free"
    c.close()


def _a_dead_end(area: Area, pieces: dict[str, Any]) -> dict[str, Any] | None:
    """A placement of one piece inside the area after which no completion exists."""
    from ubongo.rules.actions import placement_to_json

    first = max(pieces.values(), key=lambda p: p.size)
    lat = first.lattice
    for t in first.allowed_transforms:
        shape = lat.orient(first.cells, t)
        for cell in sorted(area.solid):
            offset = tuple(a - b for a, b in zip(cell, lat.anchor(shape), strict=False))[
                : lat.translation_dims
            ]
            pl = Placement(first.id, t, offset)
            try:
                covers = pl.cells(first)
            except (ValueError, KeyError):
                continue
            if not covers <= area.solid:
                continue
            left = [p for p in pieces.values() if p.id != first.id]
            if solve(Area(area.lattice, area.solid - covers), left) is None:
                return placement_to_json(pl)
    return None


def test_bad_placements_get_no_hint_and_cost_nothing(server: ServerProcess) -> None:
    c = started(server, edition="classic", mode="solo", solo_goal="tasks")
    round_no, task = task_of(c)
    whole = solution(task, "classic")
    twice = [whole[0], whole[0]]
    err = c.reply({"type": "hint", "round": round_no, "placements": twice}, "hint")
    assert (err["type"], err["code"]) == ("error", "bad_placement")
    foreign = [{"piece": "Z9", "transform": 0, "offset": [0, 0]}]
    err = c.reply({"type": "hint", "round": round_no, "placements": foreign}, "hint")
    assert (err["type"], err["code"]) == ("error", "bad_placement")
    # the whole solution down: nothing to hint, nothing charged
    done = c.reply({"type": "hint", "round": round_no, "placements": whole}, "hint")
    assert done["solved"] is True and done["penalty"] == 0.0
    assert c.room is not None and c.room["game"]["solo"]["hints"] == 0
    c.close()


def test_giving_up_in_practice_shows_a_solution_and_deals_the_next(server: ServerProcess) -> None:
    c = started(server, edition="extreme", mode="solo", solo_goal="practice")
    round_no, task = task_of(c)
    assert c.room is not None and c.room["game"]["deadline"] is None, "practice is untimed"
    gave = c.reply({"type": "give_up", "round": round_no}, "gave_up")["data"]
    assert gave["task"] == task
    area, pieces = board(task, "extreme")
    shown = [Placement(p["piece"], p["transform"], tuple(p["offset"])) for p in gave["solution"]]
    assert check_cover(area, list(pieces.values()), shown).ok, "a whole solution"
    drawn = c.event("task_drawn")
    assert drawn["room"]["game"]["solo"]["gave_up"] == 1
    assert drawn["room"]["game"]["solo"]["done"] == 0, "a task given up is not solved"
    c.close()


def test_hints_and_giving_up_are_refused_in_a_race(server: ServerProcess) -> None:
    status, seat = create(server, edition="classic", hourglass_seconds=30)
    assert status == 201
    c = Client(server)
    c.hello(seat["code"], seat["token"])
    c.reply({"type": "add_bot", "level": "easy"}, "bot_added")
    c.send({"type": "start"})
    c.event("round_started")
    round_no, _task = task_of(c)
    for msg in (
        {"type": "hint", "round": round_no, "placements": []},
        {"type": "give_up", "round": round_no},
    ):
        err = c.reply(msg, "hint")
        assert (err["type"], err["code"]) == ("error", "no_help"), err
    c.close()


def play_daily(c: Client, skip: int | None = None) -> dict[str, Any]:
    """Solve the day's tasks (putting task ``skip`` aside): the ``game_over`` event."""
    for n in range(5):
        round_no, task = task_of(c)
        if n == skip:
            c.reply({"type": "skip", "round": round_no}, "task_skipped")
        else:
            msg = {"type": "submit", "round": round_no, "placements": solution(task, "classic")}
            assert c.reply(msg, "verdict")["ok"]
        if n < 4:
            c.event("task_drawn")
    return c.event("game_over")


def test_the_daily_challenge_is_a_solo_run_stored_per_day_once_rated(server: ServerProcess) -> None:
    day = today().isoformat()
    tasks = server.get(f"/api/daily?edition={DAILY}&date={day}")["tasks"]
    games_before = len(server.get("/api/games?limit=100"))

    c = started(server, account=41, edition=DAILY, mode="solo", puzzles="daily")
    # the day's tasks, in their order, the same as GET /api/daily shows
    assert c.room is not None
    assert sorted(map(tuple, c.room["game"]["tasks"]["0"]["area"])) == sorted(
        map(tuple, tasks[0]["area"])
    )
    round_no, _ = task_of(c)
    err = c.reply({"type": "hint", "round": round_no, "placements": []}, "hint")
    assert (err["type"], err["code"]) == ("error", "no_help"), "no help in the daily challenge"
    over = play_daily(c, skip=2)["data"]
    daily = over["daily"]
    assert daily["rated"] is True and daily["unrated"] is None
    assert (daily["date"], daily["solved"], daily["skipped"]) == (day, 4, 1)
    assert daily["times"][2] is None and all(
        t is not None for i, t in enumerate(daily["times"]) if i != 2
    )
    lines = daily["share"].splitlines()
    assert lines[0] == f"Ubongo Classic daily {day}" and lines[1].split(" · ")[2] == "✗"
    assert lines[2].startswith("4/5 in ")
    assert c.room["daily"] == daily, "the snapshot keeps it"
    # stored, and it replays
    stored = server.get(f"/api/games/{over['game_id']}")
    game = replayed(stored)
    assert game.phase == "over" and game.solo.solved == 4
    c.close()

    # the leaderboard shows the account's name (not the seat's), and its id for the profile
    me = server.request("GET", "/api/accounts/me", token=token_of(server, 41))[1]
    board_ = server.get(f"/api/daily/results?edition={DAILY}&date={day}")
    assert [(r["name"], r["account"], r["solved"], r["skipped"]) for r in board_["results"]] == [
        ("Dana 41", me["id"], 4, 1)
    ]

    # the same account again: played and stored, not rated
    again = started(server, account=41, edition=DAILY, mode="solo", puzzles="daily")
    second = play_daily(again)["data"]["daily"]
    assert second["rated"] is False and "first" in second["unrated"]
    assert second["share"].splitlines()[0].endswith("(unrated)")
    again.close()
    # without an account: unrated too
    nobody = started(server, edition=DAILY, mode="solo", puzzles="daily")
    assert play_daily(nobody)["data"]["daily"]["rated"] is False
    nobody.close()
    # another account's first run is rated, and ranks above (all five solved)
    other = started(server, account=42, edition=DAILY, mode="solo", puzzles="daily")
    assert play_daily(other)["data"]["daily"]["rated"] is True
    other.close()
    results = server.get(f"/api/daily/results?edition={DAILY}&date={day}")["results"]
    assert [(r["rank"], r["solved"]) for r in results] == [(1, 5), (2, 4)]
    assert len(server.get("/api/games?limit=100")) == games_before + 4


def test_daily_bad_input_is_refused_and_nothing_is_stored(server: ServerProcess) -> None:
    tomorrow = (today() + datetime.timedelta(days=1)).isoformat()
    games_before = len(server.get("/api/games?limit=100"))
    for day, code in (
        (tomorrow, "bad_date"),
        ("2025-12-31", "bad_date"),
        ("2026-02-30", "bad_date"),
    ):
        status, err = create(server, 7, edition=DAILY, mode="solo", puzzles="daily", day=day)
        assert (status, err["error"]["code"]) == (422, code), day
    status, err = create(server, 7, edition=DAILY, mode="solo", puzzles="daily", day="today")
    assert (status, err["error"]["code"]) == (422, "bad_message")
    status, err = create(server, 7, edition=DAILY, mode="race", puzzles="daily")
    assert (status, err["error"]["code"]) == (422, "bad_setting")
    for query, code in (
        (f"edition={DAILY}&date={tomorrow}", "bad_date"),
        (f"edition={DAILY}&date=23.11.2026", "bad_date"),
        ("edition=chess", "no_edition"),
    ):
        with pytest.raises(urllib.error.HTTPError) as e:
            server.get(f"/api/daily/results?{query}")
        assert json.loads(e.value.read())["error"]["code"] == code, query
    assert len(server.get("/api/games?limit=100")) == games_before


def test_yesterdays_daily_is_played_unrated_and_its_results_reachable(
    server: ServerProcess,
) -> None:
    yesterday = (today() - datetime.timedelta(days=1)).isoformat()
    c = started(server, account=43, edition=DAILY, mode="solo", puzzles="daily", day=yesterday)
    daily = play_daily(c)["data"]["daily"]
    assert daily["date"] == yesterday and daily["rated"] is False
    assert daily["unrated"] == "played after its day"
    c.close()
    results = server.get(f"/api/daily/results?edition={DAILY}&date={yesterday}")
    assert results["date"] == yesterday and results["results"] == []
