"""The edition records: they agree with the data they describe, bad ones are refused, and a
fifth edition is one record (and its pieces) away.

The fictional edition "pocket" (tests/data/pocket: six square pieces, two corners, an
hourglass, cards as points, a playoff) is registered through :func:`ubongo.editions.register`
and then made into decks, played and simulated like a shipped one.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from ubongo import editions
from ubongo.board import check_cover, placements_of
from ubongo.catalogue import edition_catalogue
from ubongo.cli import main
from ubongo.editions import EditionDataError, EditionRecord, record_from_json
from ubongo.editions.record import DEALS, KEY_KINDS, SCORING_KINDS, TIMER_KINDS
from ubongo.pieces import edition
from ubongo.puzzles.deck import Deck, standard_deck
from ubongo.puzzles.generator import generate_deck
from ubongo.rules import Settings, SettingsError, new_game, policies, replay
from ubongo.rules.bots import play_game
from ubongo.rules.settings import TIMER_SETTINGS
from ubongo.server.rooms.room import RoomSettings
from ubongo.server.routes.editions import options
from ubongo.solver import solve

DATA = resources.files("ubongo").joinpath("data")
POCKET = Path(__file__).parent / "data" / "pocket" / "pocket.json"
SHIPPED = ("classic", "3d", "extreme", "trigo")


@pytest.fixture(scope="module")
def pocket() -> Iterator[EditionRecord]:
    editions.register(editions.load_record(POCKET))
    yield editions.record("pocket")
    editions.unregister("pocket")
    assert editions.names() == SHIPPED


@pytest.fixture(scope="module")
def pocket_deck(pocket: EditionRecord) -> Deck:
    return generate_deck("pocket")


# --- the shipped records agree with the data -------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_record_matches_the_shipped_deck(name: str) -> None:
    rec = editions.record(name)
    deck = standard_deck(name)
    assert rec.name == name and deck.seed == rec.deck.seed
    assert len(deck.cards) == rec.deck.cards
    assert {s.name for c in deck.cards for s in c.sides} == set(rec.deck.side_names)
    for card in deck.cards:
        if not rec.deck.side_pairs:
            assert tuple(s.name for s in card.sides) == rec.deck.side_names
        for side in card.sides:
            spec = rec.deck.side(side.name)
            # every key of the edition chooses exactly one task of every side
            assert sorted(side.keys) == sorted(rec.deck.keys)
            assert all(len(t.pieces) == spec.pieces for t in side.tasks)
            assert len(side.area.regions) == rec.deck.regions
            assert side.area.layers == rec.layers
            if spec.cells:
                assert len(side.area.cells) == spec.cells
            if not rec.deck.side_pairs:
                assert len(side.tasks) == spec.tasks
            else:
                assert spec.tasks - 1 <= len(side.tasks) <= spec.tasks
    for pair, n in rec.deck.side_pairs:
        assert sum(1 for c in deck.cards if tuple(s.name for s in c.sides) == pair) == n


@pytest.mark.parametrize("name", SHIPPED)
def test_record_matches_the_pieces_and_the_rules(name: str) -> None:
    rec = editions.record(name)
    ed = edition(name)
    assert ed.lattice.name == rec.lattice and ed.layers == rec.layers
    assert all(p.reflections == rec.reflections for p in ed.pieces)
    assert ed.regions == rec.deck.regions
    if rec.timer.kind == "countdown":
        assert [s for s, _ in rec.timer.countdown] == list(rec.deck.side_names)
    players = tuple(str(i) for i in range(rec.players[0]))
    s = Settings(name, players).resolved()
    assert s.rounds == rec.rounds and s.tie_break == rec.tie_break
    assert s.level_of("0") == rec.default_side
    assert (s.hourglass, s.countdown) == (
        rec.timer.hourglass,
        None if rec.timer.kind == "hourglass" else rec.timer.countdown_for(rec.default_side),
    )
    solo = Settings(name, ("ann",), mode="solo").resolved()
    assert solo.solo_target == rec.solo.minutes
    assert Settings(name, ("ann",), mode="solo", solo_goal="tasks").resolved().solo_target == (
        rec.solo.tasks
    )
    with pytest.raises(SettingsError, match="players"):
        Settings(name, tuple(str(i) for i in range(rec.players[1] + 1))).resolved()


def test_the_shipped_facts() -> None:
    """The facts from the rulebooks, as the records state them (docs/rules.md)."""
    classic, cube, extreme, trigo = (editions.record(n) for n in SHIPPED)
    assert editions.names() == SHIPPED
    assert [r.deck.cards for r in (classic, cube, extreme, trigo)] == [36, 72, 32, 32]
    assert (classic.timer.hourglass, cube.timer.hourglass) == (60.0, 90.0)
    assert dict(extreme.timer.countdown) == {"A": 20.0, "B": 30.0}
    assert dict(trigo.timer.countdown) == {"easy": 20.0, "hard": 30.0}
    assert trigo.solo.minutes == 20 and classic.solo.minutes == 5
    assert (extreme.tie_round_key, trigo.tie_round_key) == ("upper-right", "card")
    for gems in (classic, cube):
        assert gems.scoring.gem_supply == {"ruby": 10, "sapphire": 19, "emerald": 10, "amber": 19}
        assert gems.scoring.gem_values == {"ruby": 4, "sapphire": 3, "emerald": 2, "amber": 1}
        assert gems.scoring.place_gems == ("sapphire", "amber")
        assert gems.scoring.display_limit == 9 == gems.rounds
    assert cube.own_sides and not any(r.own_sides for r in (classic, extreme, trigo))


def test_every_policy_a_record_may_name_has_its_code() -> None:
    """Each name the loader accepts maps to a policy (a timer's kind also to the times of the
    settings it keeps, which the settings resolve apart from the policy)."""
    assert set(policies.KEY_CHOICES) == set(KEY_KINDS)
    assert set(policies.DEALS) == set(DEALS)
    assert set(policies.TIMERS) == set(TIMER_SETTINGS) == set(TIMER_KINDS)
    assert set(policies.SCORINGS) == set(SCORING_KINDS)


def test_options_serve_every_record() -> None:
    opts = options()
    assert list(opts) == list(editions.names())
    trigo = opts["trigo"]
    assert trigo["solo_default"] == {"time": 20, "tasks": 5}
    assert trigo["side_labels"]["hard"].startswith("Harder")
    assert opts["3d"]["layers"] == 2 and opts["extreme"]["key_kind"] == "corner"
    assert opts["classic"]["gems"] is True and opts["extreme"]["gems"] is False


@pytest.mark.parametrize(
    ("goal", "amount", "expected"),
    [("time", None, 20), ("tasks", None, 5), ("time", 10, 10)],
)
def test_a_solo_trigo_room_lasts_the_rulebook_time(
    goal: str, amount: int | None, expected: int
) -> None:
    """The server used to pass 5 minutes for every edition; Trigo's rulebook says 20."""
    room = RoomSettings(edition="trigo", mode="solo", solo_goal=goal, solo_amount=amount)
    assert room.to_json()["solo_amount"] == expected
    assert room.rules_settings(("0",), ()).resolved().solo_target == expected


