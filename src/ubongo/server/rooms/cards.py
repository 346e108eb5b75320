"""Making a fresh game's cards ahead, in a worker process.

A fresh game (``puzzles: "fresh"``) makes each card when it is first shown
(:mod:`ubongo.puzzles.fresh`): some tens of milliseconds of pure Python a card. Made on the
event loop, or in a thread (which holds the interpreter lock just the same), that time is taken
from every room's answers: a hundred rooms starting their rounds together made verdicts wait
seconds. So the cards a game will show next are made in one worker process, on the other core,
and handed back to the game's deck; the loop only waits for them before a game's first round.

An endless solo run (:class:`~ubongo.puzzles.fresh.EndlessDeck`) is made ahead the same way:
the candidates of its next task are known before the task in hand ends (they depend on the
task's number only), so the next task is chosen among cards already made.

A round whose cards the worker has not finished (a busy server starts many rounds at once)
waits for them (:meth:`CardMaker.ready`) rather than making them on the loop: a few rooms
start a moment late instead of every room's answers waiting (bench/server.py --knee).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor

from ubongo import editions, rules
from ubongo.puzzles.deck import Card
from ubongo.puzzles.fresh import EndlessDeck, FreshDeck
from ubongo.rules import endless


def make_cards(
    edition: str, seed: int, sides: frozenset[str] | None, numbers: list[int]
) -> list[Card]:
    """In the worker: cards ``numbers`` of the fresh deck (edition, seed, sides), or with
    ``sides=None`` of the endless run's deck (edition, seed)."""
    deck = EndlessDeck(edition, seed) if sides is None else FreshDeck(edition, seed, sides)
    return [deck.card(n) for n in numbers]


def warm() -> None:
    """In the worker: load the generator (and its tables) before the first game needs it."""
    rec = editions.record(editions.names()[0])
    FreshDeck(rec.name, 0, {rec.default_side}).card(1)


def watch_parent(parent: int) -> None:
    """In the worker, first: end the worker when the server that started it is gone.

    A server stopped by SIGKILL (an operator's kill -9, a crash, the failover test) never shuts
    its pool down, and the worker, which holds a writing end of its own task queue, never reads
    an end of file there: it would wait for work forever. So a thread looks at its parent each
    second and ends the process once its parent is no longer ``parent``, the server's pid (it
    was adopted by init), read by the server: a server killed while the worker was still
    starting must not leave it watching its new parent."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


class CardMaker:
    """One worker process that makes fresh cards ahead."""

    def __init__(self) -> None:
        self._pool: Executor | None = None
        #: per deck (by identity), the numbers being made now (each is asked for once), with
        #: the work that makes them
        self._making: dict[int, dict[int, asyncio.Future[None]]] = {}
        #: told of each round that waited for its cards, once they are made: whether it was
        #: the game's first round (a fresh game's first cards are always made while its
        #: players wait) and the seconds it waited (``ubongo_round_card_wait_seconds``)
        self.on_wait: Callable[[bool, float], None] | None = None

    def start(self) -> None:
        """Start the worker now, so that the first fresh game does not wait for a process to
        start and import the generator (seconds on a busy machine)."""
        self._worker().submit(warm)

    def _worker(self) -> Executor:
        if self._pool is None:
            # spawn: a fork of a process running an event loop and threads is not safe
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=watch_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    def ahead(self, game: rules.Game) -> asyncio.Future[None] | None:
        """Start making the cards ``game`` shows next that its deck has not made; the future
        of the first part of that work (done when the deck has the cards the next turn
        needs), or None when nothing needs making.

        An endless run's cards are made one task's candidates at a time, the next task's
        first: its first task waits for its own candidates only."""
        deck = game.deck
        if not isinstance(deck, FreshDeck | EndlessDeck):
            return None
        making = self._making.get(id(deck), {})
        missing = [n for n in rules.upcoming_cards(game) if not deck.is_made(n) and n not in making]
        if not missing:
            return None  # (no entry kept for a deck with nothing being made: one per game)
        making = self._making.setdefault(id(deck), making)
        if isinstance(deck, FreshDeck):
            return self._make(deck, deck.sides, making, missing)
        first: asyncio.Future[None] | None = None
        for n in range(0, len(missing), endless.CARDS_PER_TASK):
            part = self._make(deck, None, making, missing[n : n + endless.CARDS_PER_TASK])
            if first is None:
                first = part
        return first

    def ready(self, game: rules.Game) -> asyncio.Future[None] | None:
        """Start making what ``game`` shows next (:meth:`ahead`); the future of all of it
        being made (work started earlier included), or None if the deck has it all."""
        self.ahead(game)
        deck = game.deck
        making = self._making.get(id(deck), {})
        waiting = {
            making[n] for n in rules.upcoming_cards(game) if n in making and not deck.is_made(n)
        }
        if not waiting:
            return None
        made = asyncio.ensure_future(_all(waiting))
        report = self.on_wait
        if report is not None:
            first, asked = game.rounds_played == 0, time.perf_counter()
            made.add_done_callback(lambda _: report(first, time.perf_counter() - asked))
        return made

    def _make(
        self,
        deck: FreshDeck | EndlessDeck,
        sides: frozenset[str] | None,
        making: dict[int, asyncio.Future[None]],
        missing: list[int],
    ) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(
            self._worker(), make_cards, deck.edition, deck.seed, sides, missing
        )

        def keep(done: asyncio.Future[list[Card]]) -> None:
            for n in missing:
                making.pop(n, None)
            if not making:
                self._making.pop(id(deck), None)
            if not done.cancelled() and done.exception() is None:
                for card in done.result():
                    deck.made.setdefault(card.number, card)

        work.add_done_callback(keep)
        made = asyncio.ensure_future(_done(work))
        for n in missing:
            making[n] = made
        return made

    async def close(self) -> None:
        """End the worker and wait for it to exit (cards not made yet are made by the game
        itself when shown).

        Waiting matters: the pool's queues hold named semaphores that are unlinked only when
        the queues are freed or at a normal interpreter exit. uvicorn ends a process stopped by
        SIGTERM by raising the signal again once it has shut down, so no exit handler runs;
        a pool still shutting down then left its semaphores behind ("resource_tracker: There
        appear to be 5 leaked semaphore objects" in every server log)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # the worker is ended, not waited for: what it was making is made again by the game
        # that shows it, and a server stopped seconds after it started waited for the worker's
        # start (imports and a first card: 3-6 s on a busy machine) in every stop. The pool's
        # manager sees its process gone and frees the queues all the same.
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        # in a thread: the loop goes on while the manager thread winds up
        await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


async def _all(work: set[asyncio.Future[None]]) -> None:
    await asyncio.wait(work)


async def _done(work: asyncio.Future[list[Card]]) -> None:
    # a worker that failed leaves the cards to be made when shown: the game goes on
    try:
        await work
    except Exception:
        return
