"""Replays (``GET /api/games/{id}/replay``) and the live games to watch (``GET /api/live``),
against a real ``ubongo serve`` process (SQLite file): a replay rebuilt by the rules agrees
with what the clients saw while the game was played."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from server_harness import Client, ServerProcess, server_in, solution

from ubongo.board import Area, Placement, check_cover
from ubongo.pieces import edition
from ubongo.solver import count


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from server_in(tmp_path_factory.mktemp("server"))


def _status(server: ServerProcess, path: str) -> tuple[int, Any]:
    import json

    try:
        with urllib.request.urlopen(server.url + path, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _play(
    server: ServerProcess, ed: str, puzzles: str, seed: int, **settings: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ada and a hard bot play a short game; Ada solves every second round's task and lets
    the others run out. What Ada saw: each round_started's tasks (by round), each round_ended,
    and game_over's data."""
    created = server.create_room(
        "Ada",
        edition=ed,
        seed=seed,
        rounds=2,
        between_seconds=0.2,
        puzzles=puzzles,
        **settings,
    )
    ada = Client(server)
    ada.hello(created["code"], created["token"])
    ada.reply({"type": "add_bot", "level": "hard"}, "bot_added")
    ada.send({"type": "start"})
    seen: dict[str, Any] = {"tasks": {}, "ended": {}, "submitted": {}}
    while True:
        ev = ada.wait(
            lambda m: (
                m["type"] == "event"
                and m["kind"] in ("round_started", "playoff", "round_ended", "game_over")
            ),
            60,
        )
        if ev["kind"] == "game_over":
            break
        game = ev["room"]["game"]
        if ev["kind"] == "round_ended":
            seen["ended"][ev["data"]["round"]] = ev["data"]
            continue
        seen["tasks"][game["round"]] = game["tasks"]
        mine = game["tasks"].get("0")
        if mine is not None and game["round"] % 2 == 1:
            placements = solution(mine, ed)
            verdict = ada.reply(
                {"type": "submit", "round": game["round"], "placements": placements}, "verdict"
            )
            if verdict.get("ok"):
                seen["submitted"][game["round"]] = placements
    ada.close()
    return seen, ev["data"]


@pytest.mark.parametrize(
    ("ed", "puzzles", "fast"),
    [
        ("classic", "standard", {"hourglass_seconds": 1.5}),
        ("classic", "fresh", {"hourglass_seconds": 1.5}),
        ("extreme", "standard", {"countdown_seconds": 1.0, "side": "B"}),
    ],
)
def test_replay_agrees_with_what_the_players_saw(
    server: ServerProcess, ed: str, puzzles: str, fast: dict[str, Any]
) -> None:
    seen, over = _play(server, ed, puzzles, 31, **fast)
    replay = server.get(f"/api/games/{over['game_id']}/replay")
    assert replay["id"] == over["game_id"] and replay["edition"] == ed
    assert replay["puzzles"] == puzzles
    assert [p["name"] for p in replay["players"]][:1] == ["Ada"]
    # every round the players saw, with the tasks they were dealt (fresh: made again)
    assert [r["number"] for r in replay["rounds"]] == sorted(seen["tasks"])
    for r in replay["rounds"]:
        dealt = seen["tasks"][r["number"]]
        assert {str(t["seat"]): t["task"] for t in r["tasks"]} == dealt
        ended = seen["ended"].get(r["number"])
        assert ended is not None and r["finish_order"] == ended["finish_order"]
        assert r["awards"] == ended["awards"]
        finishers = [t for t in r["tasks"] if t["outcome"] == "finished"]
        assert sorted(t["place"] for t in finishers) == list(range(1, len(finishers) + 1))
        for t in r["tasks"]:
            if t["outcome"] != "finished":
                assert t["placements"] is None
                continue
            assert 0 <= t["at"] <= r["seconds"]
            task = t["task"]
            ed_ = edition(ed)
            area = Area(ed_.area_lattice, frozenset(tuple(c) for c in task["area"]), task["layers"])
            shown = [
                Placement(p["piece"], p["transform"], tuple(p["offset"])) for p in t["placements"]
            ]
            assert check_cover(area, [ed_.piece(p) for p in task["pieces"]], shown).ok
            if t["seat"] == 0:  # Ada's are the very placements she submitted
                assert t["placements"] == seen["submitted"][r["number"]]
    assert replay["result"]["winners"] == over["winners"]
    assert replay["result"]["scores"] == over["scores"]
    rounds = [r for r in replay["rounds"] if r["kind"] == "round"]
    assert rounds[-1]["scores"] == over["scores"]
    assert replay["seconds"] >= sum(r["seconds"] for r in replay["rounds"]) - 1e-6
    # a second look gives the same replay
    assert server.get(f"/api/games/{over['game_id']}/replay") == replay


