"""Unique names (docs/fair-play.md, "Names") against a real ``ubongo serve`` on a real SQLite
file: a name a reader cannot tell from one another account holds is taken, on creating an
account and on renaming one, whoever asks first when two ask at once; the bots' and the site's
names are refused for accounts and seats alike; a drawn name that is taken is drawn again; the
migration gives the accounts stored before it unique names (and the leaderboards show them)."""

from __future__ import annotations

import asyncio
import importlib
import random
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from server_harness import ServerProcess, server_in

from ubongo.server.online.accounts import Accounts, default_name
from ubongo.server.ops.clock import Clock
from ubongo.server.store import NameTaken, Store

#: "Alice" as a reader may see it: case, Cyrillic and Greek capitals, a digit one for an "l",
#: a zero-width space, spaces around
LOOKALIKES = ["Alice", "ALICE", "alice", "\u0410lice", "\u0391lice", "A1ice", " Al\u200bice "]
#: the bots' names (and what passes for them) and the site's
RESERVED = ["Bot 2 (hard)", "bot 1", "B0T 4 (medium)", "Admin", "Ubongo"]

migration_0011: Any = importlib.import_module(
    "ubongo.server.store.migrations.versions.0011_unique_names"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    args = ("--accounts-per-hour=1000", "--rooms-per-minute=1000")
    yield from server_in(tmp_path_factory.mktemp("names"), args=args)


def new_account(server: ServerProcess, name: str) -> dict[str, Any]:
    status, body = server.post("/api/accounts", {"name": name})
    assert status == 201, body
    return dict(body)


def rename(server: ServerProcess, token: str, name: str) -> tuple[int, Any]:
    return server.request("PATCH", "/api/accounts/me", {"name": name}, token)


def refusal(answer: tuple[int, Any]) -> tuple[int, str]:
    status, body = answer
    return status, body["error"]["code"] if status >= 400 else ""


def test_a_name_like_one_another_account_holds_is_taken_on_create_and_rename(
    server: ServerProcess,
) -> None:
    alice = new_account(server, "Alice")
    for other in LOOKALIKES:
        refused = server.post("/api/accounts", {"name": other})
        assert refusal(refused) == (409, "name_taken"), other
    bob = new_account(server, "Bob")
    for other in LOOKALIKES:
        assert refusal(rename(server, bob["token"], other)) == (409, "name_taken"), other
    assert server.get(f"/api/accounts/{bob['id']}")["name"] == "Bob"
    # its own name in another case is not taken; a name given up is free again
    assert rename(server, alice["token"], "ALICE") == (200, {"id": alice["id"], "name": "ALICE"})
    assert rename(server, alice["token"], "Alicia")[0] == 200
    assert rename(server, bob["token"], "\u0410lice") == (200, {"id": bob["id"], "name": "Аlice"})
    assert refusal(server.post("/api/accounts", {"name": "alicia"})) == (409, "name_taken")


@pytest.mark.parametrize("name", RESERVED)
def test_the_bots_and_the_sites_names_are_refused_for_accounts_and_seats(
    server: ServerProcess, name: str
) -> None:
    assert refusal(server.post("/api/accounts", {"name": name})) == (422, "name_reserved")
    someone = server.post("/api/accounts", {})[1]
    assert refusal(rename(server, someone["token"], name)) == (422, "name_reserved")
    # a seat's name is for its room only and need not be unique, but never passes for a bot
    created = server.post("/api/rooms", {"name": name, "settings": {}})
    assert refusal(created) == (422, "name_reserved")
    room = server.create_room("Host", edition="classic")
    assert refusal(server.post(f"/api/rooms/{room['code']}/seats", {"name": name})) == (
        422,
        "name_reserved",
    )
    assert server.get(f"/api/rooms/{room['code']}")["seats"][1] is None


def test_of_accounts_taking_one_name_at_once_exactly_one_gets_it(server: ServerProcess) -> None:
    with ThreadPoolExecutor(6) as pool:
        made = list(pool.map(lambda _: server.post("/api/accounts", {"name": "Racer"}), range(6)))
    assert sorted(refusal(m) for m in made) == [(201, "")] + [(409, "name_taken")] * 5
    others = [server.post("/api/accounts", {})[1]["token"] for _ in range(6)]
    with ThreadPoolExecutor(6) as pool:
        renamed = list(pool.map(lambda token: rename(server, token, "Twin"), others))
    assert sorted(refusal(r) for r in renamed) == [(200, "")] + [(409, "name_taken")] * 5


def test_a_drawn_name_another_account_holds_is_drawn_again(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'drawn.sqlite3'}")
    store.migrate()
    first, second = (lambda rng: (default_name(rng), default_name(rng)))(random.Random(5))
    store.accounts.create(first.upper(), "ab" * 32, at=1.0)  # held, in another case
    accounts = Accounts(store, Clock(), per_hour=10, rng=random.Random(5))
    account, _ = asyncio.run(accounts.create("192.0.2.1", None))
    assert account.name == second != first
    with pytest.raises(NameTaken):
        store.accounts.rename(account.id, first)
    store.close()


def at_revision(path: Path, revision: str) -> None:
    """A database made by the migrations up to ``revision``."""
    _migrate(path, revision, up=True)


def old_account(db: sqlite3.Connection) -> int:
    """Account 1, Ada, written straight into a database a migration has not reached yet."""
    db.execute(
        "insert into accounts (id, name, name_key, token_hash, created_at) "
        "values (1, 'Ada', 'ada', ?, '2026-11-01 10:00:00')",
        ("a" * 64,),
    )
    return 1


def downgrade_to(path: Path, revision: str) -> None:
    """The database at ``path`` taken back by the migrations down to ``revision``."""
    _migrate(path, revision, up=False)


def _migrate(path: Path, revision: str, up: bool) -> None:
    from alembic import command
    from alembic.config import Config

    old = Store(f"sqlite:///{path}")
    config = Config()
    config.set_main_option("script_location", "ubongo.server.store:migrations")
    with old.database.engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.upgrade if up else command.downgrade)(config, revision)
    old.close()


