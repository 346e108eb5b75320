"""Classic and 3D: die, hourglass, second chance, gems, nine rounds, playoff.

Rulebooks: ../shared/seeds/002_3e3757d0752a95d9.txt (Classic) and
../shared/seeds/000_7c298cea6796afd7.txt (3D).  Each test quotes the sentence it checks.
"""

from __future__ import annotations

import pytest

from ubongo import editions
from ubongo.rules import (
    Advance,
    GiveUp,
    NotInRound,
    PlayerState,
    Settings,
    SettingsError,
    StartRound,
    Submit,
    apply,
    new_game,
)
from ubongo.rules.bots import play_game, solution
from ubongo.rules.state import Game
from ubongo.rules.testing import fixture_deck

PLAYERS = ("ann", "bob", "cat", "dan")
DIE_FACES = ("1", "2", "3", "4", "5", "6")
#: the gems in the box and their points (the same for Classic and 3D: test_editions.py)
GEM_SUPPLY = editions.record("classic").scoring.gem_supply
GEM_VALUES = editions.record("classic").scoring.gem_values


def classic(players: tuple[str, ...] = PLAYERS, seed: int = 1, **kw: object) -> Game:
    return new_game(Settings("classic", players, **kw), seed, fixture_deck("classic"))  # type: ignore[arg-type]


def finish(game: Game, player: str, now: float) -> Game:
    assert game.round is not None
    entry = game.round.entry(player)
    assert entry is not None
    return apply(game, Submit(player, solution(game, entry), now))


def test_setup_gems() -> None:
    """ "Take nine sapphires (blue) and nine ambers (brown) from the bag" of 58 gems
    (19 sapphires, 19 ambers, 10 rubies, 10 emeralds)."""
    game = classic()
    assert game.display == {"sapphire": 9, "amber": 9}
    assert game.bag == {"ruby": 10, "sapphire": 10, "emerald": 10, "amber": 10}
    assert sum(GEM_SUPPLY.values()) == 58
    assert game.gem_total() == GEM_SUPPLY


def test_rewards_by_finish_order() -> None:
    """ "The fastest player ... takes one blue sapphire ... In addition, ... one gem from the
    bag. The second fastest ... one brown amber ... and one gem from the bag. The third ...
    and fourth fastest player randomly takes one gem from the bag.\""""
    game = apply(classic(), StartRound(0.0))
    for t, p in ((10.0, "cat"), (20.0, "ann"), (30.0, "dan"), (40.0, "bob")):
        game = finish(game, p, t)
    assert game.phase == "waiting", "everyone finished: the round ends at once"
    gems = {p.id: p.gems for p in game.players}
    assert sum(gems["cat"].values()) == 2 and gems["cat"]["sapphire"] >= 1
    assert sum(gems["ann"].values()) == 2 and gems["ann"]["amber"] >= 1
    assert sum(gems["dan"].values()) == 1 and sum(gems["bob"].values()) == 1
    assert game.display == {"sapphire": 8, "amber": 8}
    assert sum(game.bag.values()) == 40 - 4
    assert game.gem_total() == GEM_SUPPLY


def test_one_finisher_amber_goes_to_bag() -> None:
    """ "If only one player was able to fit the tiles ... the brown amber representing this
    round must be removed and tossed into the bag.\""""
    game = apply(classic(), StartRound(0.0))
    game = finish(game, "bob", 12.0)
    game = apply(game, Advance(60.0))
    assert game.phase == "waiting"
    assert game.display == {"sapphire": 8, "amber": 8}
    assert game.bag["amber"] == 11
    assert sum(game.player("bob").gems.values()) == 2
    assert game.gem_total() == GEM_SUPPLY


def test_second_chance_then_round_ends() -> None:
    """ "The hourglass has run out and nobody was able to complete his or her task? ... a
    second-chance round takes place. ... If the previous situation repeats ... the round comes
    to an end."  And: "If none of the players were able to complete the task, both the blue
    sapphire and the brown amber ... are removed and tossed into the bag.\""""
    game = apply(classic(), StartRound(100.0))
    assert game.deadline == 160.0
    game = apply(game, Advance(160.0))
    assert game.phase == "playing" and game.round is not None
    assert game.round.hourglass_turns == 2 and game.deadline == 220.0
    game = apply(game, Advance(220.0))
    assert game.phase == "waiting"
    assert game.display == {"sapphire": 8, "amber": 8}
    assert game.bag["sapphire"] == 11 and game.bag["amber"] == 11
    assert all(sum(p.gems.values()) == 0 for p in game.players)


def test_second_chance_finisher_wins_the_round() -> None:
    """A finish in the second-chance round is rewarded like any other ("Flip the hourglass
    again and continue trying to cover your placement area")."""
    game = apply(classic(), StartRound(0.0))
    game = finish(game, "dan", 75.0)  # the clock ran out at 60: the submission comes in turn 2
    assert game.round is not None and game.round.hourglass_turns == 2
    game = apply(game, Advance(120.0))
    assert game.player("dan").gems["sapphire"] >= 1


