"""Accounts against a real ``ubongo serve`` on a real SQLite file: a new account and its token,
the token as the only credential (kept as a hash), renaming, runs and games that belong to the
account, public profiles, bad tokens and ids refused, creation limited per address, and records
kept by name before accounts still readable after the migration."""

from __future__ import annotations

import itertools
import re
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, server_in, solution

from ubongo import editions
from ubongo.server.online.accounts import token_hash

EDITION = editions.names()[0]
_numbers = itertools.count(1)


def unique(name: str) -> str:
    """``name`` with a number no other name of this module's has: names are unique by account,
    and the module's tests share one server."""
    return f"{name} {next(_numbers)}"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("accounts")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[ServerProcess]:
    # machine players: no plausibility floor; a generous account limit for the module's tests
    yield from server_in(
        folder,
        args=(
            "--record-seconds-per-piece=0",
            "--no-require-traces",
            "--accounts-per-hour=1000",
            "--rooms-per-minute=1000",
        ),
    )


def new_account(server: ServerProcess, name: str | None = None) -> dict[str, Any]:
    status, body = server.post("/api/accounts", {} if name is None else {"name": name})
    assert status == 201, body
    return dict(body)


def solo_run(server: ServerProcess, name: str, token: str | None) -> int:
    """A five-task solo run of the first edition, played by a solver; its stored game's id."""
    created = server.create_room_as(
        token, name, edition=EDITION, mode="solo", solo_goal="tasks", solo_amount=5
    )
    c = Client(server)
    assert c.hello(created["code"], created["token"])["type"] == "welcome"
    c.send({"type": "start"})
    game = c.event("round_started")["room"]["game"]
    for n in range(5):
        verdict = c.reply(
            {
                "type": "submit",
                "round": game["round"],
                "placements": solution(game["tasks"]["0"], EDITION),
            },
            "verdict",
        )
        assert verdict["ok"], verdict
        if n < 4:
            game = c.event("task_drawn")["room"]["game"]
    over = c.event("game_over")
    c.close()
    return int(over["data"]["game_id"])


def race(server: ServerProcess, created: dict[str, Any], joined: dict[str, Any]) -> int:
    """The host and the second seat play a one-round race, each solving its task; the stored
    game's id."""
    host, other = Client(server), Client(server)
    assert host.hello(created["code"], created["token"])["type"] == "welcome"
    assert other.hello(joined["code"], joined["token"])["type"] == "welcome"
    other.reply({"type": "ready"}, "ready")
    host.send({"type": "start"})
    kinds = ("round_started", "playoff", "game_over")
    ev = host.wait(lambda m: m["type"] == "event" and m["kind"] in kinds)
    while ev["kind"] != "game_over":  # a tie is played off
        game = ev["room"]["game"]
        for c in (host, other):
            if str(c.seat) in game["tasks"]:
                task = game["tasks"][str(c.seat)]
                placements = solution(task, EDITION)
                c.reply(
                    {"type": "submit", "round": game["round"], "placements": placements}, "verdict"
                )
        ev = host.wait(lambda m: m["type"] == "event" and m["kind"] in kinds)
    host.close()
    other.close()
    return int(ev["data"]["game_id"])


def test_a_new_account_has_a_sayable_name_and_a_token_kept_only_as_a_hash(
    server: ServerProcess, folder: Path
) -> None:
    ada = new_account(server)
    assert re.fullmatch(r"[A-Z][a-z]{5} \d\d", ada["name"]), ada["name"]
    assert len(ada["token"]) >= 40
    assert server.request("GET", "/api/accounts/me", token=ada["token"]) == (
        200,
        {"id": ada["id"], "name": ada["name"]},
    )
    chosen = new_account(server, "  Grace\u0000 Hopper ")
    assert chosen["name"] == "Grace Hopper" and chosen["id"] != ada["id"]
    # the database (and its journal) holds the token's hash, never the token
    stored = b"".join(p.read_bytes() for p in folder.glob("games.sqlite3*"))
    assert ada["token"].encode() not in stored
    with sqlite3.connect(folder / "games.sqlite3") as db:
        (hashed,) = db.execute(
            "select token_hash from accounts where id = ?", (ada["id"],)
        ).fetchone()
    assert hashed == token_hash(ada["token"])


