"""A pack raced in a room (``puzzles="pack"``, docs/editor.md "Packs"): round ``n`` deals the
pack's puzzle ``n`` to every player, as many rounds as the pack has puzzles (at most the
edition's limit), in every edition (Trigo's two areas a puzzle), replayed from its log."""

from __future__ import annotations

import json

import pytest

from ubongo.puzzles.deck import standard_deck
from ubongo.puzzles.pack import PackTask
from ubongo.rules import (
    Advance,
    Settings,
    SettingsError,
    StartRound,
    Submit,
    apply,
    new_game,
    replay,
)
from ubongo.rules.bots import play_game, solution
from ubongo.rules.state import Game

EDITIONS = ["classic", "3d", "extreme", "trigo"]


def pack_of(edition: str, size: int) -> tuple[PackTask, ...]:
    """``size`` puzzles of ``edition``: the standard deck's first cards' first tasks."""
    sides = [card.sides[0] for card in standard_deck(edition).cards[:size]]
    return tuple((tuple(sorted(s.area.cells)), s.tasks[0].pieces) for s in sides)


def finish(game: Game, player: str, now: float) -> Game:
    assert game.round is not None
    entry = game.round.entry(player)
    assert entry is not None
    return apply(game, Submit(player, solution(game, entry), now))


def test_a_trigo_pack_deals_its_puzzles_in_order_to_both_players() -> None:
    pack = pack_of("trigo", 3)
    game = new_game(Settings("trigo", ("ann", "bob"), puzzles="pack", pack=pack, rounds=8), 5)
    assert game.settings.rounds == 3  # the pack's length, whatever was asked
    for n in range(1, 4):
        game = apply(game, StartRound(100.0 * n))
        assert game.round is not None
        assert [e.card for e in game.round.entries] == [n, n]
        side = game.deck.card(n).side(game.round.entries[0].side)
        assert side.area.cells == frozenset(pack[n - 1][0]) and len(side.area.regions) == 2
        game = finish(game, "bob" if n % 2 else "ann", 100.0 * n + 20)
        game = finish(game, "ann" if n % 2 else "bob", 100.0 * n + 30)
        while game.phase == "playing":  # (the round ends once the timer's last step is due)
            game = apply(game, Advance(100.0 * n + 90))
    assert game.phase == "over"
    again = replay(game.settings, game.seed, game.log)
    assert again.phase == "over" and again.players == game.players


@pytest.mark.parametrize("edition", EDITIONS)
def test_bots_race_a_pack_of_every_edition(edition: str) -> None:
    pack = pack_of(edition, 2)
    settings = Settings(edition, ("ann", "bob"), puzzles="pack", pack=pack)
    game = play_game(new_game(settings, 1))
    assert game.phase == "over" and game.settings.rounds == 2
    # the settings as a stored game keeps them (JSON: lists) replay the same game
    stored = json.loads(json.dumps(game.settings.pack))
    back = Settings(**{**game.settings.__dict__, "pack": stored})
    assert back == game.settings
    assert replay(back, game.seed, game.log).players == game.players


def test_a_long_pack_is_cut_at_the_editions_rounds() -> None:
    pack = pack_of("classic", 12)
    game = new_game(Settings("classic", ("ann", "bob"), puzzles="pack", pack=pack), 1)
    limit = game.settings.record.scoring.display_limit
    assert game.settings.rounds == min(12, limit or 12)


@pytest.mark.parametrize(
    ("kw", "says"),
    [
        ({"puzzles": "pack"}, "needs one"),
        ({"pack": pack_of("trigo", 1)}, "go with puzzles pack"),
        ({"puzzles": "pack", "pack": pack_of("trigo", 1), "mode": "solo"}, "raced"),
        ({"puzzles": "pack", "pack": ((((0, 0, 0),), ("1",)),)}, "cannot be played"),
    ],
)
def test_bad_pack_settings_are_refused(kw: dict[str, object], says: str) -> None:
    with pytest.raises(SettingsError, match=says):
        new_game(Settings("trigo", ("ann", "bob"), **kw), 1)  # type: ignore[arg-type]