# --- bad records are refused, naming file and field ------------------------------------------


def _classic() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.joinpath("editions/classic.json").read_text("utf-8"))
    return data


def _set(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        data = data[key]
    if value is ...:
        del data[last]
    else:
        data[last] = value


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("title", ..., "classic.json: title: missing"),
        ("lattice", "octagon", "classic.json: lattice: no lattice 'octagon'"),
        ("timer.kind", "sundial", "classic.json: timer.kind: expected one of hourglass, countdown"),
        ("timer.hourglass_seconds", "sixty", "timer.hourglass_seconds: expected a number above 0"),
        ("deal", "deal-me-in", "classic.json: deal: expected one of shared-stack"),
        ("default_side", "C", "classic.json: default_side: expected one of A, B"),
        ("rounds", 10, "classic.json: rounds: the gem display holds at most 9 rounds"),
        ("players", [3, 2], "classic.json: players: expected [fewest, most]"),
        ("deck.keys.kind", "spinner", "classic.json: deck.keys.kind: expected one of die"),
        ("deck.sides", [], "classic.json: deck.sides: an edition's cards have at least one side"),
        ("tie_break.allowed", ["tie-round"], "tie_round_key: an edition that allows a tie round"),
        ("scoring.place_gems", ["diamond"], "scoring.place_gems[0]: no gem 'diamond'"),
        ("web.variant_labels", {"only-first": "x"}, "web.variant_labels.only-first: not a variant"),
        ("format", "ubongo-deck", "classic.json: format: expected"),
    ],
)
def test_bad_records_are_refused(path: str, value: Any, message: str) -> None:
    data = _classic()
    record_from_json(copy.deepcopy(data), "classic.json", DATA)  # the shipped one is good
    _set(data, path, value)
    with pytest.raises(EditionDataError) as e:
        record_from_json(data, "classic.json", DATA)
    assert message in str(e.value)


