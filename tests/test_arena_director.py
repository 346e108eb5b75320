"""The arena's director in this process, on the server's clock moved forward (no store, no
rooms): a race whose room was lost frees its players after a while, scoring nothing, and its
arena freezes all the same."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ubongo import editions
from ubongo.arena import Arena, Format, Sheet, Standings
from ubongo.server.config import ServerConfig
from ubongo.server.online.arena_live import (
    SHOW_SLICES,
    Live,
    RaceInPlay,
    Seated,
    Watcher,
    arena_view,
)
from ubongo.server.online.arenas import RACE_LOST_SECONDS, ArenaDirector
from ubongo.server.ops.clock import Clock
from ubongo.server.protocol.arenas import ArenaUpdates, encode_arena_message

#: the arenas' edition and side: the first edition in the editions' data, its default side
EDITION = editions.names()[0]
SIDE = editions.record(EDITION).default_side


def test_a_lost_race_frees_its_players_and_holds_up_no_freeze() -> None:
    async def scenario() -> tuple[list[str], list[int]]:
        clock = Clock()
        made: list[int] = []
        seated = asyncio.Event()

        async def lost_room(
            arena: Arena, number: int, people: Sequence[Seated], levels: Sequence[str]
        ) -> list[dict[str, Any]]:
            # the room is made, then lost: it never reports its race's end
            made.append(number)
            seated.set()
            return [
                {"code": f"LOST{number}", "seat": i, "token": "t", "invite": f"LOST{number}"}
                for i, _ in enumerate(people)
            ]

        async def next_race() -> None:
            seated.clear()
            await director.tick()
            await seated.wait()  # the race's room is made off the tick

        director = ArenaDirector(None, clock, ServerConfig(arena_schedule="none"), lost_room)
        arena_id = await director.make("T", Format(EDITION, 10, 2, SIDE, "s"), clock.now(), 1)
        live = director.live[arena_id]
        for account in (1, 2):
            await director.join(arena_id, account, f"P{account}", [f"address {account}"])
            await director.watch(arena_id, account)
        phases: list[str] = []
        await next_race()
        started = live.races[1].started_at
        clock.not_before(started + RACE_LOST_SECONDS - 1.0)
        await director.tick()
        # not lost yet: its players are still in it, nobody is seated again
        assert list(live.races) == [1] and live.entrants[1].race == 1 and made == [1]
        clock.not_before(started + RACE_LOST_SECONDS + 1.0)
        await director.tick()  # lost: its players are free again, having scored nothing
        assert not live.races and live.entrants[1].free_since is not None
        assert not live.sheets[1].results
        # and seated together again once the gather has passed (they raced each other last)
        clock.not_before(clock.now() + director.config.arena_gather_seconds + 1.0)
        await next_race()
        assert list(live.races) == [2]
        phases.append(live.arena.phase(clock.now()))
        clock.not_before(live.arena.ends_at + 1.0)
        await director.tick()
        phases.append(live.arena.phase(clock.now()))  # its race in play holds the freeze
        clock.not_before(live.races[2].started_at + RACE_LOST_SECONDS + 1.0)
        await director.tick()
        phases.append(live.arena.phase(clock.now()))
        return phases, made

    assert asyncio.run(scenario()) == (["running", "ending", "over"], [1, 2])


def test_a_director_that_may_not_be_sure_of_its_lead_pairs_nobody() -> None:
    """With several processes a director pairs only while its lease is surely held: while it is
    not (its event loop stalled past half a lease), its ticks seat nobody; once it is, they do."""

    async def scenario() -> tuple[list[int], list[int]]:
        clock = Clock()
        made: list[int] = []
        seated = asyncio.Event()
        sure = False

        async def room(
            arena: Arena, number: int, people: Sequence[Seated], levels: Sequence[str]
        ) -> list[dict[str, Any]]:
            made.append(number)
            seated.set()
            return [
                {"code": "ROOM1", "seat": i, "token": "t", "invite": "ROOM1"}
                for i, _ in enumerate(people)
            ]

        config = ServerConfig(arena_schedule="none")
        director = ArenaDirector(None, clock, config, room, leads=lambda: sure)
        arena_id = await director.make("T", Format(EDITION, 10, 2, SIDE, "s"), clock.now(), 1)
        for account in (1, 2):
            await director.join(arena_id, account, f"P{account}", [f"address {account}"])
            await director.watch(arena_id, account)
        await director.tick()
        before = list(director.live[arena_id].races)
        sure = True
        await director.tick()
        await seated.wait()  # the race's room is made off the tick
        return before, made

    assert asyncio.run(scenario()) == ([], [1])


def test_every_page_gets_the_message_its_view_makes_alone() -> None:
    """A show encodes what every page shares once and each page's own part apart: the text
    each page gets is the whole view it would have been sent alone, through the model, for
    a visitor, a player in the top, one far below it and one seated in a race; and a page is
    sent nothing new when only the clock moved."""
    rng = random.Random(7)
    arena = Arena("a1", "Big", Format(EDITION, 30, 4, SIDE, "s"), 0.0, 1800.0)
    sheets = {}
    for a in range(1, 41):
        s = Sheet(a, f"P{a}", rng.random())
        for r in range(rng.randint(0, 6)):
            s = s.scored(r + 1, rng.choice([1, 2, 3, 4, None]), rng.random() < 0.3, 10.0 + r)
        sheets[a] = s
    live = Live(arena, Standings(sheets.values()))
    for n in range(1, 9):
        live.races[n] = RaceInPlay(n, f"R{n}", (1, 2, 3, 4), ("A", "B", "C", "D"), 100.0 + n)
    live.entrant(40).seat = {"code": "R1", "seat": 2, "token": "t" * 32, "invite": "/room/R1"}
    pages = [Watcher("a1", account) for account in (None, *sheets)]
    live.watchers.update(pages)
    director = ArenaDirector.__new__(ArenaDirector)

    def show(now: float) -> None:
        live.show_begins(now)
        while live.showing:
            director._send_slice(live, now)

    show(500.0)
    for w in pages:
        alone = encode_arena_message({"type": "arena", **arena_view(live, w.account, 500.0)})
        assert w.queue.get_nowait() == alone
    near = {len(json.loads(ArenaUpdates.timed(w.last, 0))["near"]) > 0 for w in pages}
    assert near == {True, False}
    live.changed()
    show(501.0)  # a change no page shows: nothing sent
    assert all(w.queue.empty() for w in pages)
    live.sheets[40] = live.sheets[40].scored(9, 1, False, 600.0)
    live.changed()
    show(602.0)
    # its results are encoded once a sheet: the new sheet's, with race 9, not the old
    alone = encode_arena_message({"type": "arena", **arena_view(live, 40, 602.0)})
    assert pages[-1].queue.get_nowait() == alone and '"race":9,' in alone


def test_a_show_is_sent_a_slice_at_a_time_and_a_closed_page_is_left_out() -> None:
    """A show of 95 pages is sent in :data:`SHOW_SLICES` slices of equal size (a thousand pages
    at once held the event loop for every verdict); a page closed during the show is sent
    nothing; a show begun before the last has ended sends every page still open."""
    arena = Arena("a1", "Big", Format(EDITION, 30, 4, SIDE, "s"), 0.0, 1800.0)
    live = Live(arena, Standings(Sheet(a, f"P{a}", 0.0) for a in range(1, 95)))
    pages = [Watcher("a1", account) for account in (None, *range(1, 95))]
    live.watchers.update(pages)
    director = ArenaDirector.__new__(ArenaDirector)
    live.changed()
    live.show_begins(10.0)
    sizes: list[int] = []
    for _ in range(3):
        director._send_slice(live, 10.0)
        sizes.append(sum(w.queue.qsize() for w in pages) - sum(sizes))
    per_slice = -(-95 // SHOW_SLICES)
    assert sizes == [per_slice] * 3 and per_slice < 95
    gone = next(w for w in live.showing)
    live.watchers.discard(gone)
    slices = 3
    while live.showing:
        director._send_slice(live, 10.0)
        slices += 1
    assert slices == -(-95 // per_slice) and slices <= SHOW_SLICES
    assert gone.queue.empty() and sum(w.queue.qsize() for w in pages) == 94
    # a new show overtakes one half sent: every page still open is in it
    live.changed()
    live.sheets[1] = live.sheets[1].scored(1, 1, False, 20.0)
    live.changed()
    live.show_begins(11.0)
    director._send_slice(live, 11.0)
    live.show_begins(12.0)
    while live.showing:
        director._send_slice(live, 12.0)
    assert all(w.queue.qsize() == 2 for w in pages if w is not gone)


def test_the_pages_whose_players_race_was_scored_go_in_the_shows_first_slice() -> None:
    """A player waits for their race's result on the page at most a tick and one slice of the
    show, wherever their page is in it: the pages whose player's results changed since their
    last view are sent first."""
    arena = Arena("a1", "Big", Format(EDITION, 30, 4, SIDE, "s"), 0.0, 1800.0)
    live = Live(arena, Standings(Sheet(a, f"P{a}", 0.0) for a in range(1, 95)))
    pages = {a: Watcher("a1", a) for a in range(1, 95)}
    live.watchers.update(pages.values())
    director = ArenaDirector.__new__(ArenaDirector)
    live.changed()
    live.show_begins(10.0)
    while live.showing:  # each page's first view (its results with it)
        director._send_slice(live, 10.0)
    for w in pages.values():
        w.queue.get_nowait()
    per_slice = -(-94 // SHOW_SLICES)
    scored = (7, 31, 58, 80, 93)[:per_slice]
    for a in scored:
        live.sheets[a] = live.sheets[a].scored(1, 1, False, 20.0)
    live.changed()
    live.show_begins(21.0)
    director._send_slice(live, 21.0)
    first = {a for a, w in pages.items() if not w.queue.empty()}
    assert first == set(scored)
    assert all('"race":1,' in str(pages[a].queue.get_nowait()) for a in scored)


def test_a_page_is_sent_its_players_results_only_when_they_change() -> None:
    """The results of a page's player go out in its first view and then only when a race of
    theirs is scored; in between they come as ``null``, and the last ones kept in their place
    make the whole view, as the web client and the HTTP view have it."""
    arena = Arena("a1", "Big", Format(EDITION, 30, 4, SIDE, "s"), 0.0, 1800.0)
    sheets = {a: Sheet(a, f"P{a}", 0.0).scored(1, a, False, 10.0) for a in (1, 2, 3)}
    live = Live(arena, Standings(sheets.values()))
    pages = {a: Watcher("a1", a) for a in (1, 2, 3)}
    live.watchers.update(pages.values())
    director = ArenaDirector.__new__(ArenaDirector)
    kept: dict[int, list[Any]] = {}

    def show(now: float) -> dict[int, Any]:
        """A show: each page's results as sent (None: null); every page's view, its results
        kept from the last ones sent, is its whole view."""
        live.changed()
        live.show_begins(now)
        while live.showing:
            director._send_slice(live, now)
        sent = {}
        for a, w in pages.items():
            view = json.loads(w.queue.get_nowait() or "")
            assert w.queue.empty()
            sent[a] = view["me"]["results"]
            kept[a] = kept[a] if sent[a] is None else sent[a]
            view["me"]["results"] = kept[a]
            alone = encode_arena_message({"type": "arena", **arena_view(live, a, now)})
            assert view == json.loads(alone)
        return sent

    assert all(len(results) == 1 for results in show(100.0).values())
    # a race begins: every page's view changes, nobody's results
    live.races[2] = RaceInPlay(2, "R2", (1, 2), ("P1", "P2"), 101.0)
    assert show(102.0) == {1: None, 2: None, 3: None}
    # race 2 scored for players 1 and 2: their pages get their results again, player 3's not
    for a in (1, 2):
        live.sheets[a] = live.sheets[a].scored(2, a, False, 110.0)
    del live.races[2]
    sent = show(111.0)
    assert [len(sent[1]), len(sent[2]), sent[3]] == [2, 2, None]
    # a pause makes a new sheet with the same results: not sent again
    live.sheets[3] = replace(live.sheets[3], paused=True)
    assert show(112.0)[3] is None


def test_a_race_begun_tells_its_players_pages_at_once_and_no_other_page() -> None:
    """A race's players hear their seat on their pages as soon as its room is made, before any
    show (each page found by its player, :class:`~ubongo.server.online.arena_live.Pages`); the
    pages of a player left free, and a visitor's, are sent nothing then."""

    async def scenario() -> tuple[dict[int, list[Any]], set[int]]:
        clock = Clock()
        seated = asyncio.Event()

        async def room(
            arena: Arena, number: int, people: Sequence[Seated], levels: Sequence[str]
        ) -> list[dict[str, Any]]:
            seated.set()
            return [
                {"code": f"R{number}", "seat": i, "token": "t", "invite": f"R{number}"}
                for i, _ in enumerate(people)
            ]

        director = ArenaDirector(None, clock, ServerConfig(arena_schedule="none"), room)
        arena_id = await director.make("T", Format(EDITION, 10, 2, SIDE, "s"), clock.now(), 1)
        live = director.live[arena_id]
        pages: dict[int, list[Watcher]] = {}
        for account in (1, 2, 3):
            await director.join(arena_id, account, f"P{account}", [f"address {account}"])
        for account in (1, 1, 1, 2, 3, 0):  # three pages of player 1; 0: a visitor's page
            w = await director.watch(arena_id, account or None)
            pages.setdefault(account, []).append(w)
        closed = pages[1].pop()
        director.unwatch(closed)  # one of them closed: it is told nothing
        for w in [*live.watchers, closed]:  # what the pages were sent as they opened
            while not w.queue.empty():
                w.queue.get_nowait()
        await director.tick()
        await seated.wait()  # the race's room is made off the tick, its seats told at once
        heard = {
            account: [json.loads(w.queue.get_nowait() or "") for w in ws if not w.queue.empty()]
            for account, ws in pages.items()
        }
        assert closed.queue.empty()
        return heard, {a for a in (1, 2, 3) if live.entrants[a].race is not None}

    heard, racing = asyncio.run(scenario())
    assert len(racing) == 2  # a race of two: one of the three is left free
    for account, views in heard.items():
        if account in racing:
            n_pages = 2 if account == 1 else 1
            assert len(views) == n_pages
            assert all(v["me"]["seat"]["code"] == "R1" for v in views)
        else:
            assert views == []
