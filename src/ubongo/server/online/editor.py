"""The puzzle editor's verdict (``POST /api/puzzles/verdict``, docs/editor.md): the solver's
and the difficulty model's figures on a drawn puzzle nobody is playing.

Held to the rules of hints (:mod:`.help`, docs/fair-play.md): an account; limits per account
and per address (``verdicts_per_minute``, ``verdicts_per_minute_per_address``: ``429`` with
``Retry-After``; higher than the hints', since the editor asks again as a player draws); at
most :data:`.help.MOST_PIECES` pieces and :data:`.help.MOST_CELLS` cells in an area at
most :data:`.help.MOST_SPAN` steps across, solutions counted
up to :data:`ubongo.puzzles.verdict.COUNTED`; and never for a task dealt in a room now or a
daily being played, under whatever names its pieces are given (``403 no_help``).

"Make it unique" (``POST /api/puzzles/unique``) spends the same budget and is held to the
same bounds and refusal, for the pieces asked with and for the set it would propose.
"""

from __future__ import annotations

import asyncio

from ubongo import puzzlefile
from ubongo.pieces import edition
from ubongo.puzzles.unique import Proposal, make_unique
from ubongo.puzzles.verdict import Verdict, verdict

from ..config import ServerConfig
from ..ops.clock import Clock
from ..protocol.incoming import ProtocolError
from .help import SolverLimits, check_bounds, refuse_in_play
from .tasks_in_play import TasksInPlay


class EditorDesk:
    """Answers ``POST /api/puzzles/verdict`` within its limits."""

    def __init__(self, tasks: TasksInPlay, clock: Clock, config: ServerConfig) -> None:
        self.tasks = tasks
        self.clock = clock
        rates = config.verdicts_per_minute, config.verdicts_per_minute_per_address
        self.limits = SolverLimits("verdicts asked", *rates)

    async def answer(self, account: int, address: str, puzzle: puzzlefile.Puzzle) -> Verdict:
        """The verdict on ``puzzle``, or a refusal (``ProtocolError``)."""
        self.limits.spend(account, address, self.clock.now())
        check_bounds(puzzle, "the editor proves puzzles")
        await refuse_in_play(self.tasks, puzzle, "no verdict")
        return await asyncio.to_thread(verdict, puzzle.area, list(puzzle.pieces), puzzle.edition)

    async def unique(self, account: int, address: str, puzzle: puzzlefile.Puzzle) -> Proposal:
        """A set of the edition's pieces with exactly one solution on ``puzzle``'s area, the
        nearest to its pieces (which may be none), or a refusal (``ProtocolError``)."""
        self.limits.spend(account, address, self.clock.now())
        check_bounds(puzzle, "the editor proves puzzles")
        if puzzle.edition is None:
            raise ProtocolError("bad_puzzle", "a set is proposed from an edition's pieces")
        if puzzle.pieces:
            await refuse_in_play(self.tasks, puzzle, "no proposal")
        keep = [p.id for p in puzzle.pieces]
        ed = edition(puzzle.edition)
        found = await asyncio.to_thread(make_unique, puzzle.area, ed, keep)
        if found.pieces is not None:
            # the set it would hand out is a task being played: that area's pieces are a
            # player's own to find, as its solution is
            proposed = puzzlefile.Puzzle(puzzle.area, tuple(ed.piece(i) for i in found.pieces))
            await refuse_in_play(self.tasks, proposed, "no proposal")
        return found
