"""Extreme and Trigo: card counts, corners, countdown, hand-overs, variants, tie round.

Rulebooks: ../shared/seeds/003_1496be5c934cbd6d.txt (Extreme) and
../shared/seeds/004_ec9c685fb5786f12.txt (Trigo).  Each test quotes the sentence it checks.
"""

from __future__ import annotations

import pytest

from ubongo.rules import (
    Advance,
    GiveUp,
    Settings,
    SettingsError,
    StartRound,
    Submit,
    TooLate,
    WrongArrangement,
    apply,
    entry_task,
    new_game,
)
from ubongo.rules.bots import play_game, solution
from ubongo.rules.state import Game
from ubongo.rules.testing import fixture_deck

PLAYERS = ("ann", "bob", "cat", "dan")

CORNERS = ("upper-left", "upper-right", "lower-left", "lower-right")


def game_of(edition: str, players: tuple[str, ...] = PLAYERS, seed: int = 1, **kw: object) -> Game:
    return new_game(Settings(edition, players, **kw), seed, fixture_deck(edition))  # type: ignore[arg-type]


def finish(game: Game, player: str, now: float) -> Game:
    assert game.round is not None
    entry = game.round.entry(player)
    assert entry is not None
    return apply(game, Submit(player, solution(game, entry), now))


@pytest.mark.parametrize("edition", ["extreme", "trigo"])
@pytest.mark.parametrize(("players", "cards"), [(2, 16), (3, 24), (4, 32)])
def test_card_counts_per_player_count(edition: str, players: int, cards: int) -> None:
    """Extreme: "2 Players: 16 puzzle cards, 3 Players: 24, 4 Players: 32"; Trigo: "With 3
    players, 8 cards are randomly returned to the box. With 2 players, 16 cards"."""
    game = game_of(edition, PLAYERS[:players])
    assert len(game.stack) == cards and len(set(game.stack)) == cards
    assert len(game.box) == 32 - cards
    assert sorted(game.stack + game.box) == list(range(1, 33))


def test_cards_returned_at_random() -> None:
    """Trigo: cards are "randomly returned to the box": which ones depends on the seed."""
    boxes = {tuple(game_of("trigo", PLAYERS[:2], seed=s).box) for s in range(5)}
    assert len(boxes) > 1


@pytest.mark.parametrize("edition", ["extreme", "trigo"])
def test_one_player_plays_solo(edition: str) -> None:
    """A race needs 2-4 players; "If you want to play solo, refer to the instructions"."""
    with pytest.raises(SettingsError, match="solo"):
        game_of(edition, ("ann",))


def test_corner_schedule() -> None:
    """ "For the first round, use the tiles pictured in the upper-left corner. For the second
    round ... upper-right ... Then ... lower-left ... lower-right ... For the fifth round, use
    the upper-left corner tiles and proceed in the same way.\""""
    game = game_of("extreme", PLAYERS[:2])
    corners = []
    for i in range(8):
        game = apply(game, StartRound(100.0 * i))
        assert game.round is not None
        corners.append(game.round.entries[0].key)
        game = finish(game, "ann", 100.0 * i + 10)
        game = apply(game, Advance(100.0 * i + 30))
    assert corners == list(CORNERS) * 2
    assert game.phase == "over" and game.rounds_played == 8


@pytest.mark.parametrize(
    ("edition", "side", "seconds"),
    [
        ("extreme", "A", 20.0),
        ("extreme", "B", 30.0),
        ("trigo", "easy", 20.0),
        ("trigo", "hard", 30.0),
    ],
)
def test_countdown_starts_with_first_finisher(edition: str, side: str, seconds: float) -> None:
    """Extreme: "counts down ... from 20 to zero if the simple puzzles are being used, or from
    30 to zero if the more difficult"; Trigo: "20 additional seconds (30 if playing with the
    harder side)"."""
    game = apply(game_of(edition, side=side), StartRound(0.0))
    assert game.deadline is None, "no clock runs before someone finishes"
    game = finish(game, "bob", 42.0)
    assert game.deadline == 42.0 + seconds


def test_agreed_countdown() -> None:
    """ "The players may also agree on a different countdown number before the game.\""""
    game = apply(game_of("extreme", countdown=45.0), StartRound(0.0))
    assert finish(game, "ann", 10.0).deadline == 55.0