def test_a_fresh_game_replays_the_same_tasks(server: ServerProcess) -> None:
    """Two fresh games with one seed deal the same tasks, and so do their replays; another
    seed deals others."""
    fast = {"hourglass_seconds": 1.0}
    first, over1 = _play(server, "classic", "fresh", 77, **fast)
    _, over2 = _play(server, "classic", "fresh", 77, **fast)
    r1 = server.get(f"/api/games/{over1['game_id']}/replay")
    r2 = server.get(f"/api/games/{over2['game_id']}/replay")
    tasks1 = [[t["task"] for t in r["tasks"]] for r in r1["rounds"]][:2]
    tasks2 = [[t["task"] for t in r["tasks"]] for r in r2["rounds"]][:2]
    assert tasks1 == tasks2
    assert tasks1[0] == [first["tasks"][1][s] for s in sorted(first["tasks"][1])]


@pytest.mark.parametrize(
    ("ed", "fast"), [("classic", {"hourglass_seconds": 1.5}), ("3d", {"hourglass_seconds": 2})]
)
def test_the_analysis_shows_each_tasks_solutions_and_times(
    server: ServerProcess, ed: str, fast: dict[str, Any]
) -> None:
    _seen, over = _play(server, ed, "standard", 5, **fast)
    analysis = server.get(f"/api/games/{over['game_id']}/analysis")
    replay = server.get(f"/api/games/{over['game_id']}/replay")
    assert [r["number"] for r in analysis["rounds"]] == [r["number"] for r in replay["rounds"]]
    ed_ = edition(ed)
    for r, played in zip(analysis["rounds"], replay["rounds"], strict=True):
        for t, dealt in zip(r["tasks"], played["tasks"], strict=True):
            assert t["seat"] == dealt["seat"]
            task = dealt["task"]
            area = Area(ed_.area_lattice, frozenset(tuple(c) for c in task["area"]), task["layers"])
            pieces = [ed_.piece(p) for p in task["pieces"]]
            # the solution shown covers the task; the count is the solver's
            shown = [
                Placement(p["piece"], p["transform"], tuple(p["offset"])) for p in t["solution"]
            ]
            assert check_cover(area, pieces, shown).ok
            assert t["solutions"] == min(count(area, pieces, limit=201), 200) >= 1
            assert t["median_seconds"] > 0
            if dealt["outcome"] == "finished":
                assert t["seconds"] == round(dealt["at"] - dealt["shown"], 1)
            else:
                assert t["seconds"] is None and t["own_differs"] is False
    # Ada solved the odd rounds with the solver's own answer: the same as the one shown
    ada = [t for r in analysis["rounds"] if r["number"] % 2 for t in r["tasks"] if t["seat"] == 0]
    assert ada and all(t["seconds"] is not None and not t["own_differs"] for t in ada)
    status, body = _status(server, "/api/games/999999/analysis")
    assert (status, body["error"]["code"]) == (404, "no_game")


