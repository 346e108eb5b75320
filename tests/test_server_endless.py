"""Endless solo on a real server: tasks chosen for the player's rating over the WebSocket,
the ratings learned into a real SQLite file, the stored game replayed."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, replayed, server_in, solution
from waiting import eventually

from ubongo.puzzles.ratings import Rating, update
from ubongo.server.online.task_ratings import learn_task
from ubongo.server.store import Store, TaskRating, TaskResult


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("endless")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[ServerProcess]:
    # a machine plays here: it solves faster than a hand
    yield from server_in(folder, args=("--record-seconds-per-piece", "0", "--no-require-traces"))


def submit(c: Client, game: dict[str, Any], edition: str) -> dict[str, Any]:
    task = game["tasks"]["0"]
    return c.reply(
        {"type": "submit", "round": game["round"], "placements": solution(task, edition)},
        "verdict",
    )


def rows(url: str, fingerprints: list[str], timeout: float = 10.0) -> list[TaskRating]:
    """The stored ratings of these tasks, once all are there (they are stored in a thread)."""
    store = Store(url)
    try:
        with contextlib.suppress(AssertionError):  # the caller says what is missing
            eventually(
                lambda: all(store.task_ratings.of_task(f) for f in fingerprints),
                "the tasks' ratings",
                timeout,
                every=0.1,
            )
        found = [store.task_ratings.of_task(f) for f in fingerprints]
        return [f for f in found if f is not None]
    finally:
        store.close()


def test_an_endless_run_over_the_websocket(server: ServerProcess, folder: Path) -> None:
    room = server.create_room("Eli", edition="classic", mode="solo", solo_goal="endless", seed=77)
    c = Client(server)
    welcome = c.hello(room["code"], room["token"])
    assert welcome["room"]["settings"]["solo_goal"] == "endless"
    c.send({"type": "start"})
    game = c.event("round_started", timeout=30)["room"]["game"]
    endless = game["solo"]["endless"]
    assert game["solo"]["goal"] == "endless" and game["solo"]["amount"] == 0
    assert endless["rating"] == 1500.0 and endless["rated"] == 0
    assert game["deadline"] is not None and endless["task_limit"] in (60.0, 45.0, 30.0)
    first_rating = endless["task_rating"]

    # two fast solves: the rating climbs and the tasks follow it
    changes = []
    for _ in range(2):
        verdict = submit(c, game, "classic")
        assert verdict["ok"], verdict
        rated = c.event("task_rated")
        assert rated["data"]["why"] == "solved" and rated["data"]["score"] == 1.0
        changes.append(rated["data"]["change"])
        game = c.event("task_drawn")["room"]["game"]
    assert all(ch > 0 for ch in changes)
    after_wins = game["solo"]["endless"]
    assert after_wins["rating"] > 1600.0 and after_wins["task_rating"] > first_rating

    # a task put aside is a loss
    c.send({"type": "skip", "round": game["round"]})
    rated = c.event("task_rated")
    assert rated["data"]["why"] == "skipped" and rated["data"]["change"] < 0
    game = c.event("task_drawn")["room"]["game"]
    assert game["solo"]["endless"]["rated"] == 3 and game["solo"]["skipped"] == 1

    # the player stops: the run is over and stored (not a leaderboard record)
    c.send({"type": "stop", "round": game["round"]})
    over = c.event("game_over")
    record = over["data"]["record"]
    assert record["goal"] == "endless" and record["solved"] == 2 and record["rated"] == 3
    assert record["rating"] == pytest.approx(game["solo"]["endless"]["rating"], abs=0.1)
    c.close()
    stored = server.get(f"/api/games/{over['data']['game_id']}")
    again = replayed(stored)
    rated_events = [e for e in stored["result"]["events"] if e["kind"] == "task_rated"]
    assert [e.data for e in again.events if e.kind == "task_rated"] == [
        e["data"] for e in rated_events
    ]
    assert server.get("/api/records?name=Eli") == []  # not a record for the leaderboard

    # every rated task is stored with one play, rated as it went (won: lower, lost: higher)
    learned = rows(server.database_url, [e["data"]["fingerprint"] for e in rated_events])
    assert len(learned) == 3 and all(r.plays == 1 for r in learned)
    for e, row in zip(rated_events, learned, strict=True):
        prior = e["data"]["task"][0] - e["data"]["shift"]
        assert (row.rating < prior) == (e["data"]["score"] == 1.0)


def test_bad_endless_input_is_refused(server: ServerProcess) -> None:
    status, err = server.post(
        "/api/rooms", {"name": "X", "settings": {"mode": "solo", "solo_goal": "forever"}}
    )
    assert status == 422 and "solo_goal" in err["error"]["message"], err
    race = server.create_room("R", edition="classic")
    c = Client(server)
    c.hello(race["code"], race["token"])
    c.send({"type": "add_bot", "level": "easy"})
    c.event("bot_added")
    c.send({"type": "start"})
    game = c.event("round_started", timeout=30)["room"]["game"]
    err = c.reply({"type": "stop", "round": game["round"]}, "error")
    assert err["type"] == "error" and err["code"] == "not_solo"
    err = c.reply({"type": "stop"}, "error")
    assert err["code"] == "bad_message"
    c.close()
    assert server.get("/api/health")


def test_task_and_player_ratings_in_a_sqlite_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ratings.sqlite3'}"
    store = Store(url)
    store.migrate()
    player = Rating(1500.0, 200.0, 0.06)
    task = Rating(1400.0, 250.0, 0.06)
    won = update(player, [(task, 1.0)])
    result = TaskResult(
        fingerprint="f" * 32,
        edition="classic",
        prior=task.as_tuple(),
        shift=0.0,
        score=1.0,
        before=player.as_tuple(),
        after=won.as_tuple(),
        at=1_700_000_000.0,
        account=7,
    )
    first = store.task_ratings.learn(result, learn_task)
    # the task lost to the player: exactly Glicko-2's update of the task as the opponent
    expect = update(task, [(player, 0.0)], rd_bounds=(30.0, 350.0))
    assert first == pytest.approx(expect.as_tuple())
    # played again with a shorter limit (+200): stored for the whole limit, from its stored
    # rating (not the prior again)
    second = store.task_ratings.learn(
        TaskResult(**{**result.__dict__, "shift": 200.0, "score": 0.0, "account": None}),
        learn_task,
    )
    played = update(
        Rating(first[0] + 200.0, first[1], first[2]), [(player, 1.0)], rd_bounds=(30.0, 350.0)
    )
    assert second[0] == pytest.approx(played.rating - 200.0)
    store.close()
    # a new connection to the file sees it all
    store = Store(url)
    row = store.task_ratings.of_task("f" * 32)
    assert row is not None and row.plays == 2 and row.edition == "classic"
    assert store.task_ratings.of_player(7, "classic") == pytest.approx(won.as_tuple())
    assert store.task_ratings.of_player(7, "extreme") is None
    assert store.task_ratings.of_player(8, "classic") is None
    store.close()
