"""Solo, all editions: as many tasks as possible in 5/10/20 minutes, or the time for 5/10/20
tasks; a task may be put aside for a new one; the result is a record.

Rulebooks: "Try to complete as many tasks as possible within five (or 10, or 20) minutes.
Another solo variant consists of measuring the time you need to complete five (or 10, or 20)
tasks. If you get stuck in your task, you can put it aside and draw a new puzzle board."
(../shared/seeds/002_3e3757d0752a95d9.txt, 000_..., 003_...); Trigo: "tries to solve many
puzzles as possible in 20 minutes. During this time he may discard a card"
(../shared/seeds/004_ec9c685fb5786f12.txt).
"""

from __future__ import annotations

import pytest

from ubongo.rules import (
    Advance,
    GameOver,
    GiveUp,
    NotSolo,
    Settings,
    SettingsError,
    SkipTask,
    StartRound,
    StopRun,
    Submit,
    TooLate,
    apply,
    new_game,
    solo_record,
)
from ubongo.rules.bots import play_game, solution
from ubongo.rules.state import Game
from ubongo.rules.testing import fixture_deck

EDITIONS = ["classic", "3d", "extreme", "trigo"]


def solo(edition: str, **kw: object) -> Game:
    return new_game(Settings(edition, ("sol",), mode="solo", **kw), 5, fixture_deck(edition))  # type: ignore[arg-type]


def solve_current(game: Game, now: float) -> Game:
    assert game.round is not None
    return apply(game, Submit("sol", solution(game, game.round.entries[0]), now))


@pytest.mark.parametrize("edition", EDITIONS)
def test_time_goal(edition: str) -> None:
    """As many tasks as possible in N minutes; the clock's end ends the run."""
    game = apply(solo(edition, solo_target=5), StartRound(0.0))
    assert game.deadline == 300.0
    first = game.round.entries[0].card if game.round else None
    game = solve_current(game, 40.0)
    assert game.round is not None and game.round.entries[0].card != first, "a new task is drawn"
    game = solve_current(game, 100.0)
    with pytest.raises(TooLate):
        solve_current(game, 301.0)
    game = apply(game, Advance(300.0))
    assert game.phase == "over"
    record = solo_record(game)
    assert record["solved"] == 2 and record["seconds"] == 300.0 and record["complete"]


def test_trigo_default_is_twenty_minutes() -> None:
    """Trigo: "as possible in 20 minutes"."""
    assert apply(solo("trigo"), StartRound(0.0)).deadline == 1200.0


@pytest.mark.parametrize("edition", EDITIONS)
def test_tasks_goal(edition: str) -> None:
    """The time needed for N tasks: no clock runs out; the record is the time."""
    game = apply(solo(edition, solo_goal="tasks", solo_target=5), StartRound(10.0))
    assert game.deadline is None
    for i in range(5):
        game = solve_current(game, 10.0 + 30.0 * (i + 1))
    assert game.phase == "over"
    record = solo_record(game)
    assert record == {
        "goal": "tasks",
        "target": 5,
        "solved": 5,
        "skipped": 0,
        "gave_up": 0,
        "hints": 0,
        "seconds": 150.0,
        "complete": True,
        # only an endless run has a rating
        "rating": None,
        "rd": None,
        "rated": None,
    }


def test_put_aside() -> None:
    """ "If you get stuck in your task, you can put it aside and draw a new puzzle board.\""""
    game = apply(solo("classic", solo_goal="tasks", solo_target=5), StartRound(0.0))
    assert game.round is not None
    before = game.round.entries[0].card
    game = apply(game, SkipTask("sol", 20.0))
    assert game.round is not None and game.round.entries[0].card != before
    assert before in game.discard
    assert solo_record(game)["skipped"] == 1 and solo_record(game)["solved"] == 0


