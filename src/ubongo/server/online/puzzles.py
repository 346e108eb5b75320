"""Saved puzzles (docs/editor.md, "Saving and sharing", "The community list"): saving a drawn
puzzle with a title, publishing it, playing it by its link, and what each play, like and
report may change.

Think of a script with an account (accounts cost nothing but a request, limited per address):

* **saving** is the editor's verdict again, held to its bounds and limits (the editor's
  :class:`.help.SolverLimits`, one budget with the verdicts), and never for a task being
  played (``403 no_help``: the page would hand out its solution); an unsolvable puzzle is
  refused (``422 unsolvable``), and so is a custom one (``bad_puzzle``: the player plays an
  edition's pieces); the title follows the rules of display names (:func:`.names.check_name`);
  ``puzzles_saved_per_day``, ``puzzles_per_account`` and ``puzzles_published_per_day`` bound
  what one account adds (``429 puzzle_limit``);
* a **link** is a random id of 72 bits: a private puzzle is read by nobody without it, and
  none is listed but the published ones;
* a **play** counts once per account and puzzle (``409 already_played`` after), never the
  author's (``403 own_puzzle``), and a solve faster than a hand places the pieces
  (``record_seconds_per_piece`` each, the fair-play floor), or a time that is no play's
  (not above 0, or over :data:`LONGEST_PLAY`), is ``422 bad_play``: nothing changes;
* only its author **deletes** a puzzle (to anyone else it is not there), which frees its place
  under ``puzzles_per_account`` but not under the day's limits (those count what was saved);
* a **like** needs a counted play first (``403 not_played``), one per account; a **report**
  one per account, for the moderators (``ubongo review puzzles``).
"""

from __future__ import annotations

import asyncio
import math
import statistics
from typing import Any

from ubongo import puzzlefile
from ubongo.board import Placement
from ubongo.pieces import edition as edition_pieces
from ubongo.puzzles.verdict import Verdict, verdict

from ..config import ServerConfig
from ..ops import strong_random
from ..ops.clock import Clock
from ..protocol.community import LIST_PAGE, Order, Outcome
from ..protocol.incoming import ProtocolError
from ..store import Glicko, NewPuzzle, SavedPuzzle, Store
from . import puzzle_ratings
from .conduct import UNKNOWN_ADDRESS
from .help import SolverLimits, check_bounds, refuse_in_play
from .names import check_name, clean_text
from .tasks_in_play import TasksInPlay

DAY = 24 * 3600.0
#: the longest play a report may say (a tab left open overnight is not a play's time)
LONGEST_PLAY = 6 * 3600.0


def new_id() -> str:
    """A puzzle's (or a pack's) link id: 12 URL-safe characters of about 72 random bits, never
    beginning with ``-``: a moderator's command line (``ubongo review hide-puzzle ID``) would
    take such an id for an option (one in 64 did: a CI loop run)."""
    while True:
        made = strong_random.token_urlsafe(9)
        if not made.startswith("-"):
            return made


def no_puzzle() -> ProtocolError:
    return ProtocolError("no_puzzle", "no such puzzle")


def limited(what: str) -> ProtocolError:
    return ProtocolError("puzzle_limit", what)