@pytest.mark.parametrize("edition", ["extreme", "trigo"])
def test_hand_over_to_first(edition: str) -> None:
    """ "The player who completes his or her puzzle first keeps the puzzle card ... Any player
    who solves ... before the countdown reaches zero can keep the card ... Players who did not
    complete their puzzle must hand over their cards to the player who solved ... first.\""""
    game = apply(game_of(edition), StartRound(0.0))
    assert game.round is not None
    cards = {e.player: e.card for e in game.round.entries}
    game = finish(game, "cat", 10.0)
    game = finish(game, "ann", 29.0)  # in time: the countdown ends at 30
    with pytest.raises(TooLate):
        finish(game, "bob", 31.0)
    game = apply(game, Advance(30.0))
    assert game.phase == "waiting"
    assert game.player("cat").cards == [cards["cat"], cards["bob"], cards["dan"]]
    assert game.player("ann").cards == [cards["ann"]]
    assert game.player("bob").cards == [] and game.player("dan").cards == []


def test_increased_difficulty_only_first_keeps() -> None:
    """Extreme "INCREASED DIFFICULTY: ... only the first player to complete the puzzle in each
    round gets to keep his or her puzzle card"; choice (docs/rules.md): the others' cards are
    put out of play and the round ends at the first finish."""
    game = apply(game_of("extreme", variant="only-first"), StartRound(0.0))
    assert game.round is not None
    cards = {e.player: e.card for e in game.round.entries}
    game = finish(game, "dan", 12.0)
    assert game.phase == "waiting"
    assert game.player("dan").cards == [cards["dan"]]
    assert sorted(game.discard) == sorted(cards[p] for p in ("ann", "bob", "cat"))


def test_increased_difficulty_cards_to_first_setting() -> None:
    """The others_cards="to-first" setting hands the others' cards to the first instead."""
    game = apply(game_of("extreme", variant="only-first", others_cards="to-first"), StartRound(0.0))
    game = finish(game, "dan", 12.0)
    assert len(game.player("dan").cards) == 4 and game.discard == []


def test_trigo_expert_variant() -> None:
    """Trigo "Variant for experts: ... only the first player to finish a puzzle each round is
    awarded a card. The others are discarded.\""""
    game = play_game(game_of("trigo", variant="only-first"), seed=9)
    kept = sum(len(p.cards) for p in game.players)
    assert kept == 8, "one card per round"
    assert kept + len(game.discard) == 32


@pytest.mark.parametrize(("side", "pieces"), [("easy", 4), ("hard", 6)])
def test_trigo_sides_and_both_areas(side: str, pieces: int) -> None:
    """ "An easier side that requires 4 game pieces ... a harder side that requires 6" and "all
    of the white areas in both puzzle sections on the card must be completely covered".  An
    arrangement covering one section only is not a finish."""
    game = apply(game_of("trigo", side=side), StartRound(0.0))
    assert game.round is not None
    entry = game.round.entries[0]
    area, task = entry_task(game, entry)
    assert len(task.pieces) == pieces and len(area.area.regions) == 2
    full = solution(game, entry)
    first_region = area.area.regions[0]
    pieces_by_id = {p.id: p for p in game.deck.task_pieces(task)}
    one_section = tuple(p for p in full if p.cells(pieces_by_id[p.piece]) <= first_region)
    assert 0 < len(one_section) < len(full)
    with pytest.raises(WrongArrangement):
        apply(game, Submit(entry.player, one_section, 5.0))


def test_trigo_starting_player_takes_first_card() -> None:
    """ "The starting player takes the top card ... In a clockwise direction the other players
    do the same.\""""
    game = game_of("trigo")
    top = list(game.stack[:4])
    game = apply(game, StartRound(0.0))
    assert game.round is not None
    assert [e.card for e in game.round.entries] == top


def test_every_card_accounted_for() -> None:
    """ "The game ends after eight rounds (i.e., after the round in which the stack of puzzle
    cards is used up)": every used card is on some player's pile or out of play."""
    for seed in range(4):
        for edition in ("extreme", "trigo"):
            game = play_game(game_of(edition, PLAYERS[: 2 + seed % 3], seed=seed), seed)
            assert game.stack == [] and game.rounds_played == 8
            won = [c for p in game.players for c in p.cards]
            assert sorted(won + game.discard + game.box) == list(range(1, 33))