def test_giving_up_a_task_deals_the_next() -> None:
    """Choice (docs/rules.md): giving up in a solo run gives up the task (not solved, counted
    apart from the ones put aside) and deals the next; the run goes on to its goal."""
    game = apply(solo("extreme", solo_goal="tasks", solo_target=2), StartRound(0.0))
    game = solve_current(game, 30.0)
    assert game.round is not None
    before = game.round.entries[0].card
    game = apply(game, GiveUp("sol", 50.0))
    assert game.phase == "playing" and game.round is not None
    assert game.round.entries[0].card != before and before in game.discard
    record = solo_record(game)
    assert (record["solved"], record["gave_up"], record["skipped"]) == (1, 1, 0)
    game = solve_current(game, 80.0)
    assert game.phase == "over" and solo_record(game)["complete"] is True


def test_extreme_solo_corners_follow_the_schedule() -> None:
    """Choice (docs/rules.md): solo Extreme uses the corners in the rounds' order, task by task."""
    game = apply(solo("extreme", solo_goal="tasks", solo_target=20), StartRound(0.0))
    keys = []
    for i in range(6):
        assert game.round is not None
        keys.append(game.round.entries[0].key)
        game = apply(game, SkipTask("sol", float(i)))
    assert keys == ["upper-left", "upper-right", "lower-left", "lower-right"] * 1 + [
        "upper-left",
        "upper-right",
    ]


def test_long_solo_reshuffles_the_stack() -> None:
    """Choice (docs/rules.md): when the stack runs out, used and put-aside boards are shuffled
    into a new stack, so a 20-minute run never runs dry."""
    game = apply(solo("classic", solo_goal="tasks", solo_target=20), StartRound(0.0))
    for i in range(60):
        game = apply(game, SkipTask("sol", float(i)))
    assert game.reshuffles >= 1 and game.phase == "playing"


@pytest.mark.parametrize("goal", ["time", "tasks"])
def test_a_run_stopped_before_its_goal_ends_and_is_no_complete_record(goal: str) -> None:
    """The player may end any solo run; a time or tasks run so ended did not meet its goal
    (ranked, a run stopped after one quick task would top a board ordered by time)."""
    game = apply(solo("classic", solo_goal=goal, solo_target=5), StartRound(0.0))
    game = solve_current(game, 8.0)
    game = apply(game, StopRun("sol", 9.0))
    assert game.phase == "over" and game.events[-1].data["why"] == "stopped"
    record = solo_record(game)
    assert record["solved"] == 1 and record["seconds"] == 9.0 and not record["complete"]
    with pytest.raises(GameOver):  # nothing more after the stop
        solve_current(game, 10.0)


def test_a_daily_run_is_not_stopped() -> None:
    """A daily run is played to its last task: each task put aside costs the time it ran,
    and a stop would put the rest aside for free."""
    settings = Settings("classic", ("sol",), mode="solo", puzzles="daily", day="2026-11-26")
    game = apply(new_game(settings, 3), StartRound(0.0))
    with pytest.raises(NotSolo):
        apply(game, StopRun("sol", 5.0))
    race = new_game(Settings("classic", ("a", "b")), 1, fixture_deck("classic"))
    race = apply(race, StartRound(0.0))
    with pytest.raises(NotSolo):  # nor a race
        apply(race, StopRun("a", 1.0))


def test_skip_is_solo_only() -> None:
    game = new_game(Settings("classic", ("a", "b")), 1, fixture_deck("classic"))
    game = apply(game, StartRound(0.0))
    with pytest.raises(NotSolo):
        apply(game, SkipTask("a", 1.0))


def test_solo_is_for_one_player() -> None:
    with pytest.raises(SettingsError):
        new_game(Settings("classic", ("a", "b"), mode="solo"), 1, fixture_deck("classic"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_bot_solo_runs(edition: str) -> None:
    game = play_game(solo(edition, solo_target=5), seed=2)
    record = solo_record(game)
    assert game.phase == "over" and record["seconds"] == 300.0
    assert record["solved"] + record["skipped"] >= 1
