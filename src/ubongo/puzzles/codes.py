"""Short codes of the printed decks' tasks (issue 28): a player with the boxed game or a
print-out types a task's code and sees its solution (the web client's ``/solution`` page).

A code names a task of an edition's standard deck (the one shipped, which ``ubongo deck
print`` prints): the edition, the card, the side and a key that selects the task, each in a
few characters, separated by dashes::

    classic-12-A-3        Classic, board 12, side A, die face 3
    3d-40-G-5             3D, board 40, the green level, die face 5
    extreme-7-B-UL        Extreme, card 7, side B, the upper-left corner
    trigo-19-H            Trigo, card 19, the hard side (its only task)

A side is its name's first letter and a key its words' first letters (a digit stays whole);
a key is left out where a side has one task. Codes are read case-insensitively.

>>> code = task_code("extreme", 7, "B", "upper-left")
>>> code
'extreme-7-B-UL'
>>> find_task(code.lower())
TaskRef(edition='extreme', card=7, side='B', key='upper-left')
>>> find_task("classic-99-A-1")
Traceback (most recent call last):
...
ValueError: classic-99-A-1: the classic deck has cards 1 to 36
"""

from __future__ import annotations

from dataclasses import dataclass

from ubongo import editions
from ubongo.puzzlefile import Puzzle
from ubongo.puzzles.deck import Deck, Side, Task, standard_deck


@dataclass(frozen=True)
class TaskRef:
    """Where a task is: its edition's standard deck, card, side and a key selecting it."""

    edition: str
    card: int
    side: str
    key: str


def _short(word: str) -> str:
    """A side's or key's few characters: a number whole, else each word's first letter."""
    if word.isdigit():
        return word
    return "".join(part[0] for part in word.split("-") if part).upper()


def _side_letter(name: str) -> str:
    """A side in a code: its name's first letter (``A``, ``Y`` for yellow, ``H`` for hard)."""
    return _short(name)[:1]


def task_code(edition: str, card: int, side: str, key: str) -> str:
    """The code of the task ``key`` selects on side ``side`` of card ``card``."""
    keyed = standard_deck(edition).card(card).side(side)
    parts = [edition, str(card), _side_letter(side)]
    if len(keyed.tasks) > 1:
        parts.append(_short(key))
    return "-".join(parts)


def code_of(deck: Deck, card: int, side: Side, task: Task) -> str | None:
    """The code of a task of ``deck`` (a deck file being printed), or ``None`` if the edition's
    standard deck does not hold that very task there (a deck of another seed)."""
    try:
        shipped = standard_deck(deck.edition).card(card).side(side.name)
        same = shipped.area == side.area and shipped.task(task.keys[0]).pieces == task.pieces
    except (FileNotFoundError, KeyError, IndexError):
        return None
    return task_code(deck.edition, card, side.name, task.keys[0]) if same else None


def find_task(code: str) -> TaskRef:
    """The task a code names; ``ValueError`` saying what in it is wrong."""
    parts = code.strip().split("-")
    edition = parts[0].lower()
    if edition not in editions.names():
        raise ValueError(f"{code}: no edition {parts[0]!r} (one of {', '.join(editions.names())})")
    deck = standard_deck(edition)
    if len(parts) not in (3, 4) or not parts[1].isdigit():
        raise ValueError(f"{code}: a code is edition-card-side-key, like classic-12-A-3")
    number = int(parts[1])
    if not 1 <= number <= deck.size:
        raise ValueError(f"{code}: the {edition} deck has cards 1 to {deck.size}")
    card = deck.card(number)
    side = next((s for s in card.sides if _side_letter(s.name) == parts[2].upper()), None)
    if side is None:
        names = ", ".join(_side_letter(s.name) for s in card.sides)
        raise ValueError(f"{code}: card {number} has sides {names}")
    if len(side.tasks) == 1:
        return TaskRef(edition, number, side.name, side.tasks[0].keys[0])
    wanted = parts[3].upper() if len(parts) == 4 else ""
    key = next((k for k in side.keys if _short(k) == wanted), None)
    if key is None:
        keys = ", ".join(_short(k) for k in side.keys)
        raise ValueError(f"{code}: side {side.name} has tasks {keys}")
    return TaskRef(edition, number, side.name, key)


def task_puzzle(ref: TaskRef) -> Puzzle:
    """The task as a puzzle (named by its code), as ``ubongo solve`` and the hint route read it.

    >>> puzzle = task_puzzle(find_task("trigo-19-H"))
    >>> puzzle.name, puzzle.edition, len(puzzle.pieces) > 1
    ('trigo-19-H', 'trigo', True)
    """
    deck = standard_deck(ref.edition)
    side = deck.card(ref.card).side(ref.side)
    pieces = tuple(deck.task_pieces(side.task(ref.key)))
    code = task_code(ref.edition, ref.card, ref.side, ref.key)
    return Puzzle(side.area, pieces, ref.edition, code)
