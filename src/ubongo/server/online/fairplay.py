"""Fair play: what keeps a result out of the ratings and the leaderboards
(``docs/fair-play.md``).

A puzzle race is easy to script (the project's own solver is public), so no single check makes
cheating impossible; each check here takes one easy way out:

* a task finished faster than a human hand places its pieces (``record_seconds_per_piece``
  for each piece, from the moment it was dealt) is not ranked (solo, the daily) and the seat
  that finished it is not rated (a rated race): :func:`too_fast`, :func:`too_fast_players`;
* a finish without a consistent play trace (:mod:`.traces`) counts in its game, but is not
  rated and not ranked: :func:`untraced`;
* a seat whose person left a rated game (a bot played it out) loses it: it is placed last,
  whatever the bot did (:func:`.ratings.rate_game`).

The rules' own times are used throughout: the server's clock readings, passed into the rules.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Literal

from ubongo import rules
from ubongo.rules.events import Event, EventKind

from .traces import TraceNote

#: why a player's finishes do not count for ratings and leaderboards
Untraced = Literal["no_trace", "bad_trace"]


def _pieces(game: rules.Game, ev: Event) -> int:
    """The number of pieces of the task a ``finished`` event solved."""
    player = str(ev.data["player"])
    side_name = ev.data.get("side") or game.settings.level_of(player)
    side = rules.card(game, int(ev.data["card"])).side(side_name)
    return len(side.task(ev.data["key"]).pieces)


def too_fast(game: rules.Game, per_piece: float) -> list[int]:
    """The solo tasks (by the order they were solved, from 0) solved in less time than
    ``per_piece`` seconds for each of their pieces: faster than a human hand places them.

    A task's time runs from when it was dealt (the round's start, or the previous task
    solved or put aside) to its ``finished`` event, both in the rules' own times."""
    fast: list[int] = []
    dealt_at: float | None = None
    solved = 0
    for ev in game.events:
        if ev.kind in (EventKind.ROUND_STARTED, EventKind.TASK_DRAWN):
            dealt_at = ev.at
        elif ev.kind == EventKind.FINISHED and dealt_at is not None:
            if ev.at - dealt_at < _pieces(game, ev) * per_piece:
                fast.append(solved)
            solved += 1
            dealt_at = ev.at
    return fast


def too_fast_players(game: rules.Game, per_piece: float) -> set[str]:
    """The players of a race who finished a round's task in less time than ``per_piece``
    seconds for each of its pieces, counted from the round's start (when every player's
    task is dealt)."""
    fast: set[str] = set()
    started: float | None = None
    for ev in game.events:
        if ev.kind == EventKind.ROUND_STARTED:
            started = ev.at
        elif (
            ev.kind == EventKind.FINISHED
            and started is not None
            and ev.at - started < _pieces(game, ev) * per_piece
        ):
            fast.add(str(ev.data["player"]))
    return fast


def untraced(
    game: rules.Game, notes: Sequence[TraceNote], players: Collection[str]
) -> dict[str, Untraced]:
    """The ``players`` with a finish that has no consistent play trace in ``notes``, and
    why: ``bad_trace`` if one of their traces does not hold together, else ``no_trace``.

    Every finish needs its own consistent trace: a run of ten tasks with one bad trace is not
    ranked."""
    finishes: dict[str, int] = {}
    for ev in game.events:
        if ev.kind == EventKind.FINISHED:
            player = str(ev.data["player"])
            finishes[player] = finishes.get(player, 0) + 1
    found: dict[str, Untraced] = {}
    for player in players:
        mine = [n for n in notes if n.player == player]
        if sum(1 for n in mine if n.fault is None) < finishes.get(player, 0):
            bad = any(n.fault not in (None, "no_trace") for n in mine)
            found[player] = "bad_trace" if bad else "no_trace"
    return found
