"""The store and a served solo game on a real PostgreSQL server started here.

Debian's ``postgresql`` package (scripts/system-packages.txt) provides the binaries; the
cluster lives in a temporary folder owned by the ``postgres`` user, on a free port, and is
stopped at the end. Nothing is skipped: if PostgreSQL cannot start, these tests fail.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, free_port, solution

from ubongo.server.store import GameRecord, NameTaken, SoloRecord, Store, StoredAccount


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise RuntimeError(
            "PostgreSQL is not installed: `make setup` installs Debian's postgresql package"
        )
    return Path(found[-1]).parent


def _as_postgres(*cmd: str) -> list[str]:
    # PostgreSQL refuses to run as root; the tests (and CI) run as root
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return list(cmd)


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    bindir = _pg_bin()
    folder = Path(tempfile.mkdtemp(prefix="ubongo-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    port = free_port()
    log = folder / "pg.log"
    subprocess.run(
        _as_postgres(str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"),
        check=True,
        capture_output=True,
    )
    started = subprocess.run(
        _as_postgres(
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(log),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=on",
            "start",
        ),
        capture_output=True,
        text=True,
    )
    if started.returncode != 0:
        text = log.read_text() if log.exists() else ""
        raise RuntimeError(f"PostgreSQL did not start: {started.stderr}\n{text}")
    try:
        subprocess.run(
            _as_postgres(
                str(bindir / "createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                "-U",
                "postgres",
                "ubongo",
            ),
            check=True,
            capture_output=True,
        )
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/ubongo"
    finally:
        subprocess.run(
            _as_postgres(str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"),
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


def test_storage_on_postgresql(postgres_url: str) -> None:
    store = Store(postgres_url)
    store.migrate()
    store.migrate()
    game = GameRecord(
        room="PGPG1",
        edition="trigo",
        mode="race",
        variant="only-first",
        settings={"rules": {"edition": "trigo"}},
        seed=2**47 + 1,  # seeds are 48-bit: BIGINT
        events=[{"type": "start_round", "now": 1.0}],
        result={"winners": [0, 1]},
        players=[{"seat": 0, "name": "Ada"}, {"seat": 1, "name": "Bob"}],
        started_at=1_700_000_000.25,
        finished_at=1_700_000_100.5,
    )
    gid = store.games.save(game)
    back = store.games.get(gid)
    assert back is not None
    assert back.seed == 2**47 + 1 and back.winners == [0, 1]
    assert back.finished_at == pytest.approx(1_700_000_100.5)
    for name, score in [("Ada", 4), ("Bob", 6)]:
        store.records.save(
            game, SoloRecord(0, name, "trigo", "time", 20, "easy", score, 1200.0, 1.0)
        )
    board = store.records.leaderboard("trigo", "time", 20, "easy")
    assert [(r.name, r.score) for r in board] == [("Bob", 6), ("Ada", 4)]
    with pytest.raises(Exception, match=r"(?i)null"):
        store.records.save(
            game,
            SoloRecord(0, None, "trigo", "time", 20, "easy", 1, 1.0, 1.0),  # type: ignore[arg-type]
        )
    assert len(store.games.latest(100)) == 3  # the failed transaction left no game behind
    store.close()


def _race(room: str, result: dict[str, Any], players: list[dict[str, Any]]) -> GameRecord:
    return GameRecord(
        room=room,
        edition="classic",
        mode="race",
        variant="standard",
        settings={},
        seed=1,
        events=[],
        result=result,
        players=players,
        started_at=1000.0,
        finished_at=1100.0,
        rated="left" in result,
    )


def test_the_fair_play_counts_on_postgresql(postgres_url: str) -> None:
    """What docs/fair-play.md's rules read, on PostgreSQL: addresses noted and read back as
    hashes, an account's rated seats (the result's ``left``, read out of its JSON), and the
    rated games two accounts played together."""
    from ubongo.server.online.ratings import rate_game

    store = Store(postgres_url)
    store.migrate()
    ada = store.accounts.create("Ada", "c" * 64, at=1.0)
    bob = store.accounts.create("Bob", "d" * 64, at=1.0)
    for account, at in [(ada, 100.0), (ada, 110.0), (bob, 120.0)]:
        store.addresses.note(account, "192.0.2.7", at=at, keep=50.0)
    shared = store.addresses.recent(ada, since=60.0)
    assert len(shared) == 1 and shared == store.addresses.recent(bob, since=60.0)
    people = [
        {"seat": 0, "name": "Ada", "kind": "person", "account": ada},
        {"seat": 1, "name": "Bob", "kind": "person", "account": bob},
    ]
    result = {"winners": [0], "scores": {"0": 3, "1": 0}, "left": [1], "unrated": {}}
    rated = store.games.save(_race("PGPG2", result, people), rate_game)
    store.games.save(_race("PGPG3", {"winners": [0], "scores": {"0": 3, "1": 0}}, people))
    assert [(s.game_id, s.left) for s in store.games.rated_seats(bob, 0.0)] == [(rated, True)]
    assert [(s.game_id, s.left) for s in store.games.rated_seats(ada, 0.0)] == [(rated, False)]
    assert store.ratings.games_together([bob, ada], since=0.0) == {(ada, bob): 1}
    assert store.ratings.games_together([ada, bob], since=2000.0) == {}
    store.close()


def test_a_solo_game_served_on_postgresql_survives_a_restart(
    postgres_url: str, tmp_path: Path
) -> None:
    srv = ServerProcess(
        postgres_url,
        log=tmp_path / "a.log",
        args=("--record-seconds-per-piece", "0", "--no-require-traces"),
    ).start()
    try:
        room = srv.create_room(
            "Pia", edition="classic", mode="solo", solo_goal="tasks", solo_amount=5, side="B"
        )
        c = Client(srv)
        c.hello(room["code"], room["token"])
        c.send({"type": "start"})
        game = c.event("round_started")["room"]["game"]
        for _ in range(5):  # the smallest amount Classic offers
            task = game["tasks"]["0"]
            placements = solution(task, "classic")
            verdict = c.reply(
                {"type": "submit", "round": game["round"], "placements": placements}, "verdict"
            )
            assert verdict["ok"], verdict
            over = c.wait(
                lambda m: m["type"] == "event" and m["kind"] in ("task_drawn", "game_over")
            )
            game = over["room"]["game"]
        assert over["kind"] == "game_over"
        assert over["data"]["record"]["solved"] == 5
        c.close()
    finally:
        srv.stop(kill=True)
    srv = ServerProcess(postgres_url, log=tmp_path / "b.log").start()
    try:
        board = srv.get("/api/leaderboard?edition=classic&goal=tasks&amount=5&side=B")
        assert [r["name"] for r in board] == ["Pia"]
        assert srv.get(f"/api/games/{over['data']['game_id']}")["mode"] == "solo"
    finally:
        srv.stop()


def test_unique_names_on_postgresql(postgres_url: str) -> None:
    """The migration's backfill and the unique index on PostgreSQL: accounts stored at
    revision 0008 with one name in two forms get unique names, and of threads taking one name
    at once exactly one gets it (docs/fair-play.md, "Names")."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    store = Store(postgres_url)
    with store.database.engine.begin() as connection:
        connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        config = Config()
        config.set_main_option("script_location", "ubongo.server.store:migrations")
        config.attributes["connection"] = connection
        command.upgrade(config, "0008")
        connection.execute(
            text(
                "INSERT INTO accounts (id, name, token_hash, created_at) VALUES"
                " (1, 'Alice', :a, now()), (2, 'ALICE', :b, now()), (3, 'Bot 2 (hard)', :c, now())"
            ),
            {"a": "a" * 64, "b": "b" * 64, "c": "c" * 64},
        )
        connection.exec_driver_sql("SELECT setval('accounts_id_seq', 3)")
    store.migrate()
    assert [store.accounts.by_token(c * 64) for c in "abc"] == [
        StoredAccount(1, "Alice"),
        StoredAccount(2, "ALICE 2"),
        StoredAccount(3, "Player 3"),
    ]

    def take(n: int) -> str:
        try:
            store.accounts.create("Racer", f"{n:064x}", at=1.0)
        except NameTaken:
            return "taken"
        return "made"

    with ThreadPoolExecutor(6) as pool:
        assert sorted(pool.map(take, range(6))) == ["made"] + ["taken"] * 5
    store.close()
