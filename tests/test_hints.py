"""Hints (ubongo.puzzles.hints) on real tasks of every edition: following hints always ends in a
cover the board's own checker accepts, a stuck board is told the fewest pieces to move, and
bad placements are refused with a reason."""

from __future__ import annotations

import itertools
import random

import pytest

from ubongo import editions
from ubongo.board import Area, Placement, check_cover
from ubongo.geometry import Cell
from ubongo.pieces import Piece
from ubongo.puzzles.deck import standard_deck
from ubongo.puzzles.hints import Hint, HintError, Solved, Stuck, hint
from ubongo.solver import solve


def _tasks(edition: str, n: int, seed: int) -> list[tuple[Area, list[Piece]]]:
    deck = standard_deck(edition)
    every = [(s.area, deck.task_pieces(t)) for c in deck.cards for s in c.sides for t in s.tasks]
    return random.Random(seed).sample(every, n)


def _solvable(area: Area, pieces: list[Piece], placed: dict[str, frozenset[Cell]]) -> bool:
    # a brute check apart from hints.py: does some solution keep these placements?
    rest = area.solid.difference(*placed.values())
    left = [p for p in pieces if p.id not in placed]
    for cells in placed.values():
        if not cells <= area.solid:
            return False
    return any(
        all(sol.get(pid) == cells for pid, cells in placed.items())
        for sol in _solutions(area, pieces)
    ) or (not left and not rest)


def _solutions(area: Area, pieces: list[Piece]) -> list[dict[str, frozenset[Cell]]]:
    from ubongo.solver import solutions

    return list(itertools.islice(solutions(area, pieces), 5000))


@pytest.mark.parametrize("edition", editions.names())
def test_following_hints_from_an_empty_board_solves_the_task(edition: str) -> None:
    for area, pieces in _tasks(edition, 4, seed=1):
        placed: dict[str, frozenset[Cell]] = {}
        for _ in pieces:
            h = hint(area, pieces, placed)
            assert isinstance(h, Hint), h
            assert h.piece not in placed
            placed[h.piece] = h.cells
        assert isinstance(hint(area, pieces, placed), Solved)
        by_id = {p.id: p for p in pieces}
        placements = [Placement.covering(by_id[pid], cells) for pid, cells in placed.items()]
        assert check_cover(area, pieces, placements).ok


@pytest.mark.parametrize("edition", editions.names())
def test_a_hint_keeps_every_placed_piece_of_a_reachable_board(edition: str) -> None:
    rng = random.Random(2)
    for area, pieces in _tasks(edition, 4, seed=3):
        solution = solve(area, pieces)
        assert solution is not None
        kept = rng.sample(sorted(solution), rng.randrange(1, len(pieces)))
        placed = {pid: solution[pid] for pid in kept}
        h = hint(area, pieces, placed)
        assert isinstance(h, Hint)
        assert _solvable(area, pieces, {**placed, h.piece: h.cells})


def _wrong_boards(area: Area, pieces: list[Piece]) -> list[dict[str, frozenset[Cell]]]:
    # each piece alone, in every place it fits, where the rest can no longer be finished
    out = []
    for piece in pieces:
        lat = piece.lattice
        for t in piece.allowed_transforms:
            shape = lat.orient(piece.cells, t)
            for anchor in sorted({lat.anchor(frozenset({c})) for c in area.solid}):
                cells = frozenset(lat.translate(c, anchor) for c in shape)
                if cells <= area.solid and not _solvable(area, pieces, {piece.id: cells}):
                    out.append({piece.id: cells})
    return out


@pytest.mark.parametrize("edition", editions.names())
def test_a_stuck_board_is_told_the_fewest_pieces_to_move(edition: str) -> None:
    rng = random.Random(4)
    seen = 0
    for area, pieces in _tasks(edition, 3, seed=5):
        solution = solve(area, pieces)
        assert solution is not None
        for wrong in _wrong_boards(area, pieces)[:3]:
            # the wrong piece, plus one right piece that does not clash with it
            (bad,) = wrong
            extra = [pid for pid in solution if pid != bad and not solution[pid] & wrong[bad]]
            placed = dict(wrong)
            if extra:
                right = rng.choice(extra)
                placed[right] = solution[right]
            h = hint(area, pieces, placed)
            assert isinstance(h, Stuck), (placed, h)
            kept = {pid: c for pid, c in placed.items() if pid not in h.move}
            assert _solvable(area, pieces, kept)
            # and no fewer pieces would do
            for k in range(len(h.move)):
                for fewer in itertools.combinations(placed, k):
                    rest = {pid: c for pid, c in placed.items() if pid not in fewer}
                    assert not _solvable(area, pieces, rest), (placed, fewer)
            seen += 1
    assert seen > 0


def test_bad_placements_are_refused_with_a_reason() -> None:
    area, pieces = _tasks("classic", 1, seed=6)[0]
    solution = solve(area, pieces)
    assert solution is not None
    first, second = sorted(solution)[:2]
    with pytest.raises(HintError, match="not one of this task's pieces"):
        hint(area, pieces, {"Z9": solution[first]})
    with pytest.raises(HintError, match="cannot be turned"):
        hint(area, pieces, {first: solution[first] | solution[second]})
    far = frozenset((x + 50, y) for x, y in solution[first])
    with pytest.raises(HintError, match="outside the area"):
        hint(area, pieces, {first: far})
    # the second piece put down inside the area but across the first
    by_id = {p.id: p for p in pieces}
    lat = by_id[second].lattice
    across = [
        cells
        for t in by_id[second].allowed_transforms
        for anchor in sorted({lat.anchor(frozenset({c})) for c in area.solid})
        if (
            cells := frozenset(lat.translate(c, anchor) for c in lat.orient(by_id[second].cells, t))
        )
        <= area.solid
        and cells & solution[first]
    ]
    assert across
    with pytest.raises(HintError, match="both cover"):
        hint(area, pieces, {first: solution[first], second: across[0]})


def test_an_unsolvable_puzzle_is_said_so() -> None:
    area = Area.from_rows(["###"])
    piece = editions_piece("classic", "D")  # four cells never fill three
    with pytest.raises(HintError, match="no solution"):
        hint(area, [piece], {})


def editions_piece(edition: str, pid: str) -> Piece:
    from ubongo.pieces import edition as pieces_of

    return pieces_of(edition).piece(pid)
