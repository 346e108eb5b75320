"""Fresh decks: a game's own cards, made from its seed by the generator, as the game needs them.

A fresh game does not play the shipped deck: each card it draws is generated for it. So that
the first task is ready at once, a card is made only when the game first looks at it: card ``n``
of a fresh deck is the one card the generator makes from the game's seed and ``n``, whatever
was made before. Two games with the same seed get the same cards, and a game replayed from
its seed and actions meets exactly the tasks it had.

Card by card suits the editions whose cards all carry every side (Classic, Extreme, Trigo: a
stack of cards, each with both sides). Where a deal must see every card first — 3D matches
boards to players by the two levels each board carries — :func:`fresh_deck` makes the whole
deck at once instead (:attr:`ubongo.rules.policies.Deal.whole_deck`).

>>> deck = FreshDeck("trigo", seed=7)
>>> deck.size, len(deck.made)
(32, 0)
>>> [s.name for s in deck.card(5).sides], len(deck.made)
(['easy', 'hard'], 1)
>>> FreshDeck("trigo", seed=7).card(5) == deck.card(5)
True
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Collection

from ubongo import editions
from ubongo.pieces import Edition, Piece, edition
from ubongo.puzzles.deck import Card, Deck, Task
from ubongo.puzzles.generator import generate_deck

#: part of every card's seed: a new way of making cards gets a new version
VERSION = "ubongo-fresh/1"


def derived_seed(*parts: object) -> int:
    """A generator seed from a game's seed and more (the same on every machine).

    >>> derived_seed("game-1", 3) == derived_seed("game-1", 3) != derived_seed("game-1", 4)
    True
    """
    text = ":".join([VERSION, *(str(p) for p in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


class FreshDeck:
    """The cards of one fresh game, each made on first use (see the module's docstring)."""

    def __init__(self, edition_name: str, seed: int, size: int | None = None) -> None:
        """Nothing is made yet: ``size`` cards (default: as many as the edition's deck)."""
        self.edition = edition_name
        self.seed = seed
        rec = editions.record(edition_name)
        #: as many cards as the edition's deck: a game draws from numbers 1..size
        self.size = rec.deck.cards if size is None else size
        self._side_names = set(rec.deck.side_names)
        #: the cards made so far, by number
        self.made: dict[int, Card] = {}

    @property
    def pieces(self) -> Edition:
        """The edition's pieces, which the tasks name by id."""
        return edition(self.edition)

    def card(self, number: int) -> Card:
        """Card ``number``, made now if it has not been (some tens of milliseconds)."""
        if not 0 < number <= self.size:
            raise KeyError(f"no card {number}")
        found = self.made.get(number)
        if found is None:
            one = generate_deck(self.edition, derived_seed(self.seed, number), cards=1).cards[0]
            found = self.made[number] = dataclasses.replace(one, number=number)
        return found

    def playable(self, side: str, keys: Collection[str]) -> list[int]:
        """Every card: each one made has every side with a task for every key (the
        generator's deck shape), so nothing needs making to know it."""
        return list(range(1, self.size + 1)) if side in self._side_names else []

    def side_names(self, number: int) -> set[str]:
        """Every side of the edition (each card carries them all)."""
        return set(self._side_names)

    def task_pieces(self, task: Task) -> list[Piece]:
        """The pieces of ``task``, as pieces of this deck's edition."""
        ed = self.pieces
        return [ed.piece(p) for p in task.pieces]


def fresh_deck(edition_name: str, game_seed: object, whole: bool) -> FreshDeck | Deck:
    """The fresh deck of a game with ``game_seed``: made card by card, or (``whole``) the
    generator's whole deck for that seed at once."""
    seed = derived_seed(edition_name, game_seed)
    return generate_deck(edition_name, seed) if whole else FreshDeck(edition_name, seed)
