"""The engine's contract: wrong actions raise and change nothing; games replay and round-trip
through JSON; views hide what players may not see; random games keep every invariant."""

from __future__ import annotations

import copy
import json
from dataclasses import FrozenInstanceError, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ubongo import editions
from ubongo.board import Placement
from ubongo.rules import (
    Action,
    ActionError,
    Advance,
    AlreadyFinished,
    AlreadyGaveUp,
    GameOver,
    GiveUp,
    NoRound,
    RoundRunning,
    RuleError,
    Settings,
    SettingsError,
    StartRound,
    Submit,
    TimeWentBackwards,
    TooLate,
    UnknownPiece,
    UnknownPlayer,
    WrongArrangement,
    action_from_json,
    action_to_json,
    apply,
    game_from_json,
    game_to_json,
    new_game,
    replay,
    view,
)
from ubongo.rules.bots import play_game, solution
from ubongo.rules.state import Game
from ubongo.rules.testing import fixture_deck

PLAYERS = ("ann", "bob", "cat")


def started(edition: str = "classic", **kw: Any) -> Game:
    game = new_game(Settings(edition, PLAYERS, **kw), 3, fixture_deck(edition))
    return apply(game, StartRound(0.0))


def rejects(game: Game, action: Action, error: type[RuleError]) -> RuleError:
    """``action`` raises ``error`` and leaves ``game`` exactly as it was."""
    before = copy.deepcopy(game)
    before_json = json.dumps(game_to_json(game), sort_keys=True)
    with pytest.raises(error) as info:
        apply(game, action)
    assert game == before
    assert json.dumps(game_to_json(game), sort_keys=True) == before_json
    return info.value


def good(game: Game, player: str) -> tuple[Placement, ...]:
    assert game.round is not None
    entry = game.round.entry(player)
    assert entry is not None
    return solution(game, entry)


def test_an_action_leaves_the_game_before_it_as_it_was_and_shares_its_events() -> None:
    """``apply`` changes a copy: the game before stays as it was, and the events told before
    are the same objects in both (never changed once made; copied too, each action of a long
    game cost more than the last: bench/rules_apply.py)."""
    game = started()
    before = json.dumps(game_to_json(game), sort_keys=True)
    after = apply(game, Submit("ann", good(game, "ann"), 10.0))
    assert json.dumps(game_to_json(game), sort_keys=True) == before
    assert len(after.events) > len(game.events) > 0
    assert all(a is b for a, b in zip(game.events, after.events, strict=False))
    assert after.round is not game.round and after.players[0] is not game.players[0]
    with pytest.raises(FrozenInstanceError):
        after.events[0].at = 1.0  # type: ignore[misc]


def test_second_submission_rejected() -> None:
    """A player who has said "Ubongo!" cannot say it again."""
    game = started()
    game = apply(game, Submit("ann", good(game, "ann"), 5.0))
    rejects(game, Submit("ann", good(game, "ann"), 6.0), AlreadyFinished)


def test_submission_after_time_rejected() -> None:
    """After the second hourglass, nobody can finish (the round is over)."""
    game = started()
    rejects(game, Submit("ann", good(game, "ann"), 120.5), TooLate)
    # on the deadline itself the submission still counts
    assert apply(game, Submit("ann", good(game, "ann"), 120.0)).round is not None


def test_unknown_player_rejected() -> None:
    game = started()
    rejects(game, Submit("zed", good(game, "ann"), 5.0), UnknownPlayer)
    rejects(game, GiveUp("zed", 5.0), UnknownPlayer)


def test_not_covering_rejected_with_reason_and_player_plays_on() -> None:
    """A wrong arrangement is not a finish: the error carries the verdict; a good one counts."""
    game = started()
    arrangement = good(game, "bob")
    error = rejects(game, Submit("bob", arrangement[:-1], 5.0), WrongArrangement)
    assert isinstance(error, WrongArrangement)
    assert error.verdict.code == "missing_piece" and "not placed" in str(error)
    moved = (
        *arrangement[:-1],
        Placement(arrangement[-1].piece, arrangement[-1].transform, (40, 40)),
    )
    error = rejects(game, Submit("bob", moved, 5.0), WrongArrangement)
    assert isinstance(error, WrongArrangement) and error.verdict.code == "outside"
    game = apply(game, Submit("bob", arrangement, 7.0))
    assert game.round is not None and game.round.finish_order == ["bob"]


def test_unknown_piece_rejected() -> None:
    game = started()
    rejects(game, Submit("ann", (Placement("Q9", 0, (0, 0)),), 5.0), UnknownPiece)


