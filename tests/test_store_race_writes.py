"""The two writes and reads every rated arena race makes in the database besides its game
(docs/arenas.md, "Measured"), made cheaper in CPU without changing what they do:

* the race's end and its players' sheets (``ArenaRepository.race_ended``) read the race's rows
  in one query, not one each: each sheet is written as before (a row made for a sheet that has
  none, a player removed meanwhile stays removed) and nobody else's row changes;
* the pair cap's count of the games two accounts played together
  (``RatingRepository.games_together``) is one statement made once, for any number of accounts.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from ubongo import editions
from ubongo.arena import Arena, Format, Sheet
from ubongo.server.online.ratings import rate_game
from ubongo.server.store import GameRecord, Store

EDITION = editions.names()[0]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'races.sqlite3'}")
    store.migrate()
    yield store
    store.close()


def accounts(store: Store, n: int) -> list[int]:
    return [store.accounts.create(f"Player {i}", f"{i:064d}", at=1.0) for i in range(n)]


def an_arena(store: Store, seats: int) -> Arena:
    side = editions.record(EDITION).default_side
    arena = Arena("a1", "Race writes", Format(EDITION, 30, seats, side, "s"), 100.0, 1900.0)
    assert store.arenas.make(arena, made_at=50.0)
    return arena


def test_a_race_end_writes_each_sheet_and_only_the_races(store: Store) -> None:
    ada, bob, cy, dee, eve = accounts(store, 5)
    arena = an_arena(store, 4)
    for account in (ada, bob, cy, eve):  # dee never had a sheet stored: one is made
        store.arenas.save_sheet(arena.id, Sheet(account, f"P{account}", 110.0))
    store.arenas.remove_player(cy)  # marked a cheater meanwhile (another process)
    store.arenas.race_started(arena.id, 1, "ROOM1", [ada, bob, cy, dee], at=200.0)
    ended = [
        Sheet(ada, "Ada", 110.0).scored(1, 1, False, 260.0, 7),
        Sheet(bob, "Bob", 110.0, paused=True).scored(1, 2, True, 260.0, 7),
        Sheet(cy, "Cy", 110.0).scored(1, 3, False, 260.0, 7),
        Sheet(dee, "Dee", 120.0).scored(1, None, False, 260.0, 7),
    ]
    store.arenas.race_ended(arena.id, 1, at=260.0, game_id=None, sheets=ended)

    got = {s.account: s for s in store.arenas.sheets(arena.id)}
    assert got[ada] == ended[0]
    assert got[bob] == ended[1]
    assert got[cy] == replace(ended[2], removed=True)  # stays out of the standings
    assert got[dee] == ended[3]
    assert got[eve] == Sheet(eve, f"P{eve}", 110.0)  # not in the race: unchanged
    (race,) = store.arenas.races(arena.id)
    assert (race.number, race.ended_at, race.game_id) == (1, 260.0, None)


def test_a_race_end_reads_its_players_rows_in_one_query(store: Store) -> None:
    people = accounts(store, 4)
    arena = an_arena(store, 4)
    for account in people:
        store.arenas.save_sheet(arena.id, Sheet(account, f"P{account}", 110.0))
    store.arenas.race_started(arena.id, 1, "ROOM1", list(people), at=200.0)
    said: list[str] = []

    def heard(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        said.append(statement.split()[0].upper())

    engine = store.arenas.database.engine
    event.listen(engine, "before_cursor_execute", heard)
    try:
        sheets = [
            Sheet(a, f"P{a}", 110.0).scored(1, i + 1, False, 260.0) for i, a in enumerate(people)
        ]
        store.arenas.race_ended(arena.id, 1, at=260.0, game_id=None, sheets=sheets)
    finally:
        event.remove(engine, "before_cursor_execute", heard)
    assert said.count("SELECT") == 1
    assert [s.points for s in store.arenas.sheets(arena.id)] == [s.points for s in sheets]


def rated_game(players: list[int], finished_at: float) -> GameRecord:
    """A finished rated race of ``players``, the first winning."""
    return GameRecord(
        room="ROOM1",
        edition=EDITION,
        mode="race",
        variant="standard",
        settings={"rounds": 1, "rated": True},
        seed=1,
        events=[],
        result={"winners": [0], "scores": {str(s): int(s == 0) for s in range(len(players))}},
        players=[
            {"seat": s, "name": f"P{a}", "kind": "person", "level": None, "account": a}
            for s, a in enumerate(players)
        ],
        started_at=finished_at - 30.0,
        finished_at=finished_at,
        rated=True,
    )


def test_the_pair_cap_counts_games_together_for_any_number_of_accounts(store: Store) -> None:
    ada, bob, cy, dee = accounts(store, 4)
    store.games.save(rated_game([ada, bob], 1000.0), rate_game)
    store.games.save(rated_game([ada, bob, cy], 5000.0), rate_game)
    store.games.save(rated_game([bob, cy, dee], 6000.0), rate_game)
    together = store.ratings.games_together

    assert together([bob, ada], since=0.0) == {(ada, bob): 2}
    assert together([cy, ada, bob, ada], since=0.0) == {(ada, bob): 2, (ada, cy): 1, (bob, cy): 2}
    assert together([ada, bob, cy, dee], since=2000.0) == {
        (ada, bob): 1,
        (ada, cy): 1,
        (bob, cy): 2,
        (bob, dee): 1,
        (cy, dee): 1,
    }
    assert together([ada, dee], since=0.0) == {}
    assert together([ada, bob], since=7000.0) == {}
    assert together([ada], since=0.0) == {}
