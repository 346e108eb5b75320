"""Fresh games (``Settings.puzzles = "fresh"``): each game plays cards made for it from its seed,
the same for the same seed, rebuilt exactly by a replay, made only as the game reaches them,
and every task on them solvable."""

from __future__ import annotations

from typing import Any

import pytest

from ubongo import editions
from ubongo.puzzles.deck import standard_deck
from ubongo.puzzles.fresh import FreshDeck
from ubongo.rules import Settings, StartRound, apply, entry_task, new_game, replay
from ubongo.rules.bots import play_game
from ubongo.rules.state import Game, game_to_json
from ubongo.solver import solve


def _settings(edition: str, players: int = 2, **more: Any) -> Settings:
    return Settings(edition, tuple(f"p{i}" for i in range(players)), puzzles="fresh", **more)


def _tasks(game: Game) -> list[tuple[int, str, str, tuple[str, ...]]]:
    assert game.round is not None
    out = []
    for e in game.round.entries:
        side, task = entry_task(game, e)
        out.append((e.card, side.name, e.key, task.pieces))
    return out


def _areas(game: Game) -> list[frozenset[tuple[int, ...]]]:
    assert game.round is not None
    return [entry_task(game, e)[0].area.cells for e in game.round.entries]


@pytest.mark.parametrize("edition", editions.names())
def test_the_same_seed_deals_the_same_fresh_tasks_and_another_seed_others(edition: str) -> None:
    first = apply(new_game(_settings(edition), "seed-1"), StartRound(0.0))
    again = apply(new_game(_settings(edition), "seed-1"), StartRound(0.0))
    other = apply(new_game(_settings(edition), "seed-2"), StartRound(0.0))
    assert _tasks(first) == _tasks(again)
    assert _areas(first) == _areas(again)
    assert _areas(first) != _areas(other)
    # not the shipped deck: its own seed, cards made for it
    assert isinstance(first.deck, FreshDeck) and first.deck.seed != standard_deck(edition).seed


@pytest.mark.parametrize("edition", editions.names())
def test_a_fresh_deck_makes_only_the_cards_the_game_reaches(edition: str) -> None:
    game = new_game(_settings(edition, players=3), "lazy")
    assert isinstance(game.deck, FreshDeck) and not game.deck.made
    game = apply(game, StartRound(0.0))
    _tasks(game)  # the table shows the players their tasks
    assert isinstance(game.deck, FreshDeck)
    assert sorted(game.deck.made) == sorted(e.card for e in game.round.entries)  # type: ignore[union-attr]
    assert len(game.deck.made) == 3


@pytest.mark.parametrize("edition", editions.names())
def test_every_fresh_side_has_a_solvable_task_for_every_key(edition: str) -> None:
    # what FreshDeck.playable and side_names claim without making a card
    rec = editions.record(edition)
    deck = FreshDeck(edition, seed=99, sides=rec.deck.side_names)
    for number in (1, 2, deck.size):
        card = deck.card(number)
        assert card.number == number
        assert {s.name for s in card.sides} == deck.side_names(number)
        for side in card.sides:
            assert number in deck.playable(side.name, rec.deck.keys)
            assert set(rec.deck.keys) <= set(side.keys)
            for task in side.tasks:
                assert solve(side.area, deck.task_pieces(task)) is not None
    # a game that plays one side makes only that one
    first = rec.deck.side_names[0]
    one = FreshDeck(edition, seed=99, sides={first})
    number = one.playable(first, ())[0]
    assert [s.name for s in one.card(number).sides] == [first]
    assert one.card(number).side(first) == deck.card(number).side(first)


@pytest.mark.parametrize("edition", editions.names())
def test_a_fresh_game_plays_to_the_end_and_its_replay_rebuilds_it(edition: str) -> None:
    players = editions.record(edition).players[0]
    settings = _settings(edition, players=max(2, players), rounds=2)
    final = play_game(new_game(settings, "whole-game"), seed=1)
    assert final.phase == "over"
    again = replay(settings, "whole-game", final.log)
    assert game_to_json(again) == game_to_json(final)
    assert isinstance(final.deck, FreshDeck)
    # only the cards played were made, and only their sides in play
    played = {s.name for c in final.deck.made.values() for s in c.sides}
    assert played == {p.side for p in final.players}


def test_a_fresh_solo_run_draws_fresh_tasks() -> None:
    settings = Settings(
        "classic", ("solo",), mode="solo", solo_goal="tasks", solo_target=5, puzzles="fresh"
    )
    final = play_game(new_game(settings, "solo-seed"), seed=3)
    assert final.phase == "over" and final.solo is not None
    assert isinstance(final.deck, FreshDeck)
    assert 5 <= len(final.deck.made) <= 8
    assert game_to_json(replay(settings, "solo-seed", final.log)) == game_to_json(final)
