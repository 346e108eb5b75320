"""The database's indexes (migrations 0001-0021) on an SQLite file: the tables as the
migrations make them have exactly the indexes the models declare (a model's index no migration
made, or the reverse, would go unseen until a table grew), and the reads each rated race makes
(its rating moves read back; the pair cap's count of the day's games together) find their rows
by index instead of reading the whole rating history (docs/performance.md)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ubongo.server.store import Store
from ubongo.server.store.tables import Base


def migrated(tmp_path: Path) -> sqlite3.Connection:
    path = tmp_path / "indexes.sqlite3"
    store = Store(f"sqlite:///{path}")
    store.migrate()
    store.close()
    return sqlite3.connect(path)


def test_the_migrations_make_the_indexes_the_models_declare(tmp_path: Path) -> None:
    db = migrated(tmp_path)
    made = {}
    for name, table in db.execute(
        "select name, tbl_name from sqlite_master where type = 'index' and sql is not null"
    ):
        columns = tuple(row[2] for row in db.execute(f"pragma index_info('{name}')"))
        made[name] = (table, columns)
    declared = {
        index.name: (table.name, tuple(c.name for c in index.columns))
        for table in Base.metadata.tables.values()
        for index in table.indexes
    }
    assert made == declared


def test_a_rated_race_reads_its_rating_history_by_index(tmp_path: Path) -> None:
    db = migrated(tmp_path)
    reads = {
        "the moves of a game": "select account_id, before, after from rating_history "
        "where game_id = 5 order by id",
        "the games two accounts played together today": "select one.account_id, "
        "two.account_id, count(*) from rating_history one join rating_history two "
        "on one.game_id = two.game_id where one.account_id in (1, 2, 3) "
        "and two.account_id in (1, 2, 3) and one.account_id < two.account_id "
        "and one.at >= '2026-11-26 00:00:00' group by one.account_id, two.account_id",
    }
    for what, sql in reads.items():
        plan = " / ".join(row[3] for row in db.execute(f"explain query plan {sql}"))
        assert "SCAN" not in plan, f"{what}: {plan}"