@pytest.mark.parametrize(
    "header",
    ["Bearer nobody-has-this-token", "Basic YWRhOmFkYQ==", "Bearer ", "token-without-scheme"],
)
def test_a_wrong_or_malformed_token_is_refused_and_changes_nothing(
    server: ServerProcess, header: str
) -> None:
    ada = new_account(server, unique("Ada"))
    for method, path, body in [
        ("GET", "/api/accounts/me", None),
        ("PATCH", "/api/accounts/me", b'{"name": "Mallory"}'),
        ("POST", "/api/rooms", b'{"name": "Mallory"}'),
    ]:
        req = urllib.request.Request(
            server.url + path,
            data=body,
            method=method,
            headers={"Authorization": header, "Content-Type": "application/json"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req, timeout=10)
        assert refused.value.code == 401
        assert b'"bad_token"' in refused.value.read()
    # no header at all: these need an account
    assert server.request("GET", "/api/accounts/me")[1]["error"]["code"] == "bad_token"
    assert server.request("GET", f"/api/accounts/{ada['id']}")[1]["name"] == ada["name"]


def test_runs_and_games_belong_to_the_account_and_show_its_name_now(
    server: ServerProcess,
) -> None:
    ada = new_account(server, "Ada")
    token = ada["token"]
    game_id = solo_run(server, "typed name", token)
    # a race: Ada takes a seat in Bob's room with her account; both play the one round
    bob = new_account(server, "Bob")
    created = server.create_room_as(bob["token"], "Bob", edition=EDITION, rounds=1)
    seat = server.take_seat(created["code"], "Ada at Bob's", account=token)
    race_id = race(server, created, seat)
    stored = server.get(f"/api/games/{game_id}")
    assert stored["players"][0]["account"] == ada["id"]
    raced = server.get(f"/api/games/{race_id}")
    assert [(p["name"], p["account"]) for p in raced["players"]] == [
        ("Bob", bob["id"]),
        ("Ada at Bob's", ada["id"]),
    ]
    # renamed: the leaderboard and the profile show the new name
    status, renamed = server.request("PATCH", "/api/accounts/me", {"name": "Ada L."}, token)
    assert (status, renamed) == (200, {"id": ada["id"], "name": "Ada L."})
    board = server.get(f"/api/leaderboard?edition={EDITION}&goal=tasks&amount=5")
    mine = [r for r in board if r["game_id"] == game_id]
    assert len(mine) == 1 and mine[0]["name"] == "Ada L." and mine[0]["account"] == ada["id"]
    profile = server.get(f"/api/accounts/{ada['id']}")
    assert profile["name"] == "Ada L."
    assert profile["games"] == {EDITION: 2}
    assert [(g["id"], g["seat"]) for g in profile["recent"]] == [(race_id, 1), (game_id, 0)]
    assert [(b["goal"], b["score"], b["runs"]) for b in profile["bests"]] == [("tasks", 5, 1)]
    assert server.get(f"/api/records?account={ada['id']}") == profile["bests"]
    # the run is the account's, not the typed name's
    assert server.get("/api/records?name=typed%20name") == []
    for query in ("", f"?name=Ada&account={ada['id']}"):
        status, refused = server.request("GET", f"/api/records{query}")
        assert status == 422 and refused["error"]["code"] == "bad_message"
    assert server.get(f"/api/accounts/{bob['id']}")["games"] == {EDITION: 1}


def test_a_run_without_an_account_is_kept_by_its_name(server: ServerProcess) -> None:
    solo_run(server, "Nameonly", None)
    bests = server.get("/api/records?name=Nameonly")
    assert [(b["name"], b["account"], b["score"]) for b in bests] == [("Nameonly", None, 5)]


@pytest.mark.parametrize("account_id", ["0", "-1", "999999", str(2**70)])
def test_a_profile_that_does_not_exist_is_404(server: ServerProcess, account_id: str) -> None:
    status, body = server.request("GET", f"/api/accounts/{account_id}")
    assert status == 404 and body["error"]["code"] == "no_account"


@pytest.mark.parametrize("body", [{"name": ""}, {"name": "\u0000\u0001"}, {"name": "x" * 33}])
def test_a_bad_new_name_is_refused_and_the_old_one_stays(
    server: ServerProcess, body: dict[str, Any]
) -> None:
    ada = new_account(server, unique("Ada"))
    status, refused = server.request("PATCH", "/api/accounts/me", body, ada["token"])
    assert status == 422 and refused["error"]["code"] == "bad_message"
    assert server.get(f"/api/accounts/{ada['id']}")["name"] == ada["name"]


def test_creating_accounts_is_limited_per_address(tmp_path: Path) -> None:
    for server in server_in(tmp_path, args=("--accounts-per-hour=3",)):
        for _ in range(3):
            new_account(server)
        status, body = server.post("/api/accounts", {})
        assert status == 429 and body["error"]["code"] == "rate_limited"


def test_records_kept_by_name_before_accounts_stay_readable_after_the_migration(
    tmp_path: Path,
) -> None:
    from alembic import command
    from alembic.config import Config

    from ubongo.server.store import Store

    path = tmp_path / "old.sqlite3"
    old = Store(f"sqlite:///{path}")
    config = Config()
    config.set_main_option("script_location", "ubongo.server.store:migrations")
    with old.database.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")  # the schema before accounts
    old.close()
    # a game and its record as that schema stored them
    with sqlite3.connect(path) as db:
        db.execute(
            "insert into games (id, room, edition, mode, variant, settings, seed, events,"
            " result, players, started_at, finished_at) values (1, 'ABCDE', ?, 'solo',"
            " 'standard', '{}', 7, '[]', '{}', ?, '2026-01-01 10:00:00', '2026-01-01 10:05:00')",
            (EDITION, '[{"seat": 0, "name": "Old Ada", "kind": "person", "level": null}]'),
        )
        db.execute(
            "insert into solo_records (game_id, name, edition, goal, amount, side, score,"
            " seconds, finished_at, plausible) values (1, 'Old Ada', ?, 'tasks', 5, ?, 5,"
            " 99.5, '2026-01-01 10:05:00', 1)",
            (EDITION, editions.record(EDITION).default_side),
        )
    store = Store(f"sqlite:///{path}")
    store.migrate()
    side = editions.record(EDITION).default_side
    bests = store.records.personal_bests("Old Ada")
    assert [(b.run.name, b.run.account, b.run.seconds) for b in bests] == [("Old Ada", None, 99.5)]
    board = store.records.leaderboard(EDITION, "tasks", 5, side)
    assert [r.name for r in board] == ["Old Ada"]
    game = store.games.get(1)
    assert game is not None and game.players[0]["name"] == "Old Ada"
    store.close()
