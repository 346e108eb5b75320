"""Decks: the boards and cards of an edition, with their areas and tasks.

A :class:`Deck` is a list of :class:`Card` (a Classic or 3D *board*, an Extreme or Trigo *card*);
each card has two :class:`Side` objects; each side one :class:`~ubongo.board.Area` (Trigo: two
regions) and its :class:`Task` list. A task is chosen by a *key*: a die face ``"1"`` ..
``"6"`` (Classic; 3D, where one task may carry several faces), a corner (Extreme:
``upper-left`` ..) or ``"card"`` (Trigo: the card's only task).  Side names and keys are the
edition record's (``deck.sides``, ``deck.keys`` in :mod:`ubongo.editions`).

The JSON format is documented in ``docs/deck-format.md``.

>>> from ubongo.board import Area
>>> task = Task(keys=("1",), pieces=("B", "C"), solutions=2, nodes=9, difficulty=1.0)
>>> side = Side("A", Area.from_rows(["###", "###"]), (task,))
>>> side.task("1").pieces
('B', 'C')
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from ubongo import editions
from ubongo.board import Area
from ubongo.editions import EditionRecord
from ubongo.geometry import Cell
from ubongo.pieces import Edition, Piece, edition

FORMAT = "ubongo-deck"
VERSION = 1


class DeckError(ValueError):
    """A deck file that cannot be read: says what is wrong and where."""


@dataclass(frozen=True)
class Task:
    """The pieces to place on a side's area, and what the solver measured about it."""

    keys: tuple[str, ...]
    pieces: tuple[str, ...]
    solutions: int
    nodes: int
    difficulty: float
    features: dict[str, float] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Side:
    """One face of a board or card: its name (``A``/``B``, a 3D level, ``easy``/``hard``)."""

    name: str
    area: Area
    tasks: tuple[Task, ...]

    def task(self, key: str) -> Task:
        """The task selected by a die face, a corner or ``card``."""
        for t in self.tasks:
            if key in t.keys:
                return t
        keys = ", ".join(k for t in self.tasks for k in t.keys)
        raise KeyError(f"side {self.name} has no task {key!r} (keys: {keys})")

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key that selects a task of this side, in task order."""
        return tuple(k for t in self.tasks for k in t.keys)


@dataclass(frozen=True)
class Card:
    """A double-sided board (Classic, 3D) or card (Extreme, Trigo), numbered from 1."""

    number: int
    sides: tuple[Side, ...]

    def side(self, name: str) -> Side:
        """The side called ``name``; KeyError if the card has none."""
        for s in self.sides:
            if s.name == name:
                return s
        raise KeyError(f"card {self.number} has no side {name!r}")


class Cards(Protocol):
    """What a game needs of its deck: a whole :class:`Deck`, or a fresh deck whose cards are
    made as the game reaches them (:class:`ubongo.puzzles.fresh.FreshDeck`)."""

    @property
    def edition(self) -> str:
        """The edition's name."""
        ...

    @property
    def seed(self) -> int:
        """The seed the cards are made from."""
        ...

    @property
    def size(self) -> int:
        """How many cards there are (numbered 1 to size)."""
        ...

    @property
    def pieces(self) -> Edition:
        """The edition's pieces, which the tasks name by id."""
        ...

    def card(self, number: int) -> Card:
        """The card with this number."""
        ...

    def playable(self, side: str, keys: Collection[str]) -> list[int]:
        """Numbers of the cards whose ``side`` has a task for every key in ``keys``."""
        ...

    def side_names(self, number: int) -> set[str]:
        """The names of card ``number``'s sides."""
        ...

    def task_pieces(self, task: Task) -> list[Piece]:
        """The pieces of ``task``."""
        ...

    def is_made(self, number: int) -> bool:
        """Whether card ``number`` is ready (a whole deck's always are)."""
        ...

    def __hash__(self) -> int:
        """Decks are kept in caches (the bots' solutions), by the deck."""
        ...


