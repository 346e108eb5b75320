"""Fresh decks: a game's own cards, made from its seed by the generator, as the game needs them.

A fresh game does not play the shipped deck: each card it draws is generated for it. So that
the first task is ready at once, a card is made only when the game first looks at it, and only
its sides in play (everyone's side, or in 3D the levels the players chose): side ``s`` of card
``n`` is the one side the generator makes from the game's seed, ``n`` and ``s``, whatever was
made before. Two games with the same seed and sides get the same cards, and a game replayed
from its seed and actions meets exactly the tasks it had.

What a game must know before it makes a card, it knows from the edition's record: every card
carries every side (Classic, Extreme, Trigo), or (3D) board ``n`` carries the two levels of
the ``n``-th pair in the record's pairs, shuffled by the seed, so players are matched to boards
by level without a board being made.

>>> deck = FreshDeck("trigo", seed=7, sides={"hard"})
>>> deck.size, len(deck.made)
(32, 0)
>>> [s.name for s in deck.card(5).sides], len(deck.made)
(['hard'], 1)
>>> FreshDeck("trigo", seed=7, sides={"hard"}).card(5) == deck.card(5)
True
>>> boards = FreshDeck("3d", seed=7, sides={"green"})
>>> len(boards.side_names(1)), len(boards.playable("green", ())), boards.playable("red", ())
(2, 36, [])
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Collection

from ubongo import editions
from ubongo.pieces import Edition, Piece, edition
from ubongo.puzzles.deck import Card, Task
from ubongo.puzzles.generator import generate_side

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

    def __init__(self, edition_name: str, seed: int, sides: Collection[str]) -> None:
        """Nothing is made yet; ``sides`` are the sides (3D: levels) the game plays."""
        self.edition = edition_name
        self.seed = seed
        rec = editions.record(edition_name)
        self.sides = frozenset(sides)
        unknown = self.sides - set(rec.deck.side_names)
        if unknown:
            raise ValueError(f"{edition_name} has no side {sorted(unknown)[0]!r}")
        if rec.deck.side_pairs:
            pairs = [pair for pair, n in rec.deck.side_pairs for _ in range(n)]
            random.Random(f"{VERSION}:{seed}:boards").shuffle(pairs)
            self._pairs = [frozenset(pair) for pair in pairs]
        else:
            self._pairs = [frozenset(rec.deck.side_names)] * rec.deck.cards
        #: as many cards as the edition's deck: a game draws from numbers 1..size
        self.size = len(self._pairs)
        #: the cards made so far, by number
        self.made: dict[int, Card] = {}

    @property
    def pieces(self) -> Edition:
        """The edition's pieces, which the tasks name by id."""
        return edition(self.edition)

    def card(self, number: int) -> Card:
        """Card ``number`` with its sides in play, made now if it has not been (some tens of
        milliseconds a side)."""
        if not 0 < number <= self.size:
            raise KeyError(f"no card {number}")
        found = self.made.get(number)
        if found is None:
            names = [n for n in editions.record(self.edition).deck.side_names if n in self.sides]
            sides = tuple(
                generate_side(self.edition, name, derived_seed(self.seed, number))
                for name in names
                if name in self._pairs[number - 1]
            )
            found = self.made[number] = Card(number, sides)
        return found

    def playable(self, side: str, keys: Collection[str]) -> list[int]:
        """The cards that carry ``side`` if it is in play: each side made has a task for
        every key (the generator's deck shape), so nothing needs making to know it."""
        if side not in self.sides:
            return []
        return [n for n, pair in enumerate(self._pairs, 1) if side in pair]

    def is_made(self, number: int) -> bool:
        """Whether card ``number`` has been made (a server makes the next ones ahead)."""
        return number in self.made

    def side_names(self, number: int) -> set[str]:
        """The sides card ``number`` carries (3D: its two levels), made or not."""
        return set(self._pairs[number - 1])

    def task_pieces(self, task: Task) -> list[Piece]:
        """The pieces of ``task``, as pieces of this deck's edition."""
        ed = self.pieces
        return [ed.piece(p) for p in task.pieces]


