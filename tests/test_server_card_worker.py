"""A round whose fresh cards are still being made waits for the card worker (issue 16): the
event loop never makes them itself (a third of its time at 2,000 players before,
docs/performance.md "Capacity").

:meth:`~ubongo.server.rooms.cards.CardMaker.ready` is what the driver waits on before it starts a
round: the future of every card the game shows next being made by the worker process, work
started earlier included, or ``None`` when the deck has them all.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from server_harness import ServerProcess
from waiting import eventually

from ubongo import editions, rules
from ubongo.server.rooms.cards import CardMaker


def test_ready_waits_for_the_worker_and_then_has_nothing_to_wait_for() -> None:
    waits: list[tuple[bool, float]] = []  # what /metrics is told (ubongo_round_card_wait_seconds)

    async def scenario() -> tuple[list[int], list[bool], list[bool], bool, bool]:
        maker = CardMaker()
        maker.on_wait = lambda first, seconds: waits.append((first, seconds))
        try:
            rec = editions.record(editions.names()[0])
            game = rules.new_game(rules.Settings(rec.name, ("a", "b"), puzzles="fresh"), 5)
            upcoming = rules.upcoming_cards(game)
            made_before = [game.deck.is_made(n) for n in upcoming]
            started = maker.ahead(game)  # work started earlier ...
            asked = time.perf_counter()
            waiting = maker.ready(game)  # ... is waited for, not asked for twice
            assert started is not None and waiting is not None
            await asyncio.wait_for(waiting, 120)
            waited = time.perf_counter() - asked
            # (the report is the made future's first callback: told before this resumes)
            assert len(waits) == 1 and 0 < waits[0][1] <= waited
            made_after = [game.deck.is_made(n) for n in upcoming]
            return upcoming, made_before, made_after, maker.ready(game) is None, not maker._making
        finally:
            await maker.close()

    upcoming, before, after, nothing_left, no_work = asyncio.run(scenario())
    assert upcoming and not any(before)
    assert all(after)
    assert nothing_left and no_work
    # one round waited, the game's first; asking again with nothing to make told nothing
    assert [first for first, _ in waits] == [True]


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_worker_of_a_killed_server_ends_too(tmp_path: Path) -> None:
    """kill -9 runs no shutdown: the worker sees its parent gone and ends (it used to wait for
    work forever, one orphan per killed server)."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'ubongo.db'}").start()
    try:
        pid = server.proc.pid if server.proc else -1
        # started with the server
        workers = eventually(lambda: _children(pid), "a card worker", timeout=60, every=0.2)
    finally:
        server.stop(kill=True)

    eventually(
        lambda: not any(_alive(p) for p in workers),
        f"the card worker {sorted(workers)} to end with its server",
        timeout=30,
        every=0.2,
    )
