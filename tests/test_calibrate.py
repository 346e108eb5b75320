"""bench/calibrate.py: its statistics, and its reader of stored human games on a real SQLite
file written by the server's store."""

from __future__ import annotations

import itertools
import math
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from ubongo.rules import Game, Settings, action_to_json, game_to_json, new_game
from ubongo.rules.bots import LEVELS, play_game
from ubongo.server.store import GameRecord, SoloRecord, Store, default_database_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import calibrate

# --- statistics ------------------------------------------------------------------------------


def test_ranks_share_the_mean_rank_of_ties() -> None:
    assert calibrate.ranks([3.0, 1.0, 2.0]) == [3.0, 1.0, 2.0]
    assert calibrate.ranks([5.0, 5.0, 5.0]) == [2.0, 2.0, 2.0]
    assert calibrate.ranks([1.0, 2.0, 2.0, 3.0]) == [1.0, 2.5, 2.5, 4.0]


def test_spearman_with_ties_by_hand() -> None:
    # ranks x = 1, 2.5, 2.5, 4 and y = 1, 3, 2, 4; both means 2.5;
    # deviations x -1.5, 0, 0, 1.5 and y -1.5, .5, -.5, 1.5: sum of products 4.5,
    # sums of squares 4.5 and 5, so rho = 4.5 / sqrt(4.5 * 5) = sqrt(0.9)
    rho = calibrate.spearman([1.0, 2.0, 2.0, 3.0], [10.0, 30.0, 20.0, 40.0])
    assert rho == pytest.approx(math.sqrt(0.9))


def test_spearman_is_about_order_only() -> None:
    xs = [1.0, 2.0, 3.0, 4.0, 5.0]
    assert calibrate.spearman(xs, [x**3 for x in xs]) == pytest.approx(1.0)
    assert calibrate.spearman(xs, [math.exp(-x) for x in xs]) == pytest.approx(-1.0)
    # no order on one side, or too few pairs: no correlation, not a number
    assert calibrate.spearman(xs, [7.0] * 5) is None
    assert calibrate.spearman([1.0, 2.0], [2.0, 1.0]) is None
    with pytest.raises(ValueError):
        calibrate.spearman([1.0, 2.0, 3.0], [1.0, 2.0])


def test_probability_of_superiority_by_hand() -> None:
    # higher 2 beats 1, ties 2 (a half), loses to 3; 4 and 5 beat all three: 7.5 of 9 pairs
    assert calibrate.superiority([1.0, 2.0, 3.0], [2.0, 4.0, 5.0]) == pytest.approx(7.5 / 9)
    assert calibrate.superiority([1.0, 2.0], [3.0, 4.0]) == 1.0
    assert calibrate.superiority([3.0, 4.0], [1.0, 2.0]) == 0.0
    assert calibrate.superiority([1.0, 2.0, 3.0], [3.0, 2.0, 1.0]) == pytest.approx(0.5)
    assert calibrate.superiority([], [1.0]) is None


def test_probability_of_superiority_counts_every_pair() -> None:
    rng = random.Random(4)
    for _ in range(20):
        lo = [float(rng.randint(0, 9)) for _ in range(rng.randint(1, 12))]
        hi = [float(rng.randint(0, 9)) for _ in range(rng.randint(1, 12))]
        pairs = list(itertools.product(lo, hi))
        wins = sum(1.0 if h > low else 0.5 if h == low else 0.0 for low, h in pairs)
        assert calibrate.superiority(lo, hi) == pytest.approx(wins / len(pairs))


def test_quartiles() -> None:
    assert calibrate.quartiles([1.0, 2.0, 3.0, 4.0, 5.0]) == (2.0, 3.0, 4.0)
    assert calibrate.quartiles([7.0]) == (7.0, 7.0, 7.0)


# --- the search effort -----------------------------------------------------------------------


def test_search_effort_of_a_forced_task_is_one_placement_per_piece() -> None:
    from ubongo.board import Area
    from ubongo.pieces import edition

    classic = edition("classic")
    # the doctest task of ubongo.solver: a single solution
    area = Area.from_rows([".##..", "####.", ".####", ".###."])
    pieces = [classic.piece(p) for p in "DIG"]
    effort = calibrate.search_effort(area, pieces, 4, "t")
    assert effort >= 3.0
    assert effort == calibrate.search_effort(area, pieces, 4, "t")  # seeded


# --- stored human games ----------------------------------------------------------------------


def _record(game: Game, players: list[dict[str, Any]], events: bool = True) -> GameRecord:
    """A finished game in the form the server stores it (rooms.results._game_record)."""
    data = game_to_json(game)
    result: dict[str, Any] = {"winners": game.winners, "deck": data["deck"]}
    if events:
        result["events"] = [{"kind": e.kind, "at": e.at, "data": e.data} for e in game.events]
    return GameRecord(
        room="ROOM",
        edition=game.settings.edition,
        mode=game.settings.mode,
        variant=game.settings.variant,
        settings={"room": {}, "rules": data["game"]["settings"]},
        seed=int(game.seed),
        events=[action_to_json(a) for a in game.log],
        result=result,
        players=players,
        started_at=1000.0,
        finished_at=2000.0,
    )