@dataclass(frozen=True)
class Deck:
    """All the boards or cards of one edition, made from ``seed``."""

    edition: str
    seed: int
    cards: tuple[Card, ...]
    generator: str = ""

    @property
    def pieces(self) -> Edition:
        """The edition's pieces, which the tasks name by id."""
        return edition(self.edition)

    @property
    def record(self) -> EditionRecord:
        """The edition's record (:mod:`ubongo.editions`)."""
        return editions.record(self.edition)

    def task_pieces(self, task: Task) -> list[Piece]:
        """The pieces of ``task``, as pieces of this deck's edition."""
        ed = self.pieces
        return [ed.piece(p) for p in task.pieces]

    # --- what a game asks of its cards (also answered by a fresh deck, puzzles/fresh.py) -----

    @property
    def size(self) -> int:
        """How many cards the deck has (numbered 1 to size)."""
        return len(self.cards)

    def card(self, number: int) -> Card:
        """The card with this number; KeyError if there is none."""
        cards = self.cards
        if 0 < number <= len(cards) and cards[number - 1].number == number:
            return cards[number - 1]
        for c in cards:
            if c.number == number:
                return c
        raise KeyError(f"no card {number}")

    def playable(self, side: str, keys: Collection[str]) -> list[int]:
        """Numbers of the cards whose ``side`` has a task for every key in ``keys``."""
        need = set(keys)
        return [
            c.number
            for c in self.cards
            for sd in c.sides
            if sd.name == side and need <= set(sd.keys)
        ]

    def side_names(self, number: int) -> set[str]:
        """The names of card ``number``'s sides (3D: the two levels of a board)."""
        return {sd.name for sd in self.card(number).sides}

    def is_made(self, number: int) -> bool:
        """Always: a whole deck's cards are all there."""
        return True

    def sides(self, name: str) -> list[tuple[Card, Side]]:
        """Every (card, side) with this side name, in card order."""
        return [(c, s) for c in self.cards for s in c.sides if s.name == name]

    @property
    def task_count(self) -> int:
        """How many tasks the deck holds, over all cards and sides."""
        return sum(len(s.tasks) for c in self.cards for s in c.sides)

    # --- JSON -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The deck as a JSON-ready dict (the ``ubongo-deck`` format read by :meth:`from_json`)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "edition": self.edition,
            "seed": self.seed,
            "generator": self.generator,
            "cards": [
                {
                    "number": c.number,
                    "sides": [
                        {
                            "name": s.name,
                            "area": [list(cell) for cell in sorted(s.area.cells)],
                            "tasks": [
                                {
                                    "keys": list(t.keys),
                                    "pieces": list(t.pieces),
                                    "solutions": t.solutions,
                                    "nodes": t.nodes,
                                    "difficulty": round(t.difficulty, 3),
                                    "features": {
                                        k: round(v, 4) for k, v in sorted(t.features.items())
                                    },
                                }
                                for t in s.tasks
                            ],
                        }
                        for s in c.sides
                    ],
                }
                for c in self.cards
            ],
        }

    def dumps(self) -> str:
        """Compact JSON: one card per line, so that diffs of regenerated decks stay readable."""
        data = self.to_json()
        cards = data.pop("cards")
        head = json.dumps(data)[:-1]
        body = ",\n".join("  " + json.dumps(c, separators=(",", ":")) for c in cards)
        return f'{head}, "cards": [\n{body}\n]}}\n'

    def save(self, path: str | Path) -> None:
        """Write the deck to ``path`` in the compact form of :meth:`dumps`."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any) -> Deck:
        """Read a deck, checking its structure; a :class:`DeckError` names the place at fault."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise DeckError(f'not a deck: expected an object with "format": "{FORMAT}"')
        if data.get("version") != VERSION:
            raise DeckError(
                f"unsupported deck version {data.get('version')!r} (this program reads {VERSION})"
            )
        try:
            ed = edition(str(data["edition"]))
        except ValueError as e:
            raise DeckError(str(e)) from None
        except KeyError:
            raise DeckError('deck has no "edition"') from None
        cards = []
        try:
            for ci, c in enumerate(data["cards"]):
                sides = tuple(
                    _side_from_json(ed, s, f"card {ci + 1} side {si + 1}")
                    for si, s in enumerate(c["sides"])
                )
                cards.append(Card(int(c.get("number", ci + 1)), sides))
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, DeckError):
                raise
            raise DeckError(f"malformed deck: {type(e).__name__}: {e}") from None
        return cls(ed.name, int(data.get("seed", 0)), tuple(cards), str(data.get("generator", "")))

    @classmethod
    def loads(cls, text: str) -> Deck:
        """A deck from JSON text; :class:`DeckError` if it is not JSON or not a deck."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise DeckError(f"not JSON: {e}") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> Deck:
        """A deck from a file; :class:`DeckError` if it cannot be read or is not a deck."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise DeckError(f"cannot read {path}: {e.strerror}") from None
        return cls.loads(text)


def _side_from_json(ed: Edition, s: Any, where: str) -> Side:
    """One side of a card, its cells and pieces checked against the edition."""
    cells: list[Cell] = [tuple(int(v) for v in cell) for cell in s["area"]]
    for cell in cells:
        if not ed.area_lattice.is_cell(cell):
            raise DeckError(f"{where}: {list(cell)} is not a {ed.area_lattice.name} cell")
    tasks = tuple(_task_from_json(ed, t, where) for t in s["tasks"])
    area = Area(ed.area_lattice, frozenset(cells), ed.layers)
    return Side(str(s["name"]), area, tasks)


def _task_from_json(ed: Edition, t: Any, where: str) -> Task:
    """One task of a side, its pieces checked against the edition."""
    for p in t["pieces"]:
        if not ed.has_piece(p):
            raise DeckError(f"{where}: unknown {ed.name} piece {p!r}")
    return Task(
        keys=tuple(str(k) for k in t["keys"]),
        pieces=tuple(str(p) for p in t["pieces"]),
        solutions=int(t["solutions"]),
        nodes=int(t["nodes"]),
        difficulty=float(t["difficulty"]),
        features={str(k): float(v) for k, v in t.get("features", {}).items()},
    )


@cache
def standard_deck(edition_name: str) -> Deck:
    """The deck shipped with the package for an edition (made by ``ubongo deck generate``).

    FileNotFoundError when the edition ships none (its record's ``deck.file`` is null)."""
    file = editions.record(edition_name).deck.file
    if file is None:
        raise FileNotFoundError(f"no standard {edition_name} deck is shipped")
    return Deck.loads(file.read_text("utf-8"))