def test_no_second_chance_once_someone_finished() -> None:
    """The second chance is only for a round that nobody finished: "Any players who fail to
    complete the task before the hourglass runs out, do not collect a gem" (3D rulebook)."""
    game = apply(classic(), StartRound(0.0))
    game = finish(game, "ann", 30.0)
    game = apply(game, Advance(60.0))
    assert game.phase == "waiting"
    assert sum(sum(p.gems.values()) for p in game.players if p.id != "ann") == 0


def test_second_chance_can_be_switched_off() -> None:
    """A table may agree to play without the second chance (setting, docs/rules.md)."""
    game = apply(classic(second_chance=False), StartRound(0.0))
    assert apply(game, Advance(60.0)).phase == "waiting"


def test_die_roller_rotates_to_the_left() -> None:
    """ "The die is rolled and the hourglass is flipped by the player to the left of the player
    who rolled the die in the previous round.\""""
    game = classic()
    rollers = []
    for i in range(6):
        game = apply(game, StartRound(200.0 * i))
        assert game.round is not None and game.round.die in DIE_FACES
        rollers.append(game.round.roller)
        game = apply(game, GiveUp("ann", 200.0 * i + 1))
        for p in ("bob", "cat", "dan"):
            game = apply(game, GiveUp(p, 200.0 * i + 2))
    assert rollers == ["ann", "bob", "cat", "dan", "ann", "bob"]


def test_all_gave_up_ends_round_without_second_chance() -> None:
    """Choice (docs/rules.md): when every player has given up, nobody waits for the hourglass."""
    game = apply(classic(("ann", "bob")), StartRound(0.0))
    game = apply(game, GiveUp("ann", 5.0))
    assert game.phase == "playing"
    game = apply(game, GiveUp("bob", 6.0))
    assert game.phase == "waiting" and game.display == {"sapphire": 8, "amber": 8}


def test_classic_shared_stack_and_discard_pile() -> None:
    """ "Each player takes a puzzle board from the stack" and "put all of the puzzle boards used
    in the round on the top of a shared discard pile"; all play the side chosen ("B" here)."""
    game = classic(side="B")
    before = list(game.stack)
    game = apply(game, StartRound(0.0))
    assert game.round is not None
    dealt = [e.card for e in game.round.entries]
    assert sorted(dealt) == sorted(before[:4]) and game.stack == before[4:]
    assert {e.side for e in game.round.entries} == {"B"}
    for p in PLAYERS:
        game = apply(game, GiveUp(p, 1.0))
    assert sorted(game.discard) == sorted(dealt)


def test_3d_own_stacks_of_nine_boards_of_own_level() -> None:
    """ "Each player receives 9 puzzle boards of their chosen difficulty level" and "You can all
    play the same difficulty level or with different difficulty levels.\""""
    levels = ("green", "yellow", "orange", "red")
    game = new_game(Settings("3d", PLAYERS, levels=levels), 4, fixture_deck("3d"))
    boards = [b for p in game.players for b in p.stack]
    assert len(boards) == 36 and len(set(boards)) == 36
    for p, level in zip(game.players, levels, strict=True):
        assert len(p.stack) == 9 and p.side == level
        assert all(level in game.deck.side_names(b) for b in p.stack)
    game = apply(game, StartRound(0.0))
    assert game.round is not None and game.deadline == 90.0
    assert [e.side for e in game.round.entries] == list(levels)


def test_3d_too_few_boards_of_a_level() -> None:
    """Nine boards each must exist: a deck with too few boards of a level is refused."""
    with pytest.raises(SettingsError, match="too few green boards"):
        new_game(Settings("3d", PLAYERS, levels=("green",)), 1, fixture_deck("3d", cards=40))


def test_display_empties_after_nine_rounds_and_gems_are_conserved() -> None:
    """ "The game ends after nine rounds - that is, when no more gems are left on the game round
    track", whatever happens in the rounds; and no gem is created or lost."""
    checked = []

    def check(g: Game, action: object, error: object) -> None:
        assert g.gem_total() == GEM_SUPPLY
        assert g.display["sapphire"] == g.display["amber"] == 9 - g.rounds_played
        checked.append(action)

    for seed in range(6):
        game = classic(seed=seed)
        final = play_game(game, seed, check)
        assert final.rounds_played == 9
        assert final.display == {"sapphire": 0, "amber": 0}
        assert final.gem_total() == GEM_SUPPLY
    assert len(checked) > 6 * 9


def test_score_example() -> None:
    """ "one red ruby, one blue sapphire, three green emeralds, and three brown ambers ...
    1x4 + 1x3 + 3x2 + 3x1 = 16 points.\""""
    p = PlayerState("ann", "A", gems={"ruby": 1, "sapphire": 1, "emerald": 3, "amber": 3})
    assert p.score(GEM_VALUES) == 16
    assert GEM_VALUES == {"ruby": 4, "sapphire": 3, "emerald": 2, "amber": 1}


