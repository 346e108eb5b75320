"""Practice, hints, giving up and the daily challenge in the rules (docs/rules.md, "Solo help").

A hint is an action of its own (:class:`Hint`) so that its cost is in the log and the game
replays; what the hint shows is the server's business. Practice is untimed and has no goal.
The daily challenge plays the day's tasks in order, each once.
"""

from __future__ import annotations

import datetime

import pytest

from ubongo.puzzles.daily import daily
from ubongo.rules import (
    Advance,
    GiveUp,
    Hint,
    NotSolo,
    Settings,
    SettingsError,
    SkipTask,
    StartRound,
    Submit,
    action_from_json,
    action_to_json,
    apply,
    new_game,
    replay,
    solo_record,
    task_json,
)
from ubongo.rules.bots import solution
from ubongo.rules.state import Game
from ubongo.rules.testing import fixture_deck

DAY = datetime.date(2026, 11, 23)


def solo(edition: str = "classic", **kw: object) -> Game:
    settings = Settings(edition, ("sol",), mode="solo", **kw)  # type: ignore[arg-type]
    return new_game(settings, 5, fixture_deck(edition))


def solve_current(game: Game, now: float) -> Game:
    assert game.round is not None
    return apply(game, Submit("sol", solution(game, game.round.entries[0]), now))


def test_a_hint_in_a_time_run_brings_the_end_nearer_and_replays() -> None:
    game = apply(solo(solo_target=5, hint_penalty=20.0), StartRound(0.0))
    assert game.deadline == 300.0
    game = apply(game, Hint("sol", 10.0))
    assert game.deadline == 280.0
    game = solve_current(game, 40.0)
    game = apply(game, Hint("sol", 50.0))
    assert game.deadline == 260.0
    assert game.events[-1].kind == "hinted" and game.events[-1].data["penalty"] == 20.0
    game = apply(game, Advance(260.0))
    assert game.phase == "over"
    record = solo_record(game)
    assert (record["solved"], record["hints"], record["seconds"]) == (1, 2, 260.0)
    # the log (hints in it) rebuilds the same game
    logged = [action_from_json(action_to_json(a)) for a in game.log]
    assert replay(game.settings, 5, logged, fixture_deck("classic")) == game


def test_a_hint_in_a_tasks_run_adds_to_its_time() -> None:
    game = apply(solo(solo_goal="tasks", solo_target=2), StartRound(0.0))
    game = apply(game, Hint("sol", 5.0))
    game = solve_current(game, 30.0)
    game = solve_current(game, 60.0)
    record = solo_record(game)
    assert game.phase == "over" and record["seconds"] == 60.0 + 15.0, "the default: 15 s"
    assert record["hints"] == 1 and record["complete"]


def test_a_hint_with_less_time_left_than_it_costs_ends_the_run() -> None:
    game = apply(solo(solo_target=1), StartRound(0.0))
    game = apply(game, Hint("sol", 40.0))
    assert game.phase == "playing" and game.deadline == 45.0
    game = apply(game, Hint("sol", 44.0))
    assert game.phase == "over" and solo_record(game)["seconds"] == 44.0


def test_hints_are_solo_only() -> None:
    race = new_game(Settings("classic", ("a", "b")), 1, fixture_deck("classic"))
    game = apply(race, StartRound(0.0))
    with pytest.raises(NotSolo):
        apply(game, Hint("a", 1.0))


def test_practice_is_untimed_without_goal_or_record() -> None:
    game = apply(solo(solo_goal="practice"), StartRound(0.0))
    assert game.deadline is None
    for i in range(8):
        game = solve_current(game, 100.0 * (i + 1))
    game = apply(game, Hint("sol", 900.0))
    assert game.events[-1].data["penalty"] == 0.0, "practice: a hint costs nothing"
    assert game.phase == "playing", "tasks keep coming"
    record = solo_record(game)
    assert record["goal"] == "practice" and record["solved"] == 8 and not record["complete"]
    assert record["target"] == 0 and record["hints"] == 1


def test_giving_up_names_the_task_for_its_solution() -> None:
    game = apply(solo(solo_goal="practice"), StartRound(0.0))
    assert game.round is not None
    entry = game.round.entries[0]
    card, side, key = entry.card, entry.side, entry.key
    game = apply(game, GiveUp("sol", 12.0))
    gave = next(e for e in game.events if e.kind == "gave_up")
    assert gave.data == {"player": "sol", "card": card, "side": side, "key": key}
    assert game.phase == "playing" and solo_record(game)["gave_up"] == 1


def test_daily_plays_the_days_tasks_in_order_each_once() -> None:
    settings = Settings("classic", ("sol",), mode="solo", puzzles="daily", day=DAY.isoformat())
    game = apply(new_game(settings, 3), StartRound(0.0))
    assert game.settings.solo_goal == "tasks" and game.settings.solo_target == 5
    areas = []
    for i in range(5):
        assert game.phase == "playing" and game.round is not None
        task = task_json(game, game.round.entries[0])
        areas.append(len(task["area"]))
        now = 10.0 * (i + 1)
        game = apply(game, SkipTask("sol", now)) if i == 2 else solve_current(game, now)
    assert areas == [t.area.size for t in daily("classic", DAY).tasks]
    assert game.phase == "over" and game.events[-1].data["why"] == "done"
    record = solo_record(game)
    assert (record["solved"], record["skipped"], record["complete"]) == (4, 1, False)
    # another seed: the same first task (the day's, not the game's)
    other = apply(new_game(settings, 99), StartRound(0.0))
    assert other.round is not None
    assert len(task_json(other, other.round.entries[0])["area"]) == areas[0]


@pytest.mark.parametrize(
    ("kw", "words"),
    [
        ({"mode": "race", "players": ("a", "b")}, "played solo"),
        ({"day": "2026-13-01"}, "YYYY-MM-DD"),
        ({"day": ""}, "YYYY-MM-DD"),
    ],
)
def test_daily_settings_are_checked(kw: dict[str, object], words: str) -> None:
    base: dict[str, object] = {"players": ("sol",), "mode": "solo", "puzzles": "daily"}
    base["day"] = "2026-11-23"
    base.update(kw)
    with pytest.raises(SettingsError, match=words):
        Settings("classic", **base).resolved()  # type: ignore[arg-type]