def extreme_tie() -> Game:
    """Two players, one round, both finish in time: 1 card each."""
    game = apply(game_of("extreme", ("ann", "bob", "cat"), rounds=1), StartRound(0.0))
    game = finish(game, "ann", 5.0)
    game = finish(game, "bob", 6.0)
    return apply(game, Advance(25.0))


def test_extreme_tie_round() -> None:
    """ "If there is a tie, the tied players play one more round. They take the top puzzle card
    of the players to their lefts and use the tiles pictured in the upper-right corners. The
    player who finishes first in this final round wins the game.\""""
    game = extreme_tie()
    # cat gave their card to ann (the first): ann 2, bob 1 - no tie
    assert game.scores() == {"ann": 2, "bob": 1, "cat": 0}
    assert game.phase == "over" and game.winners == ["ann"]

    game = apply(game_of("extreme", ("ann", "bob", "cat"), rounds=1), StartRound(0.0))
    game = finish(game, "ann", 5.0)
    game = finish(game, "bob", 6.0)
    game = finish(game, "cat", 7.0)
    assert game.phase == "waiting" and game.next_kind == "tie-round"
    tops = {p.id: p.cards[-1] for p in game.players}
    game = apply(game, StartRound(30.0))
    assert game.round is not None and game.round.kind == "tie-round"
    entries = {e.player: e for e in game.round.entries}
    assert entries["ann"].card == tops["bob"]
    assert entries["bob"].card == tops["cat"]
    assert entries["cat"].card == tops["ann"]
    assert {e.key for e in entries.values()} == {"upper-right"}
    game = finish(game, "cat", 50.0)
    assert game.phase == "over" and game.winners == ["cat"]


def test_tie_round_passes_over_empty_pile() -> None:
    """Choice (docs/rules.md): a player to the left with no card is passed over for the next
    player to the left."""
    # only the first scores; two rounds won by ann and cat tie them, bob has no card
    game = apply(
        game_of("extreme", ("ann", "bob", "cat"), rounds=2, variant="only-first"), StartRound(0.0)
    )
    game = finish(game, "ann", 5.0)
    game = apply(game, StartRound(10.0))
    game = finish(game, "cat", 15.0)
    assert game.tied == ["ann", "cat"]
    ann_top, cat_top = game.player("ann").cards[-1], game.player("cat").cards[-1]
    game = apply(game, StartRound(20.0))
    assert game.round is not None
    entries = {e.player: e.card for e in game.round.entries}
    assert entries == {"ann": cat_top, "cat": ann_top}  # ann's left (bob) has no card


def test_trigo_tie_is_shared_by_default() -> None:
    """Trigo's rulebook names no tie-break ("The player who collected the most cards is the
    winner"): choice (docs/rules.md) a tie is a shared win; tie_break="tie-round" plays one."""
    for tie_break, phase in (("shared", "over"), ("tie-round", "waiting")):
        game = apply(
            game_of("trigo", ("ann", "bob"), rounds=1, tie_break=tie_break), StartRound(0.0)
        )
        game = finish(game, "ann", 5.0)
        game = finish(game, "bob", 6.0)
        assert game.phase == phase
        if phase == "over":
            assert game.winners == ["ann", "bob"]


def test_nobody_finishes_cards_out_of_play() -> None:
    """Choice (docs/rules.md): if every player gives up (or the agreed round limit passes), no
    one scores and the round's cards are put out of play."""
    game = apply(game_of("extreme", ("ann", "bob"), round_limit=120.0), StartRound(0.0))
    assert game.deadline == 120.0
    assert game.round is not None
    cards = sorted(e.card for e in game.round.entries)
    ended = apply(game, Advance(120.0))
    assert ended.phase == "waiting" and sorted(ended.discard) == cards
    game = apply(game, GiveUp("ann", 3.0))
    game = apply(game, GiveUp("bob", 4.0))
    assert game.phase == "waiting" and sorted(game.discard) == cards