class PuzzleDesk:
    """Saves, shows and counts plays of saved puzzles, within their limits."""

    def __init__(
        self,
        store: Store,
        tasks: TasksInPlay,
        clock: Clock,
        config: ServerConfig,
        limits: SolverLimits,
    ) -> None:
        self.store, self.tasks, self.clock, self.config = store, tasks, clock, config
        self.limits = limits

    async def save(
        self, account: int, address: str, data: Any, title: str, published: bool
    ) -> SavedPuzzle:
        """Save the puzzle file ``data`` as ``account``'s, titled, listed if ``published``."""
        name = check_name(title)
        now = self.clock.now()
        self.limits.spend(account, address, self.clock.now())
        puzzle = _edition_puzzle(data)
        check_bounds(puzzle, "a saved puzzle is one")
        await refuse_in_play(self.tasks, puzzle, "no saving")
        await self._within_limits(account, now, published)
        found = await asyncio.to_thread(verdict, puzzle.area, list(puzzle.pieces), puzzle.edition)
        if found.solutions == 0:
            raise ProtocolError("unsolvable", "this puzzle has no solution: it cannot be saved")
        new = _new_puzzle(new_id(), account, name, puzzle, found)
        await asyncio.to_thread(self.store.puzzles.save, new, now)
        if published:
            await asyncio.to_thread(self.store.puzzles.publish, new.id, True, now)
        return await self.get(new.id, account)

    async def _within_limits(self, account: int, now: float, published: bool) -> None:
        puzzles = self.store.puzzles
        config = self.config
        made = await asyncio.to_thread(puzzles.made_since, account, now - DAY)
        if made >= config.puzzles_saved_per_day:
            raise limited(f"at most {config.puzzles_saved_per_day} puzzles saved a day")
        kept = await asyncio.to_thread(puzzles.kept, account)
        if kept >= config.puzzles_per_account:
            raise limited(f"at most {config.puzzles_per_account} puzzles kept")
        if published:
            await self._may_publish(account, now)

    async def _may_publish(self, account: int, now: float) -> None:
        most = self.config.puzzles_published_per_day
        shown = await asyncio.to_thread(self.store.puzzles.published_since, account, now - DAY)
        if shown >= most:
            raise limited(f"at most {most} puzzles published a day")

    async def get(self, puzzle_id: str, account: int | None) -> SavedPuzzle:
        """The puzzle of the link ``puzzle_id`` (a hidden one: only to its author)."""
        found = await asyncio.to_thread(self.store.puzzles.get, puzzle_id[:16])
        if found is None or (found.hidden and found.account != account):
            raise no_puzzle()
        return found

    async def publish(self, puzzle_id: str, account: int, published: bool) -> SavedPuzzle:
        """List the author's puzzle, or take it back to its link only."""
        found = await self.get(puzzle_id, account)
        if found.account != account:
            raise no_puzzle()  # as if it were not there: whose it is is not said
        if published and not found.published and found.published_at is None:
            await self._may_publish(account, self.clock.now())
        await asyncio.to_thread(self.store.puzzles.publish, found.id, published, self.clock.now())
        return await self.get(found.id, account)

    async def delete(self, puzzle_id: str, account: int) -> None:
        """The author deletes the puzzle (its plays, likes and reports with it); to anyone
        else it is ``404 no_puzzle``, as :meth:`publish` answers."""
        found = await self.get(puzzle_id, account)
        if found.account != account:
            raise no_puzzle()  # as if it were not there: whose it is is not said
        if not await asyncio.to_thread(self.store.puzzles.delete, found.id, account):
            raise no_puzzle()  # (deleted by its author's other request at the same moment)

    async def solution(self, puzzle_id: str, account: int) -> list[Any]:
        """One solution of the puzzle, never while its task is being played."""
        found = await self.get(puzzle_id, account)
        await refuse_in_play(self.tasks, puzzlefile.from_json(found.puzzle), "no solution")
        return found.solution

    async def play(
        self, puzzle_id: str, account: int, outcome: Outcome, seconds: float, address: str
    ) -> None:
        """Keep ``account``'s one play of the puzzle, or refuse a report that cannot be; the
        play counts in the puzzle's figures and teaches its rating (:mod:`.puzzle_ratings`)
        unless its address (``address``, a limits' key) is one the author's, or a counted
        player's, account was seen at."""
        found = await self.get(puzzle_id, account)
        if found.account == account:
            raise ProtocolError("own_puzzle", "an author's own plays are not counted")
        now = self.clock.now()
        floor = found.pieces * self.config.record_seconds_per_piece
        if not math.isfinite(seconds) or seconds <= 0 or seconds > LONGEST_PLAY:
            raise ProtocolError("bad_play", f"a play lasts from 0 to {LONGEST_PLAY:.0f} seconds")
        if outcome == "solved" and seconds < floor:
            raise ProtocolError(
                "bad_play", f"faster than a hand places {found.pieces} pieces ({floor:.1f} s)"
            )
        since = await self._seen(account, address, now)
        player = await asyncio.to_thread(self.store.task_ratings.of_player, account, found.edition)
        in_time = outcome == "solved" and seconds <= puzzle_ratings.puzzle_limit(found.edition)

        def rate(before: Glicko | None) -> Glicko:
            return puzzle_ratings.learn(
                before, found.edition, found.seconds, player, solved_in_time=in_time, at=now
            )

        puzzles = self.store.puzzles
        args = (found.id, account, outcome, round(seconds, 3), now, rate, since)
        if not await asyncio.to_thread(puzzles.play, *args):
            raise ProtocolError("already_played", "this account's play of it is counted already")

    async def _seen(self, account: int, address: str, now: float) -> float | None:
        """Note ``account`` at ``address`` now; since when addresses are compared (None: the
        server compares none, ``--shared-address-days`` 0)."""
        window = self.config.shared_address_days * DAY
        if window <= 0:
            return None
        if address != UNKNOWN_ADDRESS:
            await asyncio.to_thread(self.store.addresses.note, account, address, now, window)
        return now - window

    async def like(self, puzzle_id: str, account: int, liked: bool, address: str) -> None:
        """Like the puzzle (after a play), or take the like back; the like counts unless its
        address is one the author's, or a counted liker's, account was seen at."""
        found = await self.get(puzzle_id, account)
        if found.account == account:
            raise ProtocolError("own_puzzle", "an author cannot like their own puzzle")
        puzzles = self.store.puzzles
        if not liked:
            await asyncio.to_thread(puzzles.unlike, found.id, account)
            return
        if await asyncio.to_thread(puzzles.played, found.id, account) is None:
            raise ProtocolError("not_played", "play it first: a like counts after a play")
        now = self.clock.now()
        since = await self._seen(account, address, now)
        await asyncio.to_thread(puzzles.like, found.id, account, now, since)

    async def report(self, puzzle_id: str, account: int, reason: str) -> bool:
        """Report the puzzle to the moderators (False: this account had already)."""
        found = await self.get(puzzle_id, account)
        if found.account == account:
            raise ProtocolError("own_puzzle", "an author may take their own puzzle back instead")
        said = clean_text(reason)[:200] or "(no reason given)"
        now = self.clock.now()
        return await asyncio.to_thread(self.store.puzzles.report, found.id, account, said, now)

    async def listed(self, edition: str, order: Order, page: int) -> tuple[list[SavedPuzzle], bool]:
        """Page ``page`` (from 0) of the community list of ``edition`` in ``order``, and
        whether a next page has some."""
        found = await asyncio.to_thread(
            self.store.puzzles.listed, edition, order, LIST_PAGE + 1, page * LIST_PAGE
        )
        return found[:LIST_PAGE], len(found) > LIST_PAGE

    async def stats(self, found: SavedPuzzle) -> dict[str, Any]:
        """The puzzle's stats now (the answers' ``PuzzleStats``)."""
        times = await asyncio.to_thread(self.store.puzzles.times, found.id)
        return stats_view(found, times)


