"""Whole games on the shipped decks, ``ubongo simulate``, and the rules modules' doctests."""

from __future__ import annotations

import doctest
import importlib
import re

import pytest

from ubongo import editions
from ubongo.cli import main
from ubongo.puzzles.deck import standard_deck
from ubongo.rules import Game, Settings, new_game, replay
from ubongo.rules.bots import play_game

STANDARD = [
    ("classic", {"side": "B"}),
    ("3d", {"levels": ("green", "yellow", "orange", "red")}),
    ("extreme", {"side": "B", "variant": "only-first"}),
    ("trigo", {"side": "hard"}),
]


@pytest.mark.parametrize(("edition", "kw"), STANDARD)
def test_whole_game_on_standard_deck(edition: str, kw: dict[str, object]) -> None:
    """Every edition plays to the end on its shipped deck, and replays to the same game."""
    game = new_game(Settings(edition, ("a", "b", "c", "d"), **kw), 11)  # type: ignore[arg-type]
    assert game.deck is standard_deck(edition)
    final = play_game(game, 11)
    assert final.phase == "over" and final.winners
    if final.settings.gems:
        supply = editions.record(edition).scoring.gem_supply
        assert final.gem_total() == supply and final.display == {"sapphire": 0, "amber": 0}
    else:
        assert final.rounds_played == 8 and final.stack == []
    assert replay(final.settings, 11, final.log) == final


def test_simulate_classic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--edition", "classic", "--players", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    rounds = re.findall(r"^Round (\d+) ", out, re.M)
    assert rounds == [str(i) for i in range(1, 10)]
    assert "Final scores:" in out and re.search(r"^Winners?( \(shared\))?: \w+", out, re.M)
    # the same seed prints the same game
    assert main(["simulate", "--edition", "classic", "--players", "3", "--seed", "4"]) == 0
    assert capsys.readouterr().out == out


@pytest.mark.parametrize(
    "args",
    [
        ["--edition", "3d", "--players", "2", "--level", "red", "--level", "green"],
        ["--edition", "extreme", "--players", "4", "--side", "B"],
        ["--edition", "trigo", "--players", "2", "--variant", "only-first"],
        ["--edition", "extreme", "--solo", "--solo-goal", "tasks", "--solo-target", "5"],
    ],
)
def test_simulate_editions(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *args]) == 0
    out = capsys.readouterr().out
    assert "Final scores:" in out or "Solo over" in out


def test_simulate_bad_settings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--edition", "trigo", "--players", "1"]) == 2
    err = capsys.readouterr().err
    assert "trigo is for 2-4 players" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "module",
    [
        "ubongo.rules",
        "ubongo.rules.actions",
        "ubongo.rules.errors",
        "ubongo.rules.settings",
        "ubongo.rules.testing",
        "ubongo.rules.bots",
    ],
)
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


def test_skill_levels_order_the_results() -> None:
    """A hard bot beats an easy one over a run of games (docs/bots.md: same model as the
    server's bots), and a player with no skill named plays at medium."""
    from ubongo.rules.bots import LEVELS

    def play(seed: int, skills: dict[str, str]) -> Game:
        game = new_game(Settings("classic", ("a", "b")), seed)
        return play_game(game, seed, levels={p: LEVELS[s] for p, s in skills.items()})

    games = [play(seed, {"a": "hard", "b": "easy"}) for seed in range(8)]
    wins = sum(g.winners == ["a"] for g in games)
    assert wins >= 6, f"the hard bot won {wins} of 8 games"
    assert sum(g.scores()["a"] for g in games) > sum(g.scores()["b"] for g in games)
    assert play(3, {"a": "medium"}) == play(3, {})


def test_simulate_skill_option(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--edition", "classic", "--players", "2", "--seed", "5"]
    assert main([*args, "--skill", "hard", "--skill", "easy"]) == 0
    assert "Winner: Ann" in capsys.readouterr().out
    assert main([*args, "--skill", "hard", "--skill", "easy", "--skill", "easy"]) == 2
    assert "3 --skill for 2 players" in capsys.readouterr().err
