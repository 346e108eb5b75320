"""A task's fingerprint (``ubongo.puzzles.ratings.shape_fingerprint``: what the hint route
refuses while the task is in play) is made with the card maker's fast canonical forms; it must
be the one the lattice's own canonical forms give, for every task of every standard deck, or a
task in rated play could be asked about by a fingerprint the server never noted."""

from __future__ import annotations

import hashlib

import pytest

from ubongo import editions
from ubongo.board import Area
from ubongo.pieces import Piece
from ubongo.pieces import edition as pieces_of
from ubongo.puzzles.deck import standard_deck
from ubongo.puzzles.ratings import shape_fingerprint


def reference(area: Area, pieces: list[Piece]) -> str:
    """The fingerprint as first written: the lattice's canonical forms."""
    lat = area.lattice
    regions = sorted(lat.canonical(r) for r in area.regions)
    shapes = sorted(pc.lattice.canonical(pc.cells) for pc in pieces)
    text = repr((lat.name, area.layers, regions, shapes))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@pytest.mark.parametrize("edition_name", editions.names())
def test_every_deck_task_has_the_lattices_fingerprint(edition_name: str) -> None:
    ed = pieces_of(edition_name)
    deck = standard_deck(edition_name)
    seen = 0
    for side_name in editions.record(edition_name).deck.side_names:
        for _card, side in deck.sides(side_name):
            for task in side.tasks:
                pieces = [ed.piece(p) for p in task.pieces]
                assert shape_fingerprint(side.area, pieces) == reference(side.area, pieces)
                seen += 1
    assert seen > 30
