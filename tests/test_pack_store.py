"""The packs' store (``ubongo.server.store.packs``, migrations 0017 and 0020) on an SQLite
file: the migrations on a database made before them (its puzzles kept; a pack's puzzles moved
to rows of their own in their order) and back, and what the repository keeps: the puzzles'
order, an account's own newest first, the counts its limits read."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from test_account_names import at_revision, downgrade_to, old_account

from ubongo.server.store import NewPack, NewPuzzle, Store


def test_the_migration_runs_on_an_older_database_and_back(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    at_revision(path, "0016")
    store = Store(f"sqlite:///{path}")
    store.migrate()
    ada = store.accounts.create("ada", "a" * 64, at=0.0)
    made = NewPuzzle("p1", ada, "trigo", "T", {"edition": "trigo"}, [], 4, 1, 20.0, "easy")
    store.puzzles.save(made, at=1.0)
    store.packs.save(NewPack("k1", ada, "trigo", "Pack", ["p1"]), at=2.0)
    assert store.packs.get("k1") is not None
    store.close()
    downgrade_to(path, "0016")
    with sqlite3.connect(path) as db:
        tables = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
        kept = db.execute("select count(*) from puzzles").fetchone()[0]
    assert "packs" not in tables and {"puzzles", "accounts"} <= tables and kept == 1


def test_packs_made_before_0020_keep_their_puzzles_in_order_both_ways(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    at_revision(path, "0019")
    with sqlite3.connect(path) as db:
        old_account(db)
        for pack, ids in (("k1", '["p3", "p1", "p2"]'), ("k2", '["p2"]')):
            db.execute(
                "insert into packs (id, account_id, edition, title, puzzle_ids, made_at, listed) "
                "values (?, 1, 'classic', 'Old', ?, '2026-11-02 10:00:00', 0)",
                (pack, ids),
            )
    store = Store(f"sqlite:///{path}")
    store.migrate()
    found = [store.packs.get(k) for k in ("k1", "k2")]
    assert [p.puzzle_ids if p else None for p in found] == [["p3", "p1", "p2"], ["p2"]]
    assert found[0] is not None and not found[0].hidden
    store.close()
    downgrade_to(path, "0019")
    with sqlite3.connect(path) as db:
        kept = dict(db.execute("select id, puzzle_ids from packs").fetchall())
    assert {k: json.loads(v) for k, v in kept.items()} == {"k1": ["p3", "p1", "p2"], "k2": ["p2"]}


def test_a_pack_keeps_its_order_and_is_counted(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    store.migrate()
    ada, bob = (store.accounts.create(n, n * 64, at=0.0) for n in "ab")
    store.packs.save(NewPack("k1", ada, "classic", "First", ["p3", "p1", "p2"]), at=10.0)
    store.packs.save(NewPack("k2", ada, "classic", "Second", ["p2"]), at=20.0)
    store.packs.save(NewPack("k3", bob, "classic", "Bob's", ["p1"]), at=30.0)
    found = store.packs.get("k1")
    assert found is not None and found.puzzle_ids == ["p3", "p1", "p2"]
    assert (found.author_name, found.made_at) == ("a", 10.0)
    assert [p.id for p in store.packs.of_account(ada)] == ["k2", "k1"]
    assert (store.packs.kept(ada), store.packs.kept(bob)) == (2, 1)
    assert (store.packs.made_since(ada, 15.0), store.packs.made_since(ada, 0.0)) == (1, 2)
    assert store.packs.get("nope") is None
    store.close()
