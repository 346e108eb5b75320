"""What local versus (the web client's ``/versus``, issue 28) needs beyond practice: every card
of an edition's standard deck, so that each player of a game played on one screen, offline,
gets a card of their own every round. Carried by ``GET /api/practice-bundle`` (its
``PracticeEdition.cards``), made by :func:`ubongo.puzzles.practice.versus_cards`.

No solutions: the boards check a cover with the client's own geometry.
"""

from __future__ import annotations

from pydantic import Field

from .snapshot import Sent


class VersusTask(Sent):
    """One task of a card's side: the keys that pick it (die faces, a corner, the card) and its
    pieces."""

    keys: list[str] = Field(min_length=1)
    pieces: list[str] = Field(min_length=1)


class VersusCard(Sent):
    """One side of a card of the standard deck: its area and its tasks."""

    card: int = Field(ge=1)
    area: list[list[int]] = Field(description="area cells in the edition's lattice coordinates")
    layers: int = Field(description="2 for Ubongo 3D, else 1")
    tasks: list[VersusTask]