#: accounts stored before names were unique, oldest first, and the names the migration gives
BEFORE = [
    ("Alice", "Alice"),
    ("ALICE", "ALICE 3"),  # "ALICE 2" would be "Alice 2" (the fourth account's) to a reader
    ("\u0410lice", "\u0410lice 4"),
    ("Alice 2", "Alice 2"),
    ("Bot 1 (hard)", "Player 5"),
    ("<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"),
    ("Admin", "Player 7"),
]


def test_the_migration_gives_accounts_stored_before_it_unique_names(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    at_revision(path, "0008")
    with sqlite3.connect(path) as db:
        db.executemany(
            "insert into accounts (id, name, token_hash, created_at) values (?, ?, ?, ?)",
            [(i, old, f"{i:064x}", "2026-11-01 10:00:00") for i, (old, _) in enumerate(BEFORE, 1)],
        )
        db.execute(
            "insert into daily_results (game_id, edition, day, account, name, solved, skipped,"
            " seconds, times, rated, finished_at) values (1, 'classic', '2026-11-01', 5,"
            " 'Bot 1 (hard)', 5, 0, 99.0, '[]', 1, '2026-11-01 10:05:00')"
        )
    store = Store(f"sqlite:///{path}")
    store.migrate()
    names = [store.accounts.by_token(f"{i:064x}") for i in range(1, len(BEFORE) + 1)]
    assert [a.name if a else None for a in names] == [new for _, new in BEFORE]
    # the keys are the server's, under a unique index: a look-alike is refused from now on
    with pytest.raises(NameTaken):
        store.accounts.create("A1ice 4", "ff" * 32, at=2.0)
    # the leaderboards show the account's name now, and link it
    [run] = store.daily.leaderboard("classic", "2026-11-01")
    assert (run.name, run.account) == ("Player 5", 5)
    store.close()
    with sqlite3.connect(path) as db:
        keys = dict(db.execute("select id, name_key from accounts").fetchall())
    assert keys[1] == keys[1].casefold() == "alice" and len(set(keys.values())) == len(BEFORE)


def test_the_backfill_is_the_same_whatever_the_order_rows_come_in() -> None:
    rows = [(i, name) for i, (name, _) in enumerate(BEFORE, 1)]
    once = list(migration_0011.backfilled(rows))
    assert [name for _, name, _ in once] == [new for _, new in BEFORE]
    assert list(migration_0011.backfilled(reversed(rows))) == once
