"""The editor's "Make it unique" (docs/editor.md): for a drawn area, a set of the edition's
pieces whose cells add up to the area's and that covers it in exactly one way.

"Exactly one" as the editor's verdict counts it (:mod:`.verdict`, ``ubongo solve --count``):
two solutions differ when any piece covers other cells, and symmetric ones are not folded
together, so a set is unique when the solver, stopped at two, finds one.

How the sets are tried, in a player's words:

1. Only the pieces that fit somewhere in the area are used (one that fits nowhere can be in
   no solution), each at most once, at most ``most_pieces`` of them.
2. Of those, only the sets whose cells add up to the area's (3D: its cubes) are candidates.
3. The candidates nearest to the pieces the player has chosen go first (the fewest pieces
   added or taken away), then those with the fewest pieces, then in the edition's order of
   pieces: the first one the solver finds exactly one solution for is the answer.
4. The work is bounded: at most ``most_sets`` sets counted and ``most_nodes`` placements
   tried in all (the solver's nodes). Past either, the answer is "none found within the
   bound", told apart from "none exists" (every candidate counted, none unique).

Pure: no I/O, no clock; the server's route (``POST /api/puzzles/unique``) bounds how often.

>>> from ubongo.board import Area
>>> from ubongo.pieces import edition
>>> area = Area.from_rows([".##..", "####.", ".####", ".###."])
>>> found = make_unique(area, edition("classic"), keep=["D", "I", "A"])
>>> found.pieces, found.complete
(('D', 'F', 'I'), False)
>>> make_unique(Area.from_rows(["#"]), edition("classic")).pieces is None
True
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ubongo.board import Area
from ubongo.pieces import Edition, Piece
from ubongo.solver import ExactCover

#: sets counted at most in one call (a count stopped at two takes well under a millisecond on
#: an Ubongo-sized area, so this bounds a call to tens of milliseconds)
MOST_SETS = 400
#: placements tried at most in one call, all the sets' searches together
MOST_NODES = 400_000
#: the most pieces a proposed set has: the editor's and the verdict's bound
MOST_PIECES = 8


@dataclass(frozen=True)
class Proposal:
    """What "Make it unique" found.

    ``pieces``: the ids of a set with exactly one solution, in the edition's order, or None.
    ``candidates``: the sets whose cells add up to the area's; ``tried``: how many of them
    were counted; ``complete``: every candidate was counted (so None means none exists,
    not merely none found within the bound).
    """

    pieces: tuple[str, ...] | None
    candidates: int
    tried: int
    complete: bool


def make_unique(
    area: Area,
    edition: Edition,
    keep: Sequence[str] = (),
    *,
    most_pieces: int = MOST_PIECES,
    most_sets: int = MOST_SETS,
    most_nodes: int = MOST_NODES,
) -> Proposal:
    """A set of ``edition``'s pieces that covers ``area`` in exactly one way, the nearest to
    the pieces ``keep`` first (the module's docs say the order and the bound)."""
    sets = candidates(area, edition, keep, most_pieces)
    tried = nodes = 0
    for chosen in sets:
        if tried >= most_sets or nodes >= most_nodes:
            return Proposal(None, len(sets), tried, complete=False)
        stats = ExactCover.for_area(area, chosen).stats(limit=2)
        tried += 1
        nodes += stats.nodes
        if stats.solutions == 1:
            return Proposal(tuple(p.id for p in chosen), len(sets), tried, complete=False)
    return Proposal(None, len(sets), tried, complete=True)


def candidates(
    area: Area, edition: Edition, keep: Sequence[str] = (), most_pieces: int = MOST_PIECES
) -> list[tuple[Piece, ...]]:
    """Every set of ``edition``'s pieces that fit in ``area`` whose cells add up to the
    area's, at most ``most_pieces`` of them, in the order they are tried: the fewest pieces
    added to or taken from ``keep`` first, then the fewest pieces, then the edition's order.

    >>> from ubongo.pieces import edition
    >>> [[p.id for p in s] for s in candidates(Area.from_rows(["####"]), edition("classic"))]
    [['F']]
    >>> area = Area.from_rows(["#####"])
    >>> [[p.id for p in s] for s in candidates(area, edition("classic"), keep=["B"])]
    [['A', 'B']]
    """
    if area.piece_lattice is not edition.lattice:
        raise ValueError(f"the area is not drawn on {edition.name}'s lattice")
    every = ExactCover.for_area(area, edition.pieces)
    fitting = [p for i, p in enumerate(edition.pieces) if every.placement_count(i) > 0]
    wanted = {str(k) for k in keep}
    found = list(_adding_up(fitting, area.size, most_pieces))

    def order(chosen: tuple[Piece, ...]) -> tuple[int, int]:
        ids = {p.id for p in chosen}
        return len(ids ^ wanted), len(chosen)

    # a stable sort: among equals, combinations come in the edition's order already
    return sorted(found, key=order)


def _adding_up(pieces: Sequence[Piece], cells: int, most: int) -> Iterator[tuple[Piece, ...]]:
    """The sets of ``pieces`` (at most ``most``) whose sizes add up to ``cells``, fewest
    first: every combination is looked at, at most 2**12 of them for the largest edition."""
    for k in range(1, min(most, len(pieces)) + 1):
        for chosen in itertools.combinations(pieces, k):
            if sum(p.size for p in chosen) == cells:
                yield chosen