def test_a_game_file_replays_as_its_stored_game_and_a_forged_one_is_refused(
    server: ServerProcess,
) -> None:
    _seen, over = _play(server, "classic", "fresh", 12, hourglass_seconds=1.5)
    game = server.get(f"/api/games/{over['game_id']}")
    replay = server.get(f"/api/games/{over['game_id']}/replay")
    file = {"format": "ubongo-game", "version": 1, "game": game, "tasks": []}
    status, replayed = server.post("/api/replays", file)
    assert (status, replayed) == (200, replay)
    # actions the rules refuse, a game missing a field, not a game file at all
    forged = {**game, "events": [*game["events"][:2], {"kind": "submit", "player": "9"}]}
    for body, code in (
        ({**file, "game": forged}, "bad_game"),
        ({**file, "game": {k: v for k, v in game.items() if k != "seed"}}, "bad_game"),
        ({**file, "format": "chess-pgn"}, "bad_message"),
    ):
        status, refused = server.post("/api/replays", body)
        assert (status, refused["error"]["code"]) == (422, code), refused


@pytest.mark.parametrize("game_id", ["999999", "0", "-3", str(2**63), "abc"])
def test_unknown_replay_is_a_clear_error(server: ServerProcess, game_id: str) -> None:
    status, body = _status(server, f"/api/games/{game_id}/replay")
    if game_id == "abc":
        assert status == 422 and body["error"]["code"] == "bad_message"
    else:
        assert (status, body["error"]["code"]) == (404, "no_game")
        assert "no game" in body["error"]["message"]
    assert server.get("/api/health")["ok"]


def test_live_list_shows_running_public_rooms_only(server: ServerProcess) -> None:
    """A running unlocked room is listed (no token, no invite); a lobby, a locked room and a
    finished game are not; a spectator can watch a listed room by its code."""
    slow = {"hourglass_seconds": 4.0, "rounds": 1, "between_seconds": 0.2}
    # a running, unlocked game
    running = server.create_room("Ada", edition="classic", puzzles="standard", **slow)
    ada = Client(server)
    ada.hello(running["code"], running["token"])
    ada.reply({"type": "add_bot", "level": "easy"}, "bot_added")
    ada.send({"type": "start"})
    ada.event("round_started", 30)
    # a locked one, running too
    locked = server.create_room("Bob", edition="classic", puzzles="standard", **slow)
    bob = Client(server)
    bob.hello(locked["code"], locked["token"])
    bob.reply({"type": "add_bot", "level": "easy"}, "bot_added")
    bob.reply({"type": "lock", "locked": True}, "locked")
    bob.send({"type": "start"})
    bob.event("round_started", 30)
    # a lobby
    lobby = server.create_room("Cy", edition="classic")
    live = server.get("/api/live")
    codes = [r["code"] for r in live]
    assert running["code"] in codes
    assert locked["code"] not in codes and lobby["code"] not in codes
    mine = live[codes.index(running["code"])]
    assert mine["players"][0]["name"] == "Ada" and mine["players"][1]["kind"] == "bot"
    assert mine["edition"] == "classic" and mine["round"] == 1 and mine["kind"] == "round"
    text = str(live)
    for secret in (running["token"], running["invite"].rsplit("/", 1)[-1], locked["token"]):
        assert secret not in text
    # watching it is spectating by the code
    watcher = Client(server)
    welcome = watcher.hello(mine["code"], spectate=True)
    assert welcome["seat"] is None and welcome["room"]["game"]["round"] == 1
    watcher.close()
    # once over, it is gone from the list
    game = mine_game = ada.room["game"] if ada.room else None
    while True:
        assert game is not None
        task = game["tasks"].get("0")
        if task is not None and game["stage"] != "between":
            ada.send(
                {"type": "submit", "round": game["round"], "placements": solution(task, "classic")}
            )
        ev = ada.wait(lambda m: m["type"] == "event" and m["kind"] in ("playoff", "game_over"), 60)
        if ev["kind"] == "game_over":
            break
        game = ev["room"]["game"]
    assert mine_game is not None and ev["data"]["game_id"] is not None
    assert running["code"] not in [r["code"] for r in server.get("/api/live")]
    ada.close()
    bob.close()
