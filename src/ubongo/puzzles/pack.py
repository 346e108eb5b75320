"""A pack's puzzles as a deck a room races (``puzzles="pack"`` in the rules; docs/editor.md,
"Packs"): card ``n`` is the pack's ``n``-th puzzle, with the same area on every side the
edition names and the task under every key, so whatever side (3D: level) and key (a die
roll, a corner) the rules pick, card ``n`` shows puzzle ``n``, the same for everyone.

A pack task is the puzzle file's own: its area's cells (Trigo: both regions' cells together,
as a Trigo puzzle file lists them) and its pieces' ids. The difficulty of each is the
editor's (:func:`.verdict.median_seconds`), which the bots read as a deck task's.

>>> from ubongo.puzzles.deck import standard_deck
>>> side = standard_deck("trigo").card(1).sides[0]
>>> task = (tuple(sorted(side.area.cells)), side.tasks[0].pieces)
>>> deck = pack_deck("trigo", (task, task))
>>> deck.size, deck.card(2).side("hard").task("card").pieces == side.tasks[0].pieces
(2, True)
>>> len(deck.card(1).side("easy").area.regions)
2
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ubongo import editions
from ubongo.board import Area
from ubongo.pieces import edition
from ubongo.solver import count

from .deck import Card, Deck, Side, Task
from .verdict import COUNTED, median_seconds

#: one puzzle of a pack: its area's cells and its pieces' ids
PackTask = tuple[tuple[tuple[int, ...], ...], tuple[str, ...]]

#: part of a pack deck's name (a new way of making it gets a new version)
VERSION = "ubongo-pack/1"


def pack_deck(edition_name: str, tasks: Sequence[PackTask]) -> Deck:
    """The deck of a pack's ``tasks`` (see the module's docstring); ValueError for a task
    that is not one of the edition's (an unknown piece, a cell off its lattice) or has no
    solution."""
    ed = edition(edition_name)
    rec = editions.record(edition_name)
    keys = tuple(rec.deck.keys)
    cards = []
    for n, (cells, piece_ids) in enumerate(tasks, 1):
        area = Area(ed.area_lattice, frozenset(tuple(c) for c in cells), ed.layers)
        if not all(ed.area_lattice.is_cell(c) for c in area.cells):
            raise ValueError(f"puzzle {n} of the pack has a cell off {ed.name}'s lattice")
        pieces = [ed.piece(p) for p in piece_ids]
        found = count(area, pieces, limit=COUNTED + 1)
        if not found:  # (a saved puzzle is proven when it is saved: this is not one)
            raise ValueError(f"puzzle {n} of the pack has no solution")
        seconds = median_seconds(area, pieces, found)
        one = Task(keys, tuple(p.id for p in pieces), found, 0, round(seconds, 1))
        cards.append(Card(n, tuple(Side(name, area, (one,)) for name in rec.deck.side_names)))
    digest = hashlib.sha256(repr(tuple(tasks)).encode()).hexdigest()[:12]
    return Deck(edition_name, 0, tuple(cards), generator=f"{VERSION}:{digest}")
