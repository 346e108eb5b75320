"""The printed decks' task codes (issue 28, ubongo.puzzles.codes): every task of every standard
deck has its own code, which names it back; what is not a code is refused with its reason."""

from __future__ import annotations

import pytest

from ubongo import editions
from ubongo.puzzles.codes import code_of, find_task, task_code
from ubongo.puzzles.deck import standard_deck


@pytest.mark.parametrize("edition", editions.names())
def test_every_task_of_a_standard_deck_has_one_code_that_names_it_back(edition: str) -> None:
    deck = standard_deck(edition)
    seen: dict[str, tuple[int, str, tuple[str, ...]]] = {}
    for card in deck.cards:
        for side in card.sides:
            for task in side.tasks:
                code = code_of(deck, card.number, side, task)
                assert code is not None and len(code) <= 16, code
                assert code not in seen, (code, seen[code])
                seen[code] = (card.number, side.name, task.keys)
                assert code == task_code(edition, card.number, side.name, task.keys[0])
                # the printed code (in any case), and that of any key of the task (two die
                # faces may share one), names the task
                for named in (
                    code.swapcase(),
                    *(task_code(edition, card.number, side.name, k) for k in task.keys),
                ):
                    ref = find_task(named)
                    assert (ref.edition, ref.card, ref.side) == (edition, card.number, side.name)
                    assert side.task(ref.key) == task
    assert len(seen) == sum(len(s.tasks) for c in deck.cards for s in c.sides)


def test_a_task_of_another_deck_has_no_code() -> None:
    deck = standard_deck("classic")
    card = deck.card(1)
    other = deck.card(2).sides[0]
    # card 2's first side printed as if it were card 1's: not the standard deck's task there
    assert code_of(deck, card.number, other, other.tasks[0]) is None


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("chess-1-A-1", "no edition"),
        ("classic", "a code is edition-card-side-key"),
        ("classic-x-A-1", "a code is edition-card-side-key"),
        ("classic-0-A-1", "cards 1 to 36"),
        ("classic-3-Q-1", "has sides A, B"),
        ("classic-3-A-9", "has tasks 1, 2, 3, 4, 5, 6"),
        ("extreme-3-A", "has tasks UL, UR, LL, LR"),
    ],
)
def test_what_is_not_a_code_is_refused_with_its_reason(code: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        find_task(code)
