"""Held results: how plausible a rated or ranked result is as a person's, from what the server
knows of it (``docs/fair-play.md``, "Held results").

A consistent play trace (:mod:`.traces`) proves little on its own: a script can make one up.
What is hard to fake at once is a person's pace *and* a person's way of playing, so each
finish is judged on both:

* **speed**: its time (by the server's clock) against the task's difficulty, the seconds a
  median player needs (the deck's model, :func:`ubongo.puzzles.difficulty.expected_seconds`,
  which endless play keeps checking against people's times). People's times spread
  log-normally around it (the bots' timing model, :data:`ubongo.rules.bots.PERSON`: sigma
  0.4); under half of it is fast, under :data:`FASTEST` of it is out of reach of the best.
  ``speed`` runs from 0 (half the median or slower) to 1 (at :data:`FASTEST` or faster);
* **mechanics**: how machine-like the trace is, from 0 to 1, the mean of three signs: each
  piece moved once (no turn, no wrong try), placements at an even pace (a metronome), and
  the first piece placed at once (nobody looking at the task first).

A finish scores ``speed x (1 + mechanics)``: a very fast finish is suspicious whatever its
trace, a fast one only with a machine's trace, a median one never. A result (a seat of a race,
a solo or daily run) scores the mean of its finishes, and is **held** at :data:`HOLD_LINE`.

>>> from .traces import Step, TraceNote
>>> def note(seconds, steps):
...     return TraceNote("0", 1, 3, "A", 4, 20.0, seconds, None, tuple(steps))
>>> robot = [Step(0.5 + i, "place", p, 0, (i, 0)) for i, p in enumerate("ABCD")]
>>> judge([note(4.0, robot)]).held
True
>>> person = [Step(4.0, "pick", "A"), Step(5.1, "turn", "A", 3), Step(6.0, "place", "A", 3, (0, 0)),
...           Step(9.5, "place", "B", 0, (1, 0)), Step(11.0, "lift", "B"),
...           Step(14.2, "place", "B", 2, (2, 0)), Step(15.0, "place", "C", 0, (0, 1)),
...           Step(19.9, "place", "D", 1, (3, 1))]
>>> judge([note(20.5, person)]).held
False
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .traces import TraceNote, pace

#: a finish in this share of the median player's time or less is out of reach of people: the
#: fastest bot level's median (0.6) three of its spreads (sigma 0.25) faster is 0.28, a person
#: of median speed four spreads (0.4) faster 0.2
FASTEST = 0.15
#: half the median player's time: at or above it a finish is never suspicious for its speed
FAST = 0.5
#: the score at which a result is held for review
HOLD_LINE = 1.0


@dataclass(frozen=True)
class Judgement:
    """A result's plausibility: its ``score`` (held at :data:`HOLD_LINE`) and the signs seen."""

    score: float
    reasons: tuple[str, ...]

    @property
    def held(self) -> bool:
        return self.held_at(HOLD_LINE)

    def held_at(self, line: float) -> bool:
        """Held with the line at ``line`` (``ServerConfig.hold_score``; 0: never)."""
        return line > 0 and self.score >= line


def _ramp(value: float, bad: float, good: float) -> float:
    """1 at ``bad`` or beyond, 0 at ``good`` or beyond, linear between."""
    share = (value - good) / (bad - good)
    return min(1.0, max(0.0, share))


def speed(note: TraceNote) -> float:
    """0 (half the median time or slower) to 1 (at :data:`FASTEST` or faster), on a log scale."""
    share = note.seconds / max(note.difficulty, 1e-6)
    return _ramp(math.log(max(share, 1e-6)), math.log(FASTEST), math.log(FAST))


def mechanics(note: TraceNote) -> tuple[float, list[str]]:
    """How machine-like the trace is (0 to 1), and the signs seen."""
    p = pace(note.steps, note.pieces)
    signs = {
        "each piece moved once": _ramp(p.moves_per_piece, 1.0, 1.5),
        "an even pace": _ramp(p.regularity, 0.1, 0.4) if note.pieces >= 3 else 0.5,
        "the first piece at once": _ramp(p.first, 1.0, 2.5),
    }
    return statistics.fmean(signs.values()), [why for why, v in signs.items() if v >= 0.5]


def judge(notes: Sequence[TraceNote]) -> Judgement:
    """The plausibility of a result made of these finishes (consistent traces)."""
    if not notes:
        return Judgement(0.0, ())
    scores: list[float] = []
    reasons: set[str] = set()
    for note in notes:
        fast = speed(note)
        machine, signs = mechanics(note)
        scores.append(fast * (1 + machine))
        if fast > 0:
            reasons.update(signs)
    score = statistics.fmean(scores)
    if score <= 0:
        return Judgement(0.0, ())
    share = statistics.median(n.seconds / max(n.difficulty, 1e-6) for n in notes)
    reasons.add(f"{share:.0%} of a median player's time")
    return Judgement(round(score, 3), tuple(sorted(reasons)))