def fresh_deck(edition_name: str, game_seed: object, sides: Collection[str]) -> FreshDeck:
    """The fresh deck of a game with ``game_seed`` that plays ``sides``."""
    return FreshDeck(edition_name, derived_seed(edition_name, game_seed), sides)


@functools.lru_cache(maxsize=32)
def shared_fresh_deck(edition_name: str, deck_seed: int, sides: frozenset[str]) -> FreshDeck:
    """One deck for every game that names the same ``deck_seed`` and ``sides``: its cards are
    made once, for all of them (an arena's races, ``docs/arenas.md``: each race draws its own
    cards from it by its own seed).

    >>> a = shared_fresh_deck("classic", 7, frozenset({"A", "B"}))
    >>> a is shared_fresh_deck("classic", 7, frozenset({"A", "B"}))
    True
    >>> a is fresh_deck("classic", 7, {"A", "B"}), a.seed == fresh_deck("classic", 7, "AB").seed
    (False, True)
    """
    return fresh_deck(edition_name, deck_seed, sides)


class EndlessDeck:
    """The cards of an endless solo run (``docs/ratings.md``): as many as the run draws, card
    ``n`` carrying one side, the edition's sides in turn (side ``sides[(n - 1) % len(sides)]``),
    made from the run's seed and ``n`` on first use. The rules choose each task among a few
    such cards (:mod:`ubongo.rules.endless`), so a card's number says where it may be shown.

    >>> deck = EndlessDeck("classic", seed=3)
    >>> deck.side_names(1), deck.side_names(2), len(deck.made)
    ({'A'}, {'B'}, 0)
    >>> deck.card(2) == EndlessDeck("classic", seed=3).card(2), len(deck.made)
    (True, 1)
    """

    #: how many cards a run may number (a run that long would take centuries)
    size = 2**31 - 1

    def __init__(self, edition_name: str, seed: int) -> None:
        """Nothing is made yet."""
        self.edition = edition_name
        self.seed = seed
        self.side_order = editions.record(edition_name).deck.side_names
        self.made: dict[int, Card] = {}

    @property
    def pieces(self) -> Edition:
        """The edition's pieces, which the tasks name by id."""
        return edition(self.edition)

    def side_of(self, number: int) -> str:
        """The one side card ``number`` carries."""
        return self.side_order[(number - 1) % len(self.side_order)]

    def card(self, number: int) -> Card:
        """Card ``number``, made now if it has not been (some tens of milliseconds)."""
        if not 0 < number <= self.size:
            raise KeyError(f"no card {number}")
        found = self.made.get(number)
        if found is None:
            side = generate_side(
                self.edition, self.side_of(number), derived_seed(self.seed, "endless", number)
            )
            found = self.made[number] = Card(number, (side,))
        return found

    def playable(self, side: str, keys: Collection[str]) -> list[int]:
        """None: an endless run draws no stack, its rules choose the cards."""
        return []

    def is_made(self, number: int) -> bool:
        """Whether card ``number`` has been made (a server makes the next ones ahead)."""
        return number in self.made

    def side_names(self, number: int) -> set[str]:
        """The one side card ``number`` carries, as a set (what a game asks of any deck)."""
        return {self.side_of(number)}

    def task_pieces(self, task: Task) -> list[Piece]:
        """The pieces of ``task``, as pieces of this deck's edition."""
        ed = self.pieces
        return [ed.piece(p) for p in task.pieces]


def endless_deck(edition_name: str, game_seed: object) -> EndlessDeck:
    """The cards of an endless run with ``game_seed``."""
    return EndlessDeck(edition_name, derived_seed(edition_name, game_seed, "endless"))