def test_acting_without_a_round_rejected() -> None:
    game = new_game(Settings("classic", PLAYERS), 1, fixture_deck("classic"))
    rejects(game, Submit("ann", (), 1.0), NoRound)
    rejects(game, GiveUp("ann", 1.0), NoRound)
    game = apply(game, StartRound(0.0))
    rejects(game, StartRound(1.0), RoundRunning)


def test_gave_up_cannot_submit() -> None:
    game = apply(started(), GiveUp("cat", 3.0))
    rejects(game, Submit("cat", good(game, "cat"), 4.0), AlreadyGaveUp)


def test_time_going_backwards_rejected() -> None:
    game = apply(started(), GiveUp("cat", 30.0))
    rejects(game, Submit("ann", good(game, "ann"), 29.0), TimeWentBackwards)
    rejects(game, Advance(10.0), TimeWentBackwards)
    rejects(game, Submit("ann", good(game, "ann"), float("nan")), TimeWentBackwards)


def test_actions_after_the_end_rejected() -> None:
    game = play_game(new_game(Settings("extreme", PLAYERS), 1, fixture_deck("extreme")), 1)
    assert game.phase == "over"
    rejects(game, StartRound(1e6), GameOver)
    rejects(game, GiveUp("ann", 1e6), GameOver)
    assert apply(game, Advance(1e6)) is game, "a late tick changes nothing"


def test_advance_with_nothing_due_changes_nothing() -> None:
    game = started()
    assert apply(game, Advance(59.0)) is game


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"edition": "chess"}, "unknown edition"),
        ({"players": ()}, "1-4 players"),
        ({"players": ("a", "a")}, "distinct"),
        ({"players": ("a", "b", "c", "d", "e")}, "1-4 players"),
        ({"side": "C"}, "no side"),
        ({"edition": "trigo", "side": "A"}, "no side"),
        ({"edition": "3d", "levels": ("purple",)}, "unknown 3d level"),
        ({"edition": "3d", "levels": ("red", "green")}, "one per player"),
        ({"levels": ("A", "B")}, "or one per player: not 2"),
        ({"levels": ("A", "B", "C")}, "no side 'C'"),
        ({"rounds": 10}, "at most 9"),
        ({"hourglass": 0.0}, "hourglass"),
        ({"countdown": 20.0}, "hourglass, not a countdown"),
        ({"edition": "extreme", "hourglass": 60.0}, "countdown, not an hourglass"),
        ({"tie_break": "tie-round"}, "playoff or shared"),
        ({"variant": "only-first"}, "no only-first"),
    ],
)
def test_bad_settings(kw: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"edition": "classic", "players": PLAYERS, **kw}
    with pytest.raises(SettingsError, match=message):
        Settings(**args).resolved()


@pytest.mark.parametrize(
    ("edition", "levels"), [("classic", ("B", "A", "A")), ("trigo", ("easy", "hard", "easy"))]
)
def test_players_of_one_table_may_play_sides_of_their_own(
    edition: str, levels: tuple[str, ...]
) -> None:
    """An arena's harder side: each player's tasks are on their own side, every card dealt has
    both, and a countdown is the easiest side's."""
    game = started(edition, levels=levels, rounds=2)
    rec = editions.record(edition)
    assert game.settings.side is None
    if rec.timer.kind == "countdown":
        assert game.settings.countdown == rec.timer.countdown_for(rec.deck.side_names[0])
    assert game.round is not None
    for player, level in zip(PLAYERS, levels, strict=True):
        entry = game.round.entry(player)
        assert entry is not None and entry.side == level
        assert {s.name for s in game.deck.card(entry.card).sides} >= set(levels)
        game = apply(game, Submit(player, good(game, player), 1.0 + len(game.round.finish_order)))
    assert game.round is not None and game.round.finish_order == list(PLAYERS)
    assert new_game(Settings(edition, PLAYERS, levels=levels[:1] * 3), 3).settings.side == levels[0]


def test_games_naming_one_deck_seed_share_its_cards_each_drawing_its_own() -> None:
    """An arena's races: one fresh deck made once (its seed, with every side the arena plays),
    each race dealing from it by its own seed."""
    shared = Settings("classic", PLAYERS, puzzles="fresh", deck_seed=99, deck_sides=("A", "B"))
    games = [new_game(replace(shared, rounds=1), seed) for seed in range(4)]
    assert len({id(g.deck) for g in games}) == 1
    assert getattr(games[0].deck, "sides", None) == frozenset({"A", "B"})
    dealt = {tuple(g.stack[:3]) for g in games}
    assert len(dealt) > 1  # the races' own seeds shuffle it their own ways
    alone = new_game(Settings("classic", PLAYERS, puzzles="fresh", rounds=1), 0)
    assert alone.deck is not games[0].deck
    with pytest.raises(SettingsError, match="for fresh cards"):
        new_game(Settings("classic", PLAYERS, deck_seed=99), 1)