def test_a_taken_name_cannot_be_registered_again() -> None:
    with pytest.raises(ValueError, match="already known"):
        editions.register(editions.record("classic"))
    with pytest.raises(ValueError, match="not registered"):
        editions.unregister("classic")


def test_an_unknown_edition_is_refused_everywhere() -> None:
    with pytest.raises(ValueError, match="unknown edition 'chess'"):
        edition("chess")
    with pytest.raises(SettingsError, match="unknown edition"):
        Settings("chess", ("ann",)).resolved()


# --- a fifth edition: one record and its pieces ----------------------------------------------


def test_pocket_loads_with_its_own_pieces(pocket: EditionRecord) -> None:
    ed = edition("pocket")
    assert [p.id for p in ed.pieces] == ["I", "L", "T", "S", "O", "P"]
    assert ed.lattice.name == "square" and ed.piece("P").size == 5
    assert "pocket" in editions.names() and pocket.deck.file is None
    cat = edition_catalogue("pocket")
    assert cat["edition"] == "pocket" and cat["group_size"] == 8 and len(cat["pieces"]) == 6
    assert options()["pocket"]["title"] == "Pocket"


def test_pocket_has_no_shipped_deck(pocket: EditionRecord) -> None:
    with pytest.raises(FileNotFoundError):
        standard_deck("pocket")
    with pytest.raises(SettingsError, match="cannot load deck"):
        new_game(Settings("pocket", ("ann",)), 1)


def test_pocket_deck_is_generated_to_its_record(pocket: EditionRecord, pocket_deck: Deck) -> None:
    assert len(pocket_deck.cards) == 16 and pocket_deck.seed == 11
    assert pocket_deck.dumps() == generate_deck("pocket").dumps()
    again = Deck.loads(pocket_deck.dumps())
    assert again.edition == "pocket" and again.task_count == 16 * 2 * 2
    for _, side in pocket_deck.sides("big"):
        assert [t.keys for t in side.tasks] == [("left",), ("right",)]
        task = side.task("right")
        found = solve(side.area, pocket_deck.task_pieces(task))
        assert found is not None
        pieces = {p.id: p for p in pocket_deck.task_pieces(task)}
        assert check_cover(side.area, pocket_deck.task_pieces(task), placements_of(pieces, found))


@pytest.mark.parametrize("players", [1, 2, 3])
def test_pocket_plays_a_whole_game(pocket_deck: Deck, players: int) -> None:
    names = ("ann", "bob", "cat")[:players]
    game = new_game(Settings("pocket", names), 2, pocket_deck)
    assert game.settings.hourglass == 45.0 and game.settings.rounds == 4
    final = play_game(game, 2)
    assert final.phase == "over" and final.winners
    assert final.rounds_played == 4
    # the corners in turn choose the tasks (no die); cards are the points
    rounds = [e for e in final.events if e.kind == "round_started" and e.data["kind"] == "round"]
    keys = [{t["key"] for t in e.data["tasks"].values()} for e in rounds]
    assert keys == [{"left"}, {"right"}, {"left"}, {"right"}]
    assert all(e.data["die"] is None for e in rounds)
    assert sum(final.scores().values()) == sum(len(p.cards) for p in final.players)
    assert replay(final.settings, 2, final.log, pocket_deck) == final


def test_pocket_solo_takes_its_own_default(pocket_deck: Deck) -> None:
    final = play_game(new_game(Settings("pocket", ("ann",), mode="solo"), 4, pocket_deck), 4)
    assert final.settings.solo_target == 3 and final.solo is not None
    assert final.solo.ended_at == pytest.approx(180.0)


def test_pocket_simulates_on_the_command_line(
    pocket_deck: Deck, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "pocket.json"
    pocket_deck.save(path)
    argv = ["simulate", "--edition", "pocket", "--players", "2", "--seed", "5"]
    assert main([*argv, "--deck", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ubongo pocket race, seed 5: Ann small, Ben small")
    assert "cards: " in out and "Winner: " in out
