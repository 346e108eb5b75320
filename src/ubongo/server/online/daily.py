"""The daily challenge on the server: which days may be played, a run's result and its share
text, and whether a run is rated.

The tasks are the rules' (``puzzles="daily"``, :mod:`ubongo.puzzles.daily`); what this module
adds is the server's part: a day named by a client is checked here (``bad_date``), a finished
run's per-task times are read from its events, and its result is written as a short text to
share (edition, date, each task's time or ✗, the total; never a task's shape).

A run is *rated* (on the day's leaderboard, ``GET /api/daily/results``) when its seat has an
account, the run is that account's first daily run of the edition and day, it was played on
its day (UTC), and no task was solved faster than a hand places its pieces. Other runs are
stored too, marked unrated with the reason.

>>> text = share_text("Classic", "2026-11-23", [42.0, 65.5, None, 130.0, 58.0], 330.0, False)
>>> print(text)
Ubongo Classic daily 2026-11-23
0:42 · 1:06 · ✗ · 2:10 · 0:58
4/5 in 5:30
>>> share_text("Trigo", "2026-11-23", [None] * 5, 80.0, True).splitlines()[0]
'Ubongo Trigo daily 2026-11-23 (unrated)'
"""

from __future__ import annotations

import datetime
from typing import Any

from ubongo import editions, rules
from ubongo.rules.events import EventKind

from ..protocol.incoming import ProtocolError

#: the first day with a daily set; earlier dates are refused like future ones
FIRST_DAY = datetime.date(2026, 1, 1)


def today() -> datetime.date:
    """The day it is now, in UTC (the daily challenge's calendar)."""
    return datetime.datetime.now(datetime.UTC).date()


def day_of(seconds: float) -> datetime.date:
    """The UTC day of a server time (seconds since the epoch)."""
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).date()


def check_day(text: str | None) -> datetime.date:
    """The day ``text`` names (``None``: today); ``bad_date`` for a malformed day, a day to
    come, or one before :data:`FIRST_DAY`."""
    now = today()
    if text is None:
        return now
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        raise ProtocolError("bad_date", "a date is YYYY-MM-DD") from None
    if day > now:
        raise ProtocolError("bad_date", "that day's tasks are not out yet")
    if day < FIRST_DAY:
        raise ProtocolError("bad_date", f"the daily challenge starts on {FIRST_DAY.isoformat()}")
    return day


def task_times(game: rules.Game) -> list[float | None]:
    """Each daily task's seconds, in order: from when it was dealt to when it was solved;
    ``None`` for a task put aside or given up (or never reached)."""
    times: list[float | None] = []
    dealt_at: float | None = None
    for ev in game.events:
        if ev.kind in (EventKind.ROUND_STARTED, EventKind.TASK_DRAWN):
            dealt_at = ev.at
        elif ev.kind == EventKind.FINISHED and dealt_at is not None:
            times.append(ev.at - dealt_at)
        elif ev.kind in (EventKind.TASK_SKIPPED, EventKind.GAVE_UP):
            times.append(None)
    size = game.settings.solo_target or 0
    return (times + [None] * size)[:size]


def clock(seconds: float) -> str:
    """``m:ss``.

    >>> clock(5.4), clock(65.6), clock(3600)
    ('0:05', '1:06', '60:00')
    """
    s = round(seconds)
    return f"{s // 60}:{s % 60:02d}"


def share_text(
    title: str, day: str, times: list[float | None], seconds: float, unrated: bool
) -> str:
    """The result to share: edition, day, each task's time or ✗, tasks solved and the run's
    whole time (no spoilers: nothing of the tasks themselves)."""
    head = f"Ubongo {title} daily {day}" + (" (unrated)" if unrated else "")
    marks = " · ".join("✗" if t is None else clock(t) for t in times)
    solved = sum(1 for t in times if t is not None)
    return f"{head}\n{marks}\n{solved}/{len(times)} in {clock(seconds)}"


def daily_facts(game: rules.Game, record: dict[str, Any]) -> dict[str, Any]:
    """What a finished daily run stores and reports, before its rating is known."""
    s = game.settings
    return {
        "edition": s.edition,
        "date": s.day,
        "times": [None if t is None else round(t, 2) for t in task_times(game)],
        "solved": int(record["solved"]),
        "skipped": int(record["skipped"]) + int(record["gave_up"]),
        "seconds": float(record["seconds"]),
    }


def daily_result(facts: dict[str, Any], rated: bool, unrated: str | None) -> dict[str, Any]:
    """The ``daily`` object of ``game_over`` and the room snapshot (``DailyResult``)."""
    title = editions.record(facts["edition"]).title
    share = share_text(title, facts["date"], facts["times"], facts["seconds"], not rated)
    return {**facts, "rated": rated, "unrated": unrated, "share": share}