def test_deck_must_match_edition() -> None:
    with pytest.raises(SettingsError, match="extreme deck"):
        new_game(Settings("classic", PLAYERS), 1, fixture_deck("extreme"))
    with pytest.raises(SettingsError, match="need 36 cards"):
        new_game(Settings("classic", ("a", "b", "c", "d")), 1, fixture_deck("classic", cards=30))


def test_view_shows_own_task_only() -> None:
    game = started()
    v = view(game, "ann")
    json.dumps(v)  # JSON-ready
    assert v["round"]["task"]["card"] == game.round.entry("ann").card  # type: ignore[union-attr]
    assert "tasks" not in v["round"]
    assert v["bag"] == 40 and v["display"] == {"sapphire": 9, "amber": 9}
    text = json.dumps(v)
    assert "seed" not in text and str(game.stack) not in text
    spectator = view(game)
    assert set(spectator["round"]["tasks"]) == set(PLAYERS)


def test_action_json_round_trip_and_malformed() -> None:
    game = started()
    a = Submit("ann", good(game, "ann"), 3.5)
    assert action_from_json(json.loads(json.dumps(action_to_json(a)))) == a
    for bad in (
        {"type": "dance"},
        {"type": "submit", "now": 1},
        {"type": "give_up", "now": 1, "player": 3},
    ):
        with pytest.raises(ActionError):
            action_from_json(bad)


def test_saved_game_needs_its_deck() -> None:
    game = started()
    data = game_to_json(game)
    with pytest.raises(SettingsError):
        game_from_json(data, fixture_deck("classic", cards=39))
    with pytest.raises(SettingsError):
        game_from_json({"format": "other"}, game.deck)


CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"side": "B", "second_chance": False}),
    ("3d", {"levels": ("green", "red", "orange", "yellow")}),
    ("3d", {"levels": ("red",)}),
    ("extreme", {"side": "B"}),
    ("extreme", {"variant": "only-first"}),
    ("trigo", {"side": "hard", "countdown": 10.0}),
    ("trigo", {"variant": "only-first", "tie_break": "tie-round"}),
    ("classic", {"mode": "solo", "solo_goal": "tasks", "solo_target": 5}),
    ("trigo", {"mode": "solo", "solo_target": 5}),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    config=st.sampled_from(CONFIGS),
    players=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_random_games_keep_invariants_and_replay(
    config: tuple[str, dict[str, Any]], players: int, seed: int
) -> None:
    """Over random whole games: gems are never created or lost, the display empties after the
    last round, cards are never lost, time never goes back in the log, the game replays from
    (settings, seed, log) and survives a JSON round trip."""
    edition, kw = config
    if kw.get("mode") == "solo":
        players = 1
    elif edition in ("extreme", "trigo"):
        players = max(players, 2)
    names = tuple(f"p{i}" for i in range(players))
    if edition == "3d" and len(kw.get("levels", ())) > 1:
        kw = {**kw, "levels": kw["levels"][:players]}
    game = new_game(Settings(edition, names, **kw), seed, fixture_deck(edition))
    rejected: list[RuleError] = []

    def check(g: Game, action: Action | None, error: RuleError | None) -> None:
        if error is not None:
            assert isinstance(error, WrongArrangement)
            rejected.append(error)
        if g.settings.gems and not g.settings.solo:
            assert g.gem_total() == editions.record(g.settings.edition).scoring.gem_supply

    final = play_game(game, seed, check)
    assert final.phase == "over" and final.winners
    assert all(b.now >= a.now for a, b in zip(final.log, final.log[1:], strict=False))
    if final.settings.solo:
        assert final.solo is not None and final.solo.ended_at is not None
    elif final.settings.gems:
        assert final.display == {"sapphire": 0, "amber": 0} and final.rounds_played == 9
    else:
        won = [c for p in final.players for c in p.cards]
        assert sorted(won + final.discard + final.box) == list(range(1, final.deck.size + 1))
        assert final.rounds_played == 8
    scores = final.scores()
    if len(final.winners) == 1 and not final.settings.solo and final.tied == []:
        assert scores[final.winners[0]] == max(scores.values())
    again = replay(final.settings, seed, final.log, final.deck)
    assert again == final
    loaded = game_from_json(json.loads(json.dumps(game_to_json(final))), final.deck)
    assert loaded == final