def tied_game(edition: str = "classic", **kw: object) -> Game:
    """A one-round game in which nobody finishes: everyone ties at 0 points."""
    deck = fixture_deck(edition)
    game = new_game(Settings(edition, ("ann", "bob", "cat"), rounds=1, **kw), 2, deck)  # type: ignore[arg-type]
    game = apply(game, StartRound(0.0))
    for p in ("ann", "bob", "cat"):
        game = apply(game, GiveUp(p, 1.0))
    return game


def test_playoff_first_to_finish_wins() -> None:
    """ "If various players tie for the highest score, a 'playoff' takes place. Each tying
    player takes a puzzle board. One of the players rolls the die. The hourglass is not used.
    The first player to complete the task wins the whole game!\""""
    game = tied_game()
    assert game.phase == "waiting" and game.next_kind == "playoff"
    assert game.tied == ["ann", "bob", "cat"]
    game = apply(game, StartRound(10.0))
    assert game.round is not None and game.round.kind == "playoff"
    assert game.deadline is None, "no hourglass"
    assert len({e.key for e in game.round.entries}) == 1, "one die roll for all"
    assert len({e.card for e in game.round.entries}) == 3, "each takes a board"
    game = apply(game, Advance(10_000.0))
    assert game.phase == "playing", "without an hourglass nothing runs out"
    game = finish(game, "bob", 10_050.0)
    assert game.phase == "over" and game.winners == ["bob"]


def test_playoff_only_for_tied_players() -> None:
    """Only "each tying player" plays the playoff: here ann (sapphire + bag gem) and bob (amber +
    bag gem) tie, cat (nothing) is out."""
    deck = fixture_deck("classic")
    for seed in range(200):
        game = new_game(Settings("classic", ("ann", "bob", "cat"), rounds=1), seed, deck)
        game = apply(game, StartRound(0.0))
        game = finish(game, "ann", 5.0)
        game = finish(game, "bob", 6.0)
        game = apply(game, GiveUp("cat", 7.0))
        if game.tied:
            break
    assert game.tied == ["ann", "bob"], "some seed among 200 makes the bag draws tie"
    game = apply(game, StartRound(10.0))
    assert game.round is not None and [e.player for e in game.round.entries] == ["ann", "bob"]
    with pytest.raises(NotInRound):
        apply(game, Submit("cat", solution(game, game.round.entries[0]), 11.0))


def test_playoff_nobody_finishes_is_shared() -> None:
    """Choice (docs/rules.md): a playoff everybody gives up on (or that runs past the agreed
    playoff limit) ends in a shared victory."""
    game = apply(tied_game(), StartRound(10.0))
    for p in ("ann", "bob", "cat"):
        game = apply(game, GiveUp(p, 20.0))
    assert game.phase == "over" and game.winners == ["ann", "bob", "cat"]
    limited = apply(tied_game(playoff_limit=120.0), StartRound(10.0))
    assert limited.deadline == 130.0
    limited = apply(limited, Advance(130.0))
    assert limited.phase == "over" and limited.winners == ["ann", "bob", "cat"]


def test_shared_tie_break_setting() -> None:
    """With tie_break="shared" a tie is not played off."""
    game = tied_game(tie_break="shared")
    assert game.phase == "over" and game.winners == ["ann", "bob", "cat"]


def test_3d_playoff_uses_unused_boards_of_own_level() -> None:
    """3D playoff: "Each tying player takes a puzzle board" of their level, one not played yet."""
    deck = fixture_deck("3d")
    game = new_game(Settings("3d", ("ann", "bob"), levels=("red", "green"), rounds=1), 3, deck)
    used = {b for p in game.players for b in p.stack}
    game = apply(game, StartRound(0.0))
    game = apply(game, GiveUp("ann", 1.0))
    game = apply(game, GiveUp("bob", 1.0))
    game = apply(game, StartRound(5.0))
    assert game.round is not None and game.round.kind == "playoff"
    for e, level in zip(game.round.entries, ("red", "green"), strict=True):
        assert e.card not in used and e.side == level


def test_playoff_after_the_stack_ran_out_reshuffles_the_discard_pile() -> None:
    """Choice (docs/rules.md): with 4 players the 36 boards are used up after 9 rounds; the
    playoff's boards come from the discard pile shuffled into a new stack."""
    game = new_game(Settings("classic", PLAYERS), 8, fixture_deck("classic", cards=36))
    for i in range(9):
        game = apply(game, StartRound(100.0 * i))
        for p in PLAYERS:
            game = apply(game, GiveUp(p, 100.0 * i + 1))
    assert game.stack == [] and len(game.discard) == 36
    assert game.next_kind == "playoff" and game.tied == list(PLAYERS)
    assert game.display == {"sapphire": 0, "amber": 0} and game.bag["sapphire"] == 19
    game = apply(game, StartRound(1000.0))
    assert game.reshuffles == 1 and game.round is not None
    assert len(game.stack) == 32 and len({e.card for e in game.round.entries}) == 4
