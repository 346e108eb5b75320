"""Play traces: what a player did with the pieces before an "Ubongo!", and whether it can be
how the submitted arrangement came about (``docs/fair-play.md``, "Play traces").

A trace is the client's account of the task, oldest step first: pieces picked up, turned,
placed and taken off, each ``t`` seconds after the deal by the client's clock. The server
cannot see a hand, so what it checks is that the account holds together with what it does see:

* the steps' times never go back, and the last is no later than the server's own time since
  the deal (plus :data:`CLOCK_SLACK` for the message's way there);
* each piece's last step leaves it where the submission has it, and no other piece on the area
  (a client keeps only the latest steps, so the check reads each piece's last one);
* no two pieces are placed closer together than a hand can move (``per_move`` seconds); pieces
  placed at the very same instant came down by one action (undoing a clear) and count as one.

>>> steps = [Step(1.2, "pick", "B"), Step(1.9, "place", "B", 0, (0, 0)),
...          Step(3.0, "place", "C", 5, (1, 2))]
>>> placed = [Placement("B", 0, (0, 0)), Placement("C", 5, (1, 2))]
>>> check(steps, placed, elapsed=3.4, per_move=0.15) is None
True
>>> check(steps, placed[:1], elapsed=3.4, per_move=0.15)
'wrong_end'
>>> check([Step(1.0, "place", "B", 0, (0, 0)), Step(1.05, "place", "C", 5, (1, 2))],
...       placed, elapsed=3.4, per_move=0.15)
'too_fast_moves'
>>> check(None, placed, elapsed=3.4, per_move=0.15)
'no_trace'
>>> check([Step(1.0, "place", "B", 0, (0, 0)), Step(1.0, "place", "C", 5, (1, 2))],
...       placed, elapsed=3.4, per_move=0.15) is None  # one action put both down
True

Whether a consistent trace is a person's is a question of degree, answered by
:mod:`.plausibility` from :func:`pace`.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Literal

from ubongo.board import Placement

#: seconds a trace's last step may be later than the server's own time since the deal: the
#: deal reaches the client later than the server sent it, so the client's clock starts late
#: and this only covers clocks that run a little fast
CLOCK_SLACK = 1.0

Op = Literal["pick", "turn", "place", "lift"]

#: why a trace is not a consistent account of a finish
TraceFault = Literal[
    "no_trace", "time_goes_back", "after_the_finish", "wrong_end", "too_fast_moves"
]


@dataclass(frozen=True)
class Step:
    """One step of a trace: ``op`` on ``piece`` at ``t`` seconds after the deal."""

    t: float
    op: Op
    piece: str
    transform: int | None = None
    offset: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": self.t, "op": self.op, "piece": self.piece}
        if self.transform is not None:
            data["transform"] = self.transform
        if self.offset is not None:
            data["offset"] = list(self.offset)
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> Step:
        offset = data.get("offset")
        return Step(
            float(data["t"]),
            data["op"],
            str(data["piece"]),
            data.get("transform"),
            None if offset is None else tuple(int(v) for v in offset),
        )


def check(
    steps: Sequence[Step] | None,
    placements: Iterable[Placement],
    elapsed: float,
    per_move: float,
) -> TraceFault | None:
    """``None`` if ``steps`` are a consistent account of a finish with ``placements``
    ``elapsed`` seconds after the deal (by the server's clock), else what is wrong."""
    if not steps:
        return "no_trace"
    if any(b.t < a.t for a, b in pairwise(steps)):
        return "time_goes_back"
    if steps[-1].t > elapsed + CLOCK_SLACK:
        return "after_the_finish"
    if _arrangement(steps) != {p.piece: (p.transform, tuple(p.offset)) for p in placements}:
        return "wrong_end"
    placed = [s.t for s in steps if s.op == "place"]
    # pieces placed at the same instant were placed by one action (undoing a clear, 3D
    # pieces falling when the one below is taken): one move, not several
    if any(0 < b - a < per_move for a, b in pairwise(placed)):
        return "too_fast_moves"
    return None


def _arrangement(steps: Sequence[Step]) -> dict[str, tuple[int, tuple[int, ...]]] | None:
    """Where the steps leave the pieces on the area (``None`` for a ``place`` step without
    its transform and offset)."""
    last: dict[str, Step] = {}
    for s in steps:
        if s.op in ("place", "lift"):
            last[s.piece] = s
    end: dict[str, tuple[int, tuple[int, ...]]] = {}
    for piece, s in last.items():
        if s.op == "lift":
            continue
        if s.transform is None or s.offset is None:
            return None
        end[piece] = (s.transform, s.offset)
    return end


@dataclass(frozen=True)
class Pace:
    """How a trace was played, as :mod:`.plausibility` reads it.

    ``moves_per_piece``: the steps that turn, place or lift a piece, per piece of the task (a
    solver placing each piece once: 1.0); ``lifts``: pieces taken off again (wrong tries);
    ``first``: seconds before the first piece was placed (looking at the task);
    ``longest_pause``: the longest time between two steps; ``regularity``: the coefficient of
    variation of the times between placements (a metronome: 0; people: well above 0.3).
    """

    moves_per_piece: float
    lifts: int
    first: float
    longest_pause: float
    regularity: float


def pace(steps: Sequence[Step], pieces: int) -> Pace:
    """The :class:`Pace` of a trace of a task with ``pieces`` pieces.

    >>> p = pace([Step(2.0, "place", "B", 0, (0, 0)), Step(3.0, "place", "C", 0, (1, 0)),
    ...           Step(4.0, "place", "D", 0, (2, 0))], pieces=3)
    >>> (p.moves_per_piece, p.lifts, p.first, p.longest_pause, p.regularity)
    (1.0, 0, 2.0, 1.0, 0.0)
    """
    moves = [s for s in steps if s.op != "pick"]
    placed = [s.t for s in steps if s.op == "place"]
    gaps = [b - a for a, b in pairwise(placed)]
    times = [s.t for s in steps]
    mean = statistics.fmean(gaps) if gaps else 0.0
    return Pace(
        moves_per_piece=len(moves) / max(pieces, 1),
        lifts=sum(1 for s in steps if s.op == "lift"),
        first=placed[0] if placed else 0.0,
        longest_pause=max((b - a for a, b in pairwise(times)), default=0.0),
        regularity=statistics.pstdev(gaps) / mean if len(gaps) > 1 and mean > 0 else 0.0,
    )


@dataclass(frozen=True)
class TraceNote:
    """A finish's trace as kept with its game: whose (``player``), which task (``round``,
    ``card``, ``key``; its number of ``pieces`` and its ``difficulty``, the seconds a median
    player needs), how long it took by the server's clock (``seconds`` from the deal), the
    check's ``fault`` (``None``: consistent) and the ``steps``."""

    player: str
    round: int
    card: int
    key: str
    pieces: int
    difficulty: float
    seconds: float
    fault: TraceFault | None
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "round": self.round,
            "card": self.card,
            "key": self.key,
            "pieces": self.pieces,
            "difficulty": self.difficulty,
            "seconds": self.seconds,
            "fault": self.fault,
            "steps": [s.to_json() for s in self.steps],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> TraceNote:
        return TraceNote(
            player=str(data["player"]),
            round=int(data["round"]),
            card=int(data["card"]),
            key=str(data["key"]),
            pieces=int(data["pieces"]),
            difficulty=float(data["difficulty"]),
            seconds=float(data["seconds"]),
            fault=data["fault"],
            steps=tuple(Step.from_json(s) for s in data["steps"]),
        )