def stats_view(found: SavedPuzzle, times: list[float]) -> dict[str, Any]:
    """``PuzzleStats`` of ``found``, the median over ``times`` (its solves' seconds)."""
    return {
        "plays": found.plays,
        "solves": found.solves,
        "solve_rate": round(found.solves / found.plays, 3) if found.plays else None,
        "median_seconds": round(statistics.median(times), 1) if times else None,
        "likes": found.likes,
    }


def _edition_puzzle(data: Any) -> puzzlefile.Puzzle:
    """The puzzle file ``data``, which must be an edition's pieces by their names."""
    try:
        puzzle = puzzlefile.from_json(data)
    except puzzlefile.PuzzleFileError as e:
        raise ProtocolError("bad_puzzle", str(e)[:200]) from None
    if puzzle.edition is None:
        raise ProtocolError("bad_puzzle", "a saved puzzle is an edition's, with its pieces")
    pieces = edition_pieces(puzzle.edition)
    if not all(pieces.has_piece(p.id) and pieces.piece(p.id) == p for p in puzzle.pieces):
        raise ProtocolError("bad_puzzle", "a saved puzzle names the edition's pieces")
    return puzzle


def _new_puzzle(
    puzzle_id: str, account: int, title: str, puzzle: puzzlefile.Puzzle, found: Verdict
) -> NewPuzzle:
    by_id = {p.id: p for p in puzzle.pieces}
    solution = []
    for pid, cells in sorted(found.solution.items()):
        at = Placement.covering(by_id[pid], cells)
        solution.append({"piece": pid, "transform": at.transform, "offset": list(at.offset)})
    assert puzzle.edition is not None and found.seconds is not None
    return NewPuzzle(
        id=puzzle_id,
        account=account,
        edition=puzzle.edition,
        title=title,
        puzzle=puzzlefile.to_json(puzzle),
        solution=solution,
        pieces=len(puzzle.pieces),
        solutions=found.solutions,
        seconds=round(found.seconds, 1),
        grade=found.grade,
    )
