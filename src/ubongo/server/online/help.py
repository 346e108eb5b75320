"""Hints outside a room (``POST /api/hint``): for free-form puzzles nobody is playing, never
for a task in play (docs/fair-play.md, "Hints").

A hint is the solver's work, and the solver is the answer to a puzzle race: so the route asks
for an account, limits each account and each address (``hints_per_minute``,
``hints_per_minute_per_address``: ``429`` with ``Retry-After``), bounds the puzzle (at most
:data:`MOST_PIECES` pieces and :data:`MOST_CELLS` cells: the solver's work grows with both,
and no edition's task comes near them; an area at most :data:`MOST_SPAN` steps across), and
refuses (``403 no_help``) a puzzle with the shapes of a task dealt in a room now
(:mod:`.tasks_in_play`) or of today's or yesterday's daily, under whatever names its pieces
are given. The puzzle editor's verdict (:mod:`.editor`) is held to the same bounds and
refusal.
"""

from __future__ import annotations

import asyncio

from ubongo import puzzlefile
from ubongo.puzzles.hints import Hint, HintError, Solved, Stuck, hint
from ubongo.puzzles.ratings import shape_fingerprint

from ..config import ServerConfig
from ..ops.clock import Clock
from ..ops.ratelimit import AddressLimit
from ..protocol.incoming import ProtocolError
from .daily import today
from .tasks_in_play import TasksInPlay, dailies_in_play

#: the most pieces and cells a hint's puzzle may have (Ubongo's tasks: at most 7 pieces, 36
#: cells); 8 Classic pieces cost the solver under 20 ms at worst, 12 a whole second
MOST_PIECES = 8
MOST_CELLS = 64
#: the widest an area may be, in lattice steps along any coordinate: the solver lays the area
#: out on a bit grid as wide as it, so two cells a billion steps apart would cost gigabytes
MOST_SPAN = 64


class SolverLimits:
    """How often an account, and all the accounts of an address, may have the solver work for
    them a minute (a burst of as many): ``429 rate_limited`` past either."""

    def __init__(self, what: str, per_account: int, per_address: int) -> None:
        self.per_account = AddressLimit(f"{what} (account)", per_account / 60, per_account)
        self.per_address = AddressLimit(f"{what} (address)", per_address / 60, per_address)

    def spend(self, account: int, address: str, now: float) -> None:
        # both looked at before either is spent: a refusal costs the other limit nothing
        self.per_account.check(f"account:{account}", now)
        self.per_address.check(address, now)
        self.per_account.spend(f"account:{account}", now)
        self.per_address.spend(address, now)


class HintDesk:
    """Answers ``POST /api/hint`` within its limits."""

    def __init__(self, tasks: TasksInPlay, clock: Clock, config: ServerConfig) -> None:
        self.tasks = tasks
        self.clock = clock
        rates = config.hints_per_minute, config.hints_per_minute_per_address
        self.limits = SolverLimits("hints asked", *rates)

    async def answer(
        self,
        account: int,
        address: str,
        puzzle: puzzlefile.Puzzle,
        placed: dict[str, frozenset[tuple[int, ...]]],
    ) -> Hint | Stuck | Solved:
        """The hint for ``puzzle`` after ``placed``, or a refusal (``ProtocolError``)."""
        self.limits.spend(account, address, self.clock.now())
        check_bounds(puzzle, "a hint is for puzzles")
        await refuse_in_play(self.tasks, puzzle, "no hints")
        try:
            return await asyncio.to_thread(hint, puzzle.area, puzzle.pieces, placed)
        except HintError as e:
            raise ProtocolError("bad_placement", str(e)[:200]) from None


def check_bounds(puzzle: puzzlefile.Puzzle, what: str) -> None:
    """Refuse (``422 bad_puzzle``) a puzzle beyond the solver's bounds: more than
    :data:`MOST_PIECES` pieces or :data:`MOST_CELLS` cells, or an area wider than
    :data:`MOST_SPAN` steps (``what`` begins the refusal: "a hint is for puzzles")."""
    cells = puzzle.area.cells
    wide = any(max(c[i] for c in cells) - min(c[i] for c in cells) > MOST_SPAN for i in range(2))
    if puzzle.area.size > MOST_CELLS or len(puzzle.pieces) > MOST_PIECES or wide:
        raise ProtocolError(
            "bad_puzzle",
            f"{what} of at most {MOST_PIECES} pieces and {MOST_CELLS} cells, "
            f"{MOST_SPAN} steps across",
        )


async def refuse_in_play(tasks: TasksInPlay, puzzle: puzzlefile.Puzzle, what: str) -> None:
    """Refuse (``403 no_help``) a puzzle with the shapes of a task dealt in a room now or of
    today's or yesterday's daily, whatever its pieces are called: the solver's work (``what``:
    "no hints", "no verdict") is not for a task being played."""
    fingerprint = shape_fingerprint(puzzle.area, puzzle.pieces)
    # the day's tasks are made once per day (3D takes a moment): off the event loop
    dailies = await asyncio.to_thread(dailies_in_play, today())
    if fingerprint in dailies or await tasks.has(fingerprint):
        raise ProtocolError(
            "no_help", f"{what} for a task being played: it is a player's own to solve"
        )
