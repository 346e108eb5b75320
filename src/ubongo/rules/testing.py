"""Small, quickly built decks for tests and examples, independent of the shipped decks.

Flat editions: each area is the union of pieces put down one by one, each touching the ones
before, so every task has a known arrangement.  Editions filled in layers (3D): small boxes two
layers high with piece sets that the solver found to fill them.  Every card carries one task
for all the keys its edition chooses from (die faces, corners or ``card``), so any roll or
corner plays it.  Card counts, sides and pieces per task are the edition record's.

>>> deck = fixture_deck("extreme")
>>> len(deck.cards), [s.name for s in deck.cards[0].sides]
(32, ['A', 'B'])
>>> len(deck.cards[0].side("B").task("upper-left").pieces)
4
"""

from __future__ import annotations

import itertools
import random
from functools import cache

from ubongo import editions
from ubongo.board import Area
from ubongo.geometry import Cell
from ubongo.pieces import Piece, edition
from ubongo.puzzles.deck import Card, Deck, Side, Task
from ubongo.solver import solve


def _grow(pieces: list[Piece], rng: random.Random) -> frozenset[Cell]:
    """Cells covered by ``pieces`` laid down one after another, each touching the last ones."""
    lat = pieces[0].lattice
    d = lat.translation_dims
    covered: set[Cell] = set()
    for piece in pieces:
        for _ in range(1000):
            shape = lat.orient(piece.cells, rng.choice(piece.allowed_transforms))
            if not covered:
                covered |= shape
                break
            frontier = sorted({n for c in covered for n in lat.neighbours(c)} - covered)
            target = rng.choice(frontier)
            matching = [c for c in sorted(shape) if c[d:] == target[d:]]
            if not matching:
                continue
            c = rng.choice(matching)
            offset = tuple(t - x for t, x in zip(target[:d], c[:d], strict=True))
            placed = {lat.translate(x, offset) for x in shape}
            if not placed & covered:
                covered |= placed
                break
        else:  # pragma: no cover - a free neighbour always exists on these lattices
            raise RuntimeError("could not place a piece")
    return frozenset(covered)


def _flat_side(name: str, ed_name: str, rng: random.Random, variant: int) -> Side:
    ed = edition(ed_name)
    rec = editions.record(ed_name)
    count = rec.deck.side(name).pieces
    ids = rng.sample([p.id for p in ed.pieces], count)
    pieces = [ed.piece(i) for i in ids]
    if ed.regions == 2:
        half = count // 2
        first = _grow(pieces[:half], rng)
        second = _grow(pieces[half:], rng)
        shift = max(c[0] for c in first) + 3 - min(c[0] for c in second)
        cells = first | {ed.lattice.translate(c, (shift, 0)) for c in second}
    else:
        cells = _grow(pieces, rng)
    area = Area(ed.area_lattice, cells, ed.layers)
    # difficulty is in expected seconds for a median player, like the shipped decks'
    difficulty = 8.0 * count * (1.0 + 0.25 * variant)
    ordered = tuple(sorted(ids, key=lambda i: ed.piece(i).number))
    task = Task(rec.deck.keys, ordered, 1, 1, difficulty)
    return Side(name, area, (task,))


@cache
def _boxes(edition_name: str) -> tuple[tuple[Area, tuple[str, ...]], ...]:
    """Small tasks of an edition filled in layers (3D): a box two layers high and a set of
    pieces the solver fills it with."""
    ed = edition(edition_name)
    found = []
    for rows in (["##", "##"], ["###", "###"], ["####", "####"], ["###", "###", "###"]):
        area = Area.from_rows(rows, layers=2)
        for k in (2, 3, 4):
            for ids in itertools.combinations([p.id for p in ed.pieces], k):
                pieces = [ed.piece(i) for i in ids]
                if sum(p.size for p in pieces) == area.size and solve(area, pieces) is not None:
                    found.append((area, ids))
                    break
    return tuple(found)


@cache
def fixture_deck(edition_name: str, cards: int | None = None, seed: int = 0) -> Deck:
    """A deck of ``cards`` cards (default: as many as the physical game has) for tests."""
    rng = random.Random(f"fixture:{edition_name}:{seed}")
    rec = editions.record(edition_name)
    n = cards if cards is not None else rec.deck.cards
    out = []
    if rec.layers > 1:
        boxes = _boxes(edition_name)
        levels = rec.deck.side_names
        for number in range(1, n + 1):
            sides = []
            for level in (levels[(number - 1) % len(levels)], levels[number % len(levels)]):
                area, ids = boxes[rng.randrange(len(boxes))]
                task = Task(rec.deck.keys, ids, 1, 1, 15.0 * len(ids))
                sides.append(Side(level, area, (task,)))
            out.append(Card(number, tuple(sides)))
    else:
        names = rec.deck.side_names
        # a small pool of distinct sides, reused across cards, keeps building cheap
        pool = {nm: [_flat_side(nm, edition_name, rng, i) for i in range(2)] for nm in names}
        for number in range(1, n + 1):
            out.append(Card(number, tuple(pool[nm][number % 2] for nm in names)))
    return Deck(edition_name, seed, tuple(out), generator="ubongo.rules.testing")
