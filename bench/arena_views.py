"""How long does one arena's second of views take?  An arena's pages are sent their views at
most once a second; with a thousand pages that is a thousand views a second on the process
that leads the arenas.

Run with ``.venv/bin/python bench/arena_views.py [--pages N] [--repeat R] [--results LO,HI]``.

One arena of ``N`` players (each with ``--results`` race results, 3-15 by default, drawn
from a fixed seed) and 250 races in play, one open page per player. Two ways to make every
page's message, in the same process, best of ``R``:

* **reference**: each page's whole view (``arena_view``) checked and encoded through its model
  (``encode_arena_message``), as a page alone would be sent it;
* **show**: what the director does once a second (``Live.show_begins``, then its slices): the
  part every page shows alike made and encoded once, each page's own part apart
  (``ArenaUpdates``), each player's results encoded once a sheet and sent only when they
  changed (``null`` otherwise): the shows timed (best of ``R``) are those of a second in which
  no race was scored (at 1,000 players some 16 races end a second: 64 sheets of 1,000 new,
  their results encoded again and sent).

Then what sending costs: each page's texts of a show compressed as permessage-deflate does on
its connection (a compressor of its own kept from show to show, flushed after each message),
best of ``R``, with the bytes that leave.

The first show's texts (every page's first view, its results in it) are checked equal, byte
for byte, to the reference's before any timing; the size of a page is given for both.
docs/arenas.md keeps the latest figures.
"""

from __future__ import annotations

import argparse
import random
import time
import zlib
from collections.abc import Callable

from ubongo import editions
from ubongo.arena import Arena, Format, Sheet, Standings, standings
from ubongo.server.online.arena_live import Live, RaceInPlay, Watcher, arena_view
from ubongo.server.online.arenas import ArenaDirector
from ubongo.server.protocol.arenas import encode_arena_message


def an_arena(pages: int, results: tuple[int, int] = (3, 15), seed: int = 1) -> Live:
    """An arena of ``pages`` players with ``results`` race results each (between LO and HI),
    250 races in play, a page open for each."""
    rng = random.Random(seed)
    first = editions.record(editions.names()[0])
    arena = Arena("bench", "Bench", Format(first.name, 30, 4, first.default_side, "s"), 0.0, 1800.0)
    sheets = {}
    for account in range(1, pages + 1):
        sheet = Sheet(account, f"Player {account}", rng.random())
        for race in range(rng.randint(*results)):
            place = rng.choice([1, 2, 3, 4, None])
            sheet = sheet.scored(race + 1, place, rng.random() < 0.2, 10.0 + race)
        sheets[account] = sheet
    live = Live(arena, Standings(sheets.values()))
    for n in range(250):
        live.races[n] = RaceInPlay(n, f"R{n:04d}", (1, 2, 3, 4), ("A", "B", "C", "D"), n / 3)
    for account in sheets:
        live.watchers.add(Watcher(arena.id, account))
    return live


def reference(live: Live, now: float) -> list[str]:
    return [
        encode_arena_message({"type": "arena", **arena_view(live, w.account, now)})
        for w in live.watchers
    ]


def show(live: Live, director: ArenaDirector, now: float) -> list[str]:
    for w in live.watchers:
        w.last = ""
    live.changed()  # a change every page shows: each is sent its view
    live.show_begins(now)
    while live.showing:  # every slice of the show, one after another
        director._send_slice(live, now)
    return [w.queue.get_nowait() or "" for w in live.watchers]


def deflated(texts: list[str], compressors: list[zlib._Compress]) -> int:
    """The texts compressed, each by its page's connection: the bytes that leave."""
    return sum(
        len(c.compress(text.encode()) + c.flush(zlib.Z_SYNC_FLUSH))
        for text, c in zip(texts, compressors, strict=True)
    )


def best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=1000, help="players, one page each")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many")
    parser.add_argument(
        "--results",
        default="3,15",
        help="each player's race results, between LO,HI (an hour's arena: 200,270)",
    )
    args = parser.parse_args()
    lo, hi = (int(x) for x in args.results.split(","))
    live = an_arena(args.pages, (lo, hi))
    director = ArenaDirector.__new__(ArenaDirector)  # its show needs no store, clock or config
    now = 500.0
    first = show(live, director, now)
    assert first == reference(live, now), "a page's text differs"
    ref = best(lambda: reference(live, now), args.repeat)
    new = best(lambda: show(live, director, now), args.repeat)
    n = args.pages
    size, later = (sum(map(len, texts)) / n / 1024 for texts in (first, show(live, director, now)))
    print(f"one second of views for {n} pages, {lo}-{hi} results each (best of {args.repeat}):")
    print(
        f"  a page before compression: {size:.1f} KiB with its results (its first view), "
        f"{later:.1f} KiB without (they have not changed)"
    )
    print(f"  reference, each page whole through its model: {ref * 1e3:7.1f} ms")
    print(f"  show, the shared part once:                   {new * 1e3:7.1f} ms")
    print(f"  per page: {ref * 1e6 / n:.0f} us against {new * 1e6 / n:.0f} us: {ref / new:.1f}x")
    print(f"  a core's share at one show a second: {100 * new:.1f}% (reference {100 * ref:.1f}%)")
    # a connection's compressor, as permessage-deflate keeps it (no context takeover refused)
    compressors = [zlib.compressobj(6, zlib.DEFLATED, -15) for _ in range(n)]
    deflated(first, compressors)
    texts = show(live, director, now)
    sent = deflated(texts, compressors)
    squeeze = best(lambda: deflated(texts, compressors), args.repeat)
    print(
        f"  compressed for each page's connection: {squeeze * 1e3:7.1f} ms, "
        f"{sent / n / 1024:.2f} KiB a page on the wire"
    )
    anew, kept = scoring(live, args.repeat)
    print(
        f"  the standings of a second: 16 races scored (4 sheets each), then every page's place: "
        f"sorted anew at each race {anew * 1e3:.2f} ms, kept in order {kept * 1e3:.2f} ms: "
        f"{anew / kept:.1f}x"
    )


def scoring(live: Live, repeat: int, races: int = 16) -> tuple[float, float]:
    """What the standings cost a second of the arena, best of ``repeat``: ``races`` races of
    4 players scored (some 16 a second at 1,000 players), then every page's place asked
    once (a show). Reference, in the same process: every sheet sorted again at each race and
    the places listed (the director's way before ``Standings``); then the changed sheets
    moved in the standings kept in order (``Live.sheets``)."""
    accounts = list(live.sheets)
    rng = random.Random(3)
    scored = [
        [live.sheets[a].scored(900 + r, i + 1, False, 900.0 + r) for i, a in enumerate(four)]
        for r, four in enumerate(rng.sample(accounts, 4) for _ in range(races))
    ]

    def sorted_anew() -> None:
        sheets = dict(live.sheets)
        places: dict[int, int] = {}
        for race in scored:
            sheets.update((s.account, s) for s in race)
            places = {s.account: i for i, s in enumerate(standings(sheets.values()), 1)}
        [places.get(a) for a in accounts]

    def kept_in_order() -> None:
        kept = Standings(live.sheets.values())
        start = time.perf_counter()
        for race in scored:
            for s in race:
                kept[s.account] = s
        [kept.place(a) for a in accounts]
        spent.append(time.perf_counter() - start)

    spent: list[float] = []
    anew = best(sorted_anew, repeat)
    for _ in range(repeat):
        kept_in_order()  # timed without making the standings, which an arena does once
    return anew, min(spent)


if __name__ == "__main__":
    main()
