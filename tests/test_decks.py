"""The four standard decks shipped in ubongo/data/decks: shape, solvability, areas, grades."""

from __future__ import annotations

import statistics

import pytest

from ubongo import editions
from ubongo.board import check_cover, placements_of
from ubongo.geometry import SQUARE
from ubongo.puzzles.deck import Deck, standard_deck
from ubongo.puzzles.difficulty import expected_seconds
from ubongo.puzzles.shapes import hole_free, shape_key
from ubongo.solver import search_stats, solve

EDITIONS = ("classic", "3d", "extreme", "trigo")
DIE_FACES = ("1", "2", "3", "4", "5", "6")
CORNERS = ("upper-left", "upper-right", "lower-left", "lower-right")
CARD_KEY = "card"
LEVELS = ("green", "yellow", "orange", "red")

#: edition -> cards, side names, tasks per side, pieces per task (by side name), total tasks
SHAPE = {
    "classic": (36, ("A", "B"), {"A": 3, "B": 4}, 432),
    "extreme": (32, ("A", "B"), {"A": 3, "B": 4}, 256),
    "trigo": (32, ("easy", "hard"), {"easy": 4, "hard": 6}, 64),
}


@pytest.fixture(scope="module", params=EDITIONS)
def deck(request: pytest.FixtureRequest) -> Deck:
    return standard_deck(request.param)


def test_decks_are_made_from_their_recorded_seed(deck: Deck) -> None:
    assert deck.seed == editions.record(deck.edition).deck.seed
    assert deck.generator.startswith("ubongo-generator/")


@pytest.mark.parametrize("name", ["classic", "extreme", "trigo"])
def test_flat_deck_shape(name: str) -> None:
    deck = standard_deck(name)
    cards, sides, pieces_per_task, total = SHAPE[name]
    assert len(deck.cards) == cards
    assert [c.number for c in deck.cards] == list(range(1, cards + 1))
    keys = {"classic": [(f,) for f in DIE_FACES], "extreme": [(c,) for c in CORNERS]}.get(
        name, [(CARD_KEY,)]
    )
    for card in deck.cards:
        assert tuple(s.name for s in card.sides) == sides
        for side in card.sides:
            assert [t.keys for t in side.tasks] == keys
            assert all(len(t.pieces) == pieces_per_task[side.name] for t in side.tasks)
            assert all(len(set(t.pieces)) == len(t.pieces) for t in side.tasks)
            assert len({frozenset(t.pieces) for t in side.tasks}) == len(side.tasks)
    assert deck.task_count == total


def test_3d_deck_shape() -> None:
    deck = standard_deck("3d")
    assert len(deck.cards) == 72
    assert deck.task_count == 671
    per_level = {lv: deck.sides(lv) for lv in LEVELS}
    assert {lv: len(s) for lv, s in per_level.items()} == dict.fromkeys(LEVELS, 36)
    assert sum(len(s.tasks) for _, s in per_level["green"]) == 144  # the real game's easy tasks
    for card in deck.cards:
        assert len(card.sides) == 2
        assert card.sides[0].name != card.sides[1].name
    cells = {"green": 6, "yellow": 7, "orange": 8, "red": 8}
    for level, sides in per_level.items():
        for _, side in sides:
            assert side.area.layers == 2
            assert len(side.area.cells) == cells[level]
            xs = [x for x, _ in side.area.cells]
            ys = [y for _, y in side.area.cells]
            small, large = sorted((max(xs) - min(xs) + 1, max(ys) - min(ys) + 1))
            assert 2 <= small <= 4 and 3 <= large <= 5
            # the die's faces 1-6 are shared out among the tasks, each face to one task
            assert sorted(k for t in side.tasks for k in t.keys) == list(DIE_FACES)
            assert 3 <= len(side.tasks) <= 6
            for t in side.tasks:
                assert len(t.pieces) == (3 if level == "green" else 4)
            assert len({frozenset(t.pieces) for t in side.tasks}) == len(side.tasks)