def _times(game: Game, player: str) -> list[float]:
    """Seconds from each round's start to ``player``'s finish, from the game itself."""
    out, start = [], 0.0
    for e in game.events:
        if e.kind == "round_started":
            start = e.at
        elif e.kind == "finished" and e.data["player"] == player:
            out.append(e.at - start)
    return sorted(out)


def _race(seed: int) -> Game:
    # the person is the slow one: a bot of the fastest level fills the other seat
    game = new_game(Settings("extreme", ("0", "1")), seed)
    return play_game(game, seed=seed, levels={"0": LEVELS["medium"], "1": LEVELS["hard"]})


PEOPLE_AND_BOT = [
    {"seat": 0, "name": "Ada", "kind": "person", "level": None},
    {"seat": 1, "name": "Bot 1", "kind": "bot", "level": "hard"},
]


def _dealt(game: Game, player: str) -> int:
    return sum(1 for e in game.events if e.kind == "round_started" and player in e.data["tasks"])


def test_human_games_keep_the_people_and_leave_out_the_bots(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = Store(url)
    store.migrate()
    race, replayed = _race(5), _race(7)
    store.games.save(_record(race, PEOPLE_AND_BOT))
    # a game of bots only, and a game stored without its events (replayed from its actions)
    bots_only = [{**p, "kind": "bot"} for p in PEOPLE_AND_BOT]
    store.games.save(_record(_race(6), bots_only))
    store.games.save(_record(replayed, PEOPLE_AND_BOT, events=False))
    store.close()

    found = calibrate.human_games(url)
    assert found.note == ""
    assert found.games == 2 and found.players == 1
    assert found.left_out == {"bots only": 1}
    assert {s.player for s in found.solves} == {"0"}
    assert {s.who for s in found.solves} == {calibrate.PERSON}
    # every task dealt to the person, solved or not, game by game in the order stored
    n = _dealt(race, "0")
    assert len(found.solves) == n + _dealt(replayed, "0")
    for game, solves in ((race, found.solves[:n]), (replayed, found.solves[n:])):
        solved = sorted(s.seconds for s in solves if s.seconds is not None)
        # the person's times only: the bot finished tasks too, and none of its times is here
        assert solved == pytest.approx(_times(game, "0"))
        assert _times(game, "1") and not set(_times(game, "1")) & set(solved)
        for s in solves:
            _, card, side, key = s.task
            assert s.score == game.deck.card(card).side(side).task(key).difficulty
            assert s.grade == side == "A"


def test_solo_runs_count_each_task_from_its_deal(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'solo.sqlite3'}"
    store = Store(url)
    store.migrate()
    settings = Settings("classic", ("0",), mode="solo", solo_goal="tasks", solo_target=4)
    run = play_game(new_game(settings, 3), seed=3)
    person = [{"seat": 0, "name": "Ada", "kind": "person", "level": None}]
    record = SoloRecord(0, "Ada", "classic", "tasks", 4, "A", 4, 100.0, 2000.0)
    store.records.save(_record(run, person), record)
    flagged = SoloRecord(0, "Eve", "classic", "tasks", 4, "A", 4, 1.0, 2000.0, plausible=False)
    store.records.save(_record(run, person), flagged)
    store.close()

    found = calibrate.human_games(url)
    assert found.games == 1
    assert found.left_out == {"solo run flagged implausible (faster than a hand)": 1}
    solved = [s.seconds for s in found.solves if s.seconds is not None]
    assert len(solved) == 4
    # each task's time runs from the previous task's end: together they are the whole run
    end = next(e.at for e in run.events if e.kind == "solo_over")
    start = next(e.at for e in run.events if e.kind == "round_started")
    assert sum(s.seconds or 0.0 for s in found.solves) <= end - start + 1e-9
    skipped = sum(1 for e in run.events if e.kind == "task_skipped")
    assert len(found.solves) == 4 + skipped


def test_a_missing_database_is_no_human_games_and_is_not_created(tmp_path: Path) -> None:
    path = tmp_path / "none" / "ubongo.sqlite3"
    found = calibrate.human_games(f"sqlite:///{path}")
    assert found.solves == [] and found.games == 0
    assert "no database" in found.note
    assert not path.parent.exists()


def test_a_database_without_tables_is_no_human_games(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "empty.sqlite3"
    sqlite3.connect(path).close()
    found = calibrate.human_games(f"sqlite:///{path}")
    assert found.solves == [] and "cannot read the games" in found.note


def test_the_default_database_is_the_servers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("UBONGO_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert calibrate.default_db_url() == default_database_url()
    monkeypatch.setenv("UBONGO_DATABASE_URL", "sqlite:///elsewhere.sqlite3")
    assert calibrate.default_db_url() == "sqlite:///elsewhere.sqlite3"


def test_the_module_examples() -> None:
    import doctest

    assert doctest.testmod(calibrate).failed == 0
