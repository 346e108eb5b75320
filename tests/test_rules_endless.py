"""Endless solo: fresh tasks chosen for the player's Glicko-2 rating, replayable."""

from __future__ import annotations

import pytest

from ubongo.puzzles.fresh import EndlessDeck
from ubongo.puzzles.ratings import Rating, expected_score
from ubongo.rules import (
    Advance,
    GiveUp,
    Settings,
    SettingsError,
    SkipTask,
    StartRound,
    StopRun,
    Submit,
    apply,
    endless,
    game_from_json,
    game_to_json,
    new_game,
    replay,
    solo_record,
)
from ubongo.rules.bots import solution
from ubongo.rules.events import EventKind
from ubongo.rules.state import Game

EDITIONS = ["classic", "3d", "extreme", "trigo"]


def start(edition: str = "classic", seed: int = 1, **kw: object) -> Game:
    s = Settings(edition, ("me",), mode="solo", solo_goal="endless", **kw)  # type: ignore[arg-type]
    return apply(new_game(s, seed), StartRound(0.0))


def solve(game: Game, after: float) -> Game:
    assert game.round is not None and game.now is not None
    return apply(game, Submit("me", solution(game, game.round.entries[0]), game.now + after))


def time_out(game: Game) -> Game:
    assert game.deadline is not None
    return apply(game, Advance(game.deadline))


def task_rating(game: Game) -> float:
    assert game.solo is not None and game.solo.task_rating is not None
    return game.solo.task_rating[0]


def player_rating(game: Game) -> float:
    assert game.solo is not None and game.solo.rating is not None
    return game.solo.rating[0]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_run_deals_fresh_tasks_with_a_limit(edition: str) -> None:
    game = start(edition)
    assert isinstance(game.deck, EndlessDeck)
    assert game.round is not None and game.solo is not None
    entry = game.round.entries[0]
    assert entry.card in endless.candidates(0)
    assert game.solo.task_limit is not None and game.deadline == game.solo.task_limit
    # the task is the candidate offer nearest the target score
    me = Rating(*game.solo.rating)  # type: ignore[misc]
    assert abs(expected_score(me, Rating(*game.solo.task_rating)) - endless.TARGET) < 0.1  # type: ignore[misc]
    game = solve(game, 10.0)
    assert game.solo is not None and game.solo.solved == 1
    assert game.round is not None and game.round.entries[0].card in endless.candidates(1)
    assert game.deadline == 10.0 + (game.solo.task_limit or 0)


def test_next_task_moves_up_after_a_win_and_down_after_a_loss() -> None:
    """From the same game, a solved first task makes the second harder than a lost one: the
    candidates are the same, the player's rating is not."""
    for seed in range(6):
        game = start(seed=seed)
        won = solve(game, 5.0)
        lost = time_out(game)
        skipped = apply(game, SkipTask("me", 5.0))
        assert player_rating(won) > 1500.0 > player_rating(lost)
        assert player_rating(skipped) == pytest.approx(player_rating(lost))
        assert task_rating(won) > task_rating(lost)


def test_fast_solves_climb_and_losses_fall() -> None:
    for seed in range(4):
        game = start(seed=seed)
        first = task_rating(game)
        for _ in range(3):
            game = solve(game, 4.0)
        top = task_rating(game)
        assert top > first and player_rating(game) > 1700.0
        for _ in range(4):
            game = time_out(game)
        assert task_rating(game) < top and player_rating(game) < 1700.0


def test_starting_rating_comes_from_the_settings() -> None:
    weak = start(rating=(1000.0, 80.0, 0.06))
    strong = start(rating=(2000.0, 80.0, 0.06))
    assert task_rating(weak) < task_rating(strong)
    assert weak.solo is not None and weak.solo.rating == (1000.0, 80.0, 0.06)


def test_replay_rebuilds_the_same_tasks() -> None:
    game = start(seed=9)
    tasks = []
    for step in range(6):
        assert game.round is not None
        e = game.round.entries[0]
        tasks.append((e.card, e.side, e.key))
        if step % 3 == 2:
            game = time_out(game)
        elif step % 3 == 1:
            game = apply(game, SkipTask("me", (game.now or 0) + 3))
        else:
            game = solve(game, 7.0)
    game = apply(game, GiveUp("me", (game.now or 0) + 1))
    again = replay(game.settings, game.seed, game.log)
    assert again == game
    drawn = [
        (e.data["card"], e.data["key"]) for e in again.events if e.kind == EventKind.TASK_DRAWN
    ]
    assert drawn[:5] == [(c, k) for c, _, k in tasks[1:]]
    # two runs with the same seed meet the same tasks; another seed, other tasks
    assert start(seed=9).round == replay(game.settings, game.seed, game.log[:1]).round
    assert start(seed=10).deck.card(1) != game.deck.card(1)
    # saved and loaded with a fresh deck of the same seed
    loaded = game_from_json(game_to_json(game), EndlessDeck(game.deck.edition, game.deck.seed))
    assert loaded == game


def test_stop_ends_the_run_with_its_record() -> None:
    game = solve(start(), 6.0)
    game = apply(game, SkipTask("me", 20.0))
    game = apply(game, GiveUp("me", 22.0))  # a task given up is lost, and the next dealt
    assert game.phase == "playing"
    game = apply(game, StopRun("me", 25.0))
    assert game.phase == "over"
    rec = solo_record(game)
    assert rec["goal"] == "endless" and rec["solved"] == 1 and rec["skipped"] == 1
    assert rec["gave_up"] == 1 and rec["rated"] == 3 and rec["seconds"] == 25.0
    assert rec["complete"]
    assert game.solo is not None and rec["rating"] == game.solo.rating[0]  # type: ignore[index]
    rated = [e.data for e in game.events if e.kind == EventKind.TASK_RATED]
    assert [r["why"] for r in rated] == ["solved", "skipped", "gave_up"]
    assert rated[0]["seconds"] == 6.0 and rated[1]["score"] == rated[2]["score"] == 0.0
    assert rated[0]["after"] == rated[1]["before"]
    assert len(rated[0]["fingerprint"]) == 32


def test_a_long_absence_loses_each_task_in_turn() -> None:
    game = start()
    assert game.solo is not None and game.deadline is not None
    limit = game.deadline
    game = apply(game, Advance(limit + 200.0))
    assert game.solo is not None and game.solo.timed_out >= 3 and game.phase == "playing"
    assert game.solo.rated == game.solo.timed_out and game.solo.solved == 0


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"solo_goal": "forever"}, "solo_goal is time, tasks, endless"),
        ({"solo_goal": "endless", "rating": (1500.0, -3.0, 0.06)}, "rating is"),
        ({"solo_goal": "endless", "rating": ("x", 1, 2)}, "rating is"),
        ({"solo_goal": "endless", "rating": (float("nan"), 100.0, 0.06)}, "rating is"),
        ({"solo_goal": "endless", "deck": "classic"}, "not a deck"),
        ({"solo_goal": "endless", "puzzles": "other"}, "puzzles is"),
    ],
)
def test_bad_settings_are_refused(kw: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        new_game(Settings("classic", ("me",), mode="solo", **kw), 1)  # type: ignore[arg-type]
