"""The puzzle editor's verdict (ubongo.puzzles.verdict, docs/editor.md): on the standard decks'
tasks it gives the solutions and the model's time the decks were made with, and a grade that
is one of the edition's sides; the reasons of a puzzle with no solution in each edition's
coordinates (3D: board squares)."""

from __future__ import annotations

import pytest

from ubongo import editions, puzzlefile
from ubongo.puzzles.deck import standard_deck
from ubongo.puzzles.verdict import COUNTED, verdict


@pytest.mark.parametrize("name", editions.names())
def test_a_deck_task_redrawn_has_the_decks_figures(name: str) -> None:
    deck = standard_deck(name)
    sides = {s.name for card in deck.cards for s in card.sides}
    for card in deck.cards[:3]:
        side = card.sides[-1]
        task = side.tasks[0]
        found = verdict(side.area, deck.task_pieces(task), name)
        assert found.solutions == min(task.solutions, COUNTED) and found.reason is None
        assert found.seconds == pytest.approx(task.difficulty, abs=0.1)
        assert found.grade in sides and found.faster_than is not None
        assert 0 <= found.faster_than <= 1


def test_a_3d_square_no_piece_reaches_is_named_as_a_square() -> None:
    # a lone square away from the rest: its two cubes are too few for three or four
    puzzle = puzzlefile.from_json(
        {"edition": "3d", "area": ["##.#"], "pieces": ["green3", "blue4"]}
    )
    found = verdict(puzzle.area, list(puzzle.pieces), "3d")
    assert (found.area_cells, found.piece_cells) == (6, 7)
    assert found.reason == "sizes" and found.unreachable == ((3, 0),)


def test_a_custom_puzzle_has_no_grade_and_pieces_that_do_not_fit_are_said() -> None:
    custom = {
        "lattice": "square",
        "area": ["##", "##"],
        "pieces": [{"id": "l", "cells": [[0, 0], [0, 1], [0, 2]]}, {"id": "a", "cells": [[0, 0]]}],
    }
    puzzle = puzzlefile.from_json(custom)
    found = verdict(puzzle.area, list(puzzle.pieces), None)
    # the bar of three fits nowhere in a 2 x 2 square; the single cell reaches every cell
    assert found.reason == "no_fit" and found.unreachable == ()
    fits = puzzlefile.from_json({**custom, "area": ["###", "#.."]})
    found = verdict(fits.area, list(fits.pieces), None)
    assert found.solutions >= 1 and found.grade is None and found.seconds is not None
