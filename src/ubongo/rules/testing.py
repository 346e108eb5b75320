"""Small, quickly built decks for tests and examples, independent of the shipped decks.

Flat editions: each area is the union of pieces put down one by one, each touching the ones
before, so every task has a known arrangement.  3D: small boxes two layers high with piece
sets that the solver found to fill them.  Every card carries one task for all the keys its
edition chooses from (die faces, corners or ``card``), so any roll or corner plays it.

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

from ubongo.board import Area
from ubongo.geometry import Cell
from ubongo.pieces import Piece, edition
from ubongo.puzzles.deck import CARD_KEY, CORNERS, DIE_FACES, LEVELS, Card, Deck, Side, Task
from ubongo.solver import solve

#: pieces per task on each side (Trigo: both areas together)
SIDE_PIECES = {
    "classic": {"A": 3, "B": 4},
    "extreme": {"A": 3, "B": 4},
    "trigo": {"easy": 4, "hard": 6},
}
CARD_COUNT = {"classic": 40, "3d": 72, "extreme": 32, "trigo": 32}
KEYS = {"classic": DIE_FACES, "3d": DIE_FACES, "extreme": CORNERS, "trigo": (CARD_KEY,)}


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
    count = SIDE_PIECES[ed_name][name]
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
    task = Task(KEYS[ed_name], ordered, 1, 1, difficulty)
    return Side(name, area, (task,))


@cache
def _boxes_3d() -> tuple[tuple[Area, tuple[str, ...]], ...]:
    """Small 3D tasks: a box two layers high and a set of pieces the solver fills it with."""
    ed = edition("3d")
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
    n = cards if cards is not None else CARD_COUNT[edition_name]
    out = []
    if edition_name == "3d":
        boxes = _boxes_3d()
        for number in range(1, n + 1):
            sides = []
            for level in (LEVELS[(number - 1) % 4], LEVELS[number % 4]):
                area, ids = boxes[rng.randrange(len(boxes))]
                task = Task(DIE_FACES, ids, 1, 1, 15.0 * len(ids))
                sides.append(Side(level, area, (task,)))
            out.append(Card(number, tuple(sides)))
    else:
        names = tuple(SIDE_PIECES[edition_name])
        # a small pool of distinct sides, reused across cards, keeps building cheap
        pool = {nm: [_flat_side(nm, edition_name, rng, i) for i in range(2)] for nm in names}
        for number in range(1, n + 1):
            out.append(Card(number, tuple(pool[nm][number % 2] for nm in names)))
    return Deck(edition_name, seed, tuple(out), generator="ubongo.rules.testing")