def test_every_task_is_solvable_and_covers_its_sides_area(deck: Deck) -> None:
    for card in deck.cards:
        for side in card.sides:
            for task in side.tasks:
                pieces = deck.task_pieces(task)
                assert sum(p.size for p in pieces) == side.area.size
                solution = solve(side.area, pieces)
                assert solution is not None, (card.number, side.name, task.keys)
                placed = placements_of({p.id: p for p in pieces}, solution)
                assert check_cover(side.area, pieces, placed).ok


def test_stored_solution_counts_are_right_on_a_sample(deck: Deck) -> None:
    tasks = [(s, t) for c in deck.cards for s in c.sides for t in s.tasks]
    for side, task in tasks[:: max(1, len(tasks) // 60)]:
        assert search_stats(side.area, deck.task_pieces(task)).solutions == task.solutions


def test_areas_are_connected_hole_free_and_distinct(deck: Deck) -> None:
    seen: dict[object, list[frozenset[str]]] = {}
    for card in deck.cards:
        for side in card.sides:
            area = side.area
            assert len(area.regions) == (2 if deck.edition == "trigo" else 1)
            for region in area.regions:
                assert hole_free(area.lattice, region)
            if deck.edition == "3d" and side.name == "green":
                continue  # checked in test_3d_green_areas_repeat_only_with_other_tasks
            key = shape_key(area)
            assert key not in seen, f"card {card.number} side {side.name} repeats an area"
            seen[key] = []


def test_3d_green_areas_repeat_only_with_other_tasks() -> None:
    # 36 green sides need 6-cell areas, and only 34 hexominoes fit the boards: some green sides
    # show the mirror image of another's area, and a shape that comes back (even turned) never
    # brings a task it already had
    deck = standard_deck("3d")
    tasks_by_shape: dict[object, list[frozenset[str]]] = {}
    for _, side in deck.sides("green"):
        key = SQUARE.canonical(side.area.cells, SQUARE.rotations)
        had = tasks_by_shape.setdefault(key, [])
        for task in side.tasks:
            assert frozenset(task.pieces) not in had
            had.append(frozenset(task.pieces))
    repeats = sum(len(v) // 4 - 1 for v in tasks_by_shape.values())
    assert repeats <= 2
    others = {shape_key(s.area) for lv in LEVELS[1:] for _, s in deck.sides(lv)}
    assert not others & {shape_key(s.area) for _, s in deck.sides("green")}


def test_areas_are_compact(deck: Deck) -> None:
    for card in deck.cards:
        for side in card.sides:
            for task in side.tasks:
                assert task.features["compactness"] <= 1.8


def test_difficulty_is_the_documented_score_of_the_stored_features(deck: Deck) -> None:
    lattice = deck.pieces.lattice.name
    for card in deck.cards:
        for side in card.sides:
            for task in side.tasks:
                assert task.difficulty == pytest.approx(
                    expected_seconds(task.features, lattice), abs=0.01
                )
                assert task.features["solutions"] == task.solutions


def _median(deck: Deck, side_name: str) -> float:
    return statistics.median(t.difficulty for _, s in deck.sides(side_name) for t in s.tasks)


def test_grades_separate() -> None:
    cube = standard_deck("3d")
    medians = [_median(cube, lv) for lv in LEVELS]
    assert medians == sorted(medians) and len(set(medians)) == 4
    # the harder half of the 8-cell sides is red: every red side is at least as hard as every orange
    mean = [
        [statistics.mean(t.difficulty for t in s.tasks) for _, s in cube.sides(lv)]
        for lv in ("orange", "red")
    ]
    assert max(mean[0]) <= min(mean[1])
    for name, easy, hard in (
        ("classic", "A", "B"),
        ("extreme", "A", "B"),
        ("trigo", "easy", "hard"),
    ):
        deck = standard_deck(name)
        assert _median(deck, easy) < _median(deck, hard)
