"""A round whose fresh cards are still being made waits for the card worker (issue 16): the
event loop never makes them itself (a third of its time at 2,000 players before,
docs/performance.md "Capacity").

:meth:`~ubongo.server.cards.CardMaker.ready` is what the driver waits on before it starts a
round: the future of every card the game shows next being made by the worker process, work
started earlier included, or ``None`` when the deck has them all.
"""

from __future__ import annotations

import asyncio

from ubongo import rules
from ubongo.server.cards import CardMaker


def test_ready_waits_for_the_worker_and_then_has_nothing_to_wait_for() -> None:
    async def scenario() -> tuple[list[int], list[bool], list[bool], bool, bool]:
        maker = CardMaker()
        try:
            game = rules.new_game(rules.Settings("classic", ("a", "b"), puzzles="fresh"), 5)
            upcoming = rules.upcoming_cards(game)
            made_before = [game.deck.is_made(n) for n in upcoming]
            started = maker.ahead(game)  # work started earlier ...
            waiting = maker.ready(game)  # ... is waited for, not asked for twice
            assert started is not None and waiting is not None
            await asyncio.wait_for(waiting, 120)
            made_after = [game.deck.is_made(n) for n in upcoming]
            return upcoming, made_before, made_after, maker.ready(game) is None, not maker._making
        finally:
            maker.close()

    upcoming, before, after, nothing_left, no_work = asyncio.run(scenario())
    assert upcoming and not any(before)
    assert all(after)
    assert nothing_left and no_work
